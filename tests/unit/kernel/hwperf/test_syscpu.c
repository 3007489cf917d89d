/*
 * Host tests of kernel/hwperf SYSTEM mode across CPUs: per-CPU blocks, the
 * global block they fold into, and the system calls that read and change
 * them (R12, R19).
 */
#include "hwperf_test.h"

#define NCPUS 3

static struct fake_task *root, *user;

static void tick_all(void)
{
	for (unsigned c = 0; c < NCPUS; c++)
		fake_tick(c);
}

static void shape(unsigned width)
{
	struct fakepmu_cfg cfg;

	fakepmu_default(&cfg);
	cfg.width = width;
	hwt_setup_cfg(&cfg, NCPUS);
	root = fake_spawn(1, ROOT, 1, 0);
	user = fake_spawn(10, USER_UID, 10, 1);
}

static int setup(void **state)
{
	struct hwperf_reason why;

	(void)state;
	shape(32);
	assert_true(hwt_acquire(root, "instructions:uk,branches:k", &why) > 0);
	tick_all();
	return 0;
}

static int setup_free(void **state)
{
	(void)state;
	shape(32);
	return 0;
}

static void test_R12_system_read_adds_every_cpu(void **state)
{
	struct hwperf_reason why;
	struct hwperf_counts c;
	int g;

	(void)state;
	for (unsigned cpu = 0; cpu < NCPUS; cpu++)
		fakepmu_count(cpu, FK_INSNS, PMU_MODE_K, 100 * (cpu + 1));
	fakepmu_count(2, FK_BRANCHES, PMU_MODE_K, 5);
	tick_all();
	g = hwperf_sys_read(&user->hw, &c, &why);
	assert_true(g > 0);
	assert_int_equal(c.count[0], 600);
	assert_int_equal(c.count[1], 5);
	/* Folding again adds nothing twice. */
	assert_int_equal(hwperf_sys_read(NULL, &c, &why), g);
	assert_int_equal(c.count[0], 600);
	for (unsigned cpu = 0; cpu < NCPUS; cpu++) {
		assert_int_equal(hwperf_cpu_read(NULL, (int)cpu, &c, &why), g);
		assert_int_equal(c.count[0], 100 * (cpu + 1));
	}
	fakepmu_count(1, FK_INSNS, PMU_MODE_U, 1);
	fake_tick(1);
	assert_int_equal(hwt_sys_count(0), 601);
}

static void test_R12_cpu_read_of_missing_cpu_returns_0(void **state)
{
	struct hwperf_reason why;
	struct hwperf_counts c;

	(void)state;
	assert_int_equal(hwperf_cpu_read(NULL, NCPUS, &c, &why), 0);
	assert_int_equal(hwperf_cpu_read(NULL, -1, &c, &why), 0);
	assert_int_equal(hwperf_cpu_read(NULL, 1000, &c, &why), 0);
	assert_true(hwperf_cpu_read(NULL, NCPUS - 1, &c, &why) > 0);
}

static void test_R12_system_get_control_needs_system_mode(void **state)
{
	struct hwperf_reason why;
	struct hwperf_control got;

	(void)state;
	assert_int_equal(hwperf_sys_get_control(NULL, &got, &why), -EINVAL);
	hwt_has(&why, "not in SYSTEM mode");
	assert_true(hwt_enable(user, 0, "cycles", &why) > 0);
	assert_int_equal(hwperf_sys_get_control(NULL, &got, &why), -EINVAL);
	hwt_has(&why, "USER");
}

static void test_R12_system_set_control_and_release_need_root(void **state)
{
	struct hwperf_reason why;
	struct hwperf_control ctl = hwt_ctl("cycles:k"), got;
	int g;

	(void)state;
	assert_int_equal(hwperf_sys_set_control(&user->hw, &ctl, &why), -EPERM);
	assert_int_equal(hwperf_sys_release(&user->hw, &why), -EPERM);
	assert_int_equal(hwperf_mode(), HWPERF_SYSTEM);
	g = hwperf_sys_get_control(&user->hw, &got, &why);
	assert_true(g > 0);
	assert_string_equal(got.ev[0].name, "instructions");
	assert_int_equal(hwperf_sys_set_control(&root->hw, &ctl, &why), g + 1);
	assert_true(hwperf_sys_get_control(NULL, &got, &why) == g + 1);
	assert_string_equal(got.ev[0].name, "cycles");
}

static void test_R12_system_release_returns_0_and_folds(void **state)
{
	struct hwperf_reason why;

	(void)state;
	fakepmu_count(0, FK_INSNS, PMU_MODE_K, 10);     /* this CPU, live */
	fakepmu_count(1, FK_INSNS, PMU_MODE_K, 20);
	fakepmu_count(2, FK_INSNS, PMU_MODE_K, 30);
	fake_tick(1);
	fake_tick(2);
	assert_int_equal(hwperf_sys_release(&root->hw, &why), 0);
	assert_int_equal(hwperf_mode(), HWPERF_FREE);
	tick_all();
	assert_int_equal(hwt_sys_count(0), 60);
	assert_false(fakepmu_enabled(0, 0));
	assert_false(fakepmu_enabled(1, 0));
}

static void test_R12_release_through_the_holding_task(void **state)
{
	struct hwperf_reason why;

	(void)state;
	fake_run(0, root);
	assert_true(hwt_enable(root, 0, "instructions:k", &why) > 0);
	fakepmu_count(0, FK_INSNS, PMU_MODE_K, 8);
	/* The holder's own read is the system read. */
	assert_int_equal(hwt_count(1, 0), 8);
	assert_int_equal(hwperf_release(&root->hw, 0, &why), 0);
	assert_int_equal(hwperf_mode(), HWPERF_FREE);
}

static void test_R19_overflow_updates_only_its_cpu(void **state)
{
	struct hwperf_reason why;
	struct hwperf_counts c0, c1;

	(void)state;
	shape(8);
	assert_true(hwt_acquire(NULL, "instructions:k", &why) > 0);
	tick_all();
	fakepmu_count(1, FK_INSNS, PMU_MODE_K, 1000);   /* several overflows */
	assert_true(fakepmu_interrupts >= 3);
	assert_true(hwperf_cpu_read(NULL, 0, &c0, &why) > 0);
	assert_true(hwperf_cpu_read(NULL, 1, &c1, &why) > 0);
	assert_int_equal(c0.count[0], 0);
	assert_true(c1.count[0] >= 3 * 255 && c1.count[0] <= 1000);
	fake_tick(1);
	assert_true(hwperf_cpu_read(NULL, 1, &c1, &why) > 0);
	assert_int_equal(c1.count[0], 1000);
	assert_int_equal(hwt_sys_count(0), 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_R12_system_read_adds_every_cpu, setup),
		cmocka_unit_test_setup(test_R12_cpu_read_of_missing_cpu_returns_0, setup),
		cmocka_unit_test_setup(test_R12_system_get_control_needs_system_mode, setup_free),
		cmocka_unit_test_setup(test_R12_system_set_control_and_release_need_root, setup),
		cmocka_unit_test_setup(test_R12_system_release_returns_0_and_folds, setup),
		cmocka_unit_test_setup(test_R12_release_through_the_holding_task, setup_free),
		cmocka_unit_test_setup(test_R19_overflow_updates_only_its_cpu, setup_free),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
