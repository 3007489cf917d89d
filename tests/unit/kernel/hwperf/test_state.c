/*
 * Host tests of kernel/hwperf ownership: FREE / USER / SYSTEM, enable,
 * forced acquire, losing counters, generations, permissions, and the
 * one-line reasons (R1..R8, R20).
 */
#include "hwperf_test.h"

/* Tasks: 10 and 11 are a user's program (pgid 10); 20 another user's;
 * 1 is root. */
static struct fake_task *root, *a, *b, *other;

static int setup(void **state)
{
	(void)state;
	hwt_setup(2);
	root = fake_spawn(1, ROOT, 1, 0);
	a = fake_spawn(10, USER_UID, 10, 1);
	b = fake_spawn(11, USER_UID, 10, 10);
	other = fake_spawn(20, OTHER_UID, 20, 1);
	return 0;
}

/* ---- R1 ------------------------------------------------------------------- */

static void test_R1_pmu_is_in_exactly_one_state(void **state)
{
	struct hwperf_reason why;

	(void)state;
	assert_int_equal(hwperf_mode(), HWPERF_FREE);
	assert_true(hwt_enable(a, 0, "instructions", &why) > 0);
	assert_true(hwt_enable(b, 0, "cycles", &why) > 0);
	assert_int_equal(hwperf_mode(), HWPERF_USER);
	assert_true(hwt_acquire(root, "cycles:k", &why) > 0);
	assert_int_equal(hwperf_mode(), HWPERF_SYSTEM);
	/* SYSTEM excludes USER: the holders are gone, new ones refused. */
	assert_int_equal(hwt_enable(other, 0, "cycles", &why), -EBUSY);
	assert_int_equal(hwperf_mode(), HWPERF_SYSTEM);
	assert_int_equal(hwperf_sys_release(&root->hw, &why), 0);
	assert_int_equal(hwperf_mode(), HWPERF_FREE);
}

static void test_R1_release_of_last_holder_frees(void **state)
{
	struct hwperf_reason why;

	(void)state;
	assert_true(hwt_enable(a, 0, "instructions", &why) > 0);
	assert_int_equal(hwperf_mode(), HWPERF_USER);
	assert_true(hwperf_release(&a->hw, 0, &why) > 0);
	assert_int_equal(hwperf_mode(), HWPERF_FREE);
}

/* `mem`'s hwperf_sets: a holder until released, whatever its set keeps. */
static void test_R1_a_task_holds_until_release(void **state)
{
	struct hwperf_reason why;

	(void)state;
	assert_false(hwperf_task_holds(&a->hw));
	assert_true(hwt_enable(a, 0, "instructions", &why) > 0);
	assert_true(hwperf_task_holds(&a->hw));
	assert_true(hwperf_release(&a->hw, 0, &why) > 0);
	assert_false(hwperf_task_holds(&a->hw));
	assert_true(a->hw.set.used != 0);       /* its counts stay readable */
	/* Lost to SYSTEM mode is still held: the task has to let go. */
	assert_true(hwt_enable(a, 0, "instructions", &why) > 0);
	assert_true(hwt_acquire(root, "cycles:k", &why) > 0);
	assert_true(hwperf_task_holds(&a->hw));
	assert_true(hwperf_task_holds(&root->hw) || hwperf_mode() == HWPERF_SYSTEM);
	assert_int_equal(hwperf_sys_release(&root->hw, &why), 0);
	assert_true(hwperf_release(&a->hw, 0, &why) > 0);
	assert_false(hwperf_task_holds(&a->hw));
}

/* R11 after R6: releasing a set lost to SYSTEM mode ends it, as releasing
 * any other does.  It used to stay marked lost, so a second release
 * succeeded and set-control brought the released counters back. */
static void test_R11_release_ends_a_lost_set(void **state)
{
	struct hwperf_reason why;
	struct hwperf_control ctl = hwt_ctl("instructions");

	(void)state;
	assert_true(hwt_enable(a, 0, "instructions", &why) > 0);
	assert_true(hwt_acquire(root, "cycles:k", &why) > 0);
	assert_int_equal(hwperf_sys_release(&root->hw, &why), 0);
	assert_true(hwperf_release(&a->hw, 0, &why) > 0);
	assert_int_equal(hwperf_release(&a->hw, 0, &why), -EINVAL);
	hwt_has(&why, "no counters to release");
	assert_int_equal(hwperf_set_control(&a->hw, 0, &ctl, &why), -EINVAL);
	assert_int_equal(hwperf_mode(), HWPERF_FREE);
	assert_false(hwperf_task_holds(&a->hw));
}

