/*
 * Host tests of reading hardware counters in user mode (x86 rdpmc): the
 * read page kernel/hwperf/upage.c writes for a PMU whose driver names its
 * counters' user indexes, read by the user library's own hwp_uread
 * (user/lib/uread.c, linked in) over the PMU double, whose rdpmc returns
 * each counter with the bits above its width set, as real rdpmc returns
 * more bits than a counter has.
 *
 * The page lives where the library expects it (HWPERF_UPAGE_ADDR), mapped
 * here; the library's system call and its rdpmc are this file's fakes.
 * A kernel exit is what trap_exit does: fill, then publish.  Every count
 * the library reads is compared with the kernel's own read at the same
 * instant (hwt_count), whose system call then exits to user mode again.
 */
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hwperf_test.h"
#include "hwperf/internal.h"
#include "tally_hwperf.h"

#define WIDTH 32u
#define FIXED_HW 2u             /* the double's counter 2 counts cycles only */
#define SEQ_PER_EXIT 2u
#define UPAGE_BYTES 4096u

static struct hwperf_upage *page;
static struct fake_task *a, *b;

/* Run once at the top of a reader's rdpmc, then forgotten: the kernel
 * running between the reader's loads. */
static void (*interrupt_reader)(void);
static unsigned rdpmc_calls;

/* ---- the library's world: its system call and its counter reads ------- */

long hwp_call(int op, int id, const void *arg, const void *arg2)
{
	struct fake_task *me = fake_current(fake_cpu);
	struct hwperf_reason why;
	int err;

	assert_int_equal(op, HWPERF_OP_MAP);
	assert_int_equal(id, 0);
	assert_null(arg);
	assert_null(arg2);
	err = hwperf_upage_check(&me->hw, &why);
	if (err < 0)
		return err;
	return hwperf_upage_attach(&me->hw, page, 64, fakepmu_clock);
}

unsigned long hwp_ucycles(void)
{
	return fakepmu_clock;
}

unsigned long hwp_uguarded(void)
{
	return fakepmu_clock;
}

unsigned long hwp_urdpmc(uint32_t index)
{
	void (*hook)(void) = interrupt_reader;

	rdpmc_calls++;
	interrupt_reader = NULL;
	if (hook)
		hook();
	return fakepmu_rdpmc(fake_cpu, index);
}

/* ---- the kernel's side ---------------------------------------------------- */

/* trap_exit for the running task t. */
static void leave(struct fake_task *t)
{
	hwperf_upage_fill(&t->hw);
	hwperf_upage_publish(&t->hw, fakepmu_clock);
}

/* The kernel's read of a's counter i; its system call exits to a. */
static uint64_t kernel_count(unsigned i)
{
	uint64_t c = hwt_count(a->pid, i);

	leave(a);
	return c;
}

/* ngeneral general counters and one fixed (cycles only), WIDTH bits,
 * readable in user mode or not, interrupting on overflow or not. */
static void machine(unsigned ngeneral, bool user_read, bool irq)
{
	struct fakepmu_cfg cfg;

	fakepmu_default(&cfg);
	cfg.width = WIDTH;
	cfg.irq = irq;
	cfg.ncounters = ngeneral + 1;
	cfg.fixed_mask = 1u << ngeneral;
	cfg.user_read = user_read;
	hwt_setup_cfg(&cfg, 1);
	a = fake_spawn(10, USER_UID, 10, 1);
	b = fake_spawn(11, USER_UID, 11, 1);
	fake_run(0, a);
	memset(page, 0, sizeof(*page));
	interrupt_reader = NULL;
	rdpmc_calls = 0;
}

static int setup(void **state)
{
	(void)state;
	machine(2, true, true);
	return 0;
}

/* a enables spec and maps; the page holds the set. */
static int enable_and_map(const char *spec)
{
	struct hwperf_reason why;
	int gen = hwt_enable(a, 0, spec, &why);

	if (gen <= 0)
		fail_msg("enable '%s': %s", spec, why.text);
	assert_int_equal(hwp_map(), gen);
	return gen;
}

