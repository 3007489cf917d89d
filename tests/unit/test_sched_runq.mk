UNIT_SRCS_test_sched_runq := kernel/runq.c