/* ---- R2 ------------------------------------------------------------------- */

static void test_R2_user_counters_count_only_while_task_runs(void **state)
{
	struct hwperf_reason why;

	(void)state;
	fake_run(0, a);
	assert_true(hwt_enable(a, 0, "instructions", &why) > 0);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 100);
	fake_run(0, b);                 /* b has no counters */
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 50);
	assert_false(fakepmu_enabled(0, 0));
	fake_run(0, a);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 7);
	fake_run(0, NULL);
	assert_int_equal(hwt_count(10, 0), 107);
}

static void test_R2_any_number_of_tasks_share_the_hardware(void **state)
{
	enum { NTASKS = 6, ROUNDS = 5 };
	struct fake_task *t[NTASKS];
	struct hwperf_reason why;

	(void)state;
	for (int i = 0; i < NTASKS; i++) {
		t[i] = fake_spawn(100 + i, USER_UID, 100, 1);
		assert_true(hwt_enable(t[i], 0, "instructions,branches", &why) > 0);
	}
	for (int r = 0; r < ROUNDS; r++)
		for (int i = 0; i < NTASKS; i++) {
			fake_run(0, t[i]);
			fakepmu_count(0, FK_INSNS, PMU_MODE_U, (uint64_t)i + 1);
			fakepmu_count(0, FK_BRANCHES, PMU_MODE_U, 2 * ((uint64_t)i + 1));
		}
	fake_run(0, NULL);
	for (int i = 0; i < NTASKS; i++) {
		assert_int_equal(hwt_count(100 + i, 0), ROUNDS * (i + 1));
		assert_int_equal(hwt_count(100 + i, 1), 2 * ROUNDS * (i + 1));
	}
}

static void test_R2_counts_follow_a_task_across_cpus(void **state)
{
	struct hwperf_reason why;

	(void)state;
	fake_run(0, a);
	assert_true(hwt_enable(a, 0, "instructions", &why) > 0);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 5);
	fake_run(0, NULL);
	fake_run(1, a);                 /* migrated */
	fakepmu_count(1, FK_INSNS, PMU_MODE_U, 7);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 100);    /* not a's CPU now */
	fake_run(1, NULL);
	assert_int_equal(hwt_count(10, 0), 12);
}

static void test_R2_enable_of_a_task_running_elsewhere_starts_at_its_tick(void **state)
{
	struct hwperf_reason why;
	unsigned kicks;

	(void)state;
	fake_run(1, a);
	kicks = fake_kicks;
	assert_true(hwt_enable(b, 10, "instructions", &why) > 0);  /* from cpu 0 */
	assert_true(fake_kicks > kicks);
	fake_tick(1);
	fakepmu_count(1, FK_INSNS, PMU_MODE_U, 9);
	fake_tick(1);
	assert_int_equal(hwt_count(10, 0), 9);
	/* Released from cpu 0: it stops at cpu 1's next tick. */
	assert_true(hwperf_release(&b->hw, 10, &why) > 0);
	fake_tick(1);
	fakepmu_count(1, FK_INSNS, PMU_MODE_U, 9);
	assert_int_equal(hwt_count(10, 0), 9);
	assert_false(fakepmu_enabled(1, 0));
}

/* ---- R3 ------------------------------------------------------------------- */

static void test_R3_system_mode_needs_root_and_k(void **state)
{
	struct hwperf_reason why;

	(void)state;
	assert_int_equal(hwt_enable(a, 0, "cycles:k", &why), -EPERM);
	assert_int_equal(hwt_acquire(a, "cycles:k", &why), -EPERM);
	assert_int_equal(hwt_acquire(root, "cycles:u", &why), -EINVAL);
	/* Root without k counts its own task in USER mode. */
	assert_true(hwt_enable(root, 0, "cycles:ux", &why) > 0);
	assert_int_equal(hwperf_mode(), HWPERF_USER);
	assert_true(hwperf_release(&root->hw, 0, &why) > 0);
	assert_true(hwt_enable(root, 0, "cycles:uk", &why) > 0);
	assert_int_equal(hwperf_mode(), HWPERF_SYSTEM);
}

