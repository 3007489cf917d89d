/*
 * Host tests of kernel/time/cycle_rate.c: a calibration window's rate and
 * bound, the snap to the simplest rate inside the bound, CPUID's leaves,
 * and the order boot takes its sources in (cyclehz, CPU, i8254), with
 * the boot arguments and the i8254 faked.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "bootargs.h"
#include "time/cycle_rate.h"
#include "i8254.h"
#include "platform.h"

/* The windows here are the i8254's, as on both machines: 1 ms of it. */
#define PIT_TICKS 1193u
#include "arch/x86_64/tsc_rate.h"

#define NS 1000000000ull

static uint64_t fake_cyclehz;           /* what bootarg_u64 returns */
static const char *fake_cyclehz_word;   /* what bootarg_get returns */
static struct cycle_window fake_window;
static int windows_taken;
static int fake_stalled_windows;        /* the first this many have a wide bound */

uint64_t bootarg_u64(const char *key, uint64_t def, uint64_t min, uint64_t max)
{
	assert_string_equal(key, "cyclehz");
	(void)min;
	(void)max;
	return fake_cyclehz ? fake_cyclehz : def;
}

const char *bootarg_get(const char *key)
{
	(void)key;
	return fake_cyclehz_word;
}

void platform_ref_window(uint64_t (*read_cycles)(void), struct cycle_window *w)
{
	(void)read_cycles;
	*w = fake_window;
	if (windows_taken < fake_stalled_windows)
		w->slack = 1000000;     /* the host stalled at an edge */
	windows_taken++;
}

void panic(const char *fmt, ...)
{
	(void)fmt;
	fail_msg("panic");
	for (;;)
		;
}

static uint64_t no_cycles(void)
{
	return 0;
}

/* Cycles a counter at hz counts over pit_ticks i8254 periods, to the
 * nearest cycle, plus what the two ends' poll lags add (at most the
 * window's slack either way). */
static uint64_t window_cycles(uint64_t hz, uint64_t pit_ticks, int64_t lag)
{
	return (uint64_t)((int64_t)((hz * pit_ticks + I8254_HZ / 2) / I8254_HZ) + lag);
}

static uint64_t dist(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

/* Under -icount shift=0 the TSC counts ns: exactly 1 GHz whatever the
 * ends' lags within the longest poll. */
static void test_icount_tsc_is_exactly_1ghz(void **state)
{
	(void)state;
	for (int64_t lag = -40; lag <= 40; lag++) {
		struct cycle_window w = { window_cycles(NS, PIT_TICKS, lag),
					  PIT_TICKS, 40, I8254_HZ, "i8254" };
		struct cycle_rate r;
		assert_int_equal(cycle_rate_from_window(&w, &r), 0);
		assert_int_equal(r.hz, NS);
		/* (40 + 2) * 1193182 / 1193 = 42006.6, rounded up, plus one. */
		assert_int_equal(r.err_hz, 42008);
	}
}

/* Malta's Count ticks every 6 ns: 1e9/6 to the nearest Hz. */
static void test_icount_malta_count_is_exactly_a_sixth(void **state)
{
	(void)state;
	for (int64_t lag = -8; lag <= 8; lag++) {
		struct cycle_window w = { window_cycles(NS / 6, PIT_TICKS, lag),
					  PIT_TICKS, 8, I8254_HZ, "i8254" };
		struct cycle_rate r;
		assert_int_equal(cycle_rate_from_window(&w, &r), 0);
		assert_int_equal(r.hz, 166666667);
	}
}

/* Any rate, any lag within the poll: the result is within its bound of
 * the truth, and a nominal crystal rate comes out as itself. */
static void test_bound_holds_and_round_rates_come_back(void **state)
{
	static const uint64_t rates[] = { 2400000000ull, 3191999000ull, 100000000ull,
					  166666667ull, 1000000000ull, 1234567891ull };
	(void)state;
	for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
		uint64_t poll = rates[i] / 20000000 + 5;         /* ~50 ns */
		for (int64_t lag = -(int64_t)poll; lag <= (int64_t)poll; lag += 1 + (int64_t)poll / 8) {
			struct cycle_window w = { window_cycles(rates[i], PIT_TICKS, lag),
						  PIT_TICKS, poll, I8254_HZ, "i8254" };
			struct cycle_rate r;
			assert_int_equal(cycle_rate_from_window(&w, &r), 0);
			assert_true(dist(r.hz, rates[i]) <= r.err_hz);
			if (rates[i] == 2400000000ull || rates[i] == 100000000ull)
				assert_int_equal(r.hz, rates[i]);
		}
	}
}

static void test_snap(void **state)
{
	(void)state;
	assert_int_equal(cycle_rate_snap(1000047000, 47009), NS);
	assert_int_equal(cycle_rate_snap(166666719, 100), 166666667);
	assert_int_equal(cycle_rate_snap(2399876543ull, 200000), 2400000000ull);
	assert_int_equal(cycle_rate_snap(2399876543ull, 100000), 2399900000ull);
	assert_int_equal(cycle_rate_snap(1234567891, 0), 1234567891);
	assert_int_equal(cycle_rate_snap(0, 10), 0);
}

