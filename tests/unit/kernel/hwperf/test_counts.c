/*
 * Host tests of kernel/hwperf counting: reads with time enabled/running
 * and resource usage, control changes, release, multiplexing many events
 * on few counters, and 64-bit counts over narrow wrapping counters
 * (R9, R10, R11, R13, R14).
 */
#include "hwperf_test.h"
#include "hwperf/internal.h"

#define TICK_CYCLES 1000u

static struct fake_task *a, *b;

static int setup(void **state)
{
	(void)state;
	hwt_setup(1);
	a = fake_spawn(10, USER_UID, 10, 1);
	b = fake_spawn(11, USER_UID, 11, 1);
	return 0;
}

static void setup_shape(unsigned ncounters, unsigned width, bool irq,
                        enum fakepmu_ovf ovf)
{
	struct fakepmu_cfg cfg;

	fakepmu_default(&cfg);
	cfg.ncounters = ncounters;
	cfg.width = width;
	cfg.irq = irq;
	cfg.ovf = ovf;
	hwt_setup_cfg(&cfg, 1);
	a = fake_spawn(10, USER_UID, 10, 1);
}

static void run_ticks(unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		fakepmu_clock += TICK_CYCLES;
		fake_tick(0);
	}
}

/* ---- R9 ------------------------------------------------------------------- */

static void test_R9_read_gives_32_counts_with_time_enabled_running(void **state)
{
	struct hwperf_reason why;
	struct hwperf_counts c;

	(void)state;
	fake_run(0, a);
	assert_true(hwt_enable(a, 0, "@5=instructions", &why) > 0);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 42);
	run_ticks(3);
	fake_run(0, b);
	run_ticks(5);                   /* a is not running: no time */
	assert_true(hwperf_read(&a->hw, 0, &c, &why) > 0);
	for (unsigned i = 0; i < HWPERF_NVCTR; i++)
		if (i != 5)
			assert_int_equal(c.count[i], 0);
	assert_int_equal(c.count[5], 42);
	assert_int_equal(c.enabled[5], 3 * TICK_CYCLES);
	assert_int_equal(c.running[5], 3 * TICK_CYCLES);
}

/* The export a 32-bit machine uses adds the owed time on the way out:
 * the same counts as settling first, for every shape of used. */
static void test_export_owing_is_the_settled_export(void **state)
{
	static const char *const specs[] = {
		"instructions,cycles",                  /* counters 0, 1 */
		"@0=instructions,@5=cycles,@31=branches", /* scattered */
	};
	struct hwperf_reason why;
	struct hwperf_counts owing, settled;

	(void)state;
	for (unsigned k = 0; k < sizeof(specs) / sizeof(specs[0]); k++) {
		struct hwperf_set *s = &a->hw.set;

		fake_run(0, a);
		assert_true(hwt_enable(a, 0, specs[k], &why) > 0);
		fakepmu_count(0, FK_INSNS, PMU_MODE_U, 7);
		run_ticks(3);
		fake_run(0, b);                 /* a's fold owes it 3 ticks */
		assert_int_equal(s->enabled_owed, 3 * TICK_CYCLES);
		s->c.enabled[30] = 99;          /* unused: copied, not owed */
		hwperf_set_export_owing(s, &owing);
		assert_int_equal(s->enabled_owed, 3 * TICK_CYCLES);
		hwperf_set_settle(s);
		assert_int_equal(s->enabled_owed, 0);
		settled = s->c;
		assert_memory_equal(&owing, &settled, sizeof(owing));
		assert_int_equal(owing.enabled[0], 3 * TICK_CYCLES);
		assert_int_equal(owing.enabled[30], 99);
		(void)hwperf_release(&a->hw, 0, &why);
		fake_run(0, NULL);
	}
}

/* A full set whose whole time-enabled is owed reads every counter's
 * enabled as the owed value, without settling; once anything settles,
 * the general export takes over with the stored values. */
