/*
 * Host tests of kernel/pmu/soft/softpmu.c driven through hwperf: events the
 * kernel sees, cycles split by mode, counters that really wrap at 8..64
 * bits, exact thresholds and multiplexing (R13, R14, R15 on the soft PMU).
 */
#include "hwperf_test.h"
#include "pmu/soft/soft_regs.h"
#include "pmu_kevent.h"

#define SIG 5

static uint64_t now;
static struct fake_task *a, *b, *root;

static uint64_t clock_now(void)
{
	return now;
}

static unsigned this_cpu(void)
{
	return fake_cpu;
}

/* The mode these tests play the CPU to be in (to_mode). */
static uint32_t mode_now = PMU_MODE_K;

static uint32_t sim_mode(void)
{
	return mode_now;
}

/* The soft PMU driven through ops: softpmu_ops, or a copy without an
 * optional op, the reference its fused steps are checked against. */
static void soft_ops_on(unsigned ncpus, unsigned ncounters, unsigned width,
			const struct pmu_ops *ops)
{
	struct softpmu_config cfg = { ncounters, width, clock_now, this_cpu, sim_mode };
	struct hwperf_reason why;

	now = 0;
	mode_now = PMU_MODE_K;
	fake_env_reset(ncpus);
	assert_int_equal(softpmu_configure(&cfg), 0);
	assert_int_equal(hwperf_init(ops, &why), 0);
	root = fake_spawn(1, ROOT, 1, 0);
	a = fake_spawn(10, USER_UID, 10, 1);
	b = fake_spawn(11, USER_UID, 11, 1);
	fake_run(0, a);
}

static void soft_ops(unsigned ncounters, unsigned width, const struct pmu_ops *ops)
{
	soft_ops_on(1, ncounters, width, ops);
}

static void soft(unsigned ncounters, unsigned width)
{
	soft_ops(ncounters, width, &softpmu_ops);
}

static int setup(void **state)
{
	(void)state;
	soft(SOFTPMU_COUNTERS_DEFAULT, SOFTPMU_WIDTH_DEFAULT);
	return 0;
}

static void to_mode(uint32_t mode, uint64_t at)
{
	now = at;
	mode_now = mode;
	softpmu_mode_switch(mode, at, 0);
}

/* A mode change as the kernel reports it (pmu_mode_switch): only while
 * some counter on the running CPU counts cycles, so that without one
 * that bank's mode goes stale and a resume must find the mode afresh. */
static void kernel_mode(uint32_t mode, uint64_t at)
{
	now = at;
	mode_now = mode;
	pmu_mode_switch(mode, at, 0);
}

static void test_softpmu_probe_and_configuration(void **state)
{
	const struct pmu_caps *caps = hwperf_caps();
	struct softpmu_config bad = { 2, SOFTPMU_WIDTH_MIN - 1, clock_now, this_cpu, sim_mode };

	(void)state;
	assert_string_equal(caps->name, "soft");
	assert_int_equal(caps->ncounters, SOFTPMU_COUNTERS_DEFAULT);
	assert_int_equal(caps->counter[1].width, SOFTPMU_WIDTH_DEFAULT);
	assert_true(caps->counts);
	/* Kernel-seen events in kernel memory: no hardware-event benchmarks,
	 * and user mode reads through the page. */
	assert_false(caps->cpu_events);
	assert_true(caps->in_memory);
	assert_non_null(strstr(caps->status, "2 counters x 32 bits"));
	for (unsigned e = 0; e < softpmu_table.count; e++) {
		const char *n = softpmu_table.events[e].name;

		assert_null(strstr(n, "instr"));
		assert_null(strstr(n, "branch"));
		assert_null(strstr(n, "cache"));
	}
	assert_int_equal(softpmu_configure(&bad), -EINVAL);
	bad.width = SOFTPMU_WIDTH_MAX + 1;
	assert_int_equal(softpmu_configure(&bad), -EINVAL);
	bad.width = SOFTPMU_WIDTH_MAX;
	bad.ncounters = 0;
	assert_int_equal(softpmu_configure(&bad), -EINVAL);
	bad.ncounters = SOFTPMU_COUNTERS_MAX + 1;
	assert_int_equal(softpmu_configure(&bad), -EINVAL);
	bad.ncounters = SOFTPMU_COUNTERS_MAX;
	assert_int_equal(softpmu_configure(&bad), 0);
}

static void test_softpmu_cycles_split_by_mode(void **state)
{
	struct hwperf_reason why;

	(void)state;
	assert_true(hwt_enable(a, 0, "cycles:u,cycles:x", &why) == -EPERM);
	assert_true(hwt_enable(a, 0, "cycles:u", &why) > 0);  /* at 0, in K */
	to_mode(PMU_MODE_U, 100);       /* K 0..100 */
	to_mode(PMU_MODE_K, 250);       /* U 100..250 */
	to_mode(PMU_MODE_U, 300);       /* K 250..300 */
	now = 400;                      /* U 300..400, read live */
	assert_int_equal(hwt_count(10, 0), 250);
	to_mode(PMU_MODE_X, 450);       /* U 400..450 */
	to_mode(PMU_MODE_U, 460);
	assert_int_equal(hwt_count(10, 0), 300);
}

/* Every mode's cycles reach the counters that count cycles in it, and
 * only those (the bank's mask per mode, union soft_cycles): a counter per
 * mode and one for two, among a counter of another event. */
static void test_softpmu_cycles_reach_their_modes_counters(void **state)
{
	struct hwperf_reason why;
	struct hwperf_counts c;

	(void)state;
	soft(5, 32);
	fake_run(0, root);
	assert_true(hwt_enable(root, 0, "cycles:u,syscalls:uk,cycles:k,cycles:x,cycles:ux",
	                       &why) > 0);     /* at 0, in K */
	to_mode(PMU_MODE_U, 100);       /* K 100 */
	to_mode(PMU_MODE_X, 130);       /* U 30 */
	to_mode(PMU_MODE_K, 137);       /* X 7 */
	pmu_kernel_event(PMU_KEV_SYSCALLS, PMU_MODE_K, 2, 0);
	softpmu_user_span(260, 300, 0, fake_cpu); /* K 123, then U 40 */
	now = 310;                      /* K 10, read live */
	assert_true(hwperf_read(&root->hw, 0, &c, &why) > 0);
	assert_int_equal(c.count[0], 70);
	assert_int_equal(c.count[1], 2);
	assert_int_equal(c.count[2], 233);
	assert_int_equal(c.count[3], 7);
	assert_int_equal(c.count[4], 77);
}

/* An entry from user mode is split after the fact (softpmu_user_span):
 * kernel up to `left`, user to `back`.  Exact however the two halves
 * fall, and still exact when the kernel half's overflow interrupt folds
 * and restarts the set at a later clock. */
static void test_softpmu_user_span_splits_exactly(void **state)
{
	struct hwperf_reason why;
	struct hwperf_counts c;

	(void)state;
	assert_true(hwt_acquire(root, "cycles:k:thresh=100,cycles:u", &why) > 0);
	now = 400;              /* the kernel reads its clock after `back` */
	softpmu_user_span(150, 300, 0, fake_cpu); /* K 0..150 (overflows), U 150..300 */
	now = 420;
	assert_true(hwperf_sys_read(NULL, &c, &why) > 0);
	assert_int_equal(c.count[1], 150);                      /* U, exactly */
	assert_int_equal(c.count[0], 150 + (420 - 300));        /* K on either side */
	assert_true(c.count[0] + c.count[1] <= c.running[0]);
	softpmu_user_span(500, 650, 0, fake_cpu);
	now = 700;
	assert_true(hwperf_sys_read(NULL, &c, &why) > 0);
	assert_int_equal(c.count[1], 300);
	assert_int_equal(c.count[0], 150 + 200 + 50);
}

