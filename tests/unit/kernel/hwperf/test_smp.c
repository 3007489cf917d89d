/*
 * Host tests of kernel/hwperf across CPUs (issue 13): work on another
 * CPU's PMU is done on that CPU, by a cross-call (xcall.c), while the
 * caller waits under the lock.  The fake env's ring runs the call "on"
 * the target (fake_cpu is the target meanwhile) or, for a deaf CPU,
 * never arrives; the PMU double counts every register touch made from
 * the wrong CPU (fakepmu_foreign), which must stay 0.
 */
#include "hwperf_test.h"

#define NCPUS 4
#define TICK_CYCLES 1000u

static struct fake_task *root, *user;

static int setup(void **state)
{
	(void)state;
	hwt_setup(NCPUS);
	hwperf_set_rotation(TICK_CYCLES);
	root = fake_spawn(1, ROOT, 1, 0);
	user = fake_spawn(10, USER_UID, 10, 1);
	return 0;
}

/* user holds "instructions:u" and runs on CPU 1, with 500 counted there
 * that no hook has folded yet. */
static void user_running_on_cpu1(void)
{
	struct hwperf_reason why;

	assert_true(hwt_enable(user, 0, "instructions:u", &why) > 0);
	fake_run(1, user);
	fakepmu_count(1, FK_INSNS, PMU_MODE_U, 500);
}

static void test_R5_force_folds_holder_on_its_cpu_then_loses(void **state)
{
	struct hwperf_reason why;
	int gen0, sg;

	(void)state;
	user_running_on_cpu1();
	gen0 = hwt_gen(10);
	fake_rings = 0;
	sg = hwt_acquire(root, "instructions:k", &why);     /* from CPU 0 */
	assert_true(sg > 0);
	assert_true(fake_rings >= NCPUS - 1);
	/* Folded on CPU 1 before the loss: all 500 are the task's. */
	assert_int_equal(hwt_count(10, 0), 500);
	assert_int_equal(hwt_gen(10), gen0 + 1);
	/* Frozen: more user-mode events on CPU 1 are not the task's. */
	fakepmu_count(1, FK_INSNS, PMU_MODE_U, 70);
	fake_tick(1);
	assert_int_equal(hwt_count(10, 0), 500);
	/* And CPU 1 counts the system's events at once, without a tick. */
	fakepmu_count(1, FK_INSNS, PMU_MODE_K, 9);
	assert_int_equal(hwt_sys_count(0), 9);
	assert_int_equal(fakepmu_foreign, 0);
}

static void test_R3_acquire_programs_every_cpu_now(void **state)
{
	struct hwperf_reason why;
	struct hwperf_counts c;

	(void)state;
	assert_true(hwt_acquire(root, "instructions:k", &why) > 0);
	/* No tick ran anywhere: each CPU's counter is on already. */
	for (unsigned cpu = 0; cpu < NCPUS; cpu++) {
		assert_true(fakepmu_enabled(cpu, 0));
		fakepmu_count(cpu, FK_INSNS, PMU_MODE_K, 10 * (cpu + 1));
	}
	/* R12: per-CPU reads fold that CPU now, on that CPU. */
	for (unsigned cpu = 0; cpu < NCPUS; cpu++) {
		assert_true(hwperf_cpu_read(NULL, (int)cpu, &c, &why) > 0);
		assert_int_equal(c.count[0], 10 * (cpu + 1));
	}
	assert_int_equal(hwt_sys_count(0), 100);
	assert_int_equal(fakepmu_foreign, 0);
}

static void test_R12_system_read_folds_every_cpu_first(void **state)
{
	struct hwperf_reason why;

	(void)state;
	assert_true(hwt_acquire(root, "instructions:k", &why) > 0);
	for (unsigned cpu = 0; cpu < NCPUS; cpu++)
		fakepmu_count(cpu, FK_INSNS, PMU_MODE_K, 1000);
	/* Without the folds on each CPU only CPU 0's 1000 would show. */
	assert_int_equal(hwt_sys_count(0), 4000);
	assert_int_equal(fakepmu_foreign, 0);
}

