/*
 * Host tests of arch/mips/count_ext.c: Count extended to 64 bits per CPU,
 * and a second CPU's extension started from the first's value.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "arch/mips/count_ext.h"

#define WRAP 0x100000000ull

static void test_read_counts_wraps(void **state)
{
	(void)state;
	struct count_ext e = { 0 };

	assert_int_equal(count_ext_read(&e, 5), 5);
	assert_int_equal(count_ext_read(&e, 0xfffffff0u), 0xfffffff0u);
	/* Below the last reading: one wrap. */
	assert_int_equal(count_ext_read(&e, 3), WRAP + 3);
	assert_int_equal(count_ext_read(&e, 3), WRAP + 3);
	assert_int_equal(count_ext_read(&e, 0x80000000u), WRAP + 0x80000000u);
	assert_int_equal(count_ext_read(&e, 1), 2 * WRAP + 1);
}

static void test_seed_takes_the_nearest_value(void **state)
{
	(void)state;
	struct count_ext e;
	uint64_t ref = 3 * WRAP + 1000;

	/* Read a little after ref: the same wrap. */
	count_ext_seed(&e, ref, 1500);
	assert_int_equal(count_ext_read(&e, 1600), 3 * WRAP + 1600);

	/* A Count that lags ref a little is no wrap (a shared pair would
	 * have counted one: 2^32 cycles of time gained). */
	count_ext_seed(&e, ref, 900);
	assert_int_equal(count_ext_read(&e, 950), 3 * WRAP + 950);

	/* ref just before a wrap, the reading just after: the next wrap. */
	count_ext_seed(&e, 4 * WRAP - 10, 20);
	assert_int_equal(count_ext_read(&e, 30), 4 * WRAP + 30);

	/* ref just after a wrap, a lagging reading just before it. */
	count_ext_seed(&e, 4 * WRAP + 5, 0xfffffff0u);
	assert_int_equal(count_ext_read(&e, 0xfffffff8u), 4 * WRAP - 8);
	assert_int_equal(count_ext_read(&e, 2), 4 * WRAP + 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_counts_wraps),
		cmocka_unit_test(test_seed_takes_the_nearest_value),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
