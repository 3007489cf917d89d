/* Host tests of kernel/proc/acct.c: exact time split, TLB deltas, conversions. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "proc/acct.h"

#define GHZ3 3000000000ull
#define NS_PER_S 1000000000ull

/* A task's time is the sum of its intervals; user and system never mix. */
static void test_split_user_system(void **state)
{
	(void)state;
	struct acct_clock c;
	struct task_acct a;

	memset(&a, 0, sizeof(a));
	acct_clock_init(&c, 1000, 0, 0);
	acct_cut_time(&c, &a, 1700, true);      /* user until a trap */
	acct_cut_time(&c, &a, 1750, false);     /* kernel until the return */
	acct_cut_time(&c, &a, 2750, true);
	acct_cut_time(&c, &a, 2751, false);
	assert_int_equal(a.user_cycles, 700 + 1000);
	assert_int_equal(a.sys_cycles, 50 + 1);
	assert_int_equal(a.user_cycles + a.sys_cycles, 2751 - 1000);
}

/* Two tasks alternating: every cycle goes to exactly one of them. */
static void test_switch_charges_each_once(void **state)
{
	(void)state;
	struct acct_clock c;
	struct task_acct a, b;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	acct_clock_init(&c, 0, 0, 0);
	acct_cut_time(&c, &a, 10, true);
	acct_cut_time(&c, &a, 12, false);       /* switch out of a */
	acct_cut_time(&c, &b, 20, false);       /* b's switch-in path */
	acct_cut_time(&c, &b, 35, true);
	assert_int_equal(a.user_cycles + a.sys_cycles + b.user_cycles + b.sys_cycles, 35);
	assert_int_equal(b.user_cycles, 15);
}

static void test_nobody_before_first_task(void **state)
{
	(void)state;
	struct acct_clock c;
	struct task_acct a;

	memset(&a, 0, sizeof(a));
	acct_clock_init(&c, 5, 0, 0);
	acct_cut_time(&c, NULL, 500, false);
	acct_cut_time(&c, &a, 510, true);
	assert_int_equal(a.user_cycles, 10);
	assert_int_equal(c.stamp, 510);
}

static void test_clock_backwards_charges_nothing(void **state)
{
	(void)state;
	struct acct_clock c;
	struct task_acct a;

	memset(&a, 0, sizeof(a));
	acct_clock_init(&c, 100, 0, 0);
	acct_cut_time(&c, &a, 90, true);
	assert_int_equal(a.user_cycles, 0);
	/* ... but is counted: a count taken across the step is off by it. */
	assert_int_equal(c.backwards, 1);
	acct_cut_time(&c, &a, 95, true);
	assert_int_equal(a.user_cycles, 5);
	assert_int_equal(c.backwards, 1);
}

/* An entry from user mode is one cut: system time to the exit stamp,
 * user time to the entry stamp, the same as two cuts at those stamps. */
static void test_span_is_two_cuts_in_one(void **state)
{
	struct acct_clock c1, c2;
	struct task_acct a1 = {0}, a2 = {0};

	(void)state;
	acct_clock_init(&c1, 100, 0, 0);
	acct_clock_init(&c2, 100, 0, 0);
	acct_cut_span(&c1, &a1, 130, 170);
	acct_cut_time(&c2, &a2, 130, false);
	acct_cut_time(&c2, &a2, 170, true);
	assert_int_equal(a1.sys_cycles, 30);
	assert_int_equal(a1.user_cycles, 40);
	assert_memory_equal(&a1, &a2, sizeof(a1));
	assert_int_equal(c1.stamp, c2.stamp);
	/* Stamps out of order charge nothing, and the clock ends at back. */
	assert_int_equal(c1.backwards, 0);
	acct_cut_span(&c1, &a1, 160, 150);
	assert_int_equal(a1.sys_cycles, 30);
	assert_int_equal(a1.user_cycles, 40);
	assert_int_equal(c1.stamp, 150);
	assert_int_equal(c1.backwards, 1);
	acct_cut_span(&c1, NULL, 200, 210);     /* nobody: only the clock moves */
	assert_int_equal(c1.stamp, 210);
	/* One stamp out of order: only its part charges nothing (the test
	 * is the sign of either difference, so each is tried alone). */
	acct_cut_span(&c1, &a1, 205, 260);      /* left behind the last cut */
	assert_int_equal(a1.sys_cycles, 30);
	assert_int_equal(a1.user_cycles, 40 + 55);
	acct_cut_span(&c1, &a1, 300, 290);      /* back behind left */
	assert_int_equal(a1.sys_cycles, 30 + 40);
	assert_int_equal(a1.user_cycles, 95);
	assert_int_equal(c1.stamp, 290);
	/* In order, a span just under 2^63 cycles is still charged whole. */
	acct_cut_span(&c1, &a1, 290 + (UINT64_C(1) << 62), 290 + (UINT64_C(3) << 61));
	assert_true(a1.sys_cycles == 70 + (UINT64_C(1) << 62));
	assert_true(a1.user_cycles == 95 + (UINT64_C(1) << 61));
}