/* The entry names its CPU (kernel/entry.c passes its struct cpu's id):
 * the span goes to that CPU's bank whatever the configuration's this_cpu
 * would say, and a span told for another CPU leaves this one's alone. */
static void test_softpmu_user_span_credits_the_cpu_it_names(void **state)
{
	struct hwperf_reason why;

	(void)state;
	fake_run(0, root);                      /* kernel cycles: root's to count */
	assert_true(hwt_enable(root, 0, "cycles:u,cycles:k", &why) > 0); /* at 0, in K */
	fake_cpu = 1;                           /* what a lookup would find */
	softpmu_user_span(100, 130, 0, 0);      /* CPU 0: K 100, U 30 */
	softpmu_user_span(200, 260, 0, 1);      /* CPU 1's bank counts nothing */
	fake_cpu = 0;
	now = 130;                              /* nothing owed on CPU 0 */
	assert_int_equal(hwt_count(1, 0), 30);
	assert_int_equal(hwt_count(1, 1), 100);
	now = 150;                              /* CPU 0 in K from 130 */
	assert_int_equal(hwt_count(1, 0), 30);
	assert_int_equal(hwt_count(1, 1), 120);
}

/* softpmu_user_span with user cycles alone counted (the usual entry,
 * which a 32-bit machine makes in 32 bits while the span's difference
 * fits them): a span of 0 and a back before left credit nothing, and
 * spans of the counter's room, its room plus one, 2^32 and more, and
 * wider than the counter, each count exactly across their wraps. */
static void test_softpmu_user_span_edges(void **state)
{
	static const uint64_t wide[] = { 0xffffffffull, 0x100000000ull,
	                                 0x100000007ull, 5 };
	static const uint64_t narrow[] = { 255, 256, 1000, 3 };
	static const struct {
		unsigned width;
		const uint64_t *spans;
	} runs[] = { { 32, wide }, { 8, narrow } };
	struct hwperf_reason why;

	(void)state;
	for (unsigned r = 0; r < 2; r++) {
		uint64_t t = 10, fed = 0;

		soft(1, runs[r].width);
		assert_true(hwt_enable(a, 0, "cycles:u", &why) > 0);
		softpmu_user_span(t, t, 0, fake_cpu);           /* no user time */
		softpmu_user_span(t + 5, t + 2, 0, fake_cpu);   /* out of order */
		t += 2;
		now = t;
		assert_int_equal(hwt_count(10, 0), 0);
		for (unsigned i = 0; i < 4; i++) {
			uint64_t span = runs[r].spans[i];

			softpmu_user_span(t + 3, t + 3 + span, 0, fake_cpu);
			t += 3 + span;
			fed += span;
			now = t;
			assert_int_equal(hwt_count(10, 0), fed);
		}
	}
}

/* ---- user cycles held back (pmu_kevent.h) ---------------------------------- */

/* An entry from user mode as the kernel makes it (kernel/entry.c): the
 * span held while it fits the CPU's room, else told with what was held;
 * or, with hold false, told at once as before.  True when held. */
static bool enter_from_user(bool hold, uint64_t left, uint64_t back)
{
	if (hold && pmu_user_span_hold(&pmu_user_hold[fake_cpu], left, back))
		return true;
	softpmu_user_span(left, back, 0, fake_cpu);
	return false;
}

#define HELD_STEPS 400

struct held_run {
	struct hwperf_counts c[2];
	uint64_t peek[HELD_STEPS][2];   /* the registers after each entry */
	uint64_t read[HELD_STEPS];      /* a's cycles as a read found them */
	unsigned sigs[HELD_STEPS][2];   /* a's and b's signals after each */
	unsigned held, told;
	unsigned alike;                 /* switches between a and b programmed alike */
};

/*
 * Two tasks programmed alike by spec (user cycles and system calls, with
 * or without a threshold) take turns; entries of short spans and of
 * spans across two thresholds, reads, ticks, and a run of a task with
 * the same events in another order (switch_apart) between.
 */
static void held_script(bool hold, unsigned width, const char *spec, struct held_run *r)
{
	struct hwperf_reason why;
	struct fake_task *c;
	uint64_t t;

	memset(r, 0, sizeof(*r));
	soft(3, width);
	c = fake_spawn(12, USER_UID, 12, 1);
	assert_true(hwt_enable(a, 0, spec, &why) > 0);
	fake_run(0, b);
	assert_true(hwt_enable(b, 0, spec, &why) > 0);
	fake_run(0, c);
	assert_true(hwt_enable(c, 0, "syscalls:u,cycles:u", &why) > 0);
	fake_switch_fused = true;
	fake_run(0, a);
	t = now;
	for (unsigned i = 0; i < HELD_STEPS; i++) {
		uint64_t left = t += 5 + i % 7;
		/* Now and then a span across two thresholds at once. */
		uint64_t span = i % 37 == 36 ? 2500 + i % 5 : 40 + 97 * (i % 13);

		now = t += span;
		if (enter_from_user(hold, left, t))
			r->held++;
		else
			r->told++;
		pmu_kernel_event(PMU_KEV_SYSCALLS, PMU_MODE_U, 1, 0);
		if (i % 5 == 4) {
			fake_run(0, i % 50 == 49 ? c : i % 10 == 4 ? b : a);
			if (a->hw.set.pst.drv_cache != 0 &&
			    a->hw.set.pst.drv_cache == b->hw.set.pst.drv_cache)
				r->alike++;
		}
		if (i % 17 == 16) {
			now = t += 2;
			fake_tick(0);
		}
		if (i % 23 == 22)
			r->read[i] = hwt_count(10, 0);  /* a read folds */
		r->peek[i][0] = softpmu_peek(0, 0);
		r->peek[i][1] = softpmu_peek(0, 1);
		r->sigs[i][0] = a->sigs[SIG];
		r->sigs[i][1] = b->sigs[SIG];
	}
	fake_switch_fused = false;
	now = t += 1;
	fake_run(0, NULL);
	assert_true(hwperf_read(NULL, 10, &r->c[0], &why) > 0);
	assert_true(hwperf_read(NULL, 11, &r->c[1], &why) > 0);
}

/* held_script both ways, and every observation the same. */
static void held_same(unsigned width, const char *spec, struct held_run *told,
                      struct held_run *held)
{
	held_script(false, width, spec, told);
	held_script(true, width, spec, held);
	assert_int_equal(told->held, 0);
	assert_true(held->held > HELD_STEPS / 4);
	for (unsigned i = 0; i < HELD_STEPS; i++) {
		assert_int_equal(held->sigs[i][0], told->sigs[i][0]);
		assert_int_equal(held->sigs[i][1], told->sigs[i][1]);
		assert_int_equal(held->peek[i][0], told->peek[i][0]);
		assert_int_equal(held->peek[i][1], told->peek[i][1]);
		assert_int_equal(held->read[i], told->read[i]);
	}
	for (unsigned k = 0; k < 2; k++) {
		assert_memory_equal(&held->c[k], &told->c[k], sizeof(held->c[k]));
		assert_true(told->c[k].count[0] > 0 && told->c[k].count[1] > 0);
	}
}

