UNIT_SRCS_test_loop_expect := kernel/bench/loop_expect.c kernel/bench/check.c