static void test_R12_cpu_read_returns_0_only_past_the_last_cpu(void **state)
{
	struct hwperf_reason why;
	struct hwperf_counts c;

	(void)state;
	assert_true(hwt_acquire(root, "instructions:k", &why) > 0);
	assert_true(hwperf_cpu_read(NULL, NCPUS - 1, &c, &why) > 0);
	assert_int_equal(hwperf_cpu_read(NULL, NCPUS, &c, &why), 0);
	assert_int_equal(hwperf_cpu_read(NULL, HWPERF_MAX_CPUS, &c, &why), 0);
	/* A CPU that exists but does not answer is an error, not a 0. */
	fake_deaf_cpus = 1u << 2;
	fake_cycles_step = TICK_CYCLES;
	fakepmu_count(2, FK_INSNS, PMU_MODE_K, 1);
	/* One that takes none of its own ticks either is not running (a vCPU
	 * the host did not schedule): it is waited for ten times as long. */
	uint64_t t0 = fake_cycles;
	assert_int_equal(hwperf_cpu_read(NULL, 2, &c, &why), -ETIMEDOUT);
	hwt_has(&why, "ETIMEDOUT: cpu 2 did not answer within 500 ticks, and took "
	        "none of its own");
	assert_true(fake_cycles - t0 >= 500 * TICK_CYCLES);
	/* One that starts ticking only after the first 50 still had its 500,
	 * and the message says both. */
	fake_deaf_late_ticks = 3;
	assert_int_equal(hwperf_cpu_read(NULL, 2, &c, &why), -ETIMEDOUT);
	hwt_has(&why, "ETIMEDOUT: cpu 2 did not answer within 500 ticks (it took 3 "
	        "of its own meanwhile)");
	/* One that took its timer meanwhile lost the ring: 50 ticks, and the
	 * count says so. */
	fake_deaf_ticks = 7;
	t0 = fake_cycles;
	assert_int_equal(hwperf_cpu_read(NULL, 2, &c, &why), -ETIMEDOUT);
	hwt_has(&why, "ETIMEDOUT: cpu 2 did not answer within 50 ticks (it took 7 "
	        "of its own meanwhile)");
	assert_true(fake_cycles - t0 >= 50 * TICK_CYCLES);
	assert_true(fake_cycles - t0 < 60 * TICK_CYCLES);
}

static void test_R5_deaf_cpu_is_named_and_nothing_changes(void **state)
{
	struct hwperf_reason why;
	int gen0;

	(void)state;
	user_running_on_cpu1();
	gen0 = hwt_gen(10);
	fake_deaf_cpus = 1u << 1;
	fake_cycles_step = TICK_CYCLES;
	assert_int_equal(hwt_acquire(root, "instructions:k", &why), -ETIMEDOUT);
	hwt_has(&why, "cpu 1 did not answer");
	assert_int_equal(hwperf_mode(), HWPERF_USER);
	assert_int_equal(hwt_gen(10), gen0);
	/* The withdrawn call never runs, even if the ring comes late. */
	fake_cpu = 1;
	hwperf_xcall_serve(1);
	fake_cpu = 0;
	assert_true(fakepmu_enabled(1, 0));
	/* The task still counts, and a later force succeeds. */
	fake_deaf_cpus = 0;
	fake_cycles_step = 0;
	fakepmu_count(1, FK_INSNS, PMU_MODE_U, 5);
	fake_tick(1);
	assert_int_equal(hwt_count(10, 0), 505);
	assert_true(hwt_acquire(root, "instructions:k", &why) > 0);
	assert_int_equal(hwt_count(10, 0), 505);
	assert_int_equal(hwt_gen(10), gen0 + 1);
	assert_int_equal(fakepmu_foreign, 0);
}

/* CPU 1 waits for the hwperf lock with interrupts masked (no IPI gets
 * in) while CPU 0 holds it and waits for CPU 1: CPU 1 serves the call
 * from its wait, so the force succeeds instead of timing out. */
static void test_R5_cpu_waiting_for_the_lock_serves_the_call(void **state)
{
	struct hwperf_reason why;
	uint32_t polled = hwperf_xcall_stats.polled;

	(void)state;
	user_running_on_cpu1();
	fake_deaf_cpus = 1u << 1;
	fake_poll_cpu = 1;
	fake_cycles_step = 1;
	assert_true(hwt_acquire(root, "instructions:k", &why) > 0);
	assert_true(hwperf_xcall_stats.polled > polled);
	fake_poll_cpu = -1;
	fake_deaf_cpus = 0;
	assert_int_equal(hwt_count(10, 0), 500);
	fakepmu_count(1, FK_INSNS, PMU_MODE_K, 4);
	assert_int_equal(hwt_sys_count(0), 4);
	assert_int_equal(fakepmu_foreign, 0);
}

/* The ring finds CPU 1 still in an earlier ring's handler, which has
 * already looked at its mailbox and found nothing (that call was served
 * from the lock's poll): the arch refuses the new ring with EBUSY and
 * sends no IPI.  Nothing else would look at the mailbox, so the holder
 * rings again until a ring goes out, instead of waiting out its 50 ticks
 * (the stress's two ETIMEDOUTs on two vCPUs without -icount). */
static void test_R5_busy_ring_is_rung_again(void **state)
{
	struct hwperf_reason why;
	uint32_t rerung = hwperf_xcall_stats.rerung;

	(void)state;
	user_running_on_cpu1();
	fake_busy_rings = 3;
	fake_cycles_step = TICK_CYCLES;
	fake_rings = 0;
	assert_true(hwt_acquire(root, "instructions:k", &why) > 0);
	assert_int_equal(fake_busy_rings, 0);
	assert_true(fake_rings >= 4);
	assert_true(hwperf_xcall_stats.rerung > rerung);
	assert_int_equal(hwt_count(10, 0), 500);
	assert_int_equal(fakepmu_foreign, 0);
}

