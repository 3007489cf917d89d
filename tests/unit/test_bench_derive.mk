UNIT_SRCS_test_bench_derive := kernel/bench/derive.c
