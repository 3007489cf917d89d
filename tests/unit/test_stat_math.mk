UNIT_SRCS_test_stat_math := kernel/stat_math.c
