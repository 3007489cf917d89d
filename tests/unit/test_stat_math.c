/* Host tests of kernel/stat_math.c: exact 64 x 64 / 64, scaling, percent. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "stat_math.h"

/* The host has a 128-bit type: the reference the kernel cannot use. */
static uint64_t ref_muldiv(uint64_t a, uint64_t b, uint64_t c)
{
	unsigned __int128 q = (unsigned __int128)a * b / c;

	return q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
}

static void test_small_values(void **state)
{
	(void)state;
	assert_int_equal(stat_muldiv(6, 7, 3), 14);
	assert_int_equal(stat_muldiv(0, 7, 3), 0);
	assert_int_equal(stat_muldiv(10, 1, 3), 3);     /* rounds down */
}

/* Where a * b overflows 64 bits but the quotient fits. */
static void test_product_over_64_bits(void **state)
{
	(void)state;
	uint64_t a = 1ull << 40, b = 3ull << 40, c = 1ull << 30;

	assert_int_equal(stat_muldiv(a, b, c), ref_muldiv(a, b, c));
	assert_int_equal(stat_muldiv(UINT64_MAX, UINT64_MAX, UINT64_MAX), UINT64_MAX);
	assert_int_equal(stat_muldiv(UINT64_MAX, 3, 4), ref_muldiv(UINT64_MAX, 3, 4));
}

static void test_too_big_saturates(void **state)
{
	(void)state;
	assert_int_equal(stat_muldiv(UINT64_MAX, 2, 1), UINT64_MAX);
	assert_int_equal(stat_muldiv(1, 1, 0), UINT64_MAX);
}

/* A fixed pseudo-random sweep against the 128-bit reference. */
static void test_sweep_matches_reference(void **state)
{
	(void)state;
	uint64_t x = 0x9e3779b97f4a7c15ull;

	for (int i = 0; i < 20000; i++) {
		x ^= x << 13; x ^= x >> 7; x ^= x << 17;
		uint64_t a = x >> (i % 64), b = (x * 31) >> ((i / 64) % 64);
		uint64_t c = ((x * 7) >> (i % 61)) | 1u;
		assert_int_equal(stat_muldiv(a, b, c), ref_muldiv(a, b, c));
	}
}

static void test_scaled(void **state)
{
	(void)state;
	assert_int_equal(stat_scaled(500, 1000, 500), 1000);  /* ran half the time */
	assert_int_equal(stat_scaled(1001, 7000, 7000), 1001); /* not multiplexed */
	assert_int_equal(stat_scaled(0, 1000, 0), 0);          /* never ran */
}

static void test_running_pct(void **state)
{
	(void)state;
	assert_int_equal(stat_running_pct100(500, 1000), 5000);
	assert_int_equal(stat_running_pct100(1, 3), 3333);
	assert_int_equal(stat_running_pct100(1000, 1000), 10000);
	assert_int_equal(stat_running_pct100(0, 0), 10000);
	assert_int_equal(stat_running_pct100(0, 1000), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_values),
		cmocka_unit_test(test_product_over_64_bits),
		cmocka_unit_test(test_too_big_saturates),
		cmocka_unit_test(test_sweep_matches_reference),
		cmocka_unit_test(test_scaled),
		cmocka_unit_test(test_running_pct),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
