/*
 * Host tests of kernel/hwperf thresholds (R15): a signal or a profile hit
 * after exactly every n events, whatever the counter width, the overflow
 * style, context switches or multiplexing.
 */
#include "hwperf_test.h"
#include "hwperf/internal.h"

#define SIG 16
#define PC 0x400123u

static struct fake_task *a, *b;

static void shape(unsigned ncounters, unsigned width, enum fakepmu_ovf ovf)
{
	struct fakepmu_cfg cfg;

	fakepmu_default(&cfg);
	cfg.ncounters = ncounters;
	cfg.width = width;
	cfg.ovf = ovf;
	hwt_setup_cfg(&cfg, 1);
	a = fake_spawn(10, USER_UID, 10, 1);
	b = fake_spawn(11, USER_UID, 11, 1);
	fake_run(0, a);
}

static int setup(void **state)
{
	(void)state;
	shape(2, 32, FAKEPMU_OVF_WRAP);
	return 0;
}

/* One event at a time: the signal count must step exactly at multiples. */
static void one_by_one(uint64_t n, uint64_t total)
{
	for (uint64_t i = 1; i <= total; i++) {
		fakepmu_count(0, FK_INSNS, PMU_MODE_U, 1);
		if (a->sigs[SIG] != i / n)
			fail_msg("after %llu events: %u signals, want %llu",
			         (unsigned long long)i, a->sigs[SIG],
			         (unsigned long long)(i / n));
	}
}

static void test_R15_signal_after_exactly_every_n_events(void **state)
{
	struct hwperf_reason why;

	(void)state;
	assert_true(hwt_enable(a, 0, "instructions:thresh=100,sig=16", &why) > 0);
	one_by_one(100, 1000);
	assert_int_equal(hwt_count(10, 0), 1000);
}

/* An overflow raised while this CPU is inside hwperf (its lock held) is
 * held back, and handled when that call unlocks (lock.c). */
static void test_R15_overflow_inside_hwperf_waits_for_the_unlock(void **state)
{
	struct hwperf_reason why;
	unsigned long f;

	(void)state;
	assert_true(hwt_enable(a, 0, "instructions:thresh=100,sig=16", &why) > 0);
	f = hwperf_lock(0);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 100);
	assert_int_equal(a->sigs[SIG], 0);
	assert_true(hwperf_core.cpu[0].irq_pending);
	hwperf_unlock(0, f);
	assert_false(hwperf_core.cpu[0].irq_pending);
	assert_false(hwperf_core.cpu[0].busy);
	assert_int_equal(a->sigs[SIG], 1);
	assert_int_equal(hwt_count(10, 0), 100);
}

static void test_R15_threshold_exact_with_bulk_counts(void **state)
{
	struct hwperf_reason why;
	uint64_t total = 0;

	(void)state;
	assert_true(hwt_enable(a, 0, "instructions:thresh=100,sig=16", &why) > 0);
	for (unsigned i = 0; i < 500; i++) {
		fakepmu_count(0, FK_INSNS, PMU_MODE_U, 37);
		total += 37;
		assert_int_equal(a->sigs[SIG], total / 100);
	}
}

static void test_R15_threshold_longer_than_an_8bit_counter(void **state)
{
	struct hwperf_reason why;

	(void)state;
	shape(2, 8, FAKEPMU_OVF_WRAP);
	assert_true(hwt_enable(a, 0, "instructions:thresh=1000,sig=16", &why) > 0);
	one_by_one(1000, 5000);
}

static void test_R15_threshold_with_msb_overflow_counters(void **state)
{
	struct hwperf_reason why;

	(void)state;
	shape(2, 16, FAKEPMU_OVF_MSB);
	assert_true(hwt_enable(a, 0, "instructions:thresh=7,sig=16", &why) > 0);
	one_by_one(7, 2000);
}

/* The interrupt comes 3 events after the overflow: actions are late by
 * the skid but never drift, because each period is measured from the
 * exact count. */
static void test_R15_threshold_exact_despite_skid(void **state)
{
	enum { SKID = 3, N = 100, TOTAL = 10003 };
	struct fakepmu_cfg cfg;
	struct hwperf_reason why;

	(void)state;
	fakepmu_default(&cfg);
	cfg.skid = SKID;
	hwt_setup_cfg(&cfg, 1);
	a = fake_spawn(10, USER_UID, 10, 1);
	fake_run(0, a);
	assert_true(hwt_enable(a, 0, "instructions:thresh=100,sig=16", &why) > 0);
	for (unsigned i = 1; i <= TOTAL; i++) {
		fakepmu_count(0, FK_INSNS, PMU_MODE_U, 1);
		assert_int_equal(a->sigs[SIG], i < SKID ? 0 : (i - SKID) / N);
	}
	assert_int_equal(hwt_count(10, 0), TOTAL);
}

static void test_R15_threshold_zero_means_none(void **state)
{
	struct hwperf_reason why;

	(void)state;
	assert_true(hwt_enable(a, 0, "instructions:thresh=0,sig=16", &why) > 0);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 100000);
	assert_int_equal(a->sigs[SIG], 0);
}

static void test_R15_threshold_exact_across_switches(void **state)
{
	struct hwperf_reason why;
	uint64_t total = 0;

	(void)state;
	assert_true(hwt_enable(a, 0, "instructions:thresh=10,sig=16", &why) > 0);
	for (unsigned i = 0; i < 300; i++) {
		fakepmu_count(0, FK_INSNS, PMU_MODE_U, 3);
		total += 3;
		fake_run(0, b);
		fakepmu_count(0, FK_INSNS, PMU_MODE_U, 5);  /* not a's */
		fake_run(0, a);
		assert_int_equal(a->sigs[SIG], total / 10);
	}
}

