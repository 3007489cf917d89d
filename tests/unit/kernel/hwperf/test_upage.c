/*
 * Host tests of kernel/hwperf/upage.c: the read page a task reads its
 * counts from without a system call.  Driven through the software PMU
 * with a fake cycle counter, the way trap_exit drives it: fill before the
 * user-time cut, publish with the cut's cycle-counter value.  Every value
 * a reader computes from the page is compared with the kernel's own read
 * (hwperf_read) at the same instant.
 */
#include "hwperf_test.h"
#include "pmu/soft/soft_regs.h"

#define CC_BITS 32u             /* a MIPS-like 32-bit user cycle counter */
#define SEQ_PER_EXIT 2u

static uint64_t now;
static struct fake_task *a, *b, *root;
static struct hwperf_upage page_a, page_b;

static uint64_t clock_now(void)
{
	return now;
}

static unsigned this_cpu(void)
{
	return fake_cpu;
}

static void soft(unsigned ncounters)
{
	struct softpmu_config cfg = { ncounters, SOFTPMU_WIDTH_DEFAULT,
	                              clock_now, this_cpu, NULL };
	struct hwperf_reason why;

	now = 0;
	fake_env_reset(1);
	assert_int_equal(softpmu_configure(&cfg), 0);
	assert_int_equal(hwperf_init(&softpmu_ops, &why), 0);
	root = fake_spawn(1, ROOT, 1, 0);
	a = fake_spawn(10, USER_UID, 10, 1);
	b = fake_spawn(11, USER_UID, 11, 1);
	memset(&page_a, 0, sizeof(page_a));
	memset(&page_b, 0, sizeof(page_b));
	fake_run(0, a);
}

static int setup(void **state)
{
	(void)state;
	soft(SOFTPMU_COUNTERS_DEFAULT);
	return 0;
}

/* Kernel entry at time t (user time stops). */
static void enter(uint64_t t)
{
	now = t;
	softpmu_mode_switch(PMU_MODE_K, t, 0);
}

/* trap_exit(true) at time t for the running fake task. */
static void leave(struct fake_task *t, uint64_t at)
{
	hwperf_upage_fill(&t->hw);
	now = at;
	softpmu_mode_switch(PMU_MODE_U, at, 0);
	hwperf_upage_publish(&t->hw, at);
}

/* What hwp_uread computes, at user cycle-counter value cc. */
static uint64_t reader(const struct hwperf_upage *p, unsigned i, uint64_t cc)
{
	const struct hwperf_uctr *c = &p->c[i];

	assert_int_equal(p->seq % 2, 0);
	if (c->how == HWPERF_UREAD_NONE)
		return c->sum;
	assert_int_equal(c->how, HWPERF_UREAD_CYCLES);
	return c->sum + ((cc - p->ucycles_start) & ((UINT64_C(1) << c->width) - 1));
}

static void test_map_needs_the_software_pmu(void **state)
{
	struct hwperf_reason why = { "" };

	(void)state;
	assert_int_equal(hwperf_upage_check(&a->hw, &why), 0);
	hwt_setup(1);
	assert_int_equal(hwperf_upage_check(NULL, &why), -ENODEV);
	hwt_has(&why, "ENODEV");
	hwt_has(&why, "cannot be read in user mode");
}

static void test_attach_fills_and_closes(void **state)
{
	struct hwperf_reason why;

	(void)state;
	assert_false(hwperf_upage_mapped(&a->hw));
	assert_int_equal(hwperf_upage_attach(&a->hw, &page_a, CC_BITS, 5), 1);
	assert_true(hwperf_upage_mapped(&a->hw));
	assert_int_equal(page_a.seq, SEQ_PER_EXIT);
	assert_int_equal(page_a.used, 0);
	assert_int_equal(page_a.gen, 1);
	/* Enabling later shows at the next exit, with the new generation. */
	int gen = hwt_enable(a, 0, "cycles:u,syscalls:u", &why);
	assert_true(gen > 0);
	leave(a, 10);
	assert_int_equal(page_a.seq, 2 * SEQ_PER_EXIT);
	assert_int_equal(page_a.used, 0x3);
	assert_int_equal(page_a.gen, (uint32_t)gen);
	/* A second attach keeps the first page. */
	assert_int_equal(hwperf_upage_attach(&a->hw, &page_b, CC_BITS, 11), gen);
	assert_int_equal(page_b.seq, 0);
	assert_int_equal(a->hw.upage, &page_a);
}

