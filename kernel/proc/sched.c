/*
 * sched.c - run queues, time slices, switching, sleeping and idling.
 *
 * A switch happens with interrupts off but with no lock held: the run
 * queue lock is dropped before arch_switch, because the task switched to
 * resumes somewhere else (inside its own switch, or at its first run) and
 * could not release a lock taken by another stack.  With one CPU and
 * interrupts off nothing can slip in between; SMP will need a per-task
 * "still on a CPU" flag that other CPUs wait on before running it.
 */
#include <errno.h>
#include <stdio.h>

#include "arch.h"
#include "arch_task.h"
#include "bootargs.h"
#include "console/cmd.h"
#include "proc/proc.h"
#include "machdep.h"
#include "pmu_kevent.h"
#include "proc/sched.h"
#include "proc/sched_hooks.h"
#include "mm/uvm.h"

BOOTARG(idlespin, "idle task spins instead of halting (idle count = loop speed)");

enum switch_why {
	SWITCH_PREEMPT,         /* involuntary */
	SWITCH_VOLUNTARY,       /* yield, sleep, blocking wait */
	SWITCH_EXIT,            /* the task is gone: count nothing */
};

static bool ready;
static bool idle_spins;

bool sched_ready(void)
{
	return ready;
}

unsigned sched_slice_ticks(int prio)
{
	static const unsigned slice[PRIO_LEVELS] = {
		SLICE_TICKS_HIGH, SLICE_TICKS_NORMAL, SLICE_TICKS_LOW,
	};
	return runq_prio_valid(prio) ? slice[prio] : SLICE_TICKS_NORMAL;
}

static void acct_cut_switch(struct cpu *c, struct task *prev)
{
	/* Refills are counted where the arch takes them in software only
	 * (machdep.h; a constant, so x86 compiles this away). */
	if (MACHDEP_SOFT_TLB_REFILL)
		acct_cut_tlb(&c->clock, &prev->acct, arch_tlb_refill_count(true),
			     arch_tlb_refill_count(false));
	acct_cut_time(&c->clock, &prev->acct, arch_cycles(), false);
}

/* Runs on the stack of the task switched to, interrupts off. */
static void finish_switch(void)
{
	struct cpu *c = this_cpu();
	struct task *prev = c->prev;

	c->prev = NULL;
	sched_hook_switch_in(prev, c->current, c->idle);
	if (prev && prev->state == TASK_ZOMBIE && prev->detached)
		proc_release(prev);
}

static void context_switch(struct cpu *c, struct task *prev, struct task *next)
{
	task_check_kstack(prev);
	sched_hook_switch_out(prev, c->idle);
	acct_cut_switch(c, prev);
	c->prev = prev;
	c->current = next;
	c->switches++;
	arch_vm_activate(next->uvm ? next->uvm->vm : NULL);
	if (!next->kthread)
		arch_set_kernel_stack(task_kstack_top(next));
	arch_switch(&prev->ksp, next->ksp);
	finish_switch();
}

/* Interrupts are off; no lock is held. */
static void switch_to_next(struct cpu *c, enum switch_why why)
{
	spin_lock(&c->lock);
	struct task *prev = c->current;
	if (prev->state == TASK_RUNNING) {
		prev->state = TASK_READY;
		if (prev != c->idle)
			runq_push(&c->rq, &prev->rq_node, prev->prio);
	}
	struct list_node *n = runq_pop(&c->rq);
	struct task *next = n ? container_of(n, struct task, rq_node) : c->idle;
	c->need_resched = false;
	next->state = TASK_RUNNING;
	next->cpu = (int)c->id;
	next->slice_left = sched_slice_ticks(next->prio);
	spin_unlock(&c->lock);

	if (why == SWITCH_VOLUNTARY) {
		prev->acct.vcsw++;
		pmu_kernel_event(PMU_KEV_CSW_VOL, PMU_MODE_K, 1, 0);
	}
	if (next == prev)
		return;
	if (why == SWITCH_PREEMPT) {
		prev->acct.ivcsw++;
		pmu_kernel_event(PMU_KEV_CSW_INVOL, PMU_MODE_K, 1, 0);
	}
	context_switch(c, prev, next);
}

/* Caller holds c->lock. */
static void make_ready_locked(struct cpu *c, struct task *t)
{
	t->state = TASK_READY;
	runq_push(&c->rq, &t->rq_node, t->prio);
	struct task *cur = c->current;
	if (cur == c->idle || t->prio < cur->prio)
		c->need_resched = true;
}

/* Make t ready if it is in state from; false if it was not. */
static bool ready_if(struct task *t, enum task_state from)
{
	struct cpu *c = this_cpu();
	irqflags_t f = spin_lock_irqsave(&c->lock);
	bool was = t->state == from;

	if (was) {
		if (list_linked(&t->sleep_node))
			list_del(&t->sleep_node);
		make_ready_locked(c, t);
	}
	spin_unlock_irqrestore(&c->lock, f);
	return was;
}

