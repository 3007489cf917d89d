UNIT_SRCS_test_efi_handoff := arch/x86_64/efi_handoff.c arch/x86_64/memmap.c
