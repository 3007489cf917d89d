/*
 * upage.c - a task's read page: its virtual counts as the kernel leaves
 * them, so that user mode can read them without a system call (perfctr's
 * mapped state page; the layout and the reader's loop are in abi.h).
 *
 * The kernel rewrites the page each time it returns to the task's user
 * mode (hwperf_upage_fill and _publish, from trap_exit), and at no other
 * time: user mode only ever looks at its page while it runs, and
 * everything that can change its counts -- a fold, a switch out and in, a
 * rotation of multiplexed events, a new control, a tick -- happens in the
 * kernel, which always leaves through that one point.  So each rewrite is
 * exact for the moment user mode resumes, and the sequence number moves
 * exactly when the kernel ran in between.  Only the task's own CPU writes
 * its page, while the task is not in user mode.
 *
 * The software PMU qualifies: every soft event but cycles changes only
 * in the kernel (its sum is the count until the next kernel entry), and
 * cycles in user mode is the cycle counter itself, which user mode can
 * read.  A hardware PMU qualifies when its driver names, for every
 * counter, the index user mode reads it by (pmu_counter_caps.user_read,
 * x86 rdpmc): an event on a counter then reads as the folded sum plus
 * what the counter gained since the driver's resume recorded its start,
 * masked to the counter's width (rdpmc returns 40 or 64 bits whatever the
 * counter has).  An event multiplexed off the hardware changes only when
 * the kernel rotates it back, so its sum is exact, as for soft events.
 */
#include <errno.h>

#include "env.h"
#include "internal.h"

/* Keep stores to the page in program order for a reader that interrupts
 * or runs beside the writer; the reader pairs it with its own fences. */
static inline void page_fence(void)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/* Counters in kernel memory (the software PMU's): user mode cannot
 * read them, so the page carries their counts, and the clock event's
 * live part, which is the cycle counter itself. */
static bool in_memory(void)
{
	return hwperf_core.caps.in_memory;
}

/* A hardware counter user mode cannot read, or -1 when it reads them all. */
static int first_kernel_only_counter(void)
{
	for (unsigned hw = 0; hw < hwperf_core.caps.ncounters; hw++)
		if (!hwperf_core.caps.counter[hw].user_read)
			return (int)hw;
	return -1;
}

static int check(struct hwperf_reason *why)
{
	int hw;

	if (!hwperf_core.ready)
		return hwperf_fail(why, ENODEV, "no PMU driver is active");
	if (in_memory())
		return 0;
	hw = first_kernel_only_counter();
	if (hw >= 0)
		return hwperf_fail(why, ENODEV, "%s counters cannot be read in "
		                   "user mode (counter %d is kernel-only)",
		                   hwperf_core.caps.name, hw);
	return 0;
}

int hwperf_upage_check(struct hwperf_task *caller, struct hwperf_reason *why)
{
	return hwperf_report(caller, check(why), why);
}

static bool counts_system_wide(const struct hwperf_task *t)
{
	return (t->flags & HWPERF_TF_SYSHOLDER) &&
	       hwperf_core.mode == HWPERF_SYSTEM;
}

/* Slot k of a set live on cpu: everything it counted up to now. */
static uint64_t live_events(const struct hwperf_set *s, unsigned k,
                            unsigned cpu)
{
	unsigned hw = s->pst.ctl.ctr[k].hw;
	unsigned width = hwperf_core.caps.counter[hw].width;

	return s->pst.ctr[k].sum +
	       pmu_delta(s->pst.ctr[k].start, hwperf_core.ops->peek(cpu, hw), width);
}

/* A user-mode cycles counter keeps counting after the kernel leaves. */
static bool counts_user_cycles(const struct pmu_counter_ctl *ctl)
{
	const struct pmu_event *clock = hwperf_core.caps.clock_event;

	return clock && ctl->event == clock->code && (ctl->modes & PMU_MODE_U);
}

/* Slot k of an in-memory set: its count up to now, plus the cycle counter for
 * a user-mode cycles event. */
static void fill_memory_slot(struct hwperf_uctr *c, const struct hwperf_task *t,
                           unsigned k, unsigned cpu)
{
	const struct hwperf_set *s = &t->set;

	c->sum += live_events(s, k, cpu);
	if (!counts_user_cycles(&s->pst.ctl.ctr[k]))
		return;
	c->how = HWPERF_UREAD_CYCLES;
	c->width = t->ucycles_bits;
}

/* Slot k of a hardware set: folded so far, plus the counter from start
 * on, which user mode reads itself. */
