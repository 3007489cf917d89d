/*
 * Host tests of kernel/hwperf/final.c: a task's counts after it exited,
 * as `stat` reads them from the on_reap hook (the pid lookup no longer
 * finds an exited task).
 */
#include "hwperf_test.h"

static struct fake_task *task;

static int setup(void **state)
{
	(void)state;
	hwt_setup(1);
	task = fake_spawn(10, USER_UID, 10, 1);
	return 0;
}

static void test_final_counts_after_exit(void **state)
{
	struct hwperf_reason why;
	struct hwperf_control want, got;
	struct hwperf_counts c;

	(void)state;
	fake_run(0, task);
	assert_true(hwt_enable(task, 0, "instructions,branches:u", &why) > 0);
	assert_true(hwperf_get_control(&task->hw, 0, &want, &why) > 0);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 123);
	fakepmu_count(0, FK_BRANCHES, PMU_MODE_U, 4);
	fake_exit(task);
	assert_int_equal(hwperf_task_final(&task->hw, &got, &c), 1);
	assert_memory_equal(&got, &want, sizeof(got));
	assert_int_equal(c.count[0], 123);
	assert_int_equal(c.count[1], 4);
}

/* Still running: what the hardware holds is folded in first. */
static void test_final_of_a_running_task_is_live(void **state)
{
	struct hwperf_reason why;
	struct hwperf_control got;
	struct hwperf_counts c;

	(void)state;
	fake_run(0, task);
	assert_true(hwt_enable(task, 0, "instructions", &why) > 0);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 9);
	assert_true(hwperf_task_final(&task->hw, &got, &c) > 0);
	assert_int_equal(c.count[0], 9);
}

static void test_never_enabled_is_einval_and_zero(void **state)
{
	struct hwperf_control got;
	struct hwperf_counts c;

	(void)state;
	memset(&c, 0xff, sizeof(c));
	assert_int_equal(hwperf_task_final(&task->hw, &got, &c), -EINVAL);
	assert_int_equal(c.count[0], 0);
	assert_string_equal(got.ev[0].name, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_final_counts_after_exit, setup),
		cmocka_unit_test_setup(test_final_of_a_running_task_is_live, setup),
		cmocka_unit_test_setup(test_never_enabled_is_einval_and_zero, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
