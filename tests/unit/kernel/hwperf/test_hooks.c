/*
 * Host tests of kernel/hwperf/hooks.c and the switch path's shortcuts:
 * hwperf_hot (which lets a switch or tick among tasks without counters
 * skip hwperf), a fully placed set keeping its placement while its
 * control is unchanged, and event codes settled once at enable.
 */
#include "hwperf_test.h"
#include "hwperf/internal.h"

static struct fake_task *root, *a, *b;

/* check() calls the driver double has seen: each one is a placement
 * hwperf computed instead of reusing. */
static unsigned checks;
static struct pmu_ops counting_ops;

static int counting_check(struct pmu_control *ctl, bool global, char *reason,
                          size_t len)
{
	checks++;
	return fakepmu_ops.check(ctl, global, reason, len);
}

static void spawn_tasks(void)
{
	root = fake_spawn(1, ROOT, 1, 0);
	a = fake_spawn(10, USER_UID, 10, 1);
	b = fake_spawn(11, USER_UID, 10, 1);
}

static int setup(void **state)
{
	struct fakepmu_cfg cfg;
	struct hwperf_reason why;

	(void)state;
	fakepmu_default(&cfg);
	fake_env_reset(1);
	fakepmu_setup(&cfg);
	counting_ops = fakepmu_ops;
	counting_ops.check = counting_check;
	assert_int_equal(hwperf_init(&counting_ops, &why), 0);
	checks = 0;
	spawn_tasks();
	return 0;
}

/* ---- hwperf_hot ------------------------------------------------------------ */

static void test_hot_follows_the_loaded_set(void **state)
{
	struct hwperf_reason why;

	(void)state;
	assert_int_equal(hwperf_hot, 0);
	assert_true(hwperf_hooks_quiet(&a->hw));
	assert_true(hwperf_hooks_quiet(NULL));
	assert_true(hwt_enable(a, 0, "instructions", &why) > 0);
	/* Enabled but not running: nothing loaded, yet its switch-in has
	 * work, so it is not quiet. */
	assert_int_equal(hwperf_hot, 0);
	assert_false(hwperf_hooks_quiet(&a->hw));
	assert_true(hwperf_hooks_quiet(&b->hw));
	fake_run(0, a);
	assert_int_equal(hwperf_hot, 1u << 0);
	assert_false(hwperf_hooks_quiet(&b->hw));
	fake_run(0, b);
	assert_int_equal(hwperf_hot, 0);
	fake_run(0, a);
	assert_true(hwperf_release(&a->hw, 0, &why) > 0);
	assert_int_equal(hwperf_hot, 0);
	assert_true(hwperf_hooks_quiet(&a->hw));
}

static void test_hot_holds_system_mode(void **state)
{
	struct hwperf_reason why;

	(void)state;
	fake_run(0, b);
	assert_true(hwt_acquire(root, "cycles:k", &why) > 0);
	assert_true(hwperf_hot & HWPERF_HOT_SYSTEM);
	assert_true(hwperf_hot & (1u << 0));
	/* b has no counters, but its CPU still carries the system block. */
	assert_false(hwperf_hooks_quiet(&b->hw));
	fake_run(0, NULL);
	fake_run(0, b);
	assert_true(hwperf_hot & (1u << 0));
	assert_int_equal(hwperf_sys_release(&root->hw, &why), 0);
	assert_int_equal(hwperf_hot, 0);
	assert_true(hwperf_hooks_quiet(&b->hw));
}

/* A task without counters switching in and out, and ticking, while
 * another holds counters: the quiet hooks lose no count of the holder. */
static void test_quiet_hooks_keep_counts_exact(void **state)
{
	struct hwperf_reason why;

	(void)state;
	assert_true(hwt_enable(a, 0, "instructions", &why) > 0);
	fake_run(0, a);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 100);
	fake_run(0, b);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 50);     /* b's, uncounted */
	fake_tick(0);
	fake_run(0, NULL);
	fake_tick(0);
	fake_run(0, a);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 7);
	assert_int_equal(hwt_count(10, 0), 107);
}

/* The switch hook takes the lock without the interrupt flag (the
 * scheduler calls it with interrupts off): a switch that finds the lock
 * taken waits for it, as every other hook does, and the handover between
 * two counting tasks then loses no count of either. */
static void test_switch_waits_for_a_taken_lock_and_hands_over(void **state)
{
	struct hwperf_reason why;

	(void)state;
	assert_true(hwt_enable(a, 0, "instructions", &why) > 0);
	assert_true(hwt_enable(b, 0, "instructions", &why) > 0);
	fake_run(0, a);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 100);
	fake_trylock_fails = 1;
	fake_run(0, b);
	assert_int_equal(fake_trylock_fails, 0);        /* it asked, and again */
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 30);
	fake_trylock_fails = 1;
	fake_run(0, a);
	assert_int_equal(fake_trylock_fails, 0);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 5);
	assert_int_equal(hwt_count(10, 0), 105);
	assert_int_equal(hwt_count(11, 0), 30);
	assert_false(hwperf_core.cpu[0].busy);
}

