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
	acct_cut_time(&c, &a, 95, true);
	assert_int_equal(a.user_cycles, 5);
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
	acct_cut_span(&c1, &a1, 160, 150);
	assert_int_equal(a1.sys_cycles, 30);
	assert_int_equal(a1.user_cycles, 40);
	assert_int_equal(c1.stamp, 150);
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
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
