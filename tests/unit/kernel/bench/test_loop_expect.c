/* Host tests of kernel/bench/loop_expect.c: the loop benchmarks'
 * expectations from each machine's loop shape, decided by check.c. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "bench/loop_expect.h"

/* The shapes of arch/x86_64/bench_loop.asm and arch/mips/bench_loop.S. */
static const struct arch_loop_shape x86 = { .insns = 5, .loads = 1, .stores = 1,
					    .branches = 1, .insns_per_tick = 1 };
static const struct arch_loop_shape mips = { .insns = 6, .loads = 1, .stores = 1,
					     .branches = 1, .insns_per_tick = 6 };

static struct bench_env env_all = { .cpi1 = true, .hwpmu_counts = true };

/* Decide one check whose run at n measured `at_n` and run at 0 `at_0`. */
static enum bench_verdict decide(const struct bench_check *c, uint64_t n,
				 uint64_t at_n, uint64_t at_0, struct bench_outcome *o)
{
	struct bench b = { .name = "loop", .nchecks = 1, .subtract_zero_run = true };
	struct bench_sample sn, s0;

	b.checks[0] = *c;
	memset(&sn, 0, sizeof(sn));
	memset(&s0, 0, sizeof(s0));
	sn.value[0] = at_n;
	s0.value[0] = at_0;
	bench_evaluate(&b, n, &sn, &s0, &env_all, o);
	return o->verdict;
}

static void test_ticks_per_iter(void **state)
{
	(void)state;
	struct arch_loop_shape odd = mips;

	assert_int_equal(loop_ticks_per_iter(&x86), 5);
	assert_int_equal(loop_ticks_per_iter(&mips), 1);
	odd.insns = 5;                   /* 5/6 of a tick: no exact figure */
	assert_int_equal(loop_ticks_per_iter(&odd), 0);
	odd.insns_per_tick = 0;
	assert_int_equal(loop_ticks_per_iter(&odd), 0);
}

static void test_phase_locked_is_exact_on_both(void **state)
{
	(void)state;
	struct bench_check c = { .name = "cycles" };
	struct bench_outcome o;

	loop_expect_cycles(&c, &x86, true);
	assert_int_equal(decide(&c, 1000, 5000 + 9, 9, &o), BENCH_PASS);
	assert_int_equal(o.expected, 5000);
	assert_int_equal(decide(&c, 1000, 5001 + 9, 9, &o), BENCH_FAIL);
	loop_expect_cycles(&c, &mips, true);
	assert_int_equal(decide(&c, 1000, 1000 + 1, 1, &o), BENCH_PASS);
	assert_int_equal(o.expected, 1000);
	assert_int_equal(decide(&c, 1000, 999 + 1, 1, &o), BENCH_FAIL);
}

static void test_unlocked_truncation_one_tick_on_mips_only(void **state)
{
	(void)state;
	struct bench_check c = { .name = "cycles:u" };
	struct bench_outcome o;

	loop_expect_cycles(&c, &x86, false);      /* one tick per insn: exact */
	assert_int_equal(c.kind, BENCH_EXACT);
	assert_int_equal(decide(&c, 50000, 250000 + 700, 700, &o), BENCH_PASS);
	assert_int_equal(decide(&c, 50000, 250001 + 700, 700, &o), BENCH_FAIL);

	loop_expect_cycles(&c, &mips, false);
	assert_int_equal(c.kind, BENCH_RANGE);
	assert_int_equal(decide(&c, 50000, 49999 + 120, 120, &o), BENCH_PASS);
	assert_int_equal(o.min, 49999);
	assert_int_equal(o.max, 50001);
	assert_int_equal(decide(&c, 50000, 50001 + 120, 120, &o), BENCH_PASS);
	assert_int_equal(decide(&c, 50000, 50002 + 120, 120, &o), BENCH_FAIL);
	assert_int_equal(decide(&c, 50000, 49998 + 120, 120, &o), BENCH_FAIL);
}

static void test_event_ranges(void **state)
{
	(void)state;
	struct bench_check c = { .name = "instructions", .needs = BENCH_NEEDS_HWPMU };
	struct bench_outcome o;

	loop_expect_events(&c, x86.insns, 20);    /* [1.00, 1.02] x 5 x n */
	assert_int_equal(decide(&c, 1000, 5000 + 300, 300, &o), BENCH_PASS);
	assert_int_equal(o.min, 5000);
	assert_int_equal(o.max, 5100);
	assert_int_equal(decide(&c, 1000, 4999 + 300, 300, &o), BENCH_FAIL);
	assert_int_equal(decide(&c, 1000, 5101 + 300, 300, &o), BENCH_FAIL);
}

static void test_max_n(void **state)
{
	(void)state;
	assert_int_equal(loop_max_n(5000000, 5), 1000000);
	assert_int_equal(loop_max_n(833333, 1), 833333);
	assert_int_equal(loop_max_n(1000, 0), 0);
	assert_int_equal(loop_max_n(1000, -1), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ticks_per_iter),
		cmocka_unit_test(test_phase_locked_is_exact_on_both),
		cmocka_unit_test(test_unlocked_truncation_one_tick_on_mips_only),
		cmocka_unit_test(test_event_ranges),
		cmocka_unit_test(test_max_n),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
