UNIT_SRCS_test_cycle_rate := kernel/cycle_rate.c
