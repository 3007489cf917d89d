/*
 * Host tests of kernel/hwperf across fork, exit and wait (R16, R17, R18).
 */
#include "hwperf_test.h"

static struct fake_task *parent;

static int setup(void **state)
{
	struct hwperf_reason why;

	(void)state;
	hwt_setup(1);
	parent = fake_spawn(10, USER_UID, 10, 1);
	fake_run(0, parent);
	assert_true(hwt_enable(parent, 0, "instructions,branches:u:thresh=1000,"
	                       "sig=12", &why) > 0);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 50);
	return 0;
}

static void test_R16_fork_copies_control_with_zero_counts(void **state)
{
	struct hwperf_reason why;
	struct hwperf_control pc, cc;
	struct fake_task *child;

	(void)state;
	child = fake_fork(parent, 20);
	assert_true(hwperf_get_control(&parent->hw, 0, &pc, &why) > 0);
	assert_true(hwperf_get_control(&child->hw, 0, &cc, &why) > 0);
	assert_memory_equal(&pc, &cc, sizeof(pc));
	assert_int_equal(hwt_count(20, 0), 0);
	fake_run(0, child);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 7);
	assert_int_equal(hwt_count(20, 0), 7);
	assert_int_equal(hwt_count(10, 0), 50);
}

static void test_R16_child_of_a_lost_parent_does_not_count(void **state)
{
	struct hwperf_reason why;
	struct fake_task *child;

	(void)state;
	assert_true(hwt_acquire(NULL, "cycles:k", &why) > 0);
	assert_int_equal(hwperf_sys_release(NULL, &why), 0);
	child = fake_fork(parent, 20);
	fake_run(0, child);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 7);
	assert_int_equal(hwt_count(20, 0), 0);
}

static void test_R17_waited_child_counts_join_the_parent(void **state)
{
	struct fake_task *child;

	(void)state;
	child = fake_fork(parent, 20);
	fake_run(0, child);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 300);
	fakepmu_count(0, FK_BRANCHES, PMU_MODE_U, 2);
	fake_exit(child);
	assert_int_equal(hwt_count(10, 0), 50);         /* not yet reaped */
	hwperf_reap(&parent->hw, &child->hw);
	assert_int_equal(hwt_count(10, 0), 350);
	assert_int_equal(hwt_count(10, 1), 2);
	hwperf_reap(&parent->hw, &child->hw);           /* only once */
	assert_int_equal(hwt_count(10, 0), 350);
	/* Borrowed counts do not fire the parent's threshold. */
	assert_int_equal(parent->sigs[12], 0);
}

static void test_R17_lost_child_counts_are_not_added(void **state)
{
	struct hwperf_reason why;
	struct fake_task *child;

	(void)state;
	child = fake_fork(parent, 20);
	fake_run(0, child);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 300);
	fake_run(0, NULL);
	assert_true(hwt_acquire(NULL, "cycles:k", &why) > 0);
	assert_int_equal(hwt_count(20, 0), 300);        /* readable */
	fake_exit(child);
	hwperf_reap(&parent->hw, &child->hw);
	assert_int_equal(hwt_count(10, 0), 50);
}

static void test_R18_save_child_counters_at_exit_without_wait(void **state)
{
	struct hwperf_reason why;
	struct fake_task *child, *stranger;

	(void)state;
	child = fake_fork(parent, 20);
	stranger = fake_spawn(30, USER_UID, 10, 1);
	assert_int_equal(hwperf_save_child(&stranger->hw, 20, &why), -EPERM);
	hwt_has(&why, "not the parent");
	assert_int_equal(hwperf_save_child(&parent->hw, 99, &why), -ESRCH);
	assert_true(hwperf_save_child(&parent->hw, 20, &why) > 0);
	fake_run(0, child);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 40);
	fake_exit(child);
	assert_int_equal(hwt_count(10, 0), 90);
	hwperf_reap(&parent->hw, &child->hw);           /* not twice */
	assert_int_equal(hwt_count(10, 0), 90);
}

static void test_R18_parent_need_not_use_counters(void **state)
{
	struct hwperf_reason why;
	struct fake_task *p2, *child;

	(void)state;
	p2 = fake_spawn(40, USER_UID, 40, 1);
	child = fake_spawn(41, USER_UID, 40, 40);
	fake_run(0, child);
	assert_true(hwt_enable(child, 0, "instructions", &why) > 0);
	assert_true(hwperf_save_child(&p2->hw, 41, &why) > 0);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 13);
	fake_exit(child);
	assert_int_equal(hwt_count(40, 0), 13);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_R16_fork_copies_control_with_zero_counts, setup),
		cmocka_unit_test_setup(test_R16_child_of_a_lost_parent_does_not_count, setup),
		cmocka_unit_test_setup(test_R17_waited_child_counts_join_the_parent, setup),
		cmocka_unit_test_setup(test_R17_lost_child_counts_are_not_added, setup),
		cmocka_unit_test_setup(test_R18_save_child_counters_at_exit_without_wait, setup),
		cmocka_unit_test_setup(test_R18_parent_need_not_use_counters, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
