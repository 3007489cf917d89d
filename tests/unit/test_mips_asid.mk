UNIT_SRCS_test_mips_asid := arch/mips/asid.c