static void test_full_set_read_while_all_enabled_is_owed(void **state)
{
	char spec[32 * sizeof("instructions,")] = "";
	struct hwperf_set *s = &a->hw.set;
	struct hwperf_reason why;
	struct hwperf_counts c;

	(void)state;
	for (unsigned i = 0; i < HWPERF_NVCTR; i++)
		strcat(spec, i ? ",instructions" : "instructions");
	fake_run(0, a);
	assert_true(hwt_enable(a, 0, spec, &why) > 0);
	assert_int_equal(s->used, ~0u);
	assert_true(s->enabled_all_owed);
	run_ticks(3);
	fake_run(0, b);
	fake_counts_out_calls = 0;
	assert_true(hwperf_read(&a->hw, 0, &c, &why) > 0);
	/* Copied out by the environment's copy (the arch's, in a kernel). */
	assert_int_equal(fake_counts_out_calls, 1);
	assert_true(s->enabled_all_owed);       /* the read settled nothing */
	assert_int_equal(s->enabled_owed, 3 * TICK_CYCLES);
	for (unsigned i = 0; i < HWPERF_NVCTR; i++) {
		assert_int_equal(c.enabled[i], 3 * TICK_CYCLES);
		assert_int_equal(c.count[i], s->c.count[i]);
		assert_int_equal(c.running[i], s->c.running[i]);
	}
	hwperf_set_settle(s);                   /* enabled now stored */
	assert_false(s->enabled_all_owed);
	fake_run(0, a);
	run_ticks(2);
	fake_run(0, b);
	assert_true(hwperf_read(&a->hw, 0, &c, &why) > 0);
	assert_int_equal(fake_counts_out_calls, 1);     /* not this way */
	for (unsigned i = 0; i < HWPERF_NVCTR; i++)
		assert_int_equal(c.enabled[i], 5 * TICK_CYCLES);
	/* A child's counts add to c.enabled: no longer all owed either. */
	hwperf_set_clear(s);
	assert_true(s->enabled_all_owed);
	hwperf_set_add(s, &b->hw.set);
	assert_false(s->enabled_all_owed);
}

/* A task's read of its own counters (its system call's way) answers as
 * hwperf_read of pid 0 does: loaded or not, and with no PMU. */
static void test_read_own_is_read_of_pid_0(void **state)
{
	struct hwperf_reason why;
	struct hwperf_counts own, plain;

	(void)state;
	fake_run(0, a);
	assert_true(hwt_enable(a, 0, "instructions,cycles", &why) > 0);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 42);
	run_ticks(2);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 5);
	/* Loaded: each read folds what the PMU counted since. */
	memset(&own, 0xa5, sizeof(own));
	memset(&plain, 0x5a, sizeof(plain));
	assert_int_equal(hwperf_read_own(&a->hw, &own, &why), a->hw.set.gen);
	assert_int_equal(hwperf_read(&a->hw, 0, &plain, &why), a->hw.set.gen);
	assert_memory_equal(&own, &plain, sizeof(own));
	assert_int_equal(own.count[0], 47);
	fake_run(0, b);                         /* folded, not loaded */
	assert_int_equal(hwperf_read_own(&a->hw, &own, &why), a->hw.set.gen);
	assert_int_equal(hwperf_read(&a->hw, 0, &plain, &why), a->hw.set.gen);
	assert_memory_equal(&own, &plain, sizeof(own));
	hwperf_core.ready = false;              /* no PMU: refused alike */
	assert_int_equal(hwperf_read_own(&a->hw, &own, &why), -ENODEV);
	assert_int_equal(hwperf_read(&a->hw, 0, &plain, &why), -ENODEV);
	hwperf_core.ready = true;
}