/* hwp_uread's counts equal the kernel's, counter by counter. */
static void assert_reads_exact(unsigned n)
{
	struct hwp_uread r = { .retries = 0 };

	assert_true(hwp_uread(&r) > 0);
	for (unsigned i = 0; i < n; i++) {
		uint64_t u = r.count[i];

		assert_int_equal(u, kernel_count(i));
	}
}

/* ---- tests ------------------------------------------------------------------ */

/* A driver that names no user index is refused, the library says so. */
static void test_kernel_only_counters_refused(void **state)
{
	struct hwperf_reason why = { "" };
	struct hwperf_reason ignore;

	(void)state;
	machine(2, false, true);
	assert_true(hwt_enable(a, 0, "instructions:u", &ignore) > 0);
	assert_int_equal(hwperf_upage_check(&a->hw, &why), -ENODEV);
	hwt_has(&why, "ENODEV");
	hwt_has(&why, "fake counters cannot be read in user mode");
	hwt_has(&why, "counter 0 is kernel-only");
	assert_int_equal(hwp_map(), -ENODEV);
	assert_false(hwperf_upage_mapped(&a->hw));
}

/* Each placed event: RDPMC, its counter's user index (bit 30 for the
 * fixed one), the driver's start, the folded sum, the counter's width. */
static void test_page_carries_rdpmc_slots(void **state)
{
	const struct hwperf_set *s = &a->hw.set;
	bool saw_fixed = false;

	(void)state;
	/* cycles can only go to the fixed counter: both generals are taken
	 * by events the fixed one cannot count. */
	enable_and_map("instructions:u,branches:u,cycles:u");
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 7);
	leave(a);
	assert_int_equal(s->pst.ctl.n, 3);
	for (unsigned k = 0; k < s->pst.ctl.n; k++) {
		unsigned i = s->slot_vctr[k], hw = s->pst.ctl.ctr[k].hw;
		uint32_t want = hw == FIXED_HW ? FAKEPMU_UINDEX_FIXED | hw : hw;

		assert_int_equal(page->c[i].how, HWPERF_UREAD_RDPMC);
		assert_int_equal(page->uindex[i], want);
		assert_int_equal(page->c[i].start, s->pst.ctr[k].start);
		assert_int_equal(page->c[i].sum, s->c.count[i] + s->pst.ctr[k].sum);
		assert_int_equal(page->c[i].width, WIDTH);
		saw_fixed |= hw == FIXED_HW;
	}
	assert_true(saw_fixed);
	assert_reads_exact(3);
}

/* Events counted after the kernel left are read live from the counter,
 * the high bits rdpmc adds masked off, also across the counter's wrap:
 * without an overflow interrupt (a-mode) nothing enters the kernel there. */
static void test_live_and_across_the_wrap(void **state)
{
	const uint64_t below_top = 5, past = 12;
	const uint64_t mask = (UINT64_C(1) << WIDTH) - 1;
	struct hwp_uread r = { .retries = 0 };
	unsigned hw;
	uint64_t n;

	(void)state;
	machine(2, true, false);
	enable_and_map("instructions:u");
	hw = a->hw.set.pst.ctl.ctr[0].hw;
	/* Bring the counter to below_top under its wrap. */
	n = (mask + 1 - below_top - fakepmu_value(0, hw)) & mask;
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, n);
	assert_int_equal(fakepmu_value(0, hw), mask + 1 - below_top);
	assert_reads_exact(1);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, past);
	assert_int_equal(fakepmu_value(0, hw), past - below_top);   /* wrapped */
	assert_true(hwp_uread(&r) > 0);
	assert_int_equal(r.count[0], n + past);
	assert_int_equal(r.retries, 0);
	assert_int_equal(kernel_count(0), n + past);
}

/* With the interrupt, the wrap is an overflow: the kernel runs (PMI),
 * reloads the counter, and its exit rewrites the page. */
static void test_overflow_interrupt_rewrites(void **state)
{
	const uint64_t n = (UINT64_C(1) << WIDTH) + 100;
	uint32_t seq;

	(void)state;
	enable_and_map("instructions:u");
	seq = page->seq;
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, n);
	assert_true(fakepmu_interrupts > 0);
	leave(a);                       /* the PMI returns to user mode */
	assert_int_equal(page->seq, seq + SEQ_PER_EXIT);
	assert_reads_exact(1);
	assert_int_equal(kernel_count(0), n);
}

