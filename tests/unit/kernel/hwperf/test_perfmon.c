/*
 * Host tests of kernel/hwperf/perfmon.c: perfmon's pause/resume and reset
 * and pctr's combined read, with the generation rules docs/hwperf.md states
 * (pause and resume keep it, reset bumps it: R7), R6 (a lost set is not
 * restarted by resume), R8 (who may touch the target) and R20 (errnos).
 */
#include "hwperf_test.h"

static struct fake_task *a, *b, *c;

static int setup(void **state)
{
	(void)state;
	hwt_setup(1);
	a = fake_spawn(10, USER_UID, 10, 1);
	b = fake_spawn(11, USER_UID, 10, 1);    /* a's process group */
	c = fake_spawn(12, OTHER_UID, 12, 1);   /* a stranger */
	fake_run(0, a);
	return 0;
}

static void insns(uint64_t n)
{
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, n);
}

static void test_pause_stops_counting_and_keeps_gen(void **state)
{
	struct hwperf_reason why;
	int gen;

	(void)state;
	gen = hwt_enable(a, 0, "instructions", &why);
	assert_true(gen > 0);
	insns(100);
	assert_int_equal(hwperf_pause(&a->hw, 0, &why), gen);
	assert_true(hwperf_paused(&a->hw));
	insns(500);
	assert_int_equal(hwt_count(10, 0), 100);
	/* Still the holder: USER mode, not released (R1, R11). */
	assert_int_equal(hwperf_mode(), HWPERF_USER);
	/* Switches and ticks do not bring the set back. */
	fake_run(0, NULL);
	fake_run(0, a);
	fake_tick(0);
	insns(500);
	assert_int_equal(hwt_count(10, 0), 100);
	/* Pausing twice changes nothing. */
	assert_int_equal(hwperf_pause(&a->hw, 0, &why), gen);
}

static void test_resume_continues_from_paused_value(void **state)
{
	struct hwperf_reason why;
	struct hwperf_counts cnt;
	int gen;

	(void)state;
	gen = hwt_enable(a, 0, "instructions", &why);
	insns(40);
	hwperf_pause(&a->hw, 0, &why);
	insns(1000);
	assert_int_equal(hwperf_resume(&a->hw, 0, &why), gen);
	assert_false(hwperf_paused(&a->hw));
	insns(2);
	assert_int_equal(hwperf_read(NULL, 10, &cnt, &why), gen);
	assert_int_equal(cnt.count[0], 42);
	/* Resume of a set that is not paused: nothing to do, same gen. */
	assert_int_equal(hwperf_resume(&a->hw, 0, &why), gen);
	insns(1);
	assert_int_equal(hwt_count(10, 0), 43);
}

static void test_pause_while_switched_out_then_resume_elsewhere(void **state)
{
	struct hwperf_reason why;
	int gen;

	(void)state;
	gen = hwt_enable(a, 0, "instructions", &why);
	insns(7);
	fake_run(0, b);
	/* b (same group) pauses a while a is not running (R8). */
	assert_int_equal(hwperf_pause(&b->hw, 10, &why), gen);
	fake_run(0, a);
	insns(100);
	assert_int_equal(hwt_count(10, 0), 7);
	fake_run(0, b);
	assert_int_equal(hwperf_resume(&b->hw, 10, &why), gen);
	fake_run(0, a);
	insns(3);
	assert_int_equal(hwt_count(10, 0), 10);
}

static void test_R7_reset_zeroes_and_bumps_gen(void **state)
{
	struct hwperf_reason why;
	struct hwperf_counts cnt;
	int gen;

	(void)state;
	gen = hwt_enable(a, 0, "instructions,cycles", &why);
	insns(55);
	assert_int_equal(hwperf_reset(&a->hw, 0, &why), gen + 1);
	assert_int_equal(hwperf_read(NULL, 10, &cnt, &why), gen + 1);
	assert_int_equal(cnt.count[0], 0);
	assert_int_equal(cnt.enabled[0], 0);
	assert_int_equal(cnt.running[0], 0);
	insns(5);
	assert_int_equal(hwt_count(10, 0), 5);
	/* The control survives a reset. */
	struct hwperf_control got;
	assert_int_equal(hwperf_get_control(NULL, 10, &got, &why), gen + 1);
	assert_string_equal(got.ev[0].name, "instructions");
	/* No invariant sees "backwards": the generation moved. */
	struct hwperf_inv_report inv;
	hwperf_invariants(&inv);
	assert_int_equal(inv.violations, 0);
}

static void test_reset_keeps_a_pause(void **state)
{
	struct hwperf_reason why;
	int gen;

	(void)state;
	gen = hwt_enable(a, 0, "instructions", &why);
	insns(9);
	hwperf_pause(&a->hw, 0, &why);
	assert_int_equal(hwperf_reset(&a->hw, 0, &why), gen + 1);
	assert_true(hwperf_paused(&a->hw));
	insns(9);
	assert_int_equal(hwt_count(10, 0), 0);
	assert_int_equal(hwperf_resume(&a->hw, 0, &why), gen + 1);
	insns(4);
	assert_int_equal(hwt_count(10, 0), 4);
}

