UNIT_SRCS_test_mips_sigframe := arch/mips/sigframe.c