static void fill_rdpmc_slot(struct hwperf_upage *p, unsigned i,
                            const struct hwperf_set *s, unsigned k)
{
	const struct pmu_counter_caps *hc =
		&hwperf_core.caps.counter[s->pst.ctl.ctr[k].hw];
	struct hwperf_uctr *c = &p->c[i];

	c->sum += s->pst.ctr[k].sum;
	c->start = s->pst.ctr[k].start;
	c->how = HWPERF_UREAD_RDPMC;
	c->width = hc->width;
	p->uindex[i] = hc->user_index;
}

static void fill(struct hwperf_upage *p, const struct hwperf_task *t,
                 unsigned cpu)
{
	const struct hwperf_set *s = &t->set;

	p->gen = s->gen;
	p->flags = counts_system_wide(t) ? HWPERF_UPAGE_SYSCALL_ONLY : 0;
	p->used = p->flags ? 0 : s->used;
	for (unsigned i = 0; i < HWPERF_NVCTR; i++) {
		p->c[i] = (struct hwperf_uctr){
			.sum = p->used & (1u << i) ? s->c.count[i] : 0,
			.how = HWPERF_UREAD_NONE,
		};
		p->uindex[i] = 0;
	}
	if (p->flags || hwperf_core.cpu[cpu].loaded != s)
		return;
	for (unsigned k = 0; k < s->pst.ctl.n; k++) {
		unsigned i = s->slot_vctr[k];

		if (in_memory())
			fill_memory_slot(&p->c[i], t, k, cpu);
		else
			fill_rdpmc_slot(p, i, s, k);
	}
}

/*
 * A rewrite in two steps around the moment user mode resumes: open (odd
 * sequence) and fill the sums while the task's user counts stand still,
 * then set the cycle counters' start and close (even sequence).  The exit
 * path overwrites the start with its own stamp afterwards (trap_exit), so
 * neither step is charged to the task's cycles:u.
 */
static void open_and_fill(struct hwperf_task *t, unsigned cpu)
{
	struct hwperf_upage *p = t->upage;

	/* fill reads c, and a set off this CPU's PMU only there. */
	hwperf_set_catch_up(&t->set);
	__atomic_store_n(&p->seq, p->seq + 1, __ATOMIC_RELAXED);
	page_fence();
	fill(p, t, cpu);
}

/* Returns the start's address when a CYCLES counter reads it. */
static uint64_t *start_and_close(struct hwperf_task *t, uint64_t now)
{
	struct hwperf_upage *p = t->upage;
	bool cycles = false;

	p->ucycles_start = now & pmu_width_mask(t->ucycles_bits);
	for (unsigned i = 0; i < HWPERF_NVCTR; i++)
		cycles |= p->c[i].how == HWPERF_UREAD_CYCLES;
	page_fence();
	__atomic_store_n(&p->seq, p->seq + 1, __ATOMIC_RELAXED);
	return cycles ? &p->ucycles_start : NULL;
}

int hwperf_upage_attach(struct hwperf_task *t, struct hwperf_upage *page,
                        unsigned cycles_bits, uint64_t now)
{
	unsigned cpu = hwperf_env_this_cpu();
	unsigned long f = hwperf_lock(cpu);
	int gen;

	if (!t->upage) {
		t->upage = page;
		t->ucycles_bits = (uint8_t)cycles_bits;
		page->seq = 0;
	}
	open_and_fill(t, cpu);
	(void)start_and_close(t, now);
	gen = (int)t->set.gen;
	hwperf_unlock(cpu, f);
	return gen;
}

void hwperf_upage_fill(struct hwperf_task *t)
{
	unsigned cpu;
	unsigned long f;

	if (!t || !t->upage)
		return;
	cpu = hwperf_env_this_cpu();
	f = hwperf_lock(cpu);
	open_and_fill(t, cpu);
	hwperf_unlock(cpu, f);
}

uint64_t *hwperf_upage_publish(struct hwperf_task *t, uint64_t now)
{
	unsigned cpu;
	unsigned long f;
	uint64_t *start = NULL;

	if (!t || !t->upage)
		return NULL;
	cpu = hwperf_env_this_cpu();
	f = hwperf_lock(cpu);
	/* Only after a fill: a page attached in between is already closed. */
	if (t->upage->seq & 1u)
		start = start_and_close(t, now);
	hwperf_unlock(cpu, f);
	return start;
}

void hwperf_upage_detach(struct hwperf_task *t)
{
	unsigned cpu = hwperf_env_this_cpu();
	unsigned long f = hwperf_lock(cpu);

	t->upage = NULL;
	hwperf_unlock(cpu, f);
}
