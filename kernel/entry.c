/*
 * entry.c - what happens on every kernel entry and exit, and the user
 * traps: system calls, page faults, other exceptions.
 *
 * Time is cut at every entry and exit (acct.h), so it is exact whatever
 * the trap.  Page faults are counted as the CPU takes them, whether or
 * not they are resolved; copies the kernel makes into untouched user
 * pages map them without a CPU fault and are not counted.
 */
#include <errno.h>
#include <stdio.h>

#include "arch.h"
#include "arch_task.h"
#include "machdep.h"
#include "hwperf/hwperf.h"
#include "pmu_kevent.h"
#include "proc/sched.h"
#include "proc/signal.h"
#include "spinlock.h"
#include "proc/task.h"
#include "entry.h"
#include "mm/uvm.h"

/* The user PC a task left at, for profiling (0: none, a kernel thread). */
static uintptr_t user_pc(const struct task *t)
{
	return (t->utf && !t->kthread) ? arch_tf_pc(t->utf) : 0;
}

/*
 * The TLB refills since the last cut, where the arch refills in software
 * (machdep.h: a constant, so x86 compiles this away).  Reported before
 * the time is cut, as they happened before this entry.  Most entries
 * follow no refill at all, so the test is kept apart from the work: the
 * common path saves no registers.
 */
static __attribute__((noinline)) void cut_tlb_slow(struct cpu *c, uint32_t ru, uint32_t rk)
{
	struct task *t = c->current;    /* here: the common path never loads it */
	uint64_t tu = t->acct.tlb_user, tk = t->acct.tlb_kernel;

	acct_cut_tlb(&c->clock, &t->acct, ru, rk);
	if (t->acct.tlb_user != tu)
		pmu_kernel_event(PMU_KEV_TLB_REFILLS, PMU_MODE_U, t->acct.tlb_user - tu, 0);
	if (t->acct.tlb_kernel != tk)
		pmu_kernel_event(PMU_KEV_TLB_REFILLS, PMU_MODE_K, t->acct.tlb_kernel - tk, 0);
}

static inline void cut_tlb(struct cpu *c)
{
	if (!MACHDEP_SOFT_TLB_REFILL)
		return;
	uint32_t ru = arch_tlb_refill_count(true), rk = arch_tlb_refill_count(false);

	/* One branch for both counters. */
	if (((ru ^ c->clock.tlb_user_seen) | (rk ^ c->clock.tlb_kernel_seen)) != 0)
		cut_tlb_slow(c, ru, rk);
}

uint32_t trap_current_mode(void)
{
	return sched_ready() ? this_cpu()->trap_mode : PMU_MODE_K;
}

/*
 * One cut: accounting and the software PMU split at the same two stamps,
 * so cycles:u equals user time to the cycle.  The software PMU before
 * the TLB refills: an interrupt its counters raise (and the TLB refill
 * events cut_tlb reports may raise one) folds the cycles owed since the
 * bank's last switch in the bank's mode, which must already be K from
 * `back`.  The time's cut goes first: nothing an
 * interrupt of the PMU runs reads the accounting (hwperf reads it only
 * in a system call), and its stamps and sums are the same in either
 * order, so across the PMU's call only c is held, not the two stamps
 * (Malta: ten registers saved at every counted entry).  Out of line, so
 * that the common entry keeps no stamp across a call.  The PMU's span is
 * held where it fits what its driver lets this CPU hold (pmu_kevent.h),
 * else told: either way its cycles reach the counters in this order.
 */
static inline __attribute__((always_inline)) void cut_span_cycles_here(struct cpu *c)
{
	uint64_t left, back;

	arch_user_span(c->clock.stamp, &left, &back);
	acct_cut_span(&c->clock, &c->current->acct, left, back);
	if (!pmu_user_span_hold(c->hold, left, back))
		pmu_user_span_slow(left, back, user_pc(c->current), c->id);
	cut_tlb(c);
}

static __attribute__((noinline)) void cut_span_cycles(struct cpu *c)
{
	cut_span_cycles_here(c);
}

/*
 * The cut of an entry that no counter's cycles wait for: the refills
 * first (a call only when some ran), then the stamps, so that the clock's
 * stamp is read once after any call.  The span's two differences are then
 * seen for what they are, stamps less their common base (arch.h: under
 * 2^32 apart), and a machine with 32-bit stamps adds them in 32 bits.
 */
