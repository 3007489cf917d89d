UNIT_SRCS_test_mips_branch := arch/mips/branch.c