/*
 * Held entries give what told entries give, entry by entry: the counts
 * and times, each register as peek shows it (the read page's view), what
 * each read found, and every threshold's signal at the entry that
 * crossed it (the entry that would wrap a counter is told, its interrupt
 * where it always came).  With thresholds (a fired threshold reloads the
 * set, so the switch stops one set and starts the other: switch_apart),
 * and without (the two sets programmed alike hand the counters over:
 * hand_over_narrow up to 32 bits, hand_over at 40), on counters of 12
 * bits (wraps within the script), 32 and 40.
 */
static void test_R14_R15_held_user_cycles_count_as_told(void **state)
{
	static const unsigned widths[] = { 12, 32, 40 };
	static struct held_run told, held;

	(void)state;
	for (unsigned w = 0; w < 3; w++) {
		held_same(widths[w], "cycles:u:thresh=1000,sig=5,syscalls:u", &told, &held);
		/* Both ways ran: held, and told when it would cross. */
		assert_true(held.told > 0);
		/* The thresholds fired, both tasks' (the script crossed them). */
		assert_true(told.sigs[HELD_STEPS - 1][0] > 2);
		assert_true(told.sigs[HELD_STEPS - 1][1] > 2);

		held_same(widths[w], "cycles:u,syscalls:u", &told, &held);
		/* a and b were programmed alike: switches handed over. */
		assert_true(held.alike > HELD_STEPS / 20);
	}
	/* At 12 bits the counters wrapped, each wrap's entry told. */
	held_same(12, "cycles:u,syscalls:u", &told, &held);
	assert_true(told.c[0].count[0] > 4 * pmu_width_mask(12));
	assert_true(held.told > 0);
}

/*
 * The room a CPU may hold: below every user-cycles counter's distance to
 * its wrap, 0 while a counter counts cycles in the kernel (the span's
 * kernel part is credited as it ends) or nothing is loaded; what is held
 * shows in peek and in a read, and goes to the set it was held for.
 */
static void test_held_user_cycles_room_and_owner(void **state)
{
	struct pmu_user_hold *h = &pmu_user_hold[0];
	struct hwperf_reason why;
	uint64_t v0, fed, span;

	(void)state;
	soft(2, 12);
	assert_int_equal(h->room, 0);
	assert_true(hwt_enable(a, 0, "cycles:u", &why) > 0);
	v0 = softpmu_peek(0, 0);        /* where its period starts */
	assert_int_equal(h->room, pmu_width_mask(12) - v0);
	assert_true(enter_from_user(true, 100, 130));
	assert_int_equal(h->held, 30);
	assert_int_equal(softpmu_peek(0, 0), v0 + 30);
	now = 130;
	assert_int_equal(hwt_count(10, 0), 30);         /* folded by the read */
	assert_int_equal(h->held, 0);
	/* Not a span as wide as the room (it takes the counter to its last
	 * value: held spans stay short of it), nor, then, one more cycle,
	 * which wraps the counter: both told. */
	span = h->room;
	assert_false(enter_from_user(true, 200, 200 + span));
	assert_int_equal(softpmu_peek(0, 0), pmu_width_mask(12));
	assert_int_equal(h->room, 0);
	assert_false(enter_from_user(true, 300 + span, 301 + span));
	assert_true(softpmu_peek(0, 0) < pmu_width_mask(12));
	fed = 30 + span + 1;
	now = 301 + span;
	assert_int_equal(hwt_count(10, 0), fed);
	/* Held spans are the set's that was loaded: b's switch-in takes
	 * them to a first. */
	assert_true(enter_from_user(true, 5000, 5007));
	now = 5010;
	fake_run(0, b);
	assert_int_equal(h->room, 0);                   /* b counts nothing */
	assert_int_equal(hwt_count(10, 0), fed + 7);
	assert_false(enter_from_user(true, 6000, 6010));
	/* Unloaded, the hold goes with the set. */
	fake_run(0, a);
	assert_true(enter_from_user(true, 8000, 8001));
	now = 8002;
	fake_run(0, NULL);
	assert_int_equal(h->held, 0);
	assert_int_equal(h->room, 0);
	assert_int_equal(hwt_count(10, 0), fed + 8);
	/* Cycles counted in the kernel as well: nothing held. */
	fake_run(0, root);
	assert_true(hwt_enable(root, 0, "cycles:u,cycles:k", &why) > 0);
	assert_int_equal(h->room, 0);
	assert_false(enter_from_user(true, 9000, 9010));
	now = 9010;
	assert_int_equal(hwt_count(1, 0), 10);
}

/* The kernel's hooks are gated by what loaded counters count
 * (pmu_kevent.h): the driver says so at every load and unload, and an
 * event reported through the gate reaches the counter. */
static void test_kevents_wanted_follows_loaded_counters(void **state)
{
	struct hwperf_reason why;

	(void)state;
	assert_int_equal(pmu_kevents_of(0), 0);
	assert_true(hwt_enable(a, 0, "syscalls:u,csw:k", &why) < 0);   /* k: root */
	assert_true(hwt_enable(a, 0, "syscalls:u,csw:u", &why) > 0);
	assert_int_equal(pmu_kevents_of(0), PMU_KEV_BIT(PMU_KEV_SYSCALLS) |
			 PMU_KEV_BIT(PMU_KEV_CSW_VOL) | PMU_KEV_BIT(PMU_KEV_CSW_INVOL));
	pmu_kernel_event(PMU_KEV_SYSCALLS, PMU_MODE_U, 2, 0);
	pmu_kernel_event(PMU_KEV_FAULTS, PMU_MODE_U, 5, 0);     /* nobody wants it */
	pmu_kernel_event(PMU_KEV_CSW_INVOL, PMU_MODE_U, 1, 0);
	assert_int_equal(hwt_count(10, 0), 2);
	assert_int_equal(hwt_count(10, 1), 1);
	/* A read folds (suspend, resume): the gate is the same after it. */
	assert_int_equal(pmu_kevents_of(0), PMU_KEV_BIT(PMU_KEV_SYSCALLS) |
			 PMU_KEV_BIT(PMU_KEV_CSW_VOL) | PMU_KEV_BIT(PMU_KEV_CSW_INVOL));
	/* Switched out, nothing of a's is loaded: every hook is one test. */
	fake_run(0, b);
	assert_int_equal(pmu_kevents_of(0), 0);
	fake_run(0, a);
	assert_true(pmu_kevent_wanted(PMU_KEV_SYSCALLS));
	assert_false(pmu_kevent_wanted(PMU_KEV_CYCLES));
}

/* Every change of a CPU's word is told to the arch, which keeps it where
 * that CPU's hooks test it (kernel/arch.h arch_kevents_set; MIPS sets its
 * system call hint after it). */
static void test_kevents_changes_are_told_to_the_arch(void **state)
{
	struct hwperf_reason why;
	unsigned told;

	(void)state;
	fake_kevents_told = 0;
	assert_true(hwt_enable(a, 0, "syscalls:u", &why) > 0);
	assert_true(fake_kevents_told > 0);
	assert_int_equal(fake_kevents_last, PMU_KEV_BIT(PMU_KEV_SYSCALLS));
	assert_int_equal(fake_kevents_last, pmu_kevents_of(0));
	told = fake_kevents_told;
	fake_run(0, b);
	assert_true(fake_kevents_told > told);
	assert_int_equal(fake_kevents_last, 0);
	told = fake_kevents_told;
	fake_run(0, a);
	assert_true(fake_kevents_told > told);
	assert_int_equal(fake_kevents_last, PMU_KEV_BIT(PMU_KEV_SYSCALLS));
}