/* cycles:u read live from the cycle counter, syscalls:u from the sum. */
static void test_values_equal_the_kernel_read(void **state)
{
	struct hwperf_reason why;

	(void)state;
	assert_true(hwt_enable(a, 0, "cycles:u,syscalls:u", &why) > 0);
	hwperf_upage_attach(&a->hw, &page_a, CC_BITS, 0);
	leave(a, 100);                  /* U from 100 */
	assert_int_equal(page_a.c[0].how, HWPERF_UREAD_CYCLES);
	assert_int_equal(page_a.c[0].width, CC_BITS);
	assert_int_equal(page_a.ucycles_start, 100);
	assert_int_equal(page_a.c[1].how, HWPERF_UREAD_NONE);
	enter(250);                     /* U 100..250 */
	softpmu_event(SOFTPMU_SYSCALLS, PMU_MODE_U, 1, 0);
	leave(a, 300);                  /* K 250..300 */
	assert_int_equal(reader(&page_a, 0, 300), 150);
	assert_int_equal(reader(&page_a, 1, 300), 1);
	now = 420;                      /* U 300..420, both read live */
	assert_int_equal(reader(&page_a, 0, 420), hwt_count(10, 0));
	assert_int_equal(reader(&page_a, 0, 420), 270);
	assert_int_equal(reader(&page_a, 1, 420), hwt_count(10, 1));
}

/* The sequence is odd from the fill to the publish, and moves by two per
 * exit; nothing else moves it. */
static void test_sequence_odd_while_writing(void **state)
{
	struct hwperf_reason why;
	uint32_t seq;

	(void)state;
	assert_true(hwt_enable(a, 0, "cycles:u", &why) > 0);
	hwperf_upage_attach(&a->hw, &page_a, CC_BITS, 0);
	seq = page_a.seq;
	enter(10);
	hwperf_upage_fill(&a->hw);
	assert_int_equal(page_a.seq, seq + 1);
	now = 20;
	softpmu_mode_switch(PMU_MODE_U, 20, 0);
	/* The start's address goes to the exit path, which stamps it. */
	assert_ptr_equal(hwperf_upage_publish(&a->hw, 20), &page_a.ucycles_start);
	assert_int_equal(page_a.seq, seq + SEQ_PER_EXIT);
	assert_null(hwperf_upage_publish(&a->hw, 30));  /* no fill: no change */
	assert_int_equal(page_a.seq, seq + SEQ_PER_EXIT);
	assert_int_equal(page_a.ucycles_start, 20);
}

/* The start value is the cycle counter masked to the width user mode
 * reads, and a reader's difference wraps with it. */
static void test_start_masked_and_wrapping(void **state)
{
	struct hwperf_reason why;
	uint64_t top = (UINT64_C(1) << CC_BITS) - 10;

	(void)state;
	assert_true(hwt_enable(a, 0, "cycles:u", &why) > 0);
	hwperf_upage_attach(&a->hw, &page_a, CC_BITS, 0);
	enter(UINT64_C(5) << CC_BITS);
	leave(a, (UINT64_C(5) << CC_BITS) + top);
	assert_int_equal(page_a.ucycles_start, top);
	now = (UINT64_C(6) << CC_BITS) + 25;    /* 35 user cycles, past a wrap */
	assert_int_equal(reader(&page_a, 0, now & ((UINT64_C(1) << CC_BITS) - 1)),
	                 hwt_count(10, 0));
}

/* Multiplexed events: the one rotated off hardware reads as its frozen
 * count (NONE), the one on hardware live, both as the kernel reads them. */
static void test_multiplexed_events_follow_rotation(void **state)
{
	struct hwperf_reason why;
	unsigned live_rounds = 0;

	(void)state;
	soft(1);
	assert_true(hwt_enable(a, 0, "cycles:u,syscalls:u", &why) > 0);
	hwperf_upage_attach(&a->hw, &page_a, CC_BITS, 0);
	for (unsigned round = 0; round < 4; round++) {
		uint64_t t = 1000 * (round + 1);

		leave(a, t);
		live_rounds += page_a.c[0].how == HWPERF_UREAD_CYCLES;
		assert_int_equal(page_a.c[1].how, HWPERF_UREAD_NONE);
		now = t + 300;
		assert_int_equal(reader(&page_a, 0, now), hwt_count(10, 0));
		assert_int_equal(reader(&page_a, 1, now), hwt_count(10, 1));
		enter(t + 400);
		softpmu_event(SOFTPMU_SYSCALLS, PMU_MODE_U, 1, 0);
		fake_tick(0);                   /* rotates */
	}
	/* Two events took turns on the one counter. */
	assert_int_equal(live_rounds, 2);
	leave(a, 9000);
	assert_int_equal(reader(&page_a, 1, 9000), hwt_count(10, 1));
}

