UNIT_SRCS_test_signal := kernel/signal.c