static void test_R15_threshold_exact_while_multiplexed(void **state)
{
	struct hwperf_reason why;
	struct hwperf_counts c;

	(void)state;
	assert_true(hwt_enable(a, 0, "instructions:thresh=25,branches,misses,"
	                       "tlb,sig=16", &why) > 0);
	for (unsigned t = 0; t < 400; t++) {
		fakepmu_count(0, FK_INSNS, PMU_MODE_U, 11);
		fakepmu_count(0, FK_BRANCHES, PMU_MODE_U, 11);
		fakepmu_clock += 1000;
		fake_tick(0);
		assert_true(hwperf_read(&a->hw, 0, &c, &why) > 0);
		assert_int_equal(a->sigs[SIG], c.count[0] / 25);
	}
	assert_true(c.count[0] > 0);
}

static void test_R15_profile_hits_the_interrupted_pc(void **state)
{
	struct hwperf_reason why;
	struct hwperf_control ctl = hwt_ctl("instructions:thresh=10");

	(void)state;
	assert_true(hwperf_profile_enable(&a->hw, 0, &ctl, &why) > 0);
	fakepmu_pc = PC;
	for (unsigned i = 0; i < 100; i++)
		fakepmu_count(0, FK_INSNS, PMU_MODE_U, 1);
	assert_int_equal(a->prof_hits, 10);
	assert_int_equal(a->last_prof_pc, PC);
	assert_int_equal(a->sigs[SIG], 0);
}

static void test_R15_profile_enable_errors(void **state)
{
	struct hwperf_reason why;
	struct hwperf_control ctl = hwt_ctl("instructions");

	(void)state;
	assert_int_equal(hwperf_profile_enable(&a->hw, 0, &ctl, &why), -EINVAL);
	hwt_has(&why, "threshold");
	ctl = hwt_ctl("instructions:thresh=5");
	assert_true(hwt_acquire(NULL, "cycles:k", &why) > 0);
	assert_int_equal(hwperf_profile_enable(&a->hw, 0, &ctl, &why), -EBUSY);
}

static void test_R15_threshold_needs_an_interrupt(void **state)
{
	struct fakepmu_cfg cfg;
	struct hwperf_reason why;

	(void)state;
	fakepmu_default(&cfg);
	cfg.irq = false;
	hwt_setup_cfg(&cfg, 1);
	a = fake_spawn(10, USER_UID, 10, 1);
	assert_int_equal(hwt_enable(a, 0, "instructions:thresh=5", &why), -EINVAL);
	hwt_has(&why, "interrupt");
}

/*
 * pmu_interrupt() tells the arch whether the interrupt was the counters':
 * false (spurious: the arch counts it) with nothing of hwperf's loaded,
 * or with counters loaded but none overflowed, and changes no count;
 * true when one overflowed and had not been handled yet.
 */
static void test_pmu_interrupt_reports_spurious(void **state)
{
	enum { SKID = 5 };
	struct fakepmu_cfg cfg;
	struct hwperf_reason why;

	(void)state;
	assert_false(pmu_interrupt(PC, PMU_MODE_K));
	fakepmu_default(&cfg);
	cfg.skid = SKID;
	hwt_setup_cfg(&cfg, 1);
	a = fake_spawn(10, USER_UID, 10, 1);
	fake_run(0, a);
	assert_false(pmu_interrupt(PC, PMU_MODE_K));
	assert_true(hwt_enable(a, 0, "instructions:thresh=100,sig=16", &why) > 0);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 99);
	assert_false(pmu_interrupt(PC, PMU_MODE_U));
	assert_int_equal(hwt_count(10, 0), 99);
	assert_int_equal(a->sigs[SIG], 0);
	/* Overflowed at 100; the PMU's own interrupt is SKID events away. */
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 1);
	assert_int_equal(a->sigs[SIG], 0);
	assert_true(pmu_interrupt(PC, PMU_MODE_U));
	assert_int_equal(a->sigs[SIG], 1);
	assert_false(pmu_interrupt(PC, PMU_MODE_U));
	assert_int_equal(a->sigs[SIG], 1);
	assert_int_equal(hwt_count(10, 0), 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_R15_signal_after_exactly_every_n_events, setup),
		cmocka_unit_test_setup(test_R15_overflow_inside_hwperf_waits_for_the_unlock, setup),
		cmocka_unit_test_setup(test_R15_threshold_exact_with_bulk_counts, setup),
		cmocka_unit_test_setup(test_R15_threshold_longer_than_an_8bit_counter, setup),
		cmocka_unit_test_setup(test_R15_threshold_with_msb_overflow_counters, setup),
		cmocka_unit_test_setup(test_R15_threshold_exact_despite_skid, setup),
		cmocka_unit_test_setup(test_R15_threshold_zero_means_none, setup),
		cmocka_unit_test_setup(test_R15_threshold_exact_across_switches, setup),
		cmocka_unit_test_setup(test_R15_threshold_exact_while_multiplexed, setup),
		cmocka_unit_test_setup(test_R15_profile_hits_the_interrupted_pc, setup),
		cmocka_unit_test_setup(test_R15_profile_enable_errors, setup),
		cmocka_unit_test_setup(test_R15_threshold_needs_an_interrupt, setup),
		cmocka_unit_test_setup(test_pmu_interrupt_reports_spurious, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
