/*
 * Host tests of arch/mips/flash/spd.c: the Malta boot-flash stub's RAM
 * size from SPD bytes, and every way it refuses to guess.  Tables are
 * built here from the JEDEC layout (byte 2 type, 5 rows, 31 row density,
 * 63 checksum).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "arch/mips/flash/spd.h"

#define MIB (UINT64_C(1) << 20)
#define GIB (UINT64_C(1) << 30)

static uint8_t spd[SPD_BYTES];

static void seal(void)
{
	uint8_t sum = 0;

	for (unsigned i = 0; i < SPD_CHECKSUM; i++)
		sum = (uint8_t)(sum + spd[i]);
	spd[SPD_CHECKSUM] = sum;
}

/* A plausible module: bytes 0..1 and the geometry bytes as a PC100 DIMM. */
static void module(uint8_t type, uint8_t rows, uint8_t density)
{
	memset(spd, 0, sizeof(spd));
	spd[0] = 0x80;          /* bytes written by the manufacturer */
	spd[1] = 0x08;          /* log2 of the EEPROM size */
	spd[SPD_MEMORY_TYPE] = type;
	spd[3] = 0x0d;
	spd[4] = 0x0a;
	spd[SPD_MODULE_ROWS] = rows;
	spd[6] = 0x40;
	spd[SPD_ROW_DENSITY] = density;
	seal();
}

static struct spd_size decode(void)
{
	struct spd_size s;

	memset(&s, 0xa5, sizeof(s));
	spd_decode(spd, &s);
	return s;
}

static void expect_size(uint64_t bytes)
{
	struct spd_size s = decode();

	assert_null(s.error);
	assert_true(s.bytes == bytes);
}

static void expect_refusal(const char *why)
{
	struct spd_size s = decode();

	assert_non_null(s.error);
	assert_string_equal(s.error, why);
	assert_true(s.bytes == 0);
}

static void test_sdram_equal_rows(void **state)
{
	(void)state;
	module(SPD_TYPE_SDRAM, 2, 0x20);        /* 2 x 128 MiB */
	expect_size(256 * MIB);
	module(SPD_TYPE_SDRAM, 1, 0x01);        /* 1 x 4 MiB, the smallest */
	expect_size(4 * MIB);
	module(SPD_TYPE_SDRAM, 4, 0x80);        /* 4 x 512 MiB */
	expect_size(2048 * MIB);
}

static void test_sdram_mixed_rows_add_up(void **state)
{
	(void)state;
	module(SPD_TYPE_SDRAM, 3, 0x10 | 0x08 | 0x01);    /* 64 + 32 + 4 */
	expect_size(100 * MIB);
	module(SPD_TYPE_SDRAM, 2, 0x40 | 0x20);           /* 256 + 128 */
	expect_size(384 * MIB);
}

static void test_ddr2_density_table(void **state)
{
	(void)state;
	module(SPD_TYPE_DDR2, 2, 0x20);         /* bit 5: 128 MiB */
	expect_size(256 * MIB);
	module(SPD_TYPE_DDR2, 2, 0x80);         /* bit 7: 512 MiB */
	expect_size(1 * GIB);
	module(SPD_TYPE_DDR2, 2, 0x01);         /* bit 0: 1 GiB */
	expect_size(2 * GIB);
	module(SPD_TYPE_DDR2, 1, 0x04);         /* bit 2: 4 GiB */
	expect_size(4 * GIB);
}

static void test_checksum_checked(void **state)
{
	(void)state;
	module(SPD_TYPE_SDRAM, 2, 0x20);
	spd[SPD_CHECKSUM] ^= 1;
	expect_refusal("SPD checksum mismatch");
	/* Any byte in the summed range counts, not just the decoded ones. */
	module(SPD_TYPE_SDRAM, 2, 0x20);
	spd[40] = 1;
	expect_refusal("SPD checksum mismatch");
}

static void test_absent_eeprom(void **state)
{
	(void)state;
	memset(spd, 0xff, sizeof(spd));
	expect_refusal("no SPD EEPROM answered (bus reads all ones)");
}

static void test_bad_type(void **state)
{
	(void)state;
	module(0x07, 2, 0x20);                  /* DDR SDRAM: not decoded */
	expect_refusal("SPD memory type is neither SDRAM nor DDR2");
	module(0x00, 2, 0x20);
	expect_refusal("SPD memory type is neither SDRAM nor DDR2");
}

static void test_bad_rows_and_density(void **state)
{
	(void)state;
	module(SPD_TYPE_SDRAM, 0, 0x20);        /* what QEMU writes for -m 2M */
	expect_refusal("SPD reports no rows");
	module(SPD_TYPE_SDRAM, 9, 0x20);
	expect_refusal("SPD reports more than 8 rows");
	module(SPD_TYPE_SDRAM, 2, 0x00);
	expect_refusal("SPD row density is zero");
	module(SPD_TYPE_SDRAM, 3, 0x30);        /* two sizes, three rows */
	expect_refusal("SPD row sizes do not match the row count");
}

static void test_fields_reported(void **state)
{
	struct spd_size s;

	(void)state;
	module(SPD_TYPE_SDRAM, 3, 0x19);
	s = decode();
	assert_int_equal(s.type, SPD_TYPE_SDRAM);
	assert_int_equal(s.rows, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sdram_equal_rows),
		cmocka_unit_test(test_sdram_mixed_rows_add_up),
		cmocka_unit_test(test_ddr2_density_table),
		cmocka_unit_test(test_checksum_checked),
		cmocka_unit_test(test_absent_eeprom),
		cmocka_unit_test(test_bad_type),
		cmocka_unit_test(test_bad_rows_and_density),
		cmocka_unit_test(test_fields_reported),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
