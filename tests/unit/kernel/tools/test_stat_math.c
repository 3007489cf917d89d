/* Host tests of kernel/tools/stat_math.c: exact 64 x 64 / 64, scaling, percent. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "tools/stat_math.h"

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

static void test_mean_is_exact_without_overflow(void **state)
{
	(void)state;
	uint64_t a[] = { 1, 2 }, b[] = { UINT64_MAX, UINT64_MAX - 2, UINT64_MAX - 4 };
	uint64_t c[] = { 10, 10, 11 };

	assert_int_equal(stat_mean(a, 2), 2);           /* 1.5 rounds up */
	assert_int_equal(stat_mean(b, 3), UINT64_MAX - 2);
	assert_int_equal(stat_mean(c, 3), 10);          /* 10.33 */
	assert_int_equal(stat_mean(c, 1), 10);
}

static void test_isqrt(void **state)
{
	(void)state;
	uint64_t xs[] = { 0, 1, 2, 3, 4, 15, 16, 17, 1000000, 999999999999ull,
			  UINT64_MAX, (1ull << 62), ((1ull << 32) - 1) * ((1ull << 32) - 1) };

	for (unsigned i = 0; i < sizeof(xs) / sizeof(xs[0]); i++) {
		uint64_t r = stat_isqrt(xs[i]);
		unsigned __int128 r2 = (unsigned __int128)r * r, r12 = (unsigned __int128)(r + 1) * (r + 1);
		assert_true(r2 <= xs[i]);
		assert_true(r12 > xs[i]);
	}
}

/* sqrt by Newton's method, so the test needs no libm. */
static double ref_sqrt(double x)
{
	double r = x > 1 ? x : 1;

	for (int i = 0; i < 200; i++)
		r = (r + x / r) / 2;
	return r;
}

/* The reference in floating point: what perf computes. */
static unsigned ref_noise(const uint64_t *v, unsigned n)
{
	double mean = 0, sq = 0;

	for (unsigned i = 0; i < n; i++)
		mean += (double)v[i] / n;
	for (unsigned i = 0; i < n; i++)
		sq += ((double)v[i] - mean) * ((double)v[i] - mean);
	double sd_mean = ref_sqrt(sq / (n - 1) / n);
	return (unsigned)(sd_mean / mean * 10000.0 + 0.5);
}

static void test_noise_matches_floating_point(void **state)
{
	(void)state;
	uint64_t same[] = { 1001, 1001, 1001, 1001, 1001 };
	uint64_t spread[] = { 1000, 1100, 900, 1050, 950 };
	uint64_t big[] = { 123456789012ull, 120000000000ull, 127000000000ull };
	uint64_t wild[] = { 1, 1000000000 };

	assert_int_equal(stat_noise_pct100(same, 5), 0);
	assert_int_equal(stat_noise_pct100(same, 1), 0);
	assert_in_range(stat_noise_pct100(spread, 5), ref_noise(spread, 5) - 1, ref_noise(spread, 5) + 1);
	assert_in_range(stat_noise_pct100(big, 3), ref_noise(big, 3) - 1, ref_noise(big, 3) + 1);
	/* Half the mean off each way: about 100%. */
	assert_in_range(stat_noise_pct100(wild, 2), 9900, 10100);
}

static void test_commas(void **state)
{
	(void)state;
	char b[STAT_COMMAS_LEN];

	assert_string_equal(stat_commas(0, b, sizeof(b)), "0");
	assert_string_equal(stat_commas(999, b, sizeof(b)), "999");
	assert_string_equal(stat_commas(1000, b, sizeof(b)), "1,000");
	assert_string_equal(stat_commas(12345678, b, sizeof(b)), "12,345,678");
	assert_string_equal(stat_commas(UINT64_MAX, b, sizeof(b)), "18,446,744,073,709,551,615");
	assert_string_equal(stat_commas(12345, b, 4), "12,");   /* cut, still terminated */
}

static void test_ratio_milli(void **state)
{
	(void)state;
	assert_int_equal(stat_ratio_milli(3, 2), 1500);
	assert_int_equal(stat_ratio_milli(1, 3), 333);
	assert_int_equal(stat_ratio_milli(1, 0), UINT64_MAX);
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
		cmocka_unit_test(test_mean_is_exact_without_overflow),
		cmocka_unit_test(test_isqrt),
		cmocka_unit_test(test_noise_matches_floating_point),
		cmocka_unit_test(test_commas),
		cmocka_unit_test(test_ratio_milli),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