static void test_R3_system_counts_every_cpu_and_ignores_switches(void **state)
{
	struct hwperf_reason why;

	(void)state;
	fake_run(0, a);
	fake_run(1, b);
	assert_true(hwt_acquire(NULL, "instructions:uk", &why) > 0);
	fake_tick(1);                   /* cpu 1 picks the change up */
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 10);
	fakepmu_count(1, FK_INSNS, PMU_MODE_K, 20);
	fake_run(0, other);
	fake_run(1, NULL);
	assert_true(fakepmu_enabled(0, 0));
	assert_true(fakepmu_enabled(1, 0));
	fakepmu_count(0, FK_INSNS, PMU_MODE_K, 5);
	fakepmu_count(1, FK_INSNS, PMU_MODE_U, 6);
	fake_tick(1);
	assert_int_equal(hwt_sys_count(0), 41);
}

/* ---- R4 ------------------------------------------------------------------- */

static void test_R4_enable_returns_positive_generation(void **state)
{
	struct hwperf_reason why;
	struct hwperf_counts c;
	int g;

	(void)state;
	g = hwt_enable(a, 0, "instructions", &why);
	assert_true(g > 0);
	assert_int_equal(hwperf_read(&a->hw, 0, &c, &why), g);
}

static void test_R4_einval_cases(void **state)
{
	struct hwperf_control ctl;
	struct hwperf_reason why;

	(void)state;
	memset(&ctl, 0, sizeof(ctl));
	strcpy(ctl.ev[0].name, "no-such-event");
	ctl.ev[0].modes = PMU_MODE_U;
	assert_int_equal(hwperf_enable(&a->hw, 0, &ctl, &why), -EINVAL);
	hwt_has(&why, "no-such-event");

	strcpy(ctl.ev[0].name, "cycles");
	ctl.ev[0].modes = 0;
	assert_int_equal(hwperf_enable(&a->hw, 0, &ctl, &why), -EINVAL);
	hwt_has(&why, "no mode bits");

	ctl.ev[0].modes = PMU_MODE_U;
	ctl.ev[0].thresh = -1;
	assert_int_equal(hwperf_enable(&a->hw, 0, &ctl, &why), -EINVAL);
	hwt_has(&why, "negative threshold");

	ctl.ev[0].thresh = 0;
	ctl.sig = HWPERF_SIG_MAX + 1;
	assert_int_equal(hwperf_enable(&a->hw, 0, &ctl, &why), -EINVAL);
	ctl.sig = -1;
	assert_int_equal(hwperf_enable(&a->hw, 0, &ctl, &why), -EINVAL);
	hwt_has(&why, "0..32");

	ctl.sig = HWPERF_SIG_MAX;
	ctl.ev[0].flags = HWPERF_EV_RAW;
	ctl.ev[0].name[0] = '\0';
	ctl.ev[0].code = FK_CODE_MAX + 1;       /* reserved bits */
	assert_int_equal(hwperf_enable(&a->hw, 0, &ctl, &why), -EINVAL);
	hwt_has(&why, "reserved");
	assert_int_equal(hwperf_mode(), HWPERF_FREE);
}

static void test_R4_einval_event_not_countable_on_its_counter(void **state)
{
	struct fakepmu_cfg cfg;
	struct hwperf_control ctl;
	struct hwperf_reason why;

	(void)state;
	fakepmu_default(&cfg);
	cfg.table = &fakepmu_r10k_table;
	cfg.slots_per_counter = 16;
	hwt_setup_cfg(&cfg, 1);
	a = fake_spawn(10, USER_UID, 10, 1);
	/* tlb-misses is counter-1-only: virtual counter 3 maps to counter 0. */
	memset(&ctl, 0, sizeof(ctl));
	strcpy(ctl.ev[3].name, "tlb-misses");
	ctl.ev[3].modes = PMU_MODE_U;
	assert_int_equal(hwperf_enable(&a->hw, 0, &ctl, &why), -EINVAL);
	hwt_has(&why, "virtual counter 3");
	memset(&ctl, 0, sizeof(ctl));
	strcpy(ctl.ev[19].name, "tlb-misses");
	ctl.ev[19].modes = PMU_MODE_U;
	assert_true(hwperf_enable(&a->hw, 0, &ctl, &why) > 0);
}

static void test_R4_eperm_privileged_modes_need_root(void **state)
{
	static const char *const specs[] = { "cycles:k", "cycles:s", "cycles:x",
	                                     "cycles:ux" };
	struct hwperf_reason why;

	(void)state;
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		assert_int_equal(hwt_enable(a, 0, specs[i], &why), -EPERM);
		hwt_has(&why, "need root");
	}
}

