/*
 * Host tests of kernel/hwperf/invariant.c: every read is checked against
 * running <= enabled, a clock event's count <= running, no count below an
 * earlier read in the same generation, and a system read equal to the sum
 * over CPUs.  Each violation is planted in hwperf's state by hand, since a
 * correct kernel never makes one, and must be counted and described.  A
 * read checks the counters some path changed since the last check (each
 * writer marks them in the set's `unchecked`): a plant by hand marks its
 * counter as such a writer would (planted()), and the fold's own marking
 * is tested with a plant that only the fold can reveal.
 */
#include "hwperf_test.h"
#include "hwperf/internal.h"

#define NCPUS 2

static struct fake_task *root, *a;

static int setup(void **state)
{
	(void)state;
	hwt_setup(NCPUS);
	root = fake_spawn(1, ROOT, 1, 0);
	a = fake_spawn(10, USER_UID, 10, 1);
	return 0;
}

/* Counter i of s was written behind every path's back, as a buggy writer
 * would: marked as changed, the way every writer of counts marks them. */
static void planted(struct hwperf_set *s, unsigned i)
{
	s->unchecked |= 1u << i;
}

static struct hwperf_inv_report inv(void)
{
	struct hwperf_inv_report r;

	hwperf_invariants(&r);
	return r;
}

/* Enable on a, run it on CPU 0, count n instructions in user mode. */
static void counting(uint64_t n)
{
	struct hwperf_reason why;

	assert_true(hwt_enable(a, 0, "instructions:u,cycles:u", &why) > 0);
	fake_run(0, a);
	fakepmu_clock += 1000;
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, n);
	fakepmu_count(0, FK_CYCLES, PMU_MODE_U, 500);
	fake_run(0, NULL);
}

static void test_honest_reads_pass_and_are_counted(void **state)
{
	struct hwperf_inv_report before = inv();

	(void)state;
	counting(40);
	assert_int_equal(hwt_count(10, 0), 40);
	fake_run(0, a);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 2);
	fake_run(0, NULL);
	assert_int_equal(hwt_count(10, 0), 42);
	assert_int_equal(inv().reads, before.reads + 2);
	assert_int_equal(inv().violations, before.violations);
}

static void test_R9_running_above_enabled_is_a_violation(void **state)
{
	uint64_t v0;

	(void)state;
	counting(40);
	v0 = inv().violations;
	a->hw.set.c.running[0] = hwperf_set_enabled(&a->hw.set, 0) + 1;
	planted(&a->hw.set, 0);
	(void)hwt_count(10, 0);
	assert_int_equal(inv().violations, v0 + 1);
	assert_non_null(strstr(inv().last, "running"));
	assert_non_null(strstr(inv().last, "instructions"));
}

/* Only an event the driver names as counting the cycle counter itself is
 * bounded by its time: core cycles may run faster than the TSC. */
static void test_clock_event_above_running_is_a_violation(void **state)
{
	struct hwperf_set *s = &a->hw.set;
	uint64_t v0;

	(void)state;
	counting(40);
	s->c.count[1] = s->c.running[1] + 1;
	planted(s, 1);
	v0 = inv().violations;
	(void)hwt_count(10, 1);
	assert_int_equal(inv().violations, v0);         /* not a clock event */
	hwperf_core.caps.clock_event = &fakepmu_generic_table.events[0];
	s->c.count[1] = s->c.running[1] + 2;
	planted(s, 1);
	(void)hwt_count(10, 1);
	assert_int_equal(inv().violations, v0 + 1);
	assert_non_null(strstr(inv().last, "clock event"));
	hwperf_core.caps.clock_event = NULL;
}

static void test_R9_count_backwards_is_a_violation(void **state)
{
	uint64_t v0;

	(void)state;
	counting(40);
	(void)hwt_count(10, 0);
	v0 = inv().violations;
	a->hw.set.c.count[0] = 39;
	planted(&a->hw.set, 0);
	(void)hwt_count(10, 0);
	assert_int_equal(inv().violations, v0 + 1);
	assert_non_null(strstr(inv().last, "read before"));
}

