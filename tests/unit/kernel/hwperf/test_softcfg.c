/*
 * Host tests of kernel/hwperf/softcfg.c: reconfiguring the software PMU
 * at run time.  Only root, only on the soft driver, only while the PMU is
 * FREE; a refusal names the holder (R20) and changes nothing; a change
 * takes effect for the next enable (counters placed and wrapped at the
 * new shape) and can be undone.
 */
#include "hwperf_test.h"
#include "pmu/soft/soft_regs.h"

static uint64_t now;
static struct fake_task *a, *user, *root;

static uint64_t clock_now(void)
{
	return now;
}

static unsigned this_cpu(void)
{
	return fake_cpu;
}

static int setup(void **state)
{
	struct softpmu_config cfg = { SOFTPMU_COUNTERS_DEFAULT, SOFTPMU_WIDTH_DEFAULT,
	                              clock_now, this_cpu, NULL };
	struct hwperf_reason why;

	(void)state;
	now = 0;
	fake_env_reset(1);
	assert_int_equal(softpmu_configure(&cfg), 0);
	assert_int_equal(hwperf_init(&softpmu_ops, &why), 0);
	root = fake_spawn(1, ROOT, 1, 0);
	a = fake_spawn(10, ROOT, 10, 1);
	user = fake_spawn(11, USER_UID, 11, 1);
	fake_run(0, a);
	return 0;
}

static void assert_shape(unsigned n, unsigned width)
{
	struct softpmu_config cfg;

	softpmu_get_config(&cfg);
	assert_int_equal(cfg.ncounters, n);
	assert_int_equal(cfg.width, width);
	assert_int_equal(hwperf_caps()->ncounters, n);
	assert_int_equal(hwperf_caps()->counter[0].width, width);
}

static void test_softcfg_changes_shape_and_restores(void **state)
{
	struct hwperf_reason why;

	(void)state;
	assert_int_equal(hwperf_soft_configure(NULL, 8, 16, &why), 0);
	assert_shape(8, 16);
	assert_non_null(strstr(hwperf_caps()->status, "8 counters x 16 bits"));
	assert_int_equal(hwperf_caps()->counter[7].max_period, 0xffffu);
	assert_int_equal(hwperf_soft_configure(&root->hw, SOFTPMU_COUNTERS_DEFAULT,
	                                       SOFTPMU_WIDTH_DEFAULT, &why), 0);
	assert_shape(SOFTPMU_COUNTERS_DEFAULT, SOFTPMU_WIDTH_DEFAULT);
}

static void test_softcfg_refuses_out_of_range(void **state)
{
	struct hwperf_reason why;
	const unsigned bad[][2] = {
		{ 0, 32 }, { SOFTPMU_COUNTERS_MAX + 1, 32 },
		{ 2, SOFTPMU_WIDTH_MIN - 1 }, { 2, SOFTPMU_WIDTH_MAX + 1 },
	};

	(void)state;
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(hwperf_soft_configure(NULL, bad[i][0], bad[i][1], &why),
		                 -EINVAL);
		hwt_has(&why, "EINVAL: soft PMU takes 1..16 counters of 8..64 bits");
		assert_shape(SOFTPMU_COUNTERS_DEFAULT, SOFTPMU_WIDTH_DEFAULT);
	}
}

static void test_softcfg_needs_root(void **state)
{
	struct hwperf_reason why;

	(void)state;
	assert_int_equal(hwperf_soft_configure(&user->hw, 4, 16, &why), -EPERM);
	hwt_has(&why, "EPERM: reconfiguring the PMU needs root; pid 11 has uid 100");
	assert_shape(SOFTPMU_COUNTERS_DEFAULT, SOFTPMU_WIDTH_DEFAULT);
}