static void test_R4_esrch_no_such_task(void **state)
{
	struct hwperf_reason why;

	(void)state;
	assert_int_equal(hwt_enable(a, 999, "cycles", &why), -ESRCH);
	hwt_has(&why, "999");
}

static void test_R4_ebusy_in_system_mode(void **state)
{
	struct hwperf_reason why;

	(void)state;
	assert_true(hwt_acquire(root, "cycles:k", &why) > 0);
	assert_int_equal(hwt_enable(a, 0, "cycles", &why), -EBUSY);
	assert_int_equal(hwt_enable(root, 0, "cycles:k", &why), -EBUSY);
}

static void test_R4_ebusy_already_enabled(void **state)
{
	struct hwperf_reason why;

	(void)state;
	assert_true(hwt_enable(a, 0, "cycles", &why) > 0);
	assert_int_equal(hwt_enable(a, 0, "instructions", &why), -EBUSY);
	hwt_has(&why, "set-control");
}

static void test_R4_ebusy_system_request_while_user_counters_live(void **state)
{
	struct hwperf_reason why;

	(void)state;
	fake_run(1, a);
	assert_true(hwt_enable(a, 0, "instructions", &why) > 0);
	fake_run(0, root);
	assert_int_equal(hwt_enable(root, 0, "cycles:k", &why), -EBUSY);
	hwt_has(&why, "pid 10");
	hwt_has(&why, "cpu 1");
	/* Never forced: a keeps its counters and its generation. */
	assert_int_equal(hwperf_mode(), HWPERF_USER);
	assert_int_equal(hwt_gen(10), 1);
}

static void test_R4_system_request_takes_from_sleeping_holders(void **state)
{
	struct hwperf_reason why;
	int g;

	(void)state;
	fake_run(0, a);
	assert_true(hwt_enable(a, 0, "instructions", &why) > 0);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 33);
	fake_run(0, root);              /* a sleeps now */
	g = hwt_gen(10);
	assert_true(hwt_enable(root, 0, "cycles:k", &why) > 0);
	assert_int_equal(hwperf_mode(), HWPERF_SYSTEM);
	assert_int_equal(hwt_gen(10), g + 1);
	assert_int_equal(hwt_count(10, 0), 33);
}

/* ---- R5 ------------------------------------------------------------------- */

static void test_R5_forced_acquire_takes_running_and_sleeping_holders(void **state)
{
	struct hwperf_reason why;
	int ga, gb;

	(void)state;
	fake_run(0, a);
	fake_run(1, b);
	assert_true(hwt_enable(a, 0, "instructions", &why) > 0);
	assert_true(hwt_enable(b, 0, "instructions", &why) > 0);
	fake_tick(1);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 5);
	fakepmu_count(1, FK_INSNS, PMU_MODE_U, 6);
	ga = hwt_gen(10);
	gb = hwt_gen(11);
	assert_true(hwt_acquire(root, "cycles:k", &why) > 0);
	fake_tick(1);
	assert_int_equal(hwperf_mode(), HWPERF_SYSTEM);
	assert_int_equal(hwt_gen(10), ga + 1);
	assert_int_equal(hwt_gen(11), gb + 1);
	/* Counts up to the loss stay; later events are not theirs. */
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 100);
	fakepmu_count(1, FK_INSNS, PMU_MODE_U, 100);
	assert_int_equal(hwt_count(10, 0), 5);
	assert_int_equal(hwt_count(11, 0), 6);
}

static void test_R5_forced_acquire_rules(void **state)
{
	struct hwperf_reason why;
	int g;

	(void)state;
	assert_int_equal(hwt_acquire(a, "cycles:k", &why), -EPERM);
	assert_int_equal(hwt_acquire(root, "cycles:ux", &why), -EINVAL);
	hwt_has(&why, "k mode");
	g = hwt_acquire(root, "cycles:k,instructions:u", &why);
	assert_true(g > 0);
	assert_int_equal(hwt_acquire(root, "cycles:k", &why), -EBUSY);
	hwt_has(&why, "pid 1");
	hwt_has(&why, "SYSTEM");
}

/* ---- R6 ------------------------------------------------------------------- */