static void test_R9_read_with_rusage(void **state)
{
	struct hwperf_reason why;
	struct hwperf_counts c;
	struct hwperf_rusage ru;

	(void)state;
	a->ru.utime_ns = 1111;
	a->ru.stime_ns = 2222;
	a->ru.faults = 3;
	a->ru.tlb_refills = 4;
	a->ru.signals = 5;
	a->ru.vcsw = 6;
	a->ru.ivcsw = 7;
	a->ru.syscalls = 8;
	fake_run(0, a);
	assert_true(hwt_enable(a, 0, "instructions", &why) > 0);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 9);
	assert_true(hwperf_read_rusage(&a->hw, 0, &c, &ru, &why) > 0);
	assert_int_equal(c.count[0], 9);
	assert_memory_equal(&ru, &a->ru, sizeof(ru));
	assert_int_equal(hwperf_read_rusage(&b->hw, 10, &c, &ru, &why), -EPERM);
}

static void test_R9_live_read_folds_running_counters(void **state)
{
	struct hwperf_reason why;

	(void)state;
	fake_run(0, a);
	assert_true(hwt_enable(a, 0, "instructions", &why) > 0);
	for (uint64_t i = 1; i <= 10; i++) {
		fakepmu_count(0, FK_INSNS, PMU_MODE_U, 3);
		assert_int_equal(hwt_count(10, 0), 3 * i);
	}
}

/* ---- R10 ------------------------------------------------------------------ */

static void test_R10_get_control_and_set_control_without_release(void **state)
{
	struct hwperf_reason why;
	struct hwperf_control got, ctl;
	int g;

	(void)state;
	fake_run(0, a);
	assert_int_equal(hwperf_get_control(&a->hw, 0, &got, &why), -EINVAL);
	g = hwt_enable(a, 0, "instructions,branches:u:thresh=50,sig=12", &why);
	assert_int_equal(hwperf_get_control(&a->hw, 0, &got, &why), g);
	assert_string_equal(got.ev[0].name, "instructions");
	assert_int_equal(got.ev[1].modes, PMU_MODE_U);
	assert_int_equal(got.ev[1].thresh, 50);
	assert_int_equal(got.sig, 12);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 20);
	fakepmu_count(0, FK_BRANCHES, PMU_MODE_U, 5);
	/* Keep instructions, replace branches by misses. */
	ctl = hwt_ctl("instructions,misses");
	assert_int_equal(hwperf_set_control(&a->hw, 0, &ctl, &why), g + 1);
	assert_int_equal(hwperf_mode(), HWPERF_USER);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 1);
	fakepmu_count(0, FK_BRANCHES, PMU_MODE_U, 100);
	fakepmu_count(0, FK_MISSES, PMU_MODE_U, 2);
	assert_int_equal(hwt_count(10, 0), 21);
	assert_int_equal(hwt_count(10, 1), 2);
	assert_int_equal(hwperf_get_control(&a->hw, 0, &got, &why), g + 1);
	assert_string_equal(got.ev[1].name, "misses");
	assert_int_equal(got.sig, 0);
}

/* ---- R11 ------------------------------------------------------------------ */

static void test_R11_release_stops_counting_counts_stay(void **state)
{
	struct hwperf_reason why;

	(void)state;
	fake_run(0, a);
	assert_true(hwt_enable(a, 0, "instructions", &why) > 0);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 30);
	assert_true(hwperf_release(&a->hw, 0, &why) > 0);
	assert_false(fakepmu_enabled(0, 0));
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 30);
	fake_run(0, b);
	fake_run(0, a);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 30);
	assert_int_equal(hwt_count(10, 0), 30);
	assert_int_equal(hwperf_release(&a->hw, 0, &why), -EINVAL);
	assert_true(hwt_enable(a, 0, "instructions", &why) > 0);
}

/* ---- R13 ------------------------------------------------------------------ */

static const char *const eight = "cycles,instructions,loads,stores,branches,"
                                 "misses,tlb,faults";
static const uint32_t eight_codes[] = { FK_CYCLES, FK_INSNS, FK_LOADS,
                                        FK_STORES, FK_BRANCHES, FK_MISSES,
                                        FK_TLB, FK_FAULTS };
#define NEIGHT 8
#define MUX_TICKS 800u
#define EVENTS_PER_TICK 100u