static void test_tlb_deltas_and_wrap(void **state)
{
	(void)state;
	struct acct_clock c;
	struct task_acct a;

	memset(&a, 0, sizeof(a));
	acct_clock_init(&c, 0, UINT32_MAX - 2, 7);
	acct_cut_tlb(&c, &a, 4, 9);             /* user wrapped: 3 + 4 + 0 */
	assert_int_equal(a.tlb_user, 7);
	assert_int_equal(a.tlb_kernel, 2);
	acct_cut_tlb(&c, NULL, 10, 10);         /* nobody: counted for none */
	acct_cut_tlb(&c, &a, 10, 10);
	assert_int_equal(a.tlb_user, 7);
	assert_int_equal(a.tlb_kernel, 2);
}

static void test_cycles_to_ns(void **state)
{
	(void)state;
	assert_int_equal(acct_cycles_to_ns(GHZ3, GHZ3), NS_PER_S);
	assert_int_equal(acct_cycles_to_ns(3, GHZ3), 1);
	assert_int_equal(acct_cycles_to_ns(12345, 0), 0);
	/* An hour at 3 GHz overflows cycles * 1e9; the split must not. */
	uint64_t hour = 3600ull * GHZ3 + GHZ3 / 2;
	assert_int_equal(acct_cycles_to_ns(hour, GHZ3), 3600ull * NS_PER_S + NS_PER_S / 2);
}

static void test_add_and_rusage(void **state)
{
	(void)state;
	struct task_acct a = { .user_cycles = GHZ3, .sys_cycles = GHZ3 / 1000,
		.syscalls = 1001, .vcsw = 1000, .ivcsw = 3, .faults = 100,
		.tlb_user = 5, .tlb_kernel = 6, .signals = 2 };
	struct task_acct sum;
	struct tally_rusage ru;

	memset(&sum, 0, sizeof(sum));
	acct_add(&sum, &a);
	acct_add(&sum, &a);
	assert_int_equal(sum.syscalls, 2002);
	assert_int_equal(sum.faults, 200);
	acct_to_rusage(&a, GHZ3, &ru);
	assert_int_equal(ru.utime_ns, NS_PER_S);
	assert_int_equal(ru.stime_ns, NS_PER_S / 1000);
	assert_int_equal(ru.syscalls, 1001);
	assert_int_equal(ru.vcsw, 1000);
	assert_int_equal(ru.ivcsw, 3);
	assert_int_equal(ru.faults, 100);
	assert_int_equal(ru.tlb_user, 5);
	assert_int_equal(ru.tlb_kernel, 6);
	assert_int_equal(ru.signals, 2);
}

/* ---- the fast system call's deferred cut (acct_cut_syscall) ------------------ */

/* The cut as kernel/entry.c cut_syscall_entry makes it: the short cut,
 * else the whole one. */
static void acct_cut_syscall(struct acct_clock *c, struct task_acct *a,
			     uint64_t since, uint64_t left, uint64_t back)
{
	if (!acct_cut_syscall_short(c, a, since, left, back))
		acct_cut_syscall_whole(c, a, left, back);
}

/* The reference: the whole 64-bit cut and the count, as every call made
 * them before the deferred sums. */
