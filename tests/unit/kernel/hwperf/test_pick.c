/*
 * Host tests of kernel/hwperf/pick.c: choosing the PMU driver at boot.
 */
#include "hwperf_test.h"
#include "pmu/soft/soft_regs.h"

static int probe_absent(struct pmu_caps *caps)
{
	memset(caps, 0, sizeof(*caps));
	strcpy(caps->status, "gone: not present");
	return -ENODEV;
}

static int probe_dead(struct pmu_caps *caps)
{
	memset(caps, 0, sizeof(*caps));
	strcpy(caps->status, "dead: present");
	caps->ncounters = 4;
	return 0;                       /* present, counts stays false */
}

static struct pmu_ops absent_ops, dead_ops;
static unsigned reports;

static void count_reports(const struct pmu_driver *d,
                          const struct pmu_caps *caps, int rc)
{
	(void)d;
	(void)caps;
	(void)rc;
	reports++;
}

static int setup(void **state)
{
	struct fakepmu_cfg cfg;

	(void)state;
	fakepmu_default(&cfg);
	fakepmu_setup(&cfg);
	absent_ops = fakepmu_ops;
	absent_ops.probe = probe_absent;
	dead_ops = fakepmu_ops;
	dead_ops.probe = probe_dead;
	reports = 0;
	return 0;
}

static void test_pick_best_counting_driver(void **state)
{
	const struct pmu_driver drv[] = {
		{ "soft", PMU_RANK_SOFT, &softpmu_ops, NULL },
		{ "dead", PMU_RANK_MODEL, &dead_ops, NULL },
		{ "fake", PMU_RANK_ARCH, &fakepmu_ops, NULL },
		{ "gone", PMU_RANK_MODEL, &absent_ops, NULL },
	};

	(void)state;
	assert_int_equal(hwperf_pick(drv, 4, NULL, count_reports), 2);
	assert_int_equal(reports, 4);
}

static void test_pick_falls_back_to_soft(void **state)
{
	const struct pmu_driver drv[] = {
		{ "dead", PMU_RANK_ARCH, &dead_ops, NULL },
		{ "soft", PMU_RANK_SOFT, &softpmu_ops, NULL },
		{ "gone", PMU_RANK_MODEL, &absent_ops, NULL },
	};

	(void)state;
	assert_int_equal(hwperf_pick(drv, 3, NULL, NULL), 1);
	assert_int_equal(hwperf_pick(drv, 1, NULL, NULL), -1);
}

static void test_pick_by_name(void **state)
{
	const struct pmu_driver drv[] = {
		{ "fake", PMU_RANK_ARCH, &fakepmu_ops, NULL },
		{ "soft", PMU_RANK_SOFT, &softpmu_ops, NULL },
		{ "dead", PMU_RANK_MODEL, &dead_ops, NULL },
	};

	(void)state;
	assert_int_equal(hwperf_pick(drv, 3, "soft", NULL), 1);
	/* A named driver that does not count is not forced on anyone. */
	assert_int_equal(hwperf_pick(drv, 3, "dead", NULL), 0);
	assert_int_equal(hwperf_pick(drv, 3, "nonesuch", NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_pick_best_counting_driver, setup),
		cmocka_unit_test_setup(test_pick_falls_back_to_soft, setup),
		cmocka_unit_test_setup(test_pick_by_name, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