static void test_R13_eight_events_on_two_counters_share_time(void **state)
{
	struct hwperf_reason why;
	struct hwperf_counts c;

	(void)state;
	fake_run(0, a);
	assert_true(hwt_enable(a, 0, eight, &why) > 0);
	for (unsigned t = 0; t < MUX_TICKS; t++) {
		for (unsigned e = 0; e < NEIGHT; e++)
			fakepmu_count(0, eight_codes[e], PMU_MODE_U,
			              EVENTS_PER_TICK * (e + 1));
		fakepmu_clock += TICK_CYCLES;
		fake_tick(0);
	}
	assert_true(hwperf_read(&a->hw, 0, &c, &why) > 0);
	for (unsigned e = 0; e < NEIGHT; e++) {
		double share = (double)c.running[e] / (double)c.enabled[e];
		double scaled = (double)c.count[e] / share;
		double truth = (double)MUX_TICKS * EVENTS_PER_TICK * (e + 1);

		assert_int_equal(c.enabled[e], (uint64_t)MUX_TICKS * TICK_CYCLES);
		if (share < 0.23 || share > 0.27)
			fail_msg("event %u ran %.3f of the time", e, share);
		if (scaled < truth * 0.97 || scaled > truth * 1.03)
			fail_msg("event %u scaled %.0f, truth %.0f", e, scaled, truth);
	}
}

static void test_R13_r10000_virtual_i_lives_on_hardware_i_div_16(void **state)
{
	struct fakepmu_cfg cfg;
	struct hwperf_reason why;
	struct hwperf_counts c;
	enum { TICKS = 600 };

	(void)state;
	fakepmu_default(&cfg);
	cfg.table = &fakepmu_r10k_table;
	cfg.slots_per_counter = 16;
	hwt_setup_cfg(&cfg, 1);
	a = fake_spawn(10, USER_UID, 10, 1);
	fake_run(0, a);
	assert_true(hwt_enable(a, 0, "@0=cycles,@1=graduated-instructions,"
	                       "@2=issued-loads,@16=cycles,"
	                       "@17=graduated-instructions", &why) > 0);
	for (unsigned t = 0; t < TICKS; t++) {
		uint32_t c0 = fakepmu_code(0, 0), c1 = fakepmu_code(0, 1);

		assert_true(c0 == R10K_CYCLES0 || c0 == R10K_GRAD_INSNS0 ||
		            c0 == R10K_ISSUED_LOADS);
		assert_true(c1 == R10K_CYCLES1 || c1 == R10K_GRAD_INSNS1);
		fakepmu_clock += TICK_CYCLES;
		fake_tick(0);
	}
	assert_true(hwperf_read(&a->hw, 0, &c, &why) > 0);
	for (unsigned i = 0; i < 3; i++)
		assert_int_equal(c.running[i], TICKS / 3 * TICK_CYCLES);
	assert_int_equal(c.running[16], TICKS / 2 * TICK_CYCLES);
	assert_int_equal(c.running[17], TICKS / 2 * TICK_CYCLES);
}

static void test_R13_thirty_two_virtual_counters(void **state)
{
	char spec[512] = "";
	struct hwperf_reason why;
	struct hwperf_counts c;
	struct hwperf_control ctl;

	(void)state;
	for (unsigned i = 0; i < HWPERF_NVCTR; i++) {
		char item[16];

		snprintf(item, sizeof(item), "%sr%x", i ? "," : "", 0x100 + i);
		strcat(spec, item);
	}
	fake_run(0, a);
	assert_true(hwt_enable(a, 0, spec, &why) > 0);
	for (unsigned t = 0; t < HWPERF_NVCTR; t++) {
		for (unsigned i = 0; i < HWPERF_NVCTR; i++)
			fakepmu_count(0, 0x100 + i, PMU_MODE_U, 1);
		fakepmu_clock += TICK_CYCLES;
		fake_tick(0);
	}
	assert_true(hwperf_read(&a->hw, 0, &c, &why) > 0);
	for (unsigned i = 0; i < HWPERF_NVCTR; i++) {
		assert_int_equal(c.running[i], 2 * TICK_CYCLES);
		assert_int_equal(c.count[i], 2);
	}
	strcat(spec, ",cycles");
	assert_int_equal(hwperf_spec_parse(spec, hwperf_caps(), &ctl, &why),
	                 -EINVAL);
}

