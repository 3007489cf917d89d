UNIT_SRCS_test_x86_sigcontext := arch/x86_64/sigcontext.c arch/x86_64/user_fault.c
