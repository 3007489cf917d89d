UNIT_SRCS_test_mips_intr_route := arch/mips/intr_route.c
