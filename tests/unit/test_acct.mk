UNIT_SRCS_test_acct := kernel/acct.c