/*
 * Each CPU's hooks test that CPU's word (pmu_kevent.h): a task counting
 * on CPU 1 gives CPU 1 its kinds alone, so CPU 0's hooks stay one test
 * and its events reach no counter, while CPU 1's are counted; the word
 * follows what is loaded there (0 once the task is off, the kinds going
 * with it when it moves).
 */
static void test_kevents_are_per_cpu(void **state)
{
	const uint32_t kinds = PMU_KEV_BIT(PMU_KEV_SYSCALLS) | PMU_KEV_BIT(PMU_KEV_FAULTS);
	struct hwperf_reason why;

	(void)state;
	soft_ops_on(2, SOFTPMU_COUNTERS_DEFAULT, SOFTPMU_WIDTH_DEFAULT, &softpmu_ops);
	fake_run(0, root);
	assert_true(hwt_enable(a, 0, "syscalls:u,faults:u", &why) > 0);
	fake_run(1, a);
	assert_int_equal(pmu_kevents_of(1), kinds);
	assert_int_equal(pmu_kevents_of(0), 0);
	assert_int_equal(fake_kevents_last_cpu, 1);
	assert_false(pmu_kevent_wanted(PMU_KEV_SYSCALLS));      /* on CPU 0 */
	pmu_kernel_event(PMU_KEV_SYSCALLS, PMU_MODE_U, 5, 0);
	fake_cpu = 1;
	assert_true(pmu_kevent_wanted(PMU_KEV_SYSCALLS));
	assert_false(pmu_kevent_wanted(PMU_KEV_CYCLES));
	pmu_kernel_event(PMU_KEV_SYSCALLS, PMU_MODE_U, 3, 0);
	pmu_kernel_event(PMU_KEV_FAULTS, PMU_MODE_U, 2, 0);
	fake_cpu = 0;
	fake_run(1, NULL);                      /* folded: CPU 1 counts nothing */
	assert_int_equal(pmu_kevents_of(1), 0);
	assert_int_equal(hwt_count(10, 0), 3);
	assert_int_equal(hwt_count(10, 1), 2);
	fake_run(0, a);                         /* a moves to CPU 0 */
	assert_int_equal(pmu_kevents_of(0), kinds);
	assert_int_equal(pmu_kevents_of(1), 0);
	pmu_kernel_event(PMU_KEV_SYSCALLS, PMU_MODE_U, 4, 0);
	assert_int_equal(hwt_count(10, 0), 7);
}

/*
 * A CPU whose counters stop counting cycles stops hearing of its mode
 * changes, whatever another CPU counts: so a resume there takes the
 * mode afresh (softpmu.c mode_if_untracked, by the bank's own kinds).
 * b counts user cycles on CPU 0 and a on CPU 1; CPU 0 goes to user mode
 * (told), b is switched out, CPU 0 comes back to the kernel (not told:
 * nothing there counts cycles now), and b is switched back in: the
 * kernel time after that is not b's.
 */
static void test_untracked_mode_is_per_cpu(void **state)
{
	struct hwperf_reason why;
	uint64_t before;

	(void)state;
	soft_ops_on(2, SOFTPMU_COUNTERS_DEFAULT, SOFTPMU_WIDTH_DEFAULT, &softpmu_ops);
	fake_run(0, root);
	assert_true(hwt_enable(a, 0, "cycles:u", &why) > 0);
	assert_true(hwt_enable(b, 0, "cycles:u", &why) > 0);
	fake_run(1, a);
	now = 10;
	fake_run(0, b);
	kernel_mode(PMU_MODE_U, 20);
	now = 30;
	fake_run(0, root);                      /* b: 10 user cycles */
	assert_true(pmu_kevents_of(1) & PMU_KEV_BIT(PMU_KEV_CYCLES));
	assert_false(pmu_kevents_of(0) & PMU_KEV_BIT(PMU_KEV_CYCLES));
	kernel_mode(PMU_MODE_K, 40);            /* CPU 0: not told */
	before = hwt_count(11, 0);
	assert_int_equal(before, 10);
	now = 50;
	fake_run(0, b);
	now = 90;                               /* 40 kernel cycles */
	assert_int_equal(hwt_count(11, 0), before);
	kernel_mode(PMU_MODE_U, 100);
	kernel_mode(PMU_MODE_K, 125);
	assert_int_equal(hwt_count(11, 0), before + 25);
}

/* A read of a set without thresholds folds without stopping it
 * (soft_sync): every counter keeps its value and control, so the read
 * leaves the registers as they were, and the counts stay exact across
 * reads.  A set with a threshold is still stopped and restarted at a
 * fresh period, so its counter is rewritten. */
static void test_read_folds_without_stopping(void **state)
{
	struct hwperf_reason why;
	uint64_t v0, v1;

	(void)state;
	assert_true(hwt_enable(a, 0, "syscalls:u,cycles:u", &why) > 0);
	pmu_kernel_event(PMU_KEV_SYSCALLS, PMU_MODE_U, 3, 0);
	to_mode(PMU_MODE_U, 100);
	to_mode(PMU_MODE_K, 160);               /* 60 user cycles */
	v0 = softpmu_peek(0, 0);
	v1 = softpmu_peek(0, 1);
	now = 200;                              /* kernel time: not owed */
	assert_int_equal(hwt_count(10, 0), 3);
	assert_int_equal(hwt_count(10, 1), 60);
	assert_int_equal(softpmu_peek(0, 0), v0);
	assert_int_equal(softpmu_peek(0, 1), v1);
	pmu_kernel_event(PMU_KEV_SYSCALLS, PMU_MODE_U, 2, 0);
	to_mode(PMU_MODE_U, 210);
	now = 250;                              /* user time: owed, folded */
	assert_int_equal(hwt_count(10, 0), 5);
	assert_int_equal(hwt_count(10, 1), 100);
	assert_int_equal(softpmu_peek(0, 0), v0 + 2);
	assert_int_equal(softpmu_peek(0, 1), v1 + 40);
	to_mode(PMU_MODE_K, 260);
	assert_int_equal(hwt_count(10, 1), 110);
	assert_int_equal(pmu_kevents_of(0), PMU_KEV_BIT(PMU_KEV_SYSCALLS) |
			 PMU_KEV_BIT(PMU_KEV_CYCLES));

	/* With a threshold the read restarts the period: 7 to go of 10. */
	fake_run(0, b);
	assert_true(hwt_enable(b, 0, "syscalls:u:thresh=10", &why) > 0);
	fake_run(0, a);
	fake_run(0, b);
	pmu_kernel_event(PMU_KEV_SYSCALLS, PMU_MODE_U, 3, 0);
	assert_int_equal(hwt_count(11, 0), 3);
	assert_int_equal(softpmu_peek(0, 0), pmu_width_mask(32) + 1 - 7);
}

/* A fold or a stop at the clock reading of the bank's last credit owes
 * its cycle counters nothing: they are credited 0 (owing() no longer
 * tests the span), which must leave every count, value and overflow bit
 * as it was, also one cycle short of a wrap. */
