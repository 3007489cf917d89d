UNIT_SRCS_test_args := kernel/args.c
