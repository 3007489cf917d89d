UNIT_SRCS_test_cycle_rate := kernel/cycle_rate.c arch/x86_64/tsc_rate.c