/* A new event restarts its counter: a lower count is then no violation. */
static void test_restart_is_not_backwards(void **state)
{
	struct hwperf_reason why;
	struct hwperf_control ctl = hwt_ctl("branches:u,cycles:u");
	uint64_t v0;

	(void)state;
	counting(40);
	(void)hwt_count(10, 0);
	v0 = inv().violations;
	assert_true(hwperf_set_control(NULL, 10, &ctl, &why) > 0);
	assert_int_equal(hwt_count(10, 0), 0);
	assert_int_equal(inv().violations, v0);
}

/* The fold marks what it changed: a count a fold went wrong on (here
 * the seen value planted above it, unmarked) is caught at the next read
 * once the counter was on hardware, with no mark by hand. */
static void test_fold_marks_the_counters_on_hardware(void **state)
{
	struct hwperf_set *s = &a->hw.set;
	uint64_t v0;

	(void)state;
	counting(40);
	(void)hwt_count(10, 0);
	assert_int_equal(s->unchecked & s->used, 0);
	v0 = inv().violations;
	s->seen[0] = 1000;                      /* unmarked */
	(void)hwt_count(10, 0);
	assert_int_equal(inv().violations, v0); /* nothing changed it */
	fake_run(0, a);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 2);
	fake_run(0, NULL);                      /* the switch-out folds */
	assert_true(s->unchecked & 1u);
	(void)hwt_count(10, 0);
	assert_int_equal(inv().violations, v0 + 1);
	assert_non_null(strstr(inv().last, "read before"));
	assert_int_equal(s->unchecked & s->used, 0);
}

/* A child's counts join every counter of the parent: all rechecked. */
static void test_added_counts_are_rechecked(void **state)
{
	struct hwperf_set child = { 0 };

	(void)state;
	counting(40);
	(void)hwt_count(10, 0);
	assert_int_equal(a->hw.set.unchecked & a->hw.set.used, 0);
	hwperf_set_add(&a->hw.set, &child);
	assert_int_equal(a->hw.set.unchecked & a->hw.set.used, a->hw.set.used);
}

static void test_R12_system_read_must_equal_the_sum_over_cpus(void **state)
{
	struct hwperf_reason why;
	struct hwperf_counts c;
	uint64_t v0;

	(void)state;
	assert_true(hwt_acquire(root, "instructions:k", &why) > 0);
	for (unsigned cpu = 0; cpu < NCPUS; cpu++)
		fake_tick(cpu);         /* each CPU loads the system block */
	for (unsigned cpu = 0; cpu < NCPUS; cpu++) {
		fakepmu_count(cpu, FK_INSNS, PMU_MODE_K, 100);
		fake_tick(cpu);
	}
	v0 = inv().violations;
	assert_true(hwperf_sys_read(NULL, &c, &why) > 0);
	assert_int_equal(c.count[0], 200);
	assert_int_equal(inv().violations, v0);
	/* A block that grew without being folded, as a lost fold would. */
	hwperf_core.sys.c.count[0] += 5;
	hwperf_core.sys.seen[0] = 0;
	assert_true(hwperf_sys_read(NULL, &c, &why) > 0);
	assert_int_equal(inv().violations, v0 + 1);
	assert_non_null(strstr(inv().last, "sum over CPUs"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_honest_reads_pass_and_are_counted, setup),
		cmocka_unit_test_setup(test_R9_running_above_enabled_is_a_violation, setup),
		cmocka_unit_test_setup(test_clock_event_above_running_is_a_violation, setup),
		cmocka_unit_test_setup(test_R9_count_backwards_is_a_violation, setup),
		cmocka_unit_test_setup(test_restart_is_not_backwards, setup),
		cmocka_unit_test_setup(test_fold_marks_the_counters_on_hardware, setup),
		cmocka_unit_test_setup(test_added_counts_are_rechecked, setup),
		cmocka_unit_test_setup(test_R12_system_read_must_equal_the_sum_over_cpus, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
