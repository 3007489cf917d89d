UNIT_SRCS_test_mips_user_fault := arch/mips/user_fault.c