static void test_nothing_owed_credits_nothing(void **state)
{
	struct hwperf_reason why;
	uint64_t v;

	(void)state;
	soft(2, 8);
	assert_true(hwt_enable(a, 0, "cycles:u", &why) > 0);
	to_mode(PMU_MODE_U, 10);                /* counted from 10 */
	now = 10 + 254;                         /* one short of the 8-bit wrap */
	assert_int_equal(hwt_count(10, 0), 254);
	v = softpmu_peek(0, 0);
	assert_int_equal(v, 255);               /* started at ireset 1 */
	assert_int_equal(hwt_count(10, 0), 254);        /* read again: 0 owed */
	assert_int_equal(softpmu_peek(0, 0), v);
	fake_run(0, b);                                 /* a stops: 0 owed */
	assert_int_equal(hwt_count(10, 0), 254);
	assert_int_equal(softpmu_peek(0, 0), v);
	fake_run(0, a);
	now += 1;                                       /* the wrap, counted */
	assert_int_equal(hwt_count(10, 0), 255);
	assert_int_equal(softpmu_peek(0, 0), 0);
}

/* While nothing counted cycles, mode changes went unreported; the set
 * that starts counting them starts from the mode the CPU is in then. */
static void test_cycles_start_in_the_current_mode_after_a_gap(void **state)
{
	struct hwperf_reason why;

	(void)state;
	assert_true(hwt_enable(a, 0, "syscalls:u", &why) > 0);
	mode_now = PMU_MODE_U;          /* a mode change nobody was told of */
	now = 100;
	fake_run(0, b);
	assert_true(hwt_enable(b, 0, "cycles:u", &why) > 0);    /* loads at 100, in U */
	now = 160;
	assert_int_equal(hwt_count(11, 0), 60);
}

static void test_softpmu_events_filtered_by_mode(void **state)
{
	struct hwperf_reason why;

	(void)state;
	soft(4, 32);
	fake_run(0, a);
	assert_true(hwt_enable(a, 0, "syscalls:u,csw,csw-vol,faults:u", &why) > 0);
	softpmu_event(SOFTPMU_SYSCALLS, PMU_MODE_U, 3, 0);
	softpmu_event(SOFTPMU_SYSCALLS, PMU_MODE_K, 100, 0);
	softpmu_event(SOFTPMU_CSW_VOL, PMU_MODE_U, 2, 0);
	softpmu_event(SOFTPMU_CSW_INVOL, PMU_MODE_U, 5, 0);
	softpmu_event(SOFTPMU_FAULTS, PMU_MODE_U, 1, 0);
	softpmu_event(SOFTPMU_TLB_REFILLS, PMU_MODE_U, 9, 0);
	assert_int_equal(hwt_count(10, 0), 3);
	assert_int_equal(hwt_count(10, 1), 7);
	assert_int_equal(hwt_count(10, 2), 2);
	assert_int_equal(hwt_count(10, 3), 1);
}

static void test_softpmu_refuses_supervisor_mode(void **state)
{
	struct hwperf_reason why;

	(void)state;
	fake_run(0, root);
	assert_int_equal(hwt_enable(root, 0, "cycles:s", &why), -EINVAL);
	hwt_has(&why, "cannot filter");
}

/* ≥ 1000 wraps of a width-bit soft counter, counted exactly. */
static void wrap_events(unsigned width, uint64_t chunk)
{
	struct hwperf_reason why;
	uint64_t total = ((uint64_t)1 << width) * 1000 + 99, fed = 0;

	soft(2, width);
	assert_true(hwt_enable(a, 0, "syscalls,ticks", &why) > 0);
	while (fed < total) {
		uint64_t n = total - fed < chunk ? total - fed : chunk;

		softpmu_event(SOFTPMU_SYSCALLS, PMU_MODE_U, n, 0);
		softpmu_event(SOFTPMU_TICKS, PMU_MODE_U, 1, 0);
		fed += n;
	}
	assert_int_equal(hwt_count(10, 0), total);
}

static void test_R14_softpmu_16bit_exact_over_1000_wraps(void **state)
{
	(void)state;
	wrap_events(16, 100003);
}

static void test_R14_softpmu_8bit_exact_over_1000_wraps(void **state)
{
	(void)state;
	wrap_events(8, 1001);
}

static void test_R14_softpmu_8bit_cycles_exact_across_modes_and_reads(void **state)
{
	struct hwperf_reason why;
	uint64_t u = 0, k = 0, t = 0;

	(void)state;
	soft(2, 8);
	assert_true(hwt_enable(a, 0, "cycles:u,cycles:k", &why) == -EPERM);
	fake_run(0, root);
	assert_true(hwt_enable(root, 0, "cycles:u,cycles:x", &why) > 0);
	to_mode(PMU_MODE_U, 0);
	for (unsigned i = 0; i < 1000; i++) {
		t += 300 + i;
		to_mode(PMU_MODE_X, t);
		u += 300 + i;
		t += 77;
		to_mode(PMU_MODE_U, t);
		k += 77;
		if (i % 10 == 0) {
			now = t += 5;   /* live read folds 5 more user cycles */
			u += 5;
			assert_int_equal(hwt_count(1, 0), u);
			to_mode(PMU_MODE_U, t);
		}
	}
	assert_int_equal(hwt_count(1, 0), u);
	assert_int_equal(hwt_count(1, 1), k);
	assert_true(u > ((uint64_t)1 << 8) * 1000);
}

static void test_R14_softpmu_64bit_counters(void **state)
{
	struct hwperf_reason why;

	(void)state;
	soft(1, 64);
	assert_true(hwt_enable(a, 0, "syscalls", &why) > 0);
	softpmu_event(SOFTPMU_SYSCALLS, PMU_MODE_U, UINT64_MAX / 2, 0);
	softpmu_event(SOFTPMU_SYSCALLS, PMU_MODE_U, 5, 0);
	assert_int_equal(hwt_count(10, 0), UINT64_MAX / 2 + 5);
}

/* A user span of exactly a counter's room plus one wraps it to 0, and
 * one of its room does not: at the edge of credit_cycles' 32-bit way,
 * on 8-bit counters and 32-bit ones alike, every cycle is counted. */
static void test_R14_cycle_credit_at_the_wrap_edge(void **state)
{
	static const unsigned widths[] = { 8, 32 };
	struct hwperf_reason why;

	(void)state;
	for (unsigned w = 0; w < 2; w++) {
		uint64_t t = 0, fed = 0;

		soft(1, widths[w]);
		assert_true(hwt_enable(a, 0, "cycles:u", &why) > 0);
		for (unsigned i = 0; i < 6; i++) {
			uint64_t room = pmu_width_mask(widths[w]) - softpmu_peek(0, 0);
			uint64_t span = i % 2 ? room : room + 1;

			to_mode(PMU_MODE_U, t += 3);
			to_mode(PMU_MODE_K, t += span);
			fed += span;
			if (i % 2 == 0)
				assert_true(softpmu_peek(0, 0) <= 1);
		}
		assert_int_equal(hwt_count(10, 0), fed);
	}
}

static void test_R15_softpmu_threshold_exact(void **state)
{
	struct hwperf_reason why;

	(void)state;
	soft(2, 8);
	assert_true(hwt_enable(a, 0, "syscalls:thresh=300,sig=5", &why) > 0);
	for (unsigned i = 1; i <= 3000; i++) {
		softpmu_event(SOFTPMU_SYSCALLS, PMU_MODE_U, 1, 0);
		assert_int_equal(a->sigs[SIG], i / 300);
	}
}

static void test_R15_softpmu_cycle_threshold_exact_in_bulk(void **state)
{
	struct hwperf_reason why;
	uint64_t t = 0, u = 0;

	(void)state;
	soft(2, 16);
	assert_true(hwt_enable(a, 0, "cycles:u:thresh=1000,sig=5", &why) > 0);
	for (unsigned i = 0; i < 500; i++) {
		t += 37;
		to_mode(PMU_MODE_U, t);
		t += 913;
		to_mode(PMU_MODE_K, t);
		u += 913;
		assert_int_equal(a->sigs[SIG], u / 1000);
	}
}

