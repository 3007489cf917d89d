UNIT_SRCS_test_flash_spd := arch/mips/flash/spd.c