/* ---- the lazy fold (internal.h) --------------------------------------------- */

/* Two counting tasks in turn through the kernel's one switch hook, with
 * time passing: a's counts, times and b's afterwards. */
static void play_pingpong(struct hwperf_counts *ca, struct hwperf_counts *cb)
{
	struct hwperf_reason why;

	assert_true(hwt_enable(a, 0, "instructions,branches", &why) > 0);
	assert_true(hwt_enable(b, 0, "instructions", &why) > 0);
	for (unsigned i = 0; i < 4; i++) {
		fake_run(0, a);
		fakepmu_count(0, FK_INSNS, PMU_MODE_U, 100 + i);
		fakepmu_count(0, FK_BRANCHES, PMU_MODE_U, 3);
		fakepmu_clock += 1000 + i;
		fake_run(0, b);
		fakepmu_count(0, FK_INSNS, PMU_MODE_U, 30);
		fakepmu_clock += 500;
	}
	fake_run(0, NULL);
	assert_true(hwperf_read(NULL, 10, ca, &why) > 0);
	assert_true(hwperf_read(NULL, 11, cb, &why) > 0);
}

/* A switch-out between two counting tasks leaves the outgoing set's
 * sums unfolded (c does not show them), and a read folds them: the
 * counts and times are those of the two-step switch, which folds at
 * every switch-out. */
static void test_lazy_fold_leaves_the_sums_and_a_read_folds_them(void **state)
{
	struct hwperf_counts ref_a, ref_b, got_a, got_b;
	struct hwperf_reason why;

	play_pingpong(&ref_a, &ref_b);
	assert_int_equal(ref_a.count[0], 406);
	assert_int_equal(ref_a.count[1], 12);
	assert_int_equal(ref_a.running[0], 4006);
	assert_int_equal(ref_b.count[0], 120);

	setup(state);
	fake_switch_fused = true;
	play_pingpong(&got_a, &got_b);
	assert_memory_equal(&got_a, &ref_a, sizeof(got_a));
	assert_memory_equal(&got_b, &ref_b, sizeof(got_b));

	/* The fold really was left: a's counts are in the driver's sums
	 * until something reads them. */
	fake_run(0, a);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 9);
	fake_run(0, b);
	assert_true(a->hw.set.fold_owed);
	assert_int_equal(a->hw.set.c.count[0], 406);
	assert_int_equal(hwt_count(10, 0), 415);
	assert_false(a->hw.set.fold_owed);
	assert_int_equal(a->hw.set.c.count[0], 415);
	assert_true(hwperf_release(&a->hw, 0, &why) > 0);
}

/* What a reset clears includes the sums left unfolded (they predate it);
 * a control change keeps the unchanged event's, unfolded sums included;
 * a placement made afresh (the PMU's shape changed) starts from them. */
static void test_lazy_fold_owed_sums_meet_reset_control_and_placement(void **state)
{
	struct hwperf_control ctl;
	struct hwperf_reason why;

	(void)state;
	fake_switch_fused = true;
	assert_true(hwt_enable(a, 0, "instructions,branches", &why) > 0);
	assert_true(hwt_enable(b, 0, "instructions", &why) > 0);
	fake_run(0, a);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 100);
	fake_run(0, b);
	assert_true(a->hw.set.fold_owed);
	assert_true(hwperf_reset(NULL, 10, &why) > 0);
	fake_run(0, a);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 7);
	fake_run(0, b);
	assert_int_equal(hwt_count(10, 0), 7);

	fake_run(0, a);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 4);
	fakepmu_count(0, FK_BRANCHES, PMU_MODE_U, 2);
	fake_run(0, b);
	assert_true(a->hw.set.fold_owed);
	ctl = hwt_ctl("instructions,misses");
	assert_true(hwperf_set_control(&a->hw, 0, &ctl, &why) > 0);
	fake_run(0, a);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 1);
	fake_run(0, b);
	assert_int_equal(hwt_count(10, 0), 12);
	assert_int_equal(hwt_count(10, 1), 0);          /* misses, new */

	fake_run(0, a);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 5);
	fake_run(0, b);
	assert_true(a->hw.set.fold_owed);
	hwperf_place_forget_all();
	fake_run(0, a);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 6);
	fake_run(0, b);
	assert_int_equal(hwt_count(10, 0), 23);
}

/* A child switched out with its fold left, then exiting off the CPU:
 * its parent gets every count, the unfolded ones included (R17). */