static void cut_reference(struct acct_clock *c, struct task_acct *a,
			  uint64_t left, uint64_t back)
{
	acct_cut_span(c, a, left, back);
	a->syscalls++;
}

/* The folded view of d must equal r field by field, and the clocks agree. */
static void assert_same_totals(const struct acct_clock *cd, const struct task_acct *d,
			       const struct acct_clock *cr, const struct task_acct *r)
{
	struct task_acct v;

	acct_view(&v, d);
	assert_true(v.sys_cycles == r->sys_cycles);
	assert_true(v.user_cycles == r->user_cycles);
	assert_true(v.syscalls == r->syscalls);
	assert_true(v.pend.sys_cycles == 0 && v.pend.user_cycles == 0 && v.pend.syscalls == 0);
	assert_true(cd->stamp == cr->stamp);
	/* Pending sums stay below 2^31, so one more call never wraps them. */
	assert_true((d->pend.sys_cycles | d->pend.user_cycles | d->pend.syscalls) < (1u << 31));
}

/* Stamps as arch_user_span makes them: each difference is whole in 32 bits. */
static void next_span(uint64_t since, uint32_t ds, uint32_t du, uint64_t *left, uint64_t *back)
{
	*left = since + ds;
	*back = *left + du;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t rng32(void)
{
	/* xorshift64*: deterministic, so a failure repeats. */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (uint32_t)((rng_state * 0x2545f4914f6cdd1dull) >> 32);
}

/* Short spans from a stamp just below a 32-bit wrap (and the 64-bit
 * stamp's high word carrying): the deferred sums equal the 64-bit ones
 * after every call. */
static void test_syscall_cut_equals_span_across_wrap(void **state)
{
	(void)state;
	struct acct_clock cd, cr;
	struct task_acct d = {0}, r = {0};
	uint64_t start = (UINT64_C(7) << 32) - 1000;

	acct_clock_init(&cd, start, 0, 0);
	acct_clock_init(&cr, start, 0, 0);
	for (int i = 0; i < 5000; i++) {
		uint64_t left, back;

		next_span(cd.stamp, rng32() % 400, rng32() % 300, &left, &back);
		acct_cut_syscall(&cd, &d, cd.stamp, left, back);
		cut_reference(&cr, &r, left, back);
		assert_same_totals(&cd, &d, &cr, &r);
	}
	assert_true(cd.stamp >> 32 == 7);       /* the low word wrapped, once */
	assert_true(d.pend.syscalls == 5000);   /* nothing folded yet */
	assert_true(d.syscalls == 0);
}

/* Spans near 2^31 take the pending sums to the fold in a few calls; spans
 * of 2^31 or more are charged whole; stamps out of order charge as
 * acct_cut_span does.  The totals agree all the way. */
static void test_syscall_cut_folds_and_charges_whole(void **state)
{
	(void)state;
	struct acct_clock cd, cr;
	struct task_acct d = {0}, r = {0};
	uint64_t start = UINT64_C(0xfffffff0);
	const uint32_t big[] = { 0x7fffffffu, 0x40000001u, 0x80000000u, 0xfffffffeu,
				 0x3fffffffu, 0, 1, 0x7ffffffeu };
	unsigned folds = 0;

	acct_clock_init(&cd, start, 0, 0);
	acct_clock_init(&cr, start, 0, 0);
	for (unsigned i = 0; i < 64; i++) {
		uint64_t left, back;
		uint64_t before = d.syscalls;

		next_span(cd.stamp, big[i % 8], big[(i * 3 + 1) % 8], &left, &back);
		acct_cut_syscall(&cd, &d, cd.stamp, left, back);
		cut_reference(&cr, &r, left, back);
		assert_same_totals(&cd, &d, &cr, &r);
		folds += d.syscalls != before;
	}
	assert_true(folds > 0);
	/* Out of order: left behind the clock, then back behind left. */
	acct_cut_syscall(&cd, &d, cd.stamp, cd.stamp - 5, cd.stamp + 10);
	cut_reference(&cr, &r, cr.stamp - 5, cr.stamp + 10);
	assert_same_totals(&cd, &d, &cr, &r);
	acct_cut_syscall(&cd, &d, cd.stamp, cd.stamp + 20, cd.stamp + 15);
	cut_reference(&cr, &r, cr.stamp + 20, cr.stamp + 15);
	assert_same_totals(&cd, &d, &cr, &r);
}

/* A call that would take a pending sum to 2^31 is refused before any
 * store (the arch's fast path then has nothing to undo), and the whole
 * cut folds the sums first, so the next call is short again. */
static void test_syscall_cut_refuses_before_storing(void **state)
{
	(void)state;
	struct acct_clock c;
	uint64_t start = 1000;

	for (unsigned k = 0; k < 3; k++) {
		struct task_acct a = {0};

		acct_clock_init(&c, start, 0, 0);
		a.pend.sys_cycles = k == 0 ? 0x7ffffff0u : 5;
		a.pend.user_cycles = k == 1 ? 0x7ffffff0u : 6;
		a.pend.syscalls = k == 2 ? 0x7fffffffu : 7;

		struct acct_clock c0 = c;
		struct task_acct a0 = a;

		/* 0x20 of system and user time: past 2^31 for the sums near it. */
		assert_false(acct_cut_syscall_short(&c, &a, c.stamp, start + 0x20, start + 0x40));
		assert_memory_equal(&c, &c0, sizeof(c));
		assert_memory_equal(&a, &a0, sizeof(a));

		acct_cut_syscall_whole(&c, &a, start + 0x20, start + 0x40);
		assert_true(a.pend.sys_cycles == 0 && a.pend.user_cycles == 0 &&
			    a.pend.syscalls == 0);
		assert_true(a.sys_cycles == (uint64_t)a0.pend.sys_cycles + 0x20);
		assert_true(a.user_cycles == (uint64_t)a0.pend.user_cycles + 0x20);
		assert_true(a.syscalls == (uint64_t)a0.pend.syscalls + 1);
		assert_true(c.stamp == start + 0x40);
		assert_true(acct_cut_syscall_short(&c, &a, c.stamp, start + 0x50, start + 0x60));
		assert_true(a.pend.syscalls == 1);
	}
}

/* The fold, the view, the reaped child's add and rusage all count the
 * pending share exactly once. */
static void test_pending_share_read_once(void **state)
{
	(void)state;
	struct task_acct a = { .user_cycles = 100, .sys_cycles = 10, .syscalls = 3,
		.pend = { .sys_cycles = 7, .user_cycles = 70, .syscalls = 2 } };
	struct task_acct v, sum = {0};
	struct tally_rusage ru;

	acct_view(&v, &a);
	assert_int_equal(v.user_cycles, 170);
	assert_int_equal(v.sys_cycles, 17);
	assert_int_equal(v.syscalls, 5);
	assert_int_equal(a.pend.syscalls, 2);   /* the view leaves a alone */
	acct_add(&sum, &a);
	assert_int_equal(sum.user_cycles, 170);
	assert_int_equal(sum.syscalls, 5);
	acct_to_rusage(&a, GHZ3, &ru);
	assert_int_equal(ru.syscalls, 5);
	acct_fold(&a);
	assert_memory_equal(&a, &v, sizeof(a));
	acct_fold(&a);                          /* twice is once */
	assert_memory_equal(&a, &v, sizeof(a));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_user_system),
		cmocka_unit_test(test_span_is_two_cuts_in_one),
		cmocka_unit_test(test_switch_charges_each_once),
		cmocka_unit_test(test_nobody_before_first_task),
		cmocka_unit_test(test_clock_backwards_charges_nothing),
		cmocka_unit_test(test_tlb_deltas_and_wrap),
		cmocka_unit_test(test_cycles_to_ns),
		cmocka_unit_test(test_add_and_rusage),
		cmocka_unit_test(test_syscall_cut_equals_span_across_wrap),
		cmocka_unit_test(test_syscall_cut_folds_and_charges_whole),
		cmocka_unit_test(test_syscall_cut_refuses_before_storing),
		cmocka_unit_test(test_pending_share_read_once),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