static void test_R15_reset_restarts_threshold_progress(void **state)
{
	struct hwperf_reason why;
	struct hwperf_control ctl = hwt_ctl("instructions:thresh=10,sig=16");

	(void)state;
	assert_true(hwperf_enable(&a->hw, 0, &ctl, &why) > 0);
	insns(9);
	hwperf_reset(&a->hw, 0, &why);
	insns(9);
	assert_int_equal(a->sigs[16], 0);
	insns(1);
	assert_int_equal(a->sigs[16], 1);
}

static void test_enable_clears_a_pause(void **state)
{
	struct hwperf_reason why;

	(void)state;
	assert_true(hwt_enable(a, 0, "instructions", &why) > 0);
	hwperf_pause(&a->hw, 0, &why);
	assert_true(hwperf_release(&a->hw, 0, &why) > 0);
	assert_true(hwt_enable(a, 0, "instructions", &why) > 0);
	assert_false(hwperf_paused(&a->hw));
	insns(6);
	assert_int_equal(hwt_count(10, 0), 6);
}

static void test_R20_errors(void **state)
{
	struct hwperf_reason why;

	(void)state;
	/* Nothing enabled yet. */
	assert_int_equal(hwperf_pause(&a->hw, 0, &why), -EINVAL);
	assert_memory_equal(why.text, "EINVAL", 6);
	assert_int_equal(hwperf_resume(&a->hw, 0, &why), -EINVAL);
	assert_int_equal(hwperf_reset(&a->hw, 0, &why), -EINVAL);
	assert_int_equal(hwperf_pause(&a->hw, 99, &why), -ESRCH);
	assert_true(hwt_enable(a, 0, "instructions", &why) > 0);
	/* R8: a stranger may not. */
	assert_int_equal(hwperf_pause(&c->hw, 10, &why), -EPERM);
	assert_int_equal(hwperf_resume(&c->hw, 10, &why), -EPERM);
	assert_int_equal(hwperf_reset(&c->hw, 10, &why), -EPERM);
	struct hwperf_pctr p;
	assert_int_equal(hwperf_pctr_read(&c->hw, 10, &p, &why), -EPERM);
	/* Released: nothing to pause. */
	assert_true(hwperf_release(&a->hw, 0, &why) > 0);
	assert_int_equal(hwperf_pause(&a->hw, 0, &why), -EINVAL);
}

static void test_R6_resume_does_not_restart_a_lost_set(void **state)
{
	struct hwperf_reason why;
	int gen;

	(void)state;
	gen = hwt_enable(a, 0, "instructions", &why);
	hwperf_pause(&a->hw, 0, &why);
	assert_true(hwt_acquire(NULL, "instructions:k", &why) > 0);
	assert_int_equal(hwperf_resume(&a->hw, 0, &why), -EINVAL);
	assert_non_null(strstr(why.text, "R6"));
	assert_int_equal(hwperf_sys_release(NULL, &why), 0);
	assert_int_equal(hwperf_resume(&a->hw, 0, &why), -EINVAL);
	/* Reset of a lost set still works and moves the generation. */
	assert_true(hwperf_reset(&a->hw, 0, &why) > gen + 1);
}

static void test_system_holder_is_refused(void **state)
{
	struct hwperf_reason why;

	(void)state;
	assert_true(hwt_enable(NULL, 10, "instructions:uk", &why) > 0);
	assert_int_equal(hwperf_pause(NULL, 10, &why), -EINVAL);
	assert_non_null(strstr(why.text, "SYSTEM"));
	assert_int_equal(hwperf_reset(NULL, 10, &why), -EINVAL);
}

static void test_pctr_read_is_read_plus_cycles_and_idle(void **state)
{
	struct hwperf_reason why;
	struct hwperf_pctr p;
	int gen;

	(void)state;
	gen = hwt_enable(a, 0, "instructions", &why);
	insns(31);
	fake_cycles = 123456;
	fake_idle_cycles = 789;
	fake_idle_iterations = 12;
	assert_int_equal(hwperf_pctr_read(&a->hw, 0, &p, &why), gen);
	assert_int_equal(p.gen, gen);
	assert_int_equal(p.counts.count[0], 31);
	assert_int_equal(p.cycles, 123456);
	assert_int_equal(p.idle_cycles, 789);
	assert_int_equal(p.idle_iterations, 12);
	assert_int_equal(p.ncpus, 1);
	/* A refused read leaves nothing behind. */
	assert_int_equal(hwperf_pctr_read(&a->hw, 99, &p, &why), -ESRCH);
	assert_int_equal(p.cycles, 0);
	assert_int_equal(p.counts.count[0], 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_pause_stops_counting_and_keeps_gen, setup),
		cmocka_unit_test_setup(test_resume_continues_from_paused_value, setup),
		cmocka_unit_test_setup(test_pause_while_switched_out_then_resume_elsewhere, setup),
		cmocka_unit_test_setup(test_R7_reset_zeroes_and_bumps_gen, setup),
		cmocka_unit_test_setup(test_reset_keeps_a_pause, setup),
		cmocka_unit_test_setup(test_R15_reset_restarts_threshold_progress, setup),
		cmocka_unit_test_setup(test_enable_clears_a_pause, setup),
		cmocka_unit_test_setup(test_R20_errors, setup),
		cmocka_unit_test_setup(test_R6_resume_does_not_restart_a_lost_set, setup),
		cmocka_unit_test_setup(test_system_holder_is_refused, setup),
		cmocka_unit_test_setup(test_pctr_read_is_read_plus_cycles_and_idle, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
