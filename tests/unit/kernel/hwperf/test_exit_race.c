/*
 * Host tests of hwperf against a task that is exiting: between
 * hwperf_exit and the moment the task becomes a zombie it is still in the
 * task table, and the console may ask for its counters then (issue 16:
 * `hwperf enable P` typed while `touch` exits answered `ok gen=1`, left
 * a phantom USER holder and later hung a forced system acquire).  The
 * fake env keeps an exited task findable until the test frees its slot,
 * which is exactly that window, deterministically.
 */
#include "hwperf_test.h"
#include "hwperf/internal.h"

static struct fake_task *console, *p;

static int setup(void **state)
{
	(void)state;
	hwt_setup(1);
	console = fake_spawn(1, ROOT, 1, 0);
	p = fake_spawn(27, ROOT, 1, 1);
	return 0;
}

/* The slot is freed after the reap and taken by the next task spawned. */
static struct fake_task *free_and_reuse(struct fake_task *t, int pid)
{
	hwperf_reap(&console->hw, &t->hw);
	t->alive = false;
	struct fake_task *n = fake_spawn(pid, ROOT, 1, 1);

	assert_ptr_equal(n, t);         /* the same slot, as the kernel reuses it */
	return n;
}

static void test_enable_on_exiting_task_is_esrch(void **state)
{
	struct hwperf_reason why;

	(void)state;
	fake_run(0, p);
	fake_exit(p);                   /* still in the table, not yet a zombie */
	assert_int_equal(hwt_enable(console, 27, "cycles:u", &why), -ESRCH);
	hwt_has(&why, "pid 27");
	assert_int_equal(hwperf_mode(), HWPERF_FREE);
}

static void test_set_control_on_exiting_task_is_esrch(void **state)
{
	struct hwperf_reason why;

	(void)state;
	fake_run(0, p);
	assert_true(hwt_enable(console, 27, "cycles:u", &why) > 0);
	fake_exit(p);
	assert_int_equal(hwperf_mode(), HWPERF_FREE);
	struct hwperf_control ctl = hwt_ctl("instructions:u");
	assert_int_equal(hwperf_set_control(&console->hw, 27, &ctl, &why), -ESRCH);
	hwt_has(&why, "pid 27");
	assert_int_equal(hwperf_mode(), HWPERF_FREE);
}

/* The whole sequence of the report: after the race and the slot's reuse,
 * a new holder and a forced system acquire still end (no looping list)
 * and leave the PMU in SYSTEM mode with nobody else holding it. */
static void test_forced_acquire_after_the_race_ends(void **state)
{
	struct hwperf_reason why;

	(void)state;
	fake_run(0, p);
	fake_exit(p);
	assert_int_equal(hwt_enable(console, 27, "cycles:u", &why), -ESRCH);
	struct fake_task *spin = free_and_reuse(p, 28);
	fake_run(0, spin);
	assert_true(hwt_enable(console, 28, "cycles:u", &why) > 0);
	assert_int_equal(hwperf_mode(), HWPERF_USER);
	assert_true(hwt_acquire(console, "cycles:k", &why) > 0);
	assert_true(spin->hw.flags & HWPERF_TF_LOST);
	assert_int_equal(hwperf_mode(), HWPERF_SYSTEM);
	assert_int_equal(hwperf_sys_release(&console->hw, &why), 0);
	assert_int_equal(hwperf_mode(), HWPERF_FREE);
}

/* However a holder came to be on the list after its exit, its reap takes
 * it off before the slot can be reused. */
static void test_reap_drops_a_holder_left_after_exit(void **state)
{
	struct hwperf_reason why;

	(void)state;
	fake_run(0, p);
	assert_true(hwt_enable(console, 27, "cycles:u", &why) > 0);
	fake_exit(p);
	hwperf_holder_add(&p->hw);      /* what the race used to leave */
	assert_int_equal(hwperf_mode(), HWPERF_USER);
	hwperf_reap(&console->hw, &p->hw);
	assert_int_equal(hwperf_mode(), HWPERF_FREE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_enable_on_exiting_task_is_esrch, setup),
		cmocka_unit_test_setup(test_set_control_on_exiting_task_is_esrch, setup),
		cmocka_unit_test_setup(test_forced_acquire_after_the_race_ends, setup),
		cmocka_unit_test_setup(test_reap_drops_a_holder_left_after_exit, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