static inline void cut_user_entry(struct cpu *c)
{
	uint64_t left, back;

	cut_tlb(c);
	arch_user_span(c->clock.stamp, &left, &back);
	acct_cut_span(&c->clock, &c->current->acct, left, back);
}

/*
 * cut_user_entry and the call counted, in the task's 32-bit pending
 * sums where the machine defers them (machdep.h, acct.h
 * acct_cut_syscall_short): the common system call's whole cut.
 */
static __attribute__((noinline)) void cut_syscall_whole(struct cpu *c, uint64_t left,
							 uint64_t back)
{
	acct_cut_syscall_whole(&c->clock, &c->current->acct, left, back);
}

static inline void cut_syscall_span(struct cpu *c)
{
	uint64_t left, back, since;

	/* The stamp read once: the span's stores could alias it. */
	since = c->clock.stamp;
	arch_user_span(since, &left, &back);
	/* The rare whole cut through a call that takes only c and the
	 * stamps, so the common path prepares no other argument. */
	if (!acct_cut_syscall_short(&c->clock, &c->current->acct, since, left, back))
		cut_syscall_whole(c, left, back);
}

/* After refills: reported, then the cut as ever.  Out of line whole, so
 * that no path keeps the CPU's pointer across a call: the system call
 * that follows then needs one callee-saved register less. */
static __attribute__((noinline)) void cut_syscall_refilled(struct cpu *c, uint32_t ru,
							   uint32_t rk)
{
	cut_tlb_slow(c, ru, rk);
	cut_syscall_span(c);
}

static inline void cut_syscall_entry(struct cpu *c)
{
	if (MACHDEP_SOFT_TLB_REFILL) {
		uint32_t ru = arch_tlb_refill_count(true), rk = arch_tlb_refill_count(false);

		if (((ru ^ c->clock.tlb_user_seen) | (rk ^ c->clock.tlb_kernel_seen)) != 0) {
			cut_syscall_refilled(c, ru, rk);
			return;
		}
	}
	cut_syscall_span(c);
}

static inline void enter_from_user(struct cpu *c)
{
	c->trap_mode = PMU_MODE_U;
	if (pmu_kevent_wanted(PMU_KEV_CYCLES))     /* the pc only then */
		cut_span_cycles(c);
	else
		cut_user_entry(c);
}

/*
 * The user interval is closed here, not at the exit that opened it: the
 * exit's own stamp is taken by the arch's last instructions before user
 * mode (arch_user_span), after everything in C has run.  So the kernel
 * time up to that stamp is cut first, then the user time up to this
 * entry's stamp, and the software PMU splits its cycles at the same two
 * values, so cycles:u of a task equals its user time to the cycle.
 */
void trap_enter(bool from_user)
{
	if (!sched_ready())
		return;
	struct cpu *c = this_cpu();

	if (from_user) {
		enter_from_user(c);
		return;
	}
	uint64_t now = arch_cycles();

	c->trap_mode = PMU_MODE_K;
	cut_tlb(c);
	acct_cut_time(&c->clock, &c->current->acct, now, false);
	pmu_mode_switch(PMU_MODE_K, now, 0);
}

/* Out of line: few tasks map the read page, and inlined it would make
 * every return save the registers it needs. */
static __attribute__((noinline)) void exit_upage(struct task *t)
{
	hwperf_upage_fill(&t->hw);
	arch_user_stamp_to(hwperf_upage_publish(&t->hw, arch_cycles()));
}

static inline void exit_to_user(struct task *t)
{
	if (hwperf_upage_mapped(&t->hw))
		exit_upage(t);
}

/*
 * Back to user mode: nothing is cut here (see trap_enter).  The read
 * page is filled now and its cycle start is the exit stamp itself, so a
 * read in user mode agrees with the next system call's to the cycle.
 */
void trap_exit(bool to_user)
{
	if (!sched_ready())
		return;
	/* Returning into the kernel: a kernel thread or a system call was
	 * interrupted, and may be preempted here like user code. */
	if (!to_user) {
		sched_preempt();
		return;
	}
	exit_to_user(current_task());
}

/*
 * System calls and page faults may run with interrupts on, but a driver
 * counting them is fed with them off (pmu_kevent.h): a tick that folds and resets
 * a counter in the middle of its read-modify-write would be undone by it,
 * counting the tick's whole period twice.
 */
void trap_count_event(enum pmu_kevent kind, const struct trapframe *tf)
{
	if (!pmu_kevent_wanted(kind))
		return;
	irqflags_t f = arch_irq_save();

	pmu_kevent_slow(kind, PMU_MODE_U, 1, arch_tf_pc(tf));
	arch_irq_restore(f);
}