static void test_lazy_fold_owed_child_counts_join_the_parent(void **state)
{
	struct fake_task *child;
	struct hwperf_reason why;

	(void)state;
	fake_switch_fused = true;
	assert_true(hwt_enable(a, 0, "instructions", &why) > 0);
	child = fake_fork(a, 20);
	fake_run(0, child);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 300);
	fake_run(0, a);
	assert_true(child->hw.set.fold_owed);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 50);
	fake_exit(child);
	hwperf_reap(&a->hw, &child->hw);
	assert_int_equal(hwt_count(10, 0), 350);
}

/* ---- placement kept -------------------------------------------------------- */

static void test_full_placement_is_kept_until_control_changes(void **state)
{
	struct hwperf_control ctl;
	struct hwperf_reason why;

	(void)state;
	assert_true(hwt_enable(a, 0, "instructions,branches", &why) > 0);
	unsigned at_enable = checks;

	for (unsigned i = 0; i < 5; i++) {
		fake_run(0, a);
		fakepmu_count(0, FK_INSNS, PMU_MODE_U, 3);
		fakepmu_count(0, FK_BRANCHES, PMU_MODE_U, 2);
		fake_tick(0);
		fake_run(0, b);
	}
	/* Placed once, at the first load; each later load reused it. */
	assert_int_equal(checks, at_enable + 1);
	assert_int_equal(hwt_count(10, 0), 15);
	assert_int_equal(hwt_count(10, 1), 10);

	/* A new control is placed afresh, and its new event is what the
	 * hardware counts. */
	ctl = hwt_ctl("instructions,misses");
	assert_true(hwperf_set_control(&a->hw, 0, &ctl, &why) > 0);
	unsigned at_control = checks;
	fake_run(0, a);
	assert_int_equal(checks, at_control + 1);
	bool misses_on = fakepmu_code(0, 0) == FK_MISSES ||
	                 fakepmu_code(0, 1) == FK_MISSES;
	assert_true(misses_on);
	fakepmu_count(0, FK_MISSES, PMU_MODE_U, 4);
	fakepmu_count(0, FK_BRANCHES, PMU_MODE_U, 9);   /* no longer counted */
	fake_run(0, b);
	assert_int_equal(hwt_count(10, 0), 15);
	assert_int_equal(hwt_count(10, 1), 4);
}

/* More events than counters and no rotation period (the state after
 * hwperf_init): every load places again, least run first, so each event
 * gets its turn across switches alone. */
static void test_multiplexed_set_is_placed_at_every_load(void **state)
{
	struct hwperf_counts c;
	struct hwperf_reason why;

	(void)state;
	assert_true(hwt_enable(a, 0, "instructions,branches,misses", &why) > 0);
	unsigned at_enable = checks;

	for (unsigned i = 0; i < 3; i++) {
		fake_run(0, a);
		fakepmu_clock += 100;
		fake_run(0, b);
	}
	assert_int_equal(checks, at_enable + 3);
	assert_true(hwperf_read(NULL, 10, &c, &why) > 0);
	/* 3 loads x 2 counters = 6 turns of 100 cycles over 3 events. */
	for (unsigned i = 0; i < 3; i++) {
		assert_int_equal(c.enabled[i], 300);
		assert_int_equal(c.running[i], 200);
	}
}

/* With a rotation period (one tick's worth of cycles in the kernel), a
 * crowded set keeps its placement across switch-ins until it has been
 * loaded that long, and a tick always rotates it (R13). */
static void test_multiplexed_set_rotates_per_period_and_at_ticks(void **state)
{
	struct hwperf_counts c;
	struct hwperf_reason why;

	(void)state;
	hwperf_set_rotation(250);
	assert_true(hwt_enable(a, 0, "instructions,branches,misses", &why) > 0);
	unsigned at_enable = checks;

	for (unsigned i = 0; i < 3; i++) {
		fake_run(0, a);
		fakepmu_clock += 100;
		fakepmu_count(0, FK_INSNS, PMU_MODE_U, 1);
		fake_run(0, b);
	}
	/* Loaded 0, 100 and 200 cycles after the first placement: kept. */
	assert_int_equal(checks, at_enable + 1);
	assert_true(hwperf_read(NULL, 10, &c, &why) > 0);
	assert_int_equal(c.running[0], 300);
	assert_int_equal(c.running[1], 300);
	assert_int_equal(c.running[2], 0);
	assert_int_equal(c.count[0], 3);

	/* 300 cycles since: placed afresh, the event that waited first. */
	fake_run(0, a);
	assert_int_equal(checks, at_enable + 2);
	fakepmu_clock += 50;
	fake_tick(0);                   /* R13: the tick rotates */
	assert_int_equal(checks, at_enable + 3);
	fakepmu_clock += 50;
	fake_run(0, b);
	assert_true(hwperf_read(NULL, 10, &c, &why) > 0);
	for (unsigned i = 0; i < 3; i++)
		assert_int_equal(c.enabled[i], 400);
	assert_int_equal(c.running[2], 100);
	assert_int_equal(c.running[0] + c.running[1] + c.running[2], 800);
}

