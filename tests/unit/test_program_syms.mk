UNIT_SRCS_test_program_syms := kernel/program_syms.c
