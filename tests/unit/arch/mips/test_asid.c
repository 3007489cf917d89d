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

/* A forgotten ASID: no longer current, and its next one is a value
 * nobody held in this generation (the old one stays unused), no flush. */
static void test_forget_takes_fresh_value(void **state)
{
	(void)state;
	struct asid_space s;
	struct asid a = { 0 }, b = { 0 };
	uint32_t old;

	asid_space_init(&s, ASIDS);
	assert_false(asid_assign(&s, &a));
	assert_false(asid_assign(&s, &b));
	old = a.value;
	asid_forget(&a);
	assert_false(asid_current(&s, &a));
	assert_true(asid_current(&s, &b));
	assert_false(asid_assign(&s, &a));
	assert_true(asid_current(&s, &a));
	assert_int_not_equal(a.value, old);
	assert_int_not_equal(a.value, b.value);
	assert_int_equal(a.value, ASID_FIRST + 2);
	/* Holding it again: assign changes nothing. */
	assert_false(asid_assign(&s, &a));
	assert_int_equal(a.value, ASID_FIRST + 2);
	assert_int_equal(s.rollovers, 0);
}

/* Forgetting costs one value: the generation ends one assign sooner. */
static void test_forget_uses_up_values(void **state)
{
	(void)state;
	struct asid_space s;
	struct asid a = { 0 }, v;
	unsigned assigned = 1;

	asid_space_init(&s, ASIDS);
	assert_false(asid_assign(&s, &a));
	asid_forget(&a);
	assert_false(asid_assign(&s, &a));
	assigned++;
	for (;;) {
		v = (struct asid){ 0 };
		if (asid_assign(&s, &v))
			break;
		assigned++;
	}
	assert_int_equal(assigned, ASIDS - ASID_FIRST);
	/* The new generation: a is stale as any, and gets a value anew. */
	assert_false(asid_current(&s, &a));
	assert_false(asid_assign(&s, &a));
	assert_true(asid_current(&s, &a));
}

/* Two CPUs' spaces: one address space holds an ASID in each, and
 * forgetting one leaves the other alone. */
static void test_per_cpu_spaces(void **state)
{
	(void)state;
	struct asid_space cpu0, cpu1;
	struct asid on0 = { 0 }, on1 = { 0 }, other = { 0 };

	asid_space_init(&cpu0, ASIDS);
	asid_space_init(&cpu1, ASIDS);
	assert_false(asid_assign(&cpu0, &other));
	assert_false(asid_assign(&cpu0, &on0));
	assert_false(asid_assign(&cpu1, &on1));
	assert_int_equal(on0.value, ASID_FIRST + 1);
	assert_int_equal(on1.value, ASID_FIRST);
	asid_forget(&on1);
	assert_true(asid_current(&cpu0, &on0));
	assert_false(asid_current(&cpu1, &on1));
}

/* Past 2^32 generations: the one whose low half is 0 is skipped (it
 * would read as forgotten), and forgetting there works the same. */
static void test_generation_low_half_never_zero(void **state)
{
	(void)state;
	struct asid_space s;
	struct asid a = { 0 }, b = { 0 };

	asid_space_init(&s, 2);                 /* one usable ASID */
	s.generation = 0xffffffffull;
	assert_false(asid_assign(&s, &a));
	assert_true(asid_assign(&s, &b));
	assert_int_equal(s.generation, 0x100000001ull);
	assert_true(asid_current(&s, &b));
	assert_false(asid_current(&s, &a));
	asid_forget(&b);
	assert_false(asid_current(&s, &b));
	assert_int_equal(b.generation >> 32, 1);
	assert_true(asid_assign(&s, &b));       /* the only value was used */
	assert_true(asid_current(&s, &b));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_assignments),
		cmocka_unit_test(test_rollover_flushes_once),
		cmocka_unit_test(test_many_generations),
		cmocka_unit_test(test_tiny_space),
		cmocka_unit_test(test_forget_takes_fresh_value),
		cmocka_unit_test(test_forget_uses_up_values),
		cmocka_unit_test(test_per_cpu_spaces),
		cmocka_unit_test(test_generation_low_half_never_zero),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