/* A kernel read folds the counter into the sums (new start, new sum);
 * the exit that follows rewrites the page, and reads stay exact. */
static void test_fold_keeps_reads_exact(void **state)
{
	uint32_t seq;

	(void)state;
	enable_and_map("instructions:u,branches:u");
	for (unsigned round = 1; round <= 3; round++) {
		seq = page->seq;
		fakepmu_count(0, FK_INSNS, PMU_MODE_U, 100 * round);
		fakepmu_count(0, FK_BRANCHES, PMU_MODE_U, 10 * round);
		assert_reads_exact(2);
		assert_true(page->seq > seq);
	}
	assert_int_equal(kernel_count(0), 600);
	assert_int_equal(kernel_count(1), 60);
}

/* Preemption between the reader's loads: a is switched out, b counts on
 * the same counters, a comes back and counts more.  The sequence moved,
 * so the library retries and returns a's exact count. */
static void preempt_a(void)
{
	struct hwperf_reason why;

	fake_run(0, b);
	assert_true(hwt_enable(b, 0, "instructions:u", &why) > 0);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 1000);
	fake_run(0, a);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 3);
	leave(a);
}

static void test_preemption_mid_read_retries(void **state)
{
	struct hwp_uread r = { .retries = 0 };
	uint32_t seq;

	(void)state;
	enable_and_map("instructions:u");
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 40);
	seq = page->seq;
	interrupt_reader = preempt_a;
	assert_true(hwp_uread(&r) > 0);
	assert_int_equal(r.retries, 1);
	assert_int_equal(rdpmc_calls, 2);
	assert_int_equal(r.seq, seq + SEQ_PER_EXIT);
	assert_int_equal(r.count[0], 43);
	assert_int_equal(kernel_count(0), 43);
	assert_int_equal(hwt_count(b->pid, 0), 1000);
}

/* Three events on two counters take turns: the one rotated off reads as
 * its frozen sum (NONE), the others live (RDPMC), all exact. */
static void test_multiplexed_rotation(void **state)
{
	static const uint32_t code[3] = { FK_INSNS, FK_BRANCHES, FK_MISSES };
	unsigned off_seen = 0;

	(void)state;
	enable_and_map("instructions:u,branches:u,misses:u");
	for (unsigned round = 0; round < 6; round++) {
		unsigned off = 0;

		for (unsigned i = 0; i < 3; i++)
			fakepmu_count(0, code[i], PMU_MODE_U, 10 + i + round);
		for (unsigned i = 0; i < 3; i++)
			if (page->c[i].how == HWPERF_UREAD_NONE) {
				off++;
				off_seen |= 1u << i;
			} else {
				assert_int_equal(page->c[i].how, HWPERF_UREAD_RDPMC);
			}
		assert_int_equal(off, 1);
		assert_reads_exact(3);
		/* Time passes (time-running decides the turns) and a tick
		 * rotates. */
		fakepmu_clock += 1000;
		fake_tick(0);
		leave(a);
	}
	/* Every event was off the hardware once. */
	assert_int_equal(off_seen, 0x7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_kernel_only_counters_refused, setup),
		cmocka_unit_test_setup(test_page_carries_rdpmc_slots, setup),
		cmocka_unit_test_setup(test_live_and_across_the_wrap, setup),
		cmocka_unit_test_setup(test_overflow_interrupt_rewrites, setup),
		cmocka_unit_test_setup(test_fold_keeps_reads_exact, setup),
		cmocka_unit_test_setup(test_preemption_mid_read_retries, setup),
		cmocka_unit_test_setup(test_multiplexed_rotation, setup),
	};
	int fd = open("/dev/zero", O_RDWR);
	void *want = (void *)(uintptr_t)HWPERF_UPAGE_ADDR;
	void *got;

	if (fd < 0) {
		perror("open /dev/zero");
		return 1;
	}
	/* The library reads its page at one fixed address: map it there (a
	 * hint; refuse to run if the address is taken). */
	got = mmap(want, UPAGE_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	close(fd);
	if (got != want) {
		fprintf(stderr, "cannot map the read page at %p\n", want);
		return 1;
	}
	page = got;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