static void report_fault(struct task *t, const char *what, uintptr_t addr,
			 const struct trapframe *tf, int signo)
{
	printf("fault: pid %d (%s): %s at %#lx, pc %#lx: %s\n", t->pid, t->name,
	       what, (unsigned long)addr, (unsigned long)arch_tf_pc(tf),
	       signal_name(signo));
}

int trap_page_fault(struct trapframe *tf, uintptr_t addr, bool write, bool user)
{
	if (!user || !sched_ready())
		return -EFAULT;
	struct task *t = current_task();
	t->acct.faults++;
	trap_count_event(PMU_KEV_FAULTS, tf);
	/* Page tables and the page allocator's callers: giant's. */
	giant_lock();
	if (t->uvm && uvm_fault(t->uvm, addr, write) == 0) {
		giant_unlock();
		return 0;
	}
	report_fault(t, write ? "page fault (write)" : "page fault (read)", addr,
		     tf, SIGSEGV);
	signal_send_fault(t, SIGSEGV);
	giant_unlock();
	return -EFAULT;
}

void trap_user_fault(struct trapframe *tf, int signo, const char *what, uintptr_t addr)
{
	struct task *t = current_task();

	if (!signal_valid(signo))
		signo = SIGSEGV;
	giant_lock();
	report_fault(t, what, addr, tf, signo);
	signal_send_fault(t, signo);
	giant_unlock();
}

/* Out of line: signal delivery is large, and inlined it would make every
 * return save the registers it needs. */
static __attribute__((noinline)) void return_work(struct trapframe *tf, struct task *t)
{
	for (;;) {
		sched_preempt();
		if (!sigstate_deliverable(&t->sig))
			return;
		/* Signal state is shared with senders on other CPUs. */
		giant_lock();
		signal_deliver(tf);
		giant_unlock();
	}
}

void trap_return_check(struct trapframe *tf)
{
	struct cpu *c = this_cpu();
	struct task *t = c->current;

	/* Almost every return has neither to do: two loads and a branch. */
	if (c->need_resched || t->sig.pending)
		return_work(tf, t);
}

/* syscall_enter_counted's rare whole cut (acct_cut_syscall_short
 * refused), then the rest of its work in its order. */
static __attribute__((noinline)) void counted_cut_whole(struct cpu *c, uint64_t left,
							uint64_t back)
{
	acct_cut_syscall_whole(&c->clock, &c->current->acct, left, back);
	pmu_user_span_slow(left, back, user_pc(c->current), c->id);
	cut_tlb(c);
}

/* The cut and the count when some counter wants the cycles or the
 * system calls: out of line, so the common entry tests both at once. */
static __attribute__((noinline)) void syscall_enter_counted(struct cpu *c,
							    const struct trapframe *tf)
{
	/* Inline: this function is the out-of-line way already, and a
	 * second call saved and reloaded what the first had (x86_64). */
	if (MACHDEP_ACCT_DEFERRED && pmu_kevent_wanted(PMU_KEV_CYCLES)) {
		/* cut_span_cycles_here's work, its cut and the call's count in
		 * the task's 32-bit pending sums, as the uncounted call's are
		 * (cut_syscall_span): three 64-bit adds less (Malta).  The cut
		 * before the software PMU's span: the PMU reads none of the
		 * task's sums or the clock's stamp, and the order it needs,
		 * its span before the refills' events (cut_span_cycles_here),
		 * stays.  So no stamp is kept across a call (the rare whole
		 * cut does the rest itself), and this frame saves two
		 * registers where it saved nine. */
		uint64_t left, back, since = c->clock.stamp;

		arch_user_span(since, &left, &back);
		if (__builtin_expect(!acct_cut_syscall_short(&c->clock, &c->current->acct,
							     since, left, back), 0)) {
			counted_cut_whole(c, left, back);
		} else {
			/* Held where it fits (pmu_kevent.h), else told;
			 * the short cut took the span: 32 bits. */
			if (!pmu_user_span_hold32(c->hold, (uint32_t)(back - left)))
				pmu_user_span_slow(left, back, user_pc(c->current), c->id);
			cut_tlb(c);
		}
	} else {
		if (pmu_kevent_wanted(PMU_KEV_CYCLES))
			cut_span_cycles_here(c);
		else
			cut_user_entry(c);
		c->current->acct.syscalls++;
	}
	trap_count_event(PMU_KEV_SYSCALLS, tf);
}