static void test_R4_system_enable_names_task_and_cpu(void **state)
{
	struct hwperf_reason why;

	(void)state;
	user_running_on_cpu1();
	assert_int_equal(hwt_enable(root, 0, "instructions:k", &why), -EBUSY);
	hwt_has(&why, "pid 10 has USER counters live on cpu 1");
	assert_int_equal(hwperf_mode(), HWPERF_USER);
}

static void test_R19_overflow_on_cpu3_counts_only_there(void **state)
{
	struct hwperf_reason why;
	struct hwperf_counts c;

	(void)state;
	assert_true(hwt_acquire(root, "instructions:k:thresh=100", &why) > 0);
	fakepmu_count(3, FK_INSNS, PMU_MODE_K, 250);
	for (unsigned cpu = 0; cpu < NCPUS; cpu++) {
		assert_true(hwperf_cpu_read(NULL, (int)cpu, &c, &why) > 0);
		assert_int_equal(c.count[0], cpu == 3 ? 250 : 0);
	}
	assert_int_equal(fakepmu_foreign, 0);
}

/* R3/R7: set-control changes the events on every CPU at once; counts of
 * an unchanged event carry on, each CPU's folded on that CPU first. */
static void test_R3_set_control_reprograms_every_cpu_now(void **state)
{
	struct hwperf_reason why;
	struct hwperf_control ctl;
	int g;

	(void)state;
	g = hwt_acquire(root, "instructions:k", &why);
	assert_true(g > 0);
	for (unsigned cpu = 0; cpu < NCPUS; cpu++)
		fakepmu_count(cpu, FK_INSNS, PMU_MODE_K, 7);
	ctl = hwt_ctl("instructions:k,branches:k");
	assert_int_equal(hwperf_sys_set_control(NULL, &ctl, &why), g + 1);
	for (unsigned cpu = 0; cpu < NCPUS; cpu++) {
		fakepmu_count(cpu, FK_BRANCHES, PMU_MODE_K, 1);
		fakepmu_count(cpu, FK_INSNS, PMU_MODE_K, 1);
	}
	assert_int_equal(hwt_sys_count(0), 8 * NCPUS);
	assert_int_equal(hwt_sys_count(1), NCPUS);
	assert_int_equal(fakepmu_foreign, 0);
	/* A CPU that does not answer: named, the events stay as they were. */
	fake_deaf_cpus = 1u << 3;
	fake_cycles_step = TICK_CYCLES;
	ctl = hwt_ctl("branches:k");
	assert_int_equal(hwperf_sys_set_control(NULL, &ctl, &why), -ETIMEDOUT);
	hwt_has(&why, "cpu 3 did not answer");
	fake_deaf_cpus = 0;
	fake_cycles_step = 0;
	assert_int_equal(hwt_sys_count(1), NCPUS);
	fakepmu_count(2, FK_INSNS, PMU_MODE_K, 1);
	fake_tick(2);
	assert_int_equal(hwt_sys_count(0), 8 * NCPUS + 1);
}

static void test_release_takes_every_cpu_block_off_now(void **state)
{
	struct hwperf_reason why;

	(void)state;
	assert_true(hwt_acquire(root, "instructions:k", &why) > 0);
	for (unsigned cpu = 0; cpu < NCPUS; cpu++)
		fakepmu_count(cpu, FK_INSNS, PMU_MODE_K, 3);
	assert_int_equal(hwperf_sys_release(NULL, &why), 0);
	for (unsigned cpu = 0; cpu < NCPUS; cpu++)
		assert_false(fakepmu_enabled(cpu, 0));
	assert_int_equal(fakepmu_foreign, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_R5_force_folds_holder_on_its_cpu_then_loses, setup),
		cmocka_unit_test_setup(test_R3_acquire_programs_every_cpu_now, setup),
		cmocka_unit_test_setup(test_R12_system_read_folds_every_cpu_first, setup),
		cmocka_unit_test_setup(test_R12_cpu_read_returns_0_only_past_the_last_cpu, setup),
		cmocka_unit_test_setup(test_R5_deaf_cpu_is_named_and_nothing_changes, setup),
		cmocka_unit_test_setup(test_R5_busy_ring_is_rung_again, setup),
		cmocka_unit_test_setup(test_R5_cpu_waiting_for_the_lock_serves_the_call, setup),
		cmocka_unit_test_setup(test_R4_system_enable_names_task_and_cpu, setup),
		cmocka_unit_test_setup(test_R19_overflow_on_cpu3_counts_only_there, setup),
		cmocka_unit_test_setup(test_R3_set_control_reprograms_every_cpu_now, setup),
		cmocka_unit_test_setup(test_release_takes_every_cpu_block_off_now, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