void sched_wakeup(struct task *t)
{
	ready_if(t, TASK_SLEEPING);
}

void sched_start_task(struct task *t)
{
	if (!ready_if(t, TASK_NEW))
		panic("sched: pid %d started twice", t->pid);
}

void sched_first_run(void)
{
	irqflags_t f = arch_irq_save();
	finish_switch();
	current_task()->preempt_off--;
	arch_irq_restore(f);
}

/* Out of line: every return from a trap asks, and nearly always the
 * answer is no, which then costs no stack frame. */
static __attribute__((noinline)) void preempt_now(struct cpu *c)
{
	irqflags_t f = arch_irq_save();
	switch_to_next(c, SWITCH_PREEMPT);
	arch_irq_restore(f);
}

void sched_preempt(void)
{
	struct cpu *c = this_cpu();

	if (ready && c->need_resched && !c->current->preempt_off)
		preempt_now(c);
}

void sched_yield(void)
{
	irqflags_t f = arch_irq_save();
	switch_to_next(this_cpu(), SWITCH_VOLUNTARY);
	arch_irq_restore(f);
}

void sched_exit_switch(void)
{
	arch_irq_save();
	switch_to_next(this_cpu(), SWITCH_EXIT);
	panic("sched: zombie pid %d was scheduled again", current_task()->pid);
}

/* ---- sleeping ------------------------------------------------------------- */

static bool interrupted(const struct task *t)
{
	if (t->kthread)
		return t->wait_intr;
	return sigstate_deliverable(&t->sig);
}

/* Keep sleepers ordered by wake tick, so the tick looks at the head only. */
static void sleeper_insert(struct cpu *c, struct task *t)
{
	struct list_node *pos, *tmp;

	list_for_each_safe(pos, tmp, &c->sleepers) {
		struct task *s = container_of(pos, struct task, sleep_node);
		if (s->wake_tick > t->wake_tick) {
			list_add_tail(pos, &t->sleep_node);
			return;
		}
	}
	list_add_tail(&c->sleepers, &t->sleep_node);
}

int sched_sleep_ticks(uint64_t ticks)
{
	struct cpu *c = this_cpu();
	struct task *cur = c->current;
	int ret = 0;

	irqflags_t f = arch_irq_save();
	spin_lock(&c->lock);
	if (interrupted(cur)) {
		spin_unlock(&c->lock);
		arch_irq_restore(f);
		return -EINTR;
	}
	cur->wake_tick = c->ticks + ticks;
	cur->state = TASK_SLEEPING;
	sleeper_insert(c, cur);
	spin_unlock(&c->lock);

	switch_to_next(c, SWITCH_VOLUNTARY);

	spin_lock(&c->lock);
	if (list_linked(&cur->sleep_node))
		list_del(&cur->sleep_node);
	if (c->ticks < cur->wake_tick)
		ret = -EINTR;   /* woken before its time: by a signal */
	spin_unlock(&c->lock);
	arch_irq_restore(f);
	return ret;
}

void sched_wait_interrupt(void)
{
	struct cpu *c = this_cpu();

	if (!ready || c->current == c->idle) {
		arch_idle();
		return;
	}
	/* Polling once a tick keeps drivers free of scheduler calls; the
	 * CPU idles or runs others meanwhile. */
	sched_sleep_ticks(1);
}

int sched_wait(struct waitq *wq, bool (*done)(void *), void *arg)
{
	struct cpu *c = this_cpu();
	struct task *cur = c->current;

	for (;;) {
		irqflags_t f = arch_irq_save();
		spin_lock(&wq->lock);
		if (done(arg)) {
			spin_unlock(&wq->lock);
			arch_irq_restore(f);
			return 0;
		}
		if (interrupted(cur)) {
			spin_unlock(&wq->lock);
			arch_irq_restore(f);
			return -EINTR;
		}
		list_add_tail(&wq->head, &cur->wq_node);
		cur->waiting_on = wq;
		cur->state = TASK_SLEEPING;
		spin_unlock(&wq->lock);

		switch_to_next(c, SWITCH_VOLUNTARY);

		spin_lock(&wq->lock);
		if (list_linked(&cur->wq_node))
			list_del(&cur->wq_node);
		cur->waiting_on = NULL;
		spin_unlock(&wq->lock);
		arch_irq_restore(f);
	}
}

void waitq_wake_all(struct waitq *wq)
{
	struct list_node *pos, *tmp;
	irqflags_t f = spin_lock_irqsave(&wq->lock);

	/* Waiters take themselves off the queue when they run again. */
	list_for_each_safe(pos, tmp, &wq->head)
		sched_wakeup(container_of(pos, struct task, wq_node));
	spin_unlock_irqrestore(&wq->lock, f);
}

/* ---- the tick ------------------------------------------------------------- */

