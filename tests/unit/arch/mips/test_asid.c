/*
 * Host tests of arch/mips/asid.c: ASIDs by generation, never 0, and a
 * flush exactly when a generation is used up.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "arch/mips/asid.h"

#define ASIDS 256u

static void test_first_assignments(void **state)
{
	(void)state;
	struct asid_space s;
	struct asid a = { 0 }, b = { 0 };

	asid_space_init(&s, ASIDS);
	assert_false(asid_current(&s, &a));
	assert_false(asid_assign(&s, &a));
	assert_true(asid_current(&s, &a));
	assert_int_equal(a.value, ASID_FIRST);
	assert_false(asid_assign(&s, &b));
	assert_int_equal(b.value, ASID_FIRST + 1);
	/* Holding a current one: nothing changes. */
	assert_false(asid_assign(&s, &a));
	assert_int_equal(a.value, ASID_FIRST);
	assert_int_equal(s.rollovers, 0);
}

static void test_rollover_flushes_once(void **state)
{
	(void)state;
	struct asid_space s;
	struct asid keep = { 0 }, v;

	asid_space_init(&s, ASIDS);
	assert_false(asid_assign(&s, &keep));
	for (unsigned i = ASID_FIRST + 1; i < ASIDS; i++) {
		v = (struct asid){ 0 };
		assert_false(asid_assign(&s, &v));
		assert_int_equal(v.value, i);
		assert_int_not_equal(v.value, ASID_KERNEL);
	}
	/* All 255 given out: the next one starts a generation. */
	v = (struct asid){ 0 };
	assert_true(asid_assign(&s, &v));
	assert_int_equal(v.value, ASID_FIRST);
	assert_int_equal(s.rollovers, 1);
	/* keep's ASID is the same number, but stale: it gets a new one. */
	assert_false(asid_current(&s, &keep));
	assert_false(asid_assign(&s, &keep));
	assert_int_equal(keep.value, ASID_FIRST + 1);
	assert_true(asid_current(&s, &v));
}

static void test_many_generations(void **state)
{
	(void)state;
	struct asid_space s;
	unsigned flushes = 0;
	const unsigned rounds = 10 * (ASIDS - ASID_FIRST);

	asid_space_init(&s, ASIDS);
	for (unsigned i = 0; i < rounds; i++) {
		struct asid v = { 0 };
		if (asid_assign(&s, &v))
			flushes++;
		assert_true(v.value >= ASID_FIRST && v.value < ASIDS);
	}
	assert_int_equal(flushes, 9);
	assert_int_equal(s.rollovers, 9);
}

static void test_tiny_space(void **state)
{
	(void)state;
	struct asid_space s;
	struct asid a = { 0 }, b = { 0 };

	asid_space_init(&s, 2);                 /* one usable ASID */
	assert_false(asid_assign(&s, &a));
	assert_true(asid_assign(&s, &b));
	assert_int_equal(b.value, ASID_FIRST);
	assert_false(asid_current(&s, &a));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_assignments),
		cmocka_unit_test(test_rollover_flushes_once),
		cmocka_unit_test(test_many_generations),
		cmocka_unit_test(test_tiny_space),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
