UNIT_SRCS_test_uvm := kernel/uvm.c