static void test_R13_softpmu_eight_events_on_two_counters(void **state)
{
	struct hwperf_reason why;
	struct hwperf_counts c;
	enum { TICKS = 400, TICK = 1000 };

	(void)state;
	assert_true(hwt_enable(a, 0, "syscalls,csw,csw-vol,csw-invol,faults,"
	                       "tlb-refills,irqs,signals", &why) > 0);
	for (unsigned i = 0; i < TICKS; i++) {
		now += TICK;
		fake_tick(0);
	}
	assert_true(hwperf_read(&a->hw, 0, &c, &why) > 0);
	for (unsigned e = 0; e < 8; e++) {
		assert_int_equal(c.enabled[e], (uint64_t)TICKS * TICK);
		assert_int_equal(c.running[e], (uint64_t)TICKS * TICK / 4);
	}
}

/*
 * Four alike events, one with a threshold, rotated on two 8-bit counters
 * (R13, R14, R15): the events without one come back onto counters that
 * held the same event with the same period, so their placements keep
 * the last check's outputs (place_full), while the one with a threshold
 * has a new period nearly every time it is placed, so its placement is
 * checked afresh.  Every event's count is the events fed while it was
 * placed, and the signal comes at the event that reaches each threshold.
 */
static void test_R13_R15_alike_events_rotate_with_exact_periods(void **state)
{
	struct hwperf_reason why;
	uint64_t want[4] = { 0 };

	(void)state;
	soft(2, 8);
	assert_true(hwt_enable(a, 0, "syscalls:u:thresh=7,sig=5,syscalls:u,"
	                       "syscalls:u,syscalls:u", &why) > 0);
	for (unsigned i = 0; i < 400; i++) {
		for (unsigned e = 0; e < 1 + i % 5; e++) {
			uint32_t placed = a->hw.set.placed;

			softpmu_event(SOFTPMU_SYSCALLS, PMU_MODE_U, 1 + 37 * (i % 3), 0);
			for (unsigned v = 0; v < 4; v++)
				if (placed & (1u << v))
					want[v] += 1 + 37 * (i % 3);
			assert_int_equal(a->sigs[SIG], want[0] / 7);
		}
		now += 1000;
		fake_tick(0);
	}
	for (unsigned v = 0; v < 4; v++)
		assert_int_equal(hwt_count(10, v), want[v]);
	assert_true(want[1] > 1000 * ((uint64_t)1 << 8) / 100);
}

/*
 * A placement kept at switch-in without thresholds: each i-mode counter
 * goes on from where its stop left it (the driver interface's continued
 * period) while another task's set uses the same counters between, and
 * every count stays exact over the 8-bit counters' wraps.
 */
static void test_R14_kept_placement_continues_its_counters(void **state)
{
	struct hwperf_reason why;
	uint64_t fed_a = 0, fed_b = 0, left = 0;

	(void)state;
	soft(2, 8);
	assert_true(hwt_enable(a, 0, "syscalls:u,faults:u", &why) > 0);
	fake_run(0, b);
	assert_true(hwt_enable(b, 0, "faults:u,syscalls:u", &why) > 0);
	fake_switch_fused = true;
	for (unsigned i = 0; i < 300; i++) {
		fake_run(0, i % 2 ? b : a);
		if (i > 1 && i % 2 == 0)
			assert_int_equal(softpmu_peek(0, 0), left);
		softpmu_event(SOFTPMU_SYSCALLS, PMU_MODE_U, 1 + 29 * (i % 7), 0);
		if (i % 2) {
			fed_b += 1 + 29 * (i % 7);
		} else {
			fed_a += 1 + 29 * (i % 7);
			left = softpmu_peek(0, 0);
		}
	}
	fake_run(0, NULL);
	assert_int_equal(hwt_count(10, 0), fed_a);
	assert_int_equal(hwt_count(11, 1), fed_b);
	assert_true(fed_a > 100 * ((uint64_t)1 << 8) / 4);
}

/* What the switch script below leaves each of its tasks. */
/* A fused path against its step-by-step reference: for each of nsets
 * tasks, the first nslots counts, times and its signals agree. */
static void assert_same_counts(const struct hwperf_counts *got,
			       const struct hwperf_counts *want,
			       const unsigned *got_sigs, const unsigned *want_sigs,
			       unsigned nsets, unsigned nslots)
{
	for (unsigned k = 0; k < nsets; k++) {
		for (unsigned i = 0; i < nslots; i++) {
			assert_int_equal(got[k].count[i], want[k].count[i]);
			assert_int_equal(got[k].enabled[i], want[k].enabled[i]);
			assert_int_equal(got[k].running[i], want[k].running[i]);
		}
		assert_int_equal(got_sigs[k], want_sigs[k]);
	}
}

struct switch_result {
	struct hwperf_counts c[3];
	unsigned sigs[3];
	uint32_t wanted;
};

/*
 * Three counting tasks and one without counters take turns on one CPU
 * with idle between, on 12-bit counters (wraps at switches): a has three
 * events on two counters (multiplexed, rotated at ticks), b a threshold
 * (every placement in full), d two events that fit and no threshold (a
 * kept placement, its counters going on where they stopped).  Between
 * the switches each runs user and kernel time and system calls, and the
 * voluntary switch event the scheduler reports as it leaves.
 */
static void switch_script(bool fused, struct switch_result *r)
{
	struct hwperf_reason why;
	struct fake_task *c, *d, *order[6];
	uint64_t t;

	soft(2, 12);
	c = fake_spawn(12, USER_UID, 12, 1);
	d = fake_spawn(13, USER_UID, 13, 1);
	assert_true(hwt_enable(a, 0, "cycles:u,syscalls:u,csw-vol:u", &why) > 0);
	fake_run(0, b);
	assert_true(hwt_enable(b, 0, "cycles:u,syscalls:u:thresh=50,sig=5", &why) > 0);
	fake_run(0, d);
	assert_true(hwt_enable(d, 0, "cycles:u,syscalls:u", &why) > 0);
	fake_switch_fused = fused;
	order[0] = a; order[1] = b; order[2] = d; order[3] = c;
	order[4] = NULL; order[5] = d;
	t = now;
	for (unsigned i = 0; i < 300; i++) {
		pmu_kernel_event(PMU_KEV_CSW_VOL, PMU_MODE_U, 1, 0);
		t += 11;
		now = t;
		fake_run(0, order[(i * 7 + i / 6) % 6]);
		to_mode(PMU_MODE_U, t += 5);
		t += 400 + 97 * (i % 13);
		to_mode(PMU_MODE_K, t);
		pmu_kernel_event(PMU_KEV_SYSCALLS, PMU_MODE_U, 1 + i % 9, 0);
		if (i % 4 == 3) {
			now = t += 3;
			fake_tick(0);
		}
	}
	fake_switch_fused = false;
	now = t += 1;
	fake_run(0, NULL);
	r->wanted = pmu_kevents_of(0);
	assert_true(hwperf_read(NULL, 10, &r->c[0], &why) > 0);
	assert_true(hwperf_read(NULL, 11, &r->c[1], &why) > 0);
	assert_true(hwperf_read(NULL, 13, &r->c[2], &why) > 0);
	r->sigs[0] = a->sigs[SIG];
	r->sigs[1] = b->sigs[SIG];
	r->sigs[2] = d->sigs[SIG];
}