/* The driver told of a held entry's span after all (it did not fit):
 * out of line, so that the held entry keeps nothing across a call. */
static __attribute__((noinline)) void syscall_span_told(struct cpu *c, uint64_t left,
							 uint64_t back)
{
	pmu_user_span_slow(left, back, user_pc(c->current), c->id);
}

/*
 * A system call's entry while the cycles alone are counted: the
 * uncounted entry's cut, and the span held for the driver while it fits
 * what the driver lets this CPU hold (pmu_kevent.h), else told, as
 * cut_span_cycles_here orders them.  Inline: the common entry's own cut
 * with a test and an add more.
 */
static inline void syscall_enter_cycles(struct cpu *c)
{
	uint64_t left, back;

	arch_user_span(c->clock.stamp, &left, &back);
	acct_cut_span(&c->clock, &c->current->acct, left, back);
	c->current->acct.syscalls++;
	if (!pmu_user_span_hold(c->hold, left, back))
		syscall_span_told(c, left, back);
	cut_tlb(c);
}

/* The counted cut alone (arch_task.h), for an arch whose own fast
 * entry tested the kinds already. */
void trap_syscall_enter_counted(const struct trapframe *tf)
{
	syscall_enter_counted(this_cpu(), tf);
}

/*
 * A system call's entry and exit (arch_task.h): trap_enter(true) with
 * the call's count, and trap_return_check + trap_exit(true), without
 * the tests a system call never needs (only tasks, which exist once the
 * scheduler runs, make system calls).  The count is made here, with
 * interrupts still off, where the task is at hand.
 */
void trap_syscall_enter(const struct trapframe *tf)
{
	struct cpu *c = this_cpu();

	/* No trap_mode: only interrupt handlers read it, after their own
	 * trap_enter set it (trap_current_mode); the call reports U itself. */
	if (__builtin_expect(pmu_kevents_any(PMU_KEV_BIT(PMU_KEV_CYCLES) |
					     PMU_KEV_BIT(PMU_KEV_SYSCALLS)), 0)) {
		/* The cycles alone (the calls not counted): tested again
		 * here, as one word read once for both tests made the common
		 * entry mask it first (x86_64: +1).  Not where the machine
		 * defers its sums: its own entry holds the cycles before it
		 * calls (arch/mips/trap.c). */
		if (!MACHDEP_ACCT_DEFERRED &&
		    !pmu_kevents_any(PMU_KEV_BIT(PMU_KEV_SYSCALLS))) {
			syscall_enter_cycles(c);
			return;
		}
		syscall_enter_counted(c, tf);
		return;
	}
	if (MACHDEP_ACCT_DEFERRED) {
		cut_syscall_entry(c);
		return;
	}
	cut_user_entry(c);
	c->current->acct.syscalls++;
}

/* Out of line, reading the words again, so that the common return's
 * test keeps none of them in registers. */
__attribute__((noinline)) bool trap_syscall_exit_work(struct trapframe *tf)
{
	struct cpu *c = this_cpu();
	struct task *t = c->current;

	if (c->need_resched || t->sig.pending) {
		return_work(tf, t);
		/* Preemption may have moved the task to another CPU. */
		exit_to_user(current_task());
		return true;
	}
	exit_to_user(t);
	return false;
}

/*
 * The exit work that needs no frame (the read page's fill) done here,
 * for an arch whose system-call frame is incomplete until return work
 * makes it whole (arch/mips/trapframe.h): true when return work is
 * due as well, which the arch then runs through trap_syscall_exit_work
 * (the page filled there, after the work).
 */
bool trap_syscall_exit_light(void)
{
	struct cpu *c = this_cpu();
	struct task *t = c->current;

	if (c->need_resched || t->sig.pending)
		return true;
	exit_to_user(t);
	return false;
}

bool trap_syscall_exit_due(void)
{
	struct cpu *c = this_cpu();
	struct task *t = c->current;

	/* The common return has no work and no read page (hwperf.h
	 * hwperf_upage_mapped): one test of the three words or-ed. */
	return __builtin_expect(((uintptr_t)c->need_resched | t->sig.pending |
				 (uintptr_t)t->hw.upage) != 0, 0);
}

void trap_enter_user(struct trapframe *tf)
{
	trap_return_check(tf);
	/* No tick between the last cut and user mode. */
	arch_irq_save();
	trap_exit(true);
	arch_return_to_user(tf);
}
