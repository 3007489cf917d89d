UNIT_SRCS_test_mips_pagetable := arch/mips/pagetable.c