/* Two crowded sets taking turns: each placement works from its own
 * set's constraints, never the ones the engine was given last. */
static void test_crowded_sets_in_turn_each_placed_by_their_own_constraints(void **state)
{
	struct hwperf_reason why;

	(void)state;
	assert_true(hwt_enable(a, 0, "loads,loads,loads", &why) > 0);
	assert_true(hwt_enable(b, 0, "stores,stores,stores", &why) > 0);
	for (unsigned i = 0; i < 3; i++) {
		fake_run(0, a);
		assert_true(fakepmu_enabled(0, 0));
		assert_int_equal(fakepmu_code(0, 0), FK_LOADS);
		assert_false(fakepmu_enabled(0, 1));
		fakepmu_count(0, FK_LOADS, PMU_MODE_U, 1);
		fakepmu_clock += 10;
		fake_run(0, b);
		assert_true(fakepmu_enabled(0, 1));
		assert_int_equal(fakepmu_code(0, 1), FK_STORES);
		assert_false(fakepmu_enabled(0, 0));
		fakepmu_count(0, FK_STORES, PMU_MODE_U, 1);
		fakepmu_clock += 10;
	}
	/* Each event of a ran once of the three turns, least run first. */
	for (unsigned i = 0; i < 3; i++) {
		assert_int_equal(hwt_count(10, i), 1);
		assert_int_equal(hwt_count(11, i), 1);
	}
}

/* ---- event codes settled at enable ----------------------------------------- */

#define C0 0x1u
#define C1 0x2u
#define SPLIT_ON_0 0x40u
#define SPLIT_ON_1 0x41u

/* "split" has another code on each counter (as MIPS 24K events do on odd
 * and even counters); "whole" one code on both. */
static const struct pmu_event split_events[] = {
	{ "whole", 0x30u, C0 | C1, "one code everywhere" },
	{ "split", SPLIT_ON_0, C0, "the even counter's code" },
	{ "split", SPLIT_ON_1, C1, "the odd counter's code" },
};
static const struct pmu_event_table split_table = {
	"split", split_events, sizeof(split_events) / sizeof(split_events[0]),
};

static void test_event_codes_settled_once_or_searched_per_counter(void **state)
{
	struct fakepmu_cfg cfg;
	struct hwperf_reason why;

	(void)state;
	fakepmu_default(&cfg);
	cfg.table = &split_table;
	fake_env_reset(1);
	fakepmu_setup(&cfg);
	assert_int_equal(hwperf_init(&fakepmu_ops, &why), 0);
	spawn_tasks();
	assert_true(hwt_enable(a, 0, "split,split", &why) > 0);
	assert_int_equal(a->hw.set.res[0].one_code, 0);
	fake_run(0, a);
	/* Each counter got the code its own table entry gives. */
	assert_int_equal(fakepmu_code(0, 0), SPLIT_ON_0);
	assert_int_equal(fakepmu_code(0, 1), SPLIT_ON_1);
	fake_run(0, b);
	assert_true(hwperf_release(&a->hw, 0, &why) > 0);

	assert_true(hwt_enable(a, 0, "whole", &why) > 0);
	assert_int_equal(a->hw.set.res[0].one_code, 1);
	assert_int_equal(a->hw.set.res[0].code, 0x30u);
	fake_run(0, a);
	assert_int_equal(fakepmu_code(0, 0), 0x30u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_hot_follows_the_loaded_set, setup),
		cmocka_unit_test_setup(test_hot_holds_system_mode, setup),
		cmocka_unit_test_setup(test_quiet_hooks_keep_counts_exact, setup),
		cmocka_unit_test_setup(test_switch_waits_for_a_taken_lock_and_hands_over, setup),
		cmocka_unit_test_setup(test_lazy_fold_leaves_the_sums_and_a_read_folds_them, setup),
		cmocka_unit_test_setup(test_lazy_fold_owed_sums_meet_reset_control_and_placement, setup),
		cmocka_unit_test_setup(test_lazy_fold_owed_child_counts_join_the_parent, setup),
		cmocka_unit_test_setup(test_full_placement_is_kept_until_control_changes, setup),
		cmocka_unit_test_setup(test_multiplexed_set_is_placed_at_every_load, setup),
		cmocka_unit_test_setup(test_multiplexed_set_rotates_per_period_and_at_ticks, setup),
		cmocka_unit_test_setup(test_crowded_sets_in_turn_each_placed_by_their_own_constraints, setup),
		cmocka_unit_test_setup(test_event_codes_settled_once_or_searched_per_counter, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