/* R20: EBUSY names the USER holder, its CPU and how many there are. */
static void test_R20_softcfg_ebusy_while_user_holds(void **state)
{
	struct hwperf_reason why;

	(void)state;
	assert_true(hwt_enable(a, 0, "syscalls", &why) > 0);
	assert_int_equal(hwperf_soft_configure(NULL, 4, 8, &why), -EBUSY);
	hwt_has(&why, "EBUSY: pid 10 holds the counters in USER mode (running on cpu 0; 1 holder)");
	assert_true(hwt_enable(NULL, 11, "syscalls", &why) > 0);
	assert_int_equal(hwperf_soft_configure(NULL, 4, 8, &why), -EBUSY);
	hwt_has(&why, "EBUSY: pid 11 holds the counters in USER mode (not running; 2 holders)");
	assert_shape(SOFTPMU_COUNTERS_DEFAULT, SOFTPMU_WIDTH_DEFAULT);
	/* Counting went on untouched. */
	softpmu_event(SOFTPMU_SYSCALLS, PMU_MODE_U, 3, 0);
	assert_int_equal(hwt_count(10, 0), 3);
	assert_true(hwperf_release(NULL, 10, &why) >= 0);
	assert_true(hwperf_release(NULL, 11, &why) >= 0);
	assert_int_equal(hwperf_soft_configure(NULL, 4, 8, &why), 0);
	assert_shape(4, 8);
}

static void test_R20_softcfg_ebusy_in_system_mode(void **state)
{
	struct hwperf_reason why;

	(void)state;
	assert_true(hwt_acquire(NULL, "syscalls:uk", &why) > 0);
	assert_int_equal(hwperf_soft_configure(NULL, 4, 8, &why), -EBUSY);
	hwt_has(&why, "EBUSY: the kernel holds the counters in SYSTEM mode");
	assert_shape(SOFTPMU_COUNTERS_DEFAULT, SOFTPMU_WIDTH_DEFAULT);
	assert_int_equal(hwperf_sys_release(NULL, &why), 0);
	assert_int_equal(hwperf_soft_configure(NULL, 4, 8, &why), 0);
}

/* A released task holds nothing: its next enable places its events on
 * the new shape, where an 8-bit counter wraps for real, counts exactly,
 * and two events share the one counter (R13). */
static void test_softcfg_new_shape_counts_exactly(void **state)
{
	struct hwperf_reason why;
	struct hwperf_counts c;
	const uint64_t total = 1000u * 256u + 17u;
	enum { CHUNK = 100, TICK = 1000 };

	(void)state;
	assert_true(hwt_enable(a, 0, "syscalls", &why) > 0);
	assert_true(hwperf_release(NULL, 10, &why) >= 0);
	assert_int_equal(hwperf_soft_configure(NULL, 1, 8, &why), 0);
	assert_true(hwt_enable(a, 0, "syscalls", &why) > 0);
	for (uint64_t fed = 0; fed < total; fed += CHUNK) {
		softpmu_event(SOFTPMU_SYSCALLS, PMU_MODE_U,
		              total - fed < CHUNK ? total - fed : CHUNK, 0);
		assert_true(softpmu_peek(0, 0) <= 0xffu);
	}
	assert_int_equal(hwt_count(10, 0), total);
	assert_true(hwperf_set_control(NULL, 10, &(struct hwperf_control){
		.ev = { { .name = "syscalls", .modes = HWPERF_MODE_U },
		        { .name = "csw", .modes = HWPERF_MODE_U } } }, &why) > 0);
	for (unsigned i = 0; i < 4; i++) {
		now += TICK;
		fake_tick(0);
	}
	assert_true(hwperf_read(NULL, 10, &c, &why) > 0);
	assert_int_equal(c.enabled[1], 4 * TICK);
	assert_int_equal(c.running[0] + c.running[1], 4 * TICK);
}

static void test_softcfg_refused_on_another_driver(void **state)
{
	struct hwperf_reason why;

	(void)state;
	hwt_setup(1);
	assert_int_equal(hwperf_soft_configure(NULL, 4, 8, &why), -ENODEV);
	hwt_has(&why, "ENODEV: the active PMU is");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_softcfg_changes_shape_and_restores, setup),
		cmocka_unit_test_setup(test_softcfg_refuses_out_of_range, setup),
		cmocka_unit_test_setup(test_softcfg_needs_root, setup),
		cmocka_unit_test_setup(test_R20_softcfg_ebusy_while_user_holds, setup),
		cmocka_unit_test_setup(test_R20_softcfg_ebusy_in_system_mode, setup),
		cmocka_unit_test_setup(test_softcfg_new_shape_counts_exactly, setup),
		cmocka_unit_test_setup(test_softcfg_refused_on_another_driver, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