static void test_R13_constrained_events_get_their_counter(void **state)
{
	struct hwperf_reason why;

	(void)state;
	fake_run(0, a);
	/* stores only fit counter 1, loads only counter 0. */
	assert_true(hwt_enable(a, 0, "stores,loads", &why) > 0);
	fakepmu_count(0, FK_STORES, PMU_MODE_U, 4);
	fakepmu_count(0, FK_LOADS, PMU_MODE_U, 6);
	assert_int_equal(hwt_count(10, 0), 4);
	assert_int_equal(hwt_count(10, 1), 6);
}

/* ---- R14 ------------------------------------------------------------------ */

/* Feed `total` events in uneven chunks; counts must never go backwards
 * and end exact. */
static void feed_and_check(uint64_t total, uint64_t chunk, bool reads)
{
	uint64_t fed = 0, last = 0, step = chunk;

	while (fed < total) {
		uint64_t n = total - fed < step ? total - fed : step;
		uint64_t now;

		fakepmu_count(0, FK_INSNS, PMU_MODE_U, n);
		fed += n;
		if (reads) {
			now = hwt_count(10, 0);
			assert_true(now >= last);
			last = now;
		}
		step = step == chunk ? chunk / 3 + 1 : chunk;
		if (reads && fed % 7 == 0)
			fake_tick(0);
	}
	assert_int_equal(hwt_count(10, 0), total);
}

static void enable_insns(void)
{
	struct hwperf_reason why;

	fake_run(0, a);
	assert_true(hwt_enable(a, 0, "instructions", &why) > 0);
}

static void test_R14_16bit_counters_exact_over_1000_wraps(void **state)
{
	(void)state;
	setup_shape(2, 16, true, FAKEPMU_OVF_WRAP);
	enable_insns();
	feed_and_check(((uint64_t)1 << 16) * 1000 + 123, 150001, true);
	/* Again with no reads in between: every wrap is an interrupt. */
	setup_shape(2, 16, true, FAKEPMU_OVF_WRAP);
	enable_insns();
	feed_and_check(((uint64_t)1 << 16) * 1001 + 123, 150001, false);
	assert_true(fakepmu_interrupts >= 1000);
}

static void test_R14_8bit_counters_exact_over_1000_wraps(void **state)
{
	(void)state;
	setup_shape(2, 8, true, FAKEPMU_OVF_WRAP);
	enable_insns();
	feed_and_check(256 * 1200 + 77, 1000, true);
	setup_shape(2, 8, true, FAKEPMU_OVF_WRAP);
	enable_insns();
	feed_and_check(256 * 1200 + 77, 1000, false);
	assert_true(fakepmu_interrupts >= 1000);
}

static void test_R14_msb_overflow_counters_exact(void **state)
{
	(void)state;
	setup_shape(2, 16, true, FAKEPMU_OVF_MSB);
	enable_insns();
	feed_and_check(((uint64_t)1 << 15) * 1000 + 5, 70000, true);
}

static void test_R14_counters_without_interrupt_fold_at_ticks(void **state)
{
	enum { TICKS = 1000, PER_TICK = 60000 };

	(void)state;
	setup_shape(2, 16, false, FAKEPMU_OVF_WRAP);
	enable_insns();
	for (unsigned t = 0; t < TICKS; t++) {
		fakepmu_count(0, FK_INSNS, PMU_MODE_U, PER_TICK);
		fake_tick(0);
	}
	assert_int_equal(hwt_count(10, 0), (uint64_t)TICKS * PER_TICK);
}