/* A task whose set is not on this CPU's PMU (not running, or lost) sees
 * frozen counts, all NONE. */
static void test_not_loaded_reads_frozen_counts(void **state)
{
	struct hwperf_reason why;

	(void)state;
	assert_true(hwt_enable(a, 0, "cycles:u", &why) > 0);
	hwperf_upage_attach(&a->hw, &page_a, CC_BITS, 0);
	leave(a, 10);
	enter(60);
	fake_run(0, b);
	hwperf_upage_fill(&a->hw);      /* as if a were leaving elsewhere */
	hwperf_upage_publish(&a->hw, 70);
	assert_int_equal(page_a.c[0].how, HWPERF_UREAD_NONE);
	assert_int_equal(page_a.c[0].sum, 50);
	assert_int_equal(hwt_count(10, 0), 50);
}

/* The same with b counting too, through the kernel's one switch hook:
 * a's switch-out leaves its fold for later (internal.h, the lazy fold),
 * and the page, filled before any read, still shows every count. */
static void test_not_loaded_reads_counts_a_switch_left_unfolded(void **state)
{
	struct hwperf_reason why;

	(void)state;
	fake_switch_fused = true;
	assert_true(hwt_enable(a, 0, "cycles:u", &why) > 0);
	assert_true(hwt_enable(b, 0, "cycles:u", &why) > 0);
	fake_run(0, b);
	fake_run(0, a);
	hwperf_upage_attach(&a->hw, &page_a, CC_BITS, 0);
	leave(a, 10);
	enter(60);
	fake_run(0, b);
	assert_true(a->hw.set.fold_owed);
	hwperf_upage_fill(&a->hw);      /* as if a were leaving elsewhere */
	hwperf_upage_publish(&a->hw, 70);
	assert_int_equal(page_a.c[0].how, HWPERF_UREAD_NONE);
	assert_int_equal(page_a.c[0].sum, 50);
	assert_int_equal(hwt_count(10, 0), 50);
}

/* Counting system-wide (a root task's k-mode enable) is for the system
 * call only: the page says so and shows no counters. */
static void test_system_wide_counts_are_syscall_only(void **state)
{
	struct hwperf_reason why;

	(void)state;
	fake_run(0, root);
	assert_true(hwt_enable(root, 0, "cycles:k", &why) > 0);
	hwperf_upage_attach(&root->hw, &page_a, CC_BITS, 0);
	assert_int_equal(page_a.flags, HWPERF_UPAGE_SYSCALL_ONLY);
	assert_int_equal(page_a.used, 0);
}

/* After detach (exit) the page is no longer written. */
static void test_detach_stops_writes(void **state)
{
	struct hwperf_reason why;
	uint32_t seq;

	(void)state;
	assert_true(hwt_enable(a, 0, "cycles:u", &why) > 0);
	hwperf_upage_attach(&a->hw, &page_a, CC_BITS, 0);
	seq = page_a.seq;
	hwperf_upage_detach(&a->hw);
	assert_false(hwperf_upage_mapped(&a->hw));
	leave(a, 50);
	assert_int_equal(page_a.seq, seq);
}

/* fork: the child starts without a page (uvm_clone leaves it out too). */
static void test_fork_child_has_no_page(void **state)
{
	struct hwperf_reason why;

	(void)state;
	assert_true(hwt_enable(a, 0, "cycles:u", &why) > 0);
	hwperf_upage_attach(&a->hw, &page_a, CC_BITS, 0);
	struct fake_task *c = fake_fork(a, 12);
	assert_false(hwperf_upage_mapped(&c->hw));
	assert_true(hwperf_upage_mapped(&a->hw));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_map_needs_the_software_pmu, setup),
		cmocka_unit_test_setup(test_attach_fills_and_closes, setup),
		cmocka_unit_test_setup(test_values_equal_the_kernel_read, setup),
		cmocka_unit_test_setup(test_sequence_odd_while_writing, setup),
		cmocka_unit_test_setup(test_start_masked_and_wrapping, setup),
		cmocka_unit_test_setup(test_multiplexed_events_follow_rotation, setup),
		cmocka_unit_test_setup(test_not_loaded_reads_frozen_counts, setup),
		cmocka_unit_test_setup(test_not_loaded_reads_counts_a_switch_left_unfolded, setup),
		cmocka_unit_test_setup(test_system_wide_counts_are_syscall_only, setup),
		cmocka_unit_test_setup(test_detach_stops_writes, setup),
		cmocka_unit_test_setup(test_fork_child_has_no_page, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
