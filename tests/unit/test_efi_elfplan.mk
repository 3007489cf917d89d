UNIT_SRCS_test_efi_elfplan := boot/efi/elfplan.c
