UNIT_SRCS_test_efi_status := boot/efi/status.c