/*
 * The kernel's one switch hook (hwperf_switch: one lock, the soft PMU's
 * switch_sets from one set to the next) gives every task the counts,
 * times and signals of the two hooks it replaced, and leaves the same
 * kernel events wanted.
 */
static void test_fused_switch_counts_as_switch_out_then_in(void **state)
{
	static struct switch_result apart, fused;

	(void)state;
	switch_script(false, &apart);
	switch_script(true, &fused);
	assert_same_counts(fused.c, apart.c, fused.sigs, apart.sigs, 3, 3);
	assert_int_equal(fused.wanted, apart.wanted);
	/* The script did what it is for: each set counted, a's rotated,
	 * b's threshold fired, and the counters wrapped. */
	assert_true(apart.c[0].running[0] < apart.c[0].enabled[0]);
	assert_true(apart.c[0].count[2] > 0);
	assert_true(apart.sigs[1] > 0);
	assert_true(apart.c[2].count[0] > pmu_width_mask(12));
	assert_int_equal(apart.c[2].running[1], apart.c[2].enabled[1]);
}

/*
 * Four counting tasks programmed alike in pairs take turns on one CPU,
 * with a task without counters and idle between, on counters of the
 * given width (12 bits: wraps at switches): a and b count user cycles, system calls and
 * voluntary switches, d and e system calls and user cycles.  Now and
 * then a switch comes in user mode (as tests may play it), so the
 * outgoing set is owed user cycles since the last credit.  The switch
 * between two sets programmed alike hands the counters' values over
 * without stopping them (soft_switch); its counts and times must be the
 * two hooks'.
 */
static void alike_script(bool fused, unsigned width, struct hwperf_counts *out)
{
	struct hwperf_reason why;
	struct fake_task *c, *d, *e, *order[7];
	uint64_t t;

	soft(3, width);
	c = fake_spawn(12, USER_UID, 12, 1);
	d = fake_spawn(13, USER_UID, 13, 1);
	e = fake_spawn(14, USER_UID, 14, 1);
	assert_true(hwt_enable(a, 0, "cycles:u,syscalls:u,csw-vol:u", &why) > 0);
	fake_run(0, b);
	assert_true(hwt_enable(b, 0, "cycles:u,syscalls:u,csw-vol:u", &why) > 0);
	fake_run(0, d);
	assert_true(hwt_enable(d, 0, "syscalls:u,cycles:u", &why) > 0);
	fake_run(0, e);
	assert_true(hwt_enable(e, 0, "syscalls:u,cycles:u", &why) > 0);
	fake_switch_fused = fused;
	order[0] = a; order[1] = b; order[2] = d; order[3] = e;
	order[4] = c; order[5] = NULL; order[6] = a;
	t = now;
	for (unsigned i = 0; i < 400; i++) {
		pmu_kernel_event(PMU_KEV_CSW_VOL, PMU_MODE_U, 1, 0);
		t += 7 + i % 5;
		now = t;
		/* Mostly a and b, or d and e, in turn; now and then others. */
		if (i % 13 == 6) {
			to_mode(PMU_MODE_U, t += 2);
			now = t += 6;   /* user cycles owed at the switch */
		}
		fake_run(0, order[i % 11 == 10 ? 2 + i % 5 : (i / 40) % 2 * 2 + i % 2]);
		to_mode(PMU_MODE_U, t += 5);
		t += 300 + 89 * (i % 11);
		to_mode(PMU_MODE_K, t);
		pmu_kernel_event(PMU_KEV_SYSCALLS, PMU_MODE_U, 1 + i % 7, 0);
		if (i % 9 == 8) {
			now = t += 3;
			fake_tick(0);
		}
	}
	fake_switch_fused = false;
	now = t += 1;
	fake_run(0, NULL);
	assert_true(hwperf_read(NULL, 10, &out[0], &why) > 0);
	assert_true(hwperf_read(NULL, 11, &out[1], &why) > 0);
	assert_true(hwperf_read(NULL, 13, &out[2], &why) > 0);
	assert_true(hwperf_read(NULL, 14, &out[3], &why) > 0);
}

static void test_fused_switch_between_sets_programmed_alike(void **state)
{
	static struct hwperf_counts apart[4], fused[4];
	static const unsigned nosigs[4];

	(void)state;
	/* Wider than 32 bits, the hand-over's 64-bit way (hand_over). */
	alike_script(false, 40, apart);
	alike_script(true, 40, fused);
	assert_same_counts(fused, apart, nosigs, nosigs, 4, 3);
	assert_true(apart[0].count[0] > 0);
	/* 32 bits or fewer (hand_over_narrow). */
	alike_script(false, 12, apart);
	alike_script(true, 12, fused);
	assert_same_counts(fused, apart, nosigs, nosigs, 4, 3);
	/* Each set counted past its counters' wraps. */
	for (unsigned k = 0; k < 4; k++) {
		assert_true(apart[k].count[k < 2 ? 0 : 1] > 4 * pmu_width_mask(12));
		assert_true(apart[k].count[k < 2 ? 1 : 0] > 0);
	}
	assert_true(apart[0].count[2] > 0);

	/* Handed back, an i-mode counter goes on from where its set left it
	 * (the continued period, as a resume gives it). */
	struct hwperf_reason why;
	uint64_t left = 0;

	soft(2, 12);
	assert_true(hwt_enable(a, 0, "syscalls:u", &why) > 0);
	fake_run(0, b);
	assert_true(hwt_enable(b, 0, "syscalls:u", &why) > 0);
	fake_switch_fused = true;
	for (unsigned i = 0; i < 8; i++) {
		fake_run(0, i % 2 ? b : a);
		if (i > 1 && i % 2 == 0)
			assert_int_equal(softpmu_peek(0, 0), left);
		softpmu_event(SOFTPMU_SYSCALLS, PMU_MODE_U, 5 + i, 0);
		if (i % 2 == 0)
			left = softpmu_peek(0, 0);
	}
	assert_int_equal(a->hw.set.pst.drv_cache, b->hw.set.pst.drv_cache);
	assert_int_not_equal(a->hw.set.pst.drv_cache, 0);
}

/* Switching between two sets that count the same kinds leaves the
 * kernel's wanted events as they were; to a set of other kinds, and to
 * one without counters, changes them as the two hooks did. */
static void test_fused_switch_tells_the_kinds_that_count(void **state)
{
	struct hwperf_reason why;

	(void)state;
	assert_true(hwt_enable(a, 0, "syscalls:u", &why) > 0);
	fake_run(0, b);
	assert_true(hwt_enable(b, 0, "cycles:u", &why) > 0);
	fake_switch_fused = true;
	fake_run(0, a);
	assert_int_equal(pmu_kevents_of(0), PMU_KEV_BIT(PMU_KEV_SYSCALLS));
	fake_run(0, b);
	assert_int_equal(pmu_kevents_of(0), PMU_KEV_BIT(PMU_KEV_CYCLES));
	fake_run(0, root);
	assert_int_equal(pmu_kevents_of(0), 0);
	fake_run(0, b);
	assert_int_equal(pmu_kevents_of(0), PMU_KEV_BIT(PMU_KEV_CYCLES));
	/* b's cycles count from the fused switch on, in U only. */
	to_mode(PMU_MODE_U, now + 10);
	to_mode(PMU_MODE_K, now + 25);
	assert_int_equal(hwt_count(11, 0), 25);
}


/* What the rotation script below leaves its two tasks. */
struct rotate_result {
	struct hwperf_counts c[2];
	unsigned sigs[2];
	uint32_t wanted[240];   /* CPU 0's kinds after each tick */
	/* Ticks of a counting task after which cycles were wanted, not. */
	unsigned cycles_wanted, cycles_not;
};

