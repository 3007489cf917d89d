UNIT_SRCS_test_efi_cmdline := boot/efi/cmdline.c
