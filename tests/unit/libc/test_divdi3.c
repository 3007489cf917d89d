/*
 * Host test of libc/divdi3.c, the 64-bit division MIPS32 needs: its
 * functions, built under tally_* names, against the host's native 64-bit
 * division on edge values and on random operands of mixed bit lengths.
 */
#define TALLY_DIVDI3_TEST 1
#include "libc/divdi3.c"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

static uint64_t rng_state = 0x2026112207552026ull;

static uint64_t rnd(void)
{
	/* xorshift64: reproducible operands without libc rand(). */
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* A random value of a random bit length, so every path of the long
 * division (small/large quotient and divisor) is taken. */
static uint64_t rnd_bits(void)
{
	unsigned bits = (unsigned)(rnd() % 64) + 1;
	uint64_t v = rnd();
	return bits == 64 ? v : v & ((1ull << bits) - 1);
}

static const uint64_t edges[] = {
	1, 2, 3, 7, 10, 0xffffffffull, 0x100000000ull, 0x100000001ull,
	0x7fffffffffffffffull, 0x8000000000000000ull, 0xfffffffffffffffeull,
	0xffffffffffffffffull, 1000000007ull, 0x123456789abcdefull,
};

static void check_unsigned(uint64_t n, uint64_t d)
{
	uint64_t rem = 0;
	assert_true(tally___udivdi3(n, d) == n / d);
	assert_true(tally___umoddi3(n, d) == n % d);
	assert_true(tally___udivmoddi4(n, d, &rem) == n / d);
	assert_true(rem == n % d);
}

static void check_signed(int64_t n, int64_t d)
{
	int64_t rem = 0;
	if (n == INT64_MIN && d == -1)
		return;         /* overflows in C itself */
	assert_true(tally___divdi3(n, d) == n / d);
	assert_true(tally___moddi3(n, d) == n % d);
	assert_true(tally___divmoddi4(n, d, &rem) == n / d);
	assert_true(rem == n % d);
}

static void test_edges(void **state)
{
	(void)state;
	size_t ne = sizeof(edges) / sizeof(edges[0]);
	for (size_t i = 0; i < ne; i++) {
		check_unsigned(0, edges[i]);
		for (size_t j = 0; j < ne; j++) {
			check_unsigned(edges[i], edges[j]);
			check_signed((int64_t)edges[i], (int64_t)edges[j]);
			check_signed(-(int64_t)(edges[i] >> 1), (int64_t)edges[j]);
		}
	}
	check_signed(INT64_MIN, -2);
	check_signed(INT64_MIN, 3);
	check_signed(-7, 2);    /* rounds toward zero: -3 rem -1 */
	check_signed(7, -2);
}

static void test_random(void **state)
{
	(void)state;
	for (int i = 0; i < 200000; i++) {
		uint64_t n = rnd_bits(), d = rnd_bits();
		if (d == 0)
			d = 1;
		check_unsigned(n, d);
		check_signed((int64_t)n, (int64_t)d);
		check_signed(-(int64_t)(n >> 1), (int64_t)d);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_random),
	};
	return cmocka_run_group_tests_name("divdi3", tests, NULL, NULL);
}