/*
 * Two tasks with more events than the soft PMU's three 10-bit counters
 * (wraps between ticks), rotated at ticks: a's five events of four
 * kinds with a threshold (every placement sets a period), b's four
 * without, so a rotation moves the kernel's wanted events (cycles
 * counted, then not: the mode goes unreported, kernel_mode).  Between
 * ticks each runs user and kernel time, system calls and faults, and
 * some ticks land in user mode; switches between them and to a task
 * without counters land between some ticks.  Driven through ops: with
 * the driver's rotate op, or through a copy without it (hwperf's
 * suspend, replace, resume).
 */
static void rotate_script(const struct pmu_ops *ops, struct rotate_result *r)
{
	struct hwperf_reason why;
	struct fake_task *order[3];
	uint64_t t;

	soft_ops(3, 10, ops);
	memset(r, 0, sizeof(*r));
	assert_true(hwt_enable(a, 0, "cycles:u,syscalls:u:thresh=37,sig=5,faults:u,"
	                       "cycles:u,csw-vol:u", &why) > 0);
	fake_run(0, b);
	assert_true(hwt_enable(b, 0, "syscalls:u,faults:u,csw-vol:u,cycles:u", &why) > 0);
	fake_switch_fused = true;
	order[0] = a; order[1] = b; order[2] = root;
	t = now;
	for (unsigned i = 0; i < sizeof(r->wanted) / sizeof(r->wanted[0]); i++) {
		if (i % 5 == 0) {
			pmu_kernel_event(PMU_KEV_CSW_VOL, PMU_MODE_U, 1, 0);
			now = t += 7;
			fake_run(0, order[(i / 5) % 3]);
		}
		kernel_mode(PMU_MODE_U, t += 3);
		t += 300 + 61 * (i % 11);
		/* Every third tick lands in user mode: the stop owes the
		 * user-cycle counters the cycles since the last credit. */
		if (i % 3 != 0) {
			kernel_mode(PMU_MODE_K, t);
			pmu_kernel_event(PMU_KEV_SYSCALLS, PMU_MODE_U, 1 + i % 7, 0);
			pmu_kernel_event(PMU_KEV_FAULTS, PMU_MODE_U, i % 3, 0);
		}
		now = t += 2;
		fake_tick(0);
		r->wanted[i] = pmu_kevents_of(0);
		if (order[(i / 5) % 3] != root) {
			if (pmu_kevents_of(0) & PMU_KEV_BIT(PMU_KEV_CYCLES))
				r->cycles_wanted++;
			else
				r->cycles_not++;
		}
	}
	fake_switch_fused = false;
	kernel_mode(PMU_MODE_K, t += 1);
	fake_run(0, NULL);
	assert_true(hwperf_read(NULL, 10, &r->c[0], &why) > 0);
	assert_true(hwperf_read(NULL, 11, &r->c[1], &why) > 0);
	r->sigs[0] = a->sigs[SIG];
	r->sigs[1] = b->sigs[SIG];
}

/*
 * The rotation as one driver step (the soft PMU's rotate: one clock
 * reading, the kinds told only when they change) gives every task the
 * counts, times and signals of suspend, replace and resume, and the
 * kernel the same wanted events after every tick looked at.
 */
static void test_fused_rotation_counts_as_suspend_then_resume(void **state)
{
	static struct rotate_result apart, fused;
	struct pmu_ops three_steps = softpmu_ops;

	(void)state;
	three_steps.rotate = NULL;
	rotate_script(&three_steps, &apart);
	rotate_script(&softpmu_ops, &fused);
	assert_same_counts(fused.c, apart.c, fused.sigs, apart.sigs, 2, 5);
	for (unsigned i = 0; i < sizeof(fused.wanted) / sizeof(fused.wanted[0]); i++)
		assert_int_equal(fused.wanted[i], apart.wanted[i]);
	/* The script did what it is for: both sets rotated (each event ran
	 * part of the time), a's threshold fired, the counters wrapped, and
	 * a rotation took cycles off the wanted events. */
	for (unsigned i = 0; i < 4; i++) {
		assert_true(apart.c[1].running[i] > 0);
		assert_true(apart.c[1].running[i] < apart.c[1].enabled[i]);
	}
	assert_true(apart.c[0].running[4] > 0);
	assert_true(apart.c[0].running[4] < apart.c[0].enabled[4]);
	assert_true(apart.sigs[0] > 0);
	assert_true(apart.c[0].count[0] > pmu_width_mask(10));
	assert_true(apart.cycles_wanted > 0);
	assert_true(apart.cycles_not > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_softpmu_probe_and_configuration, setup),
		cmocka_unit_test_setup(test_softpmu_cycles_split_by_mode, setup),
		cmocka_unit_test_setup(test_softpmu_user_span_splits_exactly, setup),
		cmocka_unit_test_setup(test_softpmu_user_span_credits_the_cpu_it_names, setup),
		cmocka_unit_test_setup(test_softpmu_user_span_edges, setup),
		cmocka_unit_test_setup(test_R14_R15_held_user_cycles_count_as_told, setup),
		cmocka_unit_test_setup(test_held_user_cycles_room_and_owner, setup),
		cmocka_unit_test_setup(test_softpmu_cycles_reach_their_modes_counters, setup),
		cmocka_unit_test_setup(test_softpmu_events_filtered_by_mode, setup),
		cmocka_unit_test_setup(test_kevents_wanted_follows_loaded_counters, setup),
		cmocka_unit_test_setup(test_kevents_changes_are_told_to_the_arch, setup),
		cmocka_unit_test_setup(test_kevents_are_per_cpu, setup),
		cmocka_unit_test_setup(test_untracked_mode_is_per_cpu, setup),
		cmocka_unit_test_setup(test_read_folds_without_stopping, setup),
		cmocka_unit_test_setup(test_nothing_owed_credits_nothing, setup),
		cmocka_unit_test_setup(test_cycles_start_in_the_current_mode_after_a_gap, setup),
		cmocka_unit_test_setup(test_softpmu_refuses_supervisor_mode, setup),
		cmocka_unit_test_setup(test_R14_softpmu_16bit_exact_over_1000_wraps, setup),
		cmocka_unit_test_setup(test_R14_softpmu_8bit_exact_over_1000_wraps, setup),
		cmocka_unit_test_setup(test_R14_softpmu_8bit_cycles_exact_across_modes_and_reads, setup),
		cmocka_unit_test_setup(test_R14_softpmu_64bit_counters, setup),
		cmocka_unit_test_setup(test_R14_cycle_credit_at_the_wrap_edge, setup),
		cmocka_unit_test_setup(test_R15_softpmu_threshold_exact, setup),
		cmocka_unit_test_setup(test_R15_softpmu_cycle_threshold_exact_in_bulk, setup),
		cmocka_unit_test_setup(test_R13_softpmu_eight_events_on_two_counters, setup),
		cmocka_unit_test_setup(test_R13_R15_alike_events_rotate_with_exact_periods, setup),
		cmocka_unit_test_setup(test_R14_kept_placement_continues_its_counters, setup),
		cmocka_unit_test_setup(test_fused_switch_counts_as_switch_out_then_in, setup),
		cmocka_unit_test_setup(test_fused_switch_between_sets_programmed_alike, setup),
		cmocka_unit_test_setup(test_fused_switch_tells_the_kinds_that_count, setup),
		cmocka_unit_test_setup(test_fused_rotation_counts_as_suspend_then_resume, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