static void test_R6_lost_counters_never_restarted(void **state)
{
	struct hwperf_reason why;
	int g;

	(void)state;
	fake_run(0, a);
	assert_true(hwt_enable(a, 0, "instructions", &why) > 0);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 12);
	fake_run(0, NULL);
	g = hwt_gen(10);
	assert_true(hwt_acquire(NULL, "cycles:k", &why) > 0);
	assert_int_equal(hwperf_sys_release(NULL, &why), 0);
	assert_int_equal(hwperf_mode(), HWPERF_FREE);
	/* SYSTEM mode is over and others count again, yet a stays off. */
	fake_run(0, b);
	assert_true(hwt_enable(b, 0, "instructions", &why) > 0);
	assert_int_equal(hwperf_mode(), HWPERF_USER);
	fake_run(0, a);
	assert_false(fakepmu_enabled(0, 0));
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 1000);
	fake_tick(0);
	assert_int_equal(hwt_count(10, 0), 12);
	assert_int_equal(hwt_gen(10), g + 1);
	/* Until it asks again. */
	assert_int_equal(hwt_enable(a, 0, "instructions", &why), g + 1);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 4);
	assert_int_equal(hwt_count(10, 0), 4);
}

static void test_R6_set_control_restarts_a_lost_task(void **state)
{
	struct hwperf_reason why;
	struct hwperf_control ctl;
	int g;

	(void)state;
	fake_run(0, a);
	assert_true(hwt_enable(a, 0, "instructions", &why) > 0);
	assert_true(hwt_acquire(NULL, "cycles:k", &why) > 0);
	ctl = hwt_ctl("instructions");
	assert_int_equal(hwperf_set_control(&a->hw, 0, &ctl, &why), -EBUSY);
	assert_int_equal(hwperf_sys_release(NULL, &why), 0);
	g = hwt_gen(10);
	assert_int_equal(hwperf_set_control(&a->hw, 0, &ctl, &why), g + 1);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 9);
	assert_int_equal(hwt_count(10, 0), 9);
}

/* ---- R7 ------------------------------------------------------------------- */

static void test_R7_generation_moves_on_set_control_and_loss_only(void **state)
{
	struct hwperf_reason why;
	struct hwperf_control ctl, got;
	struct hwperf_counts c;
	int g0, g1, s0;

	(void)state;
	g0 = hwt_enable(a, 0, "instructions", &why);
	assert_int_equal(hwperf_read(&a->hw, 0, &c, &why), g0);
	assert_int_equal(hwperf_get_control(&a->hw, 0, &got, &why), g0);
	ctl = hwt_ctl("instructions,branches");
	g1 = hwperf_set_control(&a->hw, 0, &ctl, &why);
	assert_int_equal(g1, g0 + 1);
	assert_int_equal(hwperf_read(&a->hw, 0, &c, &why), g1);
	s0 = hwt_acquire(NULL, "cycles:k", &why);
	assert_int_equal(hwt_gen(10), g1 + 1);
	ctl = hwt_ctl("cycles:k,instructions:k");
	assert_int_equal(hwperf_sys_set_control(NULL, &ctl, &why), s0 + 1);
	assert_int_equal(hwperf_sys_get_control(NULL, &got, &why), s0 + 1);
	assert_int_equal(hwperf_sys_set_control(NULL, &ctl, &why), s0 + 2);
}

/* ---- R8 ------------------------------------------------------------------- */

static void test_R8_only_self_process_group_or_root(void **state)
{
	struct hwperf_reason why;
	struct hwperf_counts c;
	struct hwperf_control ctl = hwt_ctl("instructions");

	(void)state;
	assert_true(hwt_enable(a, 0, "cycles", &why) > 0);
	assert_true(hwperf_read(&a->hw, 10, &c, &why) > 0);       /* self */
	assert_true(hwperf_read(&b->hw, 10, &c, &why) > 0);       /* pgid */
	assert_true(hwperf_read(&root->hw, 10, &c, &why) > 0);    /* root */
	assert_int_equal(hwperf_read(&other->hw, 10, &c, &why), -EPERM);
	hwt_has(&why, "pid 20");
	assert_int_equal(hwperf_set_control(&other->hw, 10, &ctl, &why), -EPERM);
	assert_int_equal(hwperf_release(&other->hw, 10, &why), -EPERM);
	assert_int_equal(hwperf_enable(&other->hw, 11, &ctl, &why), -EPERM);
	assert_true(hwperf_enable(&b->hw, 0, &ctl, &why) > 0);
	assert_true(hwperf_set_control(&a->hw, 11, &ctl, &why) > 0);
}

/* ---- R20 ------------------------------------------------------------------ */