static void test_R14_counts_survive_switches_across_wraps(void **state)
{
	(void)state;
	setup_shape(1, 8, true, FAKEPMU_OVF_WRAP);
	b = fake_spawn(11, USER_UID, 11, 1);
	enable_insns();
	{
		struct hwperf_reason why;

		fake_run(0, b);
		assert_true(hwt_enable(b, 0, "instructions", &why) > 0);
	}
	for (unsigned i = 0; i < 1000; i++) {
		fake_run(0, a);
		fakepmu_count(0, FK_INSNS, PMU_MODE_U, 300);
		fake_run(0, b);
		fakepmu_count(0, FK_INSNS, PMU_MODE_U, 7);
	}
	assert_int_equal(hwt_count(10, 0), 300000);
	assert_int_equal(hwt_count(11, 0), 7000);
}

/*
 * The fold's one pass: each slot's sum into its counter's count, and the
 * span into its running time only while the set is placed.  placed is
 * the slots' mask or, after an install while another CPU still held the
 * slots, none (hwperf_set_install): then counts still fold, but no
 * counter ran on hardware for this control.
 */
/* One fold of sums a and b in slots 0 and 1 (virtual counters 5 and 3)
 * over a span of t cycles, and what it must leave. */
static void fold_and_check(struct hwperf_set *s, uint64_t a, uint64_t b, uint64_t t,
			   uint64_t count5, uint64_t count3, uint64_t running, uint64_t owed)
{
	s->pst.ctr[0].sum = a;
	s->pst.ctr[1].sum = b;
	s->pst.cycles_sum = t;
	hwperf_set_fold(s);
	assert_int_equal(s->c.count[5], count5);
	assert_int_equal(s->c.count[3], count3);
	assert_int_equal(s->c.running[5], running);
	assert_int_equal(s->c.running[3], running);
	assert_int_equal(s->enabled_owed, owed);
	assert_int_equal(s->pst.ctr[0].sum, 0);
	assert_int_equal(s->pst.cycles_sum, 0);
}

static void test_fold_adds_running_only_while_placed(void **state)
{
	static struct hwperf_set s;

	(void)state;
	memset(&s, 0, sizeof(s));
	s.used = (1u << 3) | (1u << 5);
	s.pst.ctl.n = 2;
	s.slot_vctr[0] = 5;
	s.slot_vctr[1] = 3;
	s.placed = s.used;
	fold_and_check(&s, 10, 20, 100, 10, 20, 100, 100);
	/* An install elsewhere cleared placed alone: the slots fold, the
	 * span is time-enabled only. */
	s.placed = 0;
	fold_and_check(&s, 1, 2, 40, 11, 22, 100, 140);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_R9_read_gives_32_counts_with_time_enabled_running, setup),
		cmocka_unit_test_setup(test_export_owing_is_the_settled_export, setup),
		cmocka_unit_test_setup(test_fold_adds_running_only_while_placed, setup),
		cmocka_unit_test_setup(test_full_set_read_while_all_enabled_is_owed, setup),
		cmocka_unit_test_setup(test_read_own_is_read_of_pid_0, setup),
		cmocka_unit_test_setup(test_R9_read_with_rusage, setup),
		cmocka_unit_test_setup(test_R9_live_read_folds_running_counters, setup),
		cmocka_unit_test_setup(test_R10_get_control_and_set_control_without_release, setup),
		cmocka_unit_test_setup(test_R11_release_stops_counting_counts_stay, setup),
		cmocka_unit_test_setup(test_R13_eight_events_on_two_counters_share_time, setup),
		cmocka_unit_test_setup(test_R13_r10000_virtual_i_lives_on_hardware_i_div_16, setup),
		cmocka_unit_test_setup(test_R13_thirty_two_virtual_counters, setup),
		cmocka_unit_test_setup(test_R13_constrained_events_get_their_counter, setup),
		cmocka_unit_test_setup(test_R14_16bit_counters_exact_over_1000_wraps, setup),
		cmocka_unit_test_setup(test_R14_8bit_counters_exact_over_1000_wraps, setup),
		cmocka_unit_test_setup(test_R14_msb_overflow_counters_exact, setup),
		cmocka_unit_test_setup(test_R14_counters_without_interrupt_fold_at_ticks, setup),
		cmocka_unit_test_setup(test_R14_counts_survive_switches_across_wraps, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