static void test_empty_window_fails(void **state)
{
	struct cycle_window w = { 0, PIT_TICKS, 1, I8254_HZ, "i8254" };
	struct cycle_rate r;

	(void)state;
	assert_int_equal(cycle_rate_from_window(&w, &r), -1);
	w.cycles = 5;
	w.ref_ticks = 0;
	assert_int_equal(cycle_rate_from_window(&w, &r), -1);
	w.ref_ticks = PIT_TICKS;
	w.ref_hz = 0;           /* a platform that did not say its rate */
	assert_int_equal(cycle_rate_from_window(&w, &r), -1);
}

static void test_cpuid_leaves(void **state)
{
	struct cycle_rate r;
	const uint32_t l15[3] = { 2, 166, 24000000 };   /* 24 MHz * 166 / 2 */
	const uint32_t no_crystal[3] = { 2, 200, 0 };
	const uint32_t zeros[3] = { 0, 0, 0 };

	(void)state;
	assert_int_equal(tsc_rate_from_cpuid(0x16, l15, 0, &r), 0);
	assert_int_equal(r.hz, 1992000000ull);
	assert_int_equal(r.err_hz, 0);
	assert_string_equal(r.source, "cpuid 0x15");
	assert_int_equal(tsc_rate_from_cpuid(0x16, no_crystal, 2000, &r), 0);
	assert_int_equal(r.hz, 2000000000ull);
	assert_int_equal(r.err_hz, 500000);
	assert_string_equal(r.source, "cpuid 0x16");
	assert_int_equal(tsc_rate_from_cpuid(0x15, no_crystal, 2000, &r), -1);
	assert_int_equal(tsc_rate_from_cpuid(0x16, zeros, 2000, &r), -1);   /* QEMU TCG */
	assert_int_equal(tsc_rate_from_cpuid(0x14, l15, 0, &r), -1);
}

static void test_boot_prefers_cyclehz_then_cpu_then_i8254(void **state)
{
	struct cycle_rate cpu = { 1992000000ull, 0, "cpuid 0x15" };
	const struct cycle_rate *r;

	(void)state;
	fake_window = (struct cycle_window){ window_cycles(NS, PIT_TICKS, 3),
					     PIT_TICKS, 30, I8254_HZ, "i8254" };
	windows_taken = 0;
	fake_cyclehz = 123456789;
	fake_cyclehz_word = "123456789";
	r = cycle_rate_boot(no_cycles, &cpu);
	assert_int_equal(r->hz, 123456789);
	assert_int_equal(r->err_hz, 0);
	assert_string_equal(r->source, "cyclehz");
	assert_ptr_equal(cycle_rate_get(), r);

	fake_cyclehz = 0;               /* junk: bootarg_u64 fell back */
	fake_cyclehz_word = "12abc";
	r = cycle_rate_boot(no_cycles, &cpu);
	assert_int_equal(r->hz, 1992000000ull);
	assert_string_equal(r->source, "cpuid 0x15");
	assert_int_equal(windows_taken, 0);

	fake_cyclehz_word = NULL;
	r = cycle_rate_boot(no_cycles, NULL);
	assert_int_equal(windows_taken, 1);
	assert_int_equal(r->hz, NS);
	assert_string_equal(r->source, "i8254");
}

/* A window stalled at an edge is taken again; the tightest one is kept,
 * and after CYCLE_CAL_TRIES the best there is. */
static void test_stalled_windows_are_retaken(void **state)
{
	const struct cycle_rate *r;

	(void)state;
	fake_cyclehz = 0;
	fake_cyclehz_word = NULL;
	fake_window = (struct cycle_window){ window_cycles(NS, PIT_TICKS, 3),
					     PIT_TICKS, 30, I8254_HZ, "i8254" };
	windows_taken = 0;
	fake_stalled_windows = 2;
	r = cycle_rate_boot(no_cycles, NULL);
	assert_int_equal(windows_taken, 3);
	assert_int_equal(r->hz, NS);
	assert_true(r->err_hz * CYCLE_CAL_GOOD_DIV <= r->hz);

	windows_taken = 0;
	fake_stalled_windows = 100;
	r = cycle_rate_boot(no_cycles, NULL);
	assert_int_equal(windows_taken, CYCLE_CAL_TRIES);
	assert_true(r->err_hz * CYCLE_CAL_GOOD_DIV > r->hz);
	assert_true(dist(r->hz, NS) <= r->err_hz);
	fake_stalled_windows = 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_icount_tsc_is_exactly_1ghz),
		cmocka_unit_test(test_icount_malta_count_is_exactly_a_sixth),
		cmocka_unit_test(test_bound_holds_and_round_rates_come_back),
		cmocka_unit_test(test_snap),
		cmocka_unit_test(test_empty_window_fails),
		cmocka_unit_test(test_cpuid_leaves),
		cmocka_unit_test(test_boot_prefers_cyclehz_then_cpu_then_i8254),
		cmocka_unit_test(test_stalled_windows_are_retaken),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