static void test_R20_every_refusal_names_errno_and_why(void **state)
{
	struct hwperf_reason why;
	struct hwperf_counts c;
	struct fakepmu_cfg cfg;

	(void)state;
	assert_int_equal(hwt_enable(a, 77, "cycles", &why), -ESRCH);
	assert_memory_equal(why.text, "ESRCH: ", 7);
	/* A task's refusal is also told on the console, with its pid. */
	assert_string_equal(fake_log, "pid 10: ESRCH: no task with pid 77");
	assert_int_equal(hwt_enable(NULL, 77, "cycles", &why), -ESRCH);
	assert_int_equal(fake_logs, 1);         /* the console prints its own */
	assert_int_equal(hwperf_read(&other->hw, 10, &c, &why), -EPERM);
	assert_memory_equal(why.text, "EPERM: ", 7);
	assert_int_equal(hwperf_sys_release(&a->hw, &why), -EPERM);
	hwt_has(&why, "needs root");
	assert_int_equal(hwperf_sys_release(NULL, &why), -EINVAL);
	assert_memory_equal(why.text, "EINVAL: ", 8);
	hwt_has(&why, "FREE");

	assert_true(hwt_acquire(root, "cycles:k", &why) > 0);
	assert_int_equal(hwt_enable(a, 0, "cycles", &why), -EBUSY);
	assert_string_equal(why.text,
	                    "EBUSY: pid 1 holds the counters in SYSTEM mode on all 2 cpus");

	fakepmu_default(&cfg);
	cfg.absent = true;
	fakepmu_setup(&cfg);
	assert_int_equal(hwperf_init(&fakepmu_ops, &why), -ENODEV);
	assert_string_equal(why.text, "ENODEV: fake: not present (test says so)");
	assert_int_equal(hwt_gen(10), -ENODEV);
	assert_int_equal(hwperf_sys_read(NULL, &c, &why), -ENODEV);
	assert_int_equal(hwperf_cpu_read(NULL, 0, &c, &why), -ENODEV);
	{
		struct hwperf_control ctl;

		memset(&ctl, 0, sizeof(ctl));
		strcpy(ctl.ev[0].name, "cycles");
		ctl.ev[0].modes = PMU_MODE_K;
		assert_int_equal(hwperf_sys_acquire(NULL, &ctl, &why), -ENODEV);
		hwt_has(&why, "no PMU");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_R1_pmu_is_in_exactly_one_state, setup),
		cmocka_unit_test_setup(test_R1_release_of_last_holder_frees, setup),
		cmocka_unit_test_setup(test_R1_a_task_holds_until_release, setup),
		cmocka_unit_test_setup(test_R11_release_ends_a_lost_set, setup),
		cmocka_unit_test_setup(test_R2_user_counters_count_only_while_task_runs, setup),
		cmocka_unit_test_setup(test_R2_any_number_of_tasks_share_the_hardware, setup),
		cmocka_unit_test_setup(test_R2_counts_follow_a_task_across_cpus, setup),
		cmocka_unit_test_setup(test_R2_enable_of_a_task_running_elsewhere_starts_at_its_tick, setup),
		cmocka_unit_test_setup(test_R3_system_mode_needs_root_and_k, setup),
		cmocka_unit_test_setup(test_R3_system_counts_every_cpu_and_ignores_switches, setup),
		cmocka_unit_test_setup(test_R4_enable_returns_positive_generation, setup),
		cmocka_unit_test_setup(test_R4_einval_cases, setup),
		cmocka_unit_test_setup(test_R4_einval_event_not_countable_on_its_counter, setup),
		cmocka_unit_test_setup(test_R4_eperm_privileged_modes_need_root, setup),
		cmocka_unit_test_setup(test_R4_esrch_no_such_task, setup),
		cmocka_unit_test_setup(test_R4_ebusy_in_system_mode, setup),
		cmocka_unit_test_setup(test_R4_ebusy_already_enabled, setup),
		cmocka_unit_test_setup(test_R4_ebusy_system_request_while_user_counters_live, setup),
		cmocka_unit_test_setup(test_R4_system_request_takes_from_sleeping_holders, setup),
		cmocka_unit_test_setup(test_R5_forced_acquire_takes_running_and_sleeping_holders, setup),
		cmocka_unit_test_setup(test_R5_forced_acquire_rules, setup),
		cmocka_unit_test_setup(test_R6_lost_counters_never_restarted, setup),
		cmocka_unit_test_setup(test_R6_set_control_restarts_a_lost_task, setup),
		cmocka_unit_test_setup(test_R7_generation_moves_on_set_control_and_loss_only, setup),
		cmocka_unit_test_setup(test_R8_only_self_process_group_or_root, setup),
		cmocka_unit_test_setup(test_R20_every_refusal_names_errno_and_why, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
