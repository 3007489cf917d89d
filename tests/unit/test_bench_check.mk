UNIT_SRCS_test_bench_check := kernel/bench/check.c