static void wake_expired(struct cpu *c)
{
	struct list_node *n;

	while ((n = list_first(&c->sleepers)) != NULL) {
		struct task *t = container_of(n, struct task, sleep_node);
		if (t->wake_tick > c->ticks)
			break;
		list_del(n);
		make_ready_locked(c, t);
	}
}

static void slice_tick(struct cpu *c)
{
	struct task *cur = c->current;

	if (cur == c->idle) {
		if (runq_best_prio(&c->rq) < PRIO_LEVELS)
			c->need_resched = true;
		return;
	}
	if (cur->slice_left > 0)
		cur->slice_left--;
	if (runq_must_yield(&c->rq, cur->prio, cur->slice_left))
		c->need_resched = true;
	else if (cur->slice_left == 0)
		cur->slice_left = sched_slice_ticks(cur->prio);   /* alone: go on */
}

void sched_tick(void)
{
	struct cpu *c = this_cpu();

	if (!ready)
		return;
	spin_lock(&c->lock);
	c->ticks++;
	wake_expired(c);
	slice_tick(c);
	spin_unlock(&c->lock);
	sched_hook_tick(c->current, c->idle);
}

/* ---- boot-time tasks ------------------------------------------------------ */

static void kthread_entry(void *arg)
{
	struct task *t = arg;

	sched_first_run();
	t->kfn(t->karg);
	proc_exit(WAIT_STATUS_EXITED(0));
}

struct task *sched_kthread(const char *name, void (*fn)(void *), void *arg,
			   int prio, int *err)
{
	if (!runq_prio_valid(prio)) {
		*err = -EINVAL;
		return NULL;
	}
	struct task *t = task_alloc(name, err);
	if (!t)
		return NULL;
	t->kthread = true;
	t->detached = true;
	t->prio = prio;
	t->uid = ROOT_UID;
	t->pgid = t->pid;
	t->kfn = fn;
	t->karg = arg;
	t->preempt_off = 1;     /* until sched_first_run finishes the switch */
	t->ksp = arch_kstack_init(task_kstack_top(t), kthread_entry, t);
	task_hook_init(t);
	sched_start_task(t);
	return t;
}

static void idle_loop(void *arg)
{
	struct cpu *c = arg;

	sched_first_run();
	for (;;) {
		c->idle_iterations++;
		if (!idle_spins) {
			irqflags_t f = arch_irq_save();
			if (!c->need_resched)
				arch_idle();
			arch_irq_restore(f);
		}
		if (c->need_resched) {
			irqflags_t f = arch_irq_save();
			switch_to_next(c, SWITCH_PREEMPT);
			arch_irq_restore(f);
		}
	}
}

uint64_t sched_idle_iterations(unsigned cpu)
{
	struct cpu *c = cpu_get(cpu);
	return c ? c->idle_iterations : 0;
}

void sched_init(void)
{
	struct cpu *c = this_cpu();
	int err = 0;

	task_table_init();
	idle_spins = bootarg_present("idlespin");
	struct task *console = task_alloc_boot("console", PID_CONSOLE, false, &err);
	struct task *idle = task_alloc_boot("idle", PID_IDLE, true, &err);
	if (!console || !idle)
		panic("sched_init: no memory for the first tasks (%d)", err);

	console->kthread = idle->kthread = true;
	console->detached = idle->detached = true;
	console->prio = PRIO_HIGH;
	idle->prio = PRIO_LOW;
	console->pgid = PID_CONSOLE;
	console->state = TASK_RUNNING;
	idle->state = TASK_READY;       /* never on a queue: picked when none is */
	idle->preempt_off = 1;
	idle->ksp = arch_kstack_init(task_kstack_top(idle), idle_loop, c);
	task_hook_init(console);

	c->current = console;
	c->idle = idle;
	/* No task has a read page yet (sched_hook_switch_in). */
	arch_user_counters(false);
	acct_clock_init(&c->clock, arch_cycles(), arch_tlb_refill_count(true),
			arch_tlb_refill_count(false));
	ready = true;
}

static int cmd_sched(int argc, char **argv)
{
	if (cmd_extra_args(argc, argv))
		return CMD_ERR_REPORTED;
	for (unsigned i = 0; i < cpu_count(); i++) {
		struct cpu *c = cpu_get(i);
		printf("cpu%u current=%d ready=%u switches=%llu ticks=%llu idle_iterations=%llu\n",
		       i, c->current->pid, c->rq.count,
		       (unsigned long long)c->switches, (unsigned long long)c->ticks,
		       (unsigned long long)c->idle_iterations);
	}
	/* CPUs the task layer does not use yet: idle, ticking on their own. */
	char line[128];
	for (unsigned i = cpu_count(); arch_cpu_brief(i, line, sizeof(line)) == 0; i++)
		printf("cpu%u idle (runs no tasks yet) %s\n", i, line);
	return 0;
}
CONSOLE_CMD(sched, "per-CPU scheduler state and the idle count", "sched", cmd_sched);
