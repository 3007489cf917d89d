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

static const unsigned slice_ticks[PRIO_LEVELS] = {
	SLICE_TICKS_HIGH, SLICE_TICKS_NORMAL, SLICE_TICKS_LOW,
};

unsigned sched_slice_ticks(int prio)
{
	return runq_prio_valid(prio) ? slice_ticks[prio] : SLICE_TICKS_NORMAL;
}

/* A task's own priority is always a valid one: every writer of t->prio
 * (task_alloc, fork's copy, sched_kthread after its check, the idle and
 * console tasks) stores a PRIO_* level.  So a switch indexes directly. */
static unsigned task_slice_ticks(const struct task *t)
{
	return slice_ticks[t->prio];
}

static void acct_cut_switch(struct cpu *c, struct task *prev)
{
	/* Refills are counted where the arch takes them in software only
	 * (machdep.h; a constant, so x86 compiles this away). */
	if (MACHDEP_SOFT_TLB_REFILL) {
		uint32_t ru = arch_tlb_refill_count(true), rk = arch_tlb_refill_count(false);

		/* Most switches follow no refill: one branch then, and none
		 * of the cut's 64-bit additions of zero. */
		if (((ru ^ c->clock.tlb_user_seen) | (rk ^ c->clock.tlb_kernel_seen)) != 0)
			acct_cut_tlb(&c->clock, &prev->acct, ru, rk);
	}
	acct_cut_time(&c->clock, &prev->acct, arch_cycles(), false);
}

/* lockdebug: this CPU holds no spinlock at a switch or a sleep. */
static inline void no_lock_held(const char *what)
{
	if (spin_debug_) {
		const struct task *t = this_cpu()->current;

		spin_assert_none_held_slow(what, t ? t->pid : -1, t ? t->name : NULL);
	}
}

/* The process layer's part of a task's end (sched_set_lifecycle). */
static void (*lifecycle_release)(struct task *t);
static void (*lifecycle_exit)(int status);

void sched_set_lifecycle(void (*release)(struct task *t), void (*exit)(int status))
{
	lifecycle_release = release;
	lifecycle_exit = exit;
}

/*
 * Runs on the stack of the task switched to, interrupts off.  Only here,
 * once this CPU is off prev's stack, may another CPU run prev or free it
 * (on_cpu).  Then the task switched to takes back the giant depth it held
 * when it left.
 */
static void finish_switch(void)
{
	struct cpu *c = this_cpu();
	struct task *prev = c->prev;

	c->prev = NULL;
	sched_hook_switch_in(prev, c->current);
	if (prev) {
		bool reap = prev->state == TASK_ZOMBIE && prev->detached;

		__atomic_store_n(&prev->on_cpu, false, __ATOMIC_RELEASE);
		if (reap)
			lifecycle_release(prev);
	}
	/* giant is on exactly when several CPUs run tasks. */
	if (giant_on_) {
		struct task *cur = c->current;
		unsigned depth = cur->giant_saved;

		cur->giant_saved = 0;
		giant_reacquire(depth);
	}
}

static void context_switch(struct cpu *c, struct task *prev, struct task *next)
{
	task_check_kstack(prev);
	acct_cut_switch(c, prev);
	if (giant_on_)
		prev->giant_saved = giant_release_all_slow();
	c->prev = prev;
	c->current = next;
	c->switches++;
	/* next may have been woken or pulled here while another CPU was
	 * still switching away from it: wait until that CPU is off its
	 * stack (it needs nothing from us to get there). */
	while (__atomic_load_n(&next->on_cpu, __ATOMIC_ACQUIRE))
		arch_lock_relax(true);
	next->on_cpu = true;
	/* Only now: next's counters, saved on the CPU it left, are final
	 * there, and prev's go off as next's go on (one lock, one step). */
	sched_hook_switch(prev, next, c->idle);
	if (giant_on_ && next->state != TASK_RUNNING)
		panic("sched: cpu %u switching to pid %d in state %s", c->id, next->pid,
		      task_state_name(next->state));
	arch_vm_activate(next->uvm ? next->uvm->vm : NULL);
	if (!next->kthread)
		arch_set_kernel_stack(task_kstack_top(next));
	arch_switch(&prev->ksp, next->ksp);
	finish_switch();
}

/* Two CPUs' locks, lower id first (spinlock.h's order). */
static void lock_pair(struct cpu *a, struct cpu *b)
{
	if (a == b) {
		spin_lock(&a->lock);
	} else if (a->id < b->id) {
		spin_lock(&a->lock);
		spin_lock(&b->lock);
	} else {
		spin_lock(&b->lock);
		spin_lock(&a->lock);
	}
}

static void unlock_pair(struct cpu *a, struct cpu *b)
{
	if (a != b)
		spin_unlock(&b->lock);
	spin_unlock(&a->lock);
}

/* Caller holds c->lock. */
static void make_ready_locked(struct cpu *c, struct task *t)
{
	if (t->state == TASK_ZOMBIE)
		panic("sched: zombie pid %d made ready (from %p, cpu %u)", t->pid,
		      __builtin_return_address(0), this_cpu()->id);
	t->state = TASK_READY;
	t->rq_cpu = (int)c->id;
	runq_push(&c->rq, &t->rq_node, t->prio);
	struct task *cur = c->current;
	if (cur == c->idle || t->prio < cur->prio)
		c->need_resched = true;
}

/* Tell another CPU to look at its queue when it was asked to. */
static void kick_if(struct cpu *c, bool resched)
{
	if (resched && c != this_cpu())
		arch_resched_cpu(c->id);
}

/* The running prev is pinned to another CPU (`pin`): queue it there. */
static void send_to_pin(struct task *prev)
{
	struct cpu *d = cpu_get((unsigned)prev->pin);

	spin_lock(&d->lock);
	make_ready_locked(d, prev);
	bool resched = d->need_resched;
	spin_unlock(&d->lock);
	kick_if(d, resched);
}

/*
 * In prev's own switch: is it still running here, or was it already made
 * ready by another CPU (woken after it slept, or sent to its pinned CPU)
 * and perhaps even picked there?  A CPU that picks a task sets its cpu
 * before its state, so RUNNING with our id means ours.
 */
static bool still_ours(const struct cpu *c, const struct task *prev)
{
	return __atomic_load_n(&prev->state, __ATOMIC_ACQUIRE) == TASK_RUNNING &&
	       __atomic_load_n(&prev->cpu, __ATOMIC_RELAXED) == (int)c->id;
}

/* Interrupts are off; no lock is held. */
static void switch_to_next(struct cpu *c, enum switch_why why)
{
	struct task *prev = c->current;

	no_lock_held("a switch");
	if (giant_on_ && prev->pin >= 0 && (unsigned)prev->pin != c->id &&
	    prev != c->idle && still_ours(c, prev))
		send_to_pin(prev);
	spin_lock(&c->lock);
	/* Picked by us it cannot be meanwhile: we hold our lock. */
	if (giant_on_ ? still_ours(c, prev) : prev->state == TASK_RUNNING) {
		prev->state = TASK_READY;
		if (prev != c->idle) {
			prev->rq_cpu = (int)c->id;
			runq_push(&c->rq, &prev->rq_node, prev->prio);
		}
	}
	struct list_node *n = runq_pop(&c->rq);
	struct task *next = n ? container_of(n, struct task, rq_node) : c->idle;
	c->need_resched = false;
	next->ran = true;
	if (next->cpu != (int)c->id) {
		next->migrations++;
		__atomic_store_n(&next->cpu, (int)c->id, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&next->state, TASK_RUNNING, __ATOMIC_RELEASE);
	next->slice_left = task_slice_ticks(next);
	spin_unlock(&c->lock);

	if (why == SWITCH_VOLUNTARY) {
		prev->acct.vcsw++;
		pmu_kernel_event(PMU_KEV_CSW_VOL, PMU_MODE_K, 1, 0);
	}
	if (next == prev) {
		if (why == SWITCH_EXIT)
			panic("sched: exiting pid %d picked itself on cpu %u", prev->pid, c->id);
		return;
	}
	if (why == SWITCH_PREEMPT) {
		prev->acct.ivcsw++;
		pmu_kernel_event(PMU_KEV_CSW_INVOL, PMU_MODE_K, 1, 0);
	}
	context_switch(c, prev, next);
}

static bool cpu_idle(const struct cpu *c)
{
	return c->current == c->idle &&
	       __atomic_load_n(&c->rq.count, __ATOMIC_RELAXED) == 0;
}

/*
 * Where a task that becomes ready should run: its pinned CPU; else the
 * CPU it last ran on if that one idles (its caches); else another idle
 * CPU; else where it last ran.  Read without locks: a hint, and the
 * balancer evens out a wrong guess.
 */
static struct cpu *pick_cpu(const struct task *t, struct cpu *home)
{
	unsigned n = cpu_count();

	if (t->pin >= 0)
		return cpu_get((unsigned)t->pin);
	/* A new task starts where it was made: its creator may still set
	 * it up before it first runs (the console enables counters on what
	 * it spawns, as on one CPU); the balancer spreads it from there
	 * once it has run. */
	if (n == 1 || cpu_idle(home) || t->state == TASK_NEW)
		return home;
	for (unsigned i = 1; i < n; i++) {
		struct cpu *o = cpu_get((home->id + i) % n);
		if (o && cpu_idle(o))
			return o;
	}
	return home;
}

/*
 * Make t ready if it is in state from; false if it was not.  A sleeping
 * task's state, and its sleepers link, are guarded by the lock of the CPU
 * it last ran on (t->cpu, which cannot change while it is not ready or
 * running); the queue it joins by its new CPU's.
 */
static bool ready_if(struct task *t, enum task_state from)
{
	irqflags_t f = arch_irq_save();
	struct cpu *home, *to;

	if (from == TASK_NEW && t->state == TASK_NEW)
		t->cpu = (int)this_cpu()->id;   /* its creator's CPU */
	for (;;) {
		home = cpu_get((unsigned)__atomic_load_n(&t->cpu, __ATOMIC_RELAXED));
		to = pick_cpu(t, home);
		lock_pair(home, to);
		if (__atomic_load_n(&t->cpu, __ATOMIC_RELAXED) == (int)home->id)
			break;
		unlock_pair(home, to);
	}
	bool was = t->state == from;
	bool resched = false;

	if (was) {
		if (list_linked(&t->sleep_node))
			list_del(&t->sleep_node);
		if (from == TASK_NEW)
			t->cpu = (int)to->id;   /* its first CPU is no migration */
		make_ready_locked(to, t);
		resched = to->need_resched;
	}
	unlock_pair(home, to);
	kick_if(to, resched);
	arch_irq_restore(f);
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
static __attribute__((noinline)) void preempt_now(void)
{
	irqflags_t f = arch_irq_save();
	switch_to_next(this_cpu(), SWITCH_PREEMPT);
	arch_irq_restore(f);
}

void sched_preempt(void)
{
	struct cpu *c = this_cpu();

	if (ready && c->need_resched && !c->current->preempt_off)
		preempt_now();
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
	panic("sched: zombie pid %d was scheduled again (cpu %u)", current_task()->pid,
	      this_cpu()->id);
}

void sched_wait_off_cpu(const struct task *t)
{
	while (__atomic_load_n(&t->on_cpu, __ATOMIC_ACQUIRE))
		arch_lock_relax(true);
}

int sched_set_pin(struct task *t, int cpu)
{
	if (cpu >= 0 && !cpu_get((unsigned)cpu))
		return -ENODEV;
	if (t->kthread)
		return -EPERM;
	irqflags_t f = arch_irq_save();

	__atomic_store_n(&t->pin, cpu, __ATOMIC_SEQ_CST);
	while (cpu >= 0) {
		enum task_state s = __atomic_load_n(&t->state, __ATOMIC_SEQ_CST);
		struct cpu *d = cpu_get((unsigned)cpu);

		if (s == TASK_READY) {
			struct cpu *q = cpu_get((unsigned)t->rq_cpu);

			spin_lock(&q->lock);
			if (t->state != TASK_READY || t->rq_cpu != (int)q->id) {
				spin_unlock(&q->lock);
				continue;       /* it moved meanwhile: look again */
			}
			if (q == d) {
				spin_unlock(&q->lock);
				break;
			}
			/* Off its queue, READY, on none: nobody else moves
			 * a READY task that is on no queue. */
			runq_remove(&q->rq, &t->rq_node, t->prio);
			spin_unlock(&q->lock);
			spin_lock(&d->lock);
			make_ready_locked(d, t);
			bool resched = d->need_resched;
			spin_unlock(&d->lock);
			kick_if(d, resched);
		} else if (s == TASK_RUNNING) {
			struct cpu *r = cpu_get((unsigned)__atomic_load_n(&t->cpu, __ATOMIC_RELAXED));

			/* Its CPU lets it go at its next preemption point
			 * (switch_to_next queues it on its pinned CPU). */
			if (r != d) {
				r->need_resched = true;
				kick_if(r, true);
			}
		}
		/* New, sleeping or ended: its next wake-up reads the pin. */
		break;
	}
	arch_irq_restore(f);
	return 0;
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
	no_lock_held("a sleep");
	irqflags_t f = arch_irq_save();
	struct cpu *c = this_cpu();
	struct task *cur = c->current;

	spin_lock(&c->lock);
	if (interrupted(cur)) {
		spin_unlock(&c->lock);
		arch_irq_restore(f);
		return -EINTR;
	}
	/* In this CPU's ticks, on its sleepers list (cur->cpu's). */
	cur->wake_tick = c->ticks + ticks;
	cur->timed_out = false;
	cur->state = TASK_SLEEPING;
	sleeper_insert(c, cur);
	spin_unlock(&c->lock);

	switch_to_next(c, SWITCH_VOLUNTARY);

	/* Whoever woke it took it off the sleepers list: the tick (timed
	 * out) or a wake-up (a signal). */
	int ret = cur->timed_out ? 0 : -EINTR;
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
	struct task *cur = current_task();

	no_lock_held("a sleep");
	for (;;) {
		irqflags_t f = arch_irq_save();
		struct cpu *c = this_cpu();
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

/* Sleepers pinned elsewhere meanwhile (`pin`) wake through ready_if,
 * after the tick drops this CPU's lock; more than this wait a tick. */
#define WAKE_ELSEWHERE_MAX 4

static unsigned wake_expired(struct cpu *c, struct task **elsewhere)
{
	struct list_node *n;
	unsigned k = 0;

	while ((n = list_first(&c->sleepers)) != NULL) {
		struct task *t = container_of(n, struct task, sleep_node);
		if (t->wake_tick > c->ticks)
			break;
		bool away = t->pin >= 0 && (unsigned)t->pin != c->id;
		if (away && k == WAKE_ELSEWHERE_MAX)
			break;
		list_del(n);
		t->timed_out = true;
		if (away)
			elsewhere[k++] = t;     /* still SLEEPING, on no list */
		else
			make_ready_locked(c, t);
	}
	return k;
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

/* The first task on q's queue that may run on CPU id and has run (see
 * pick_cpu), or NULL. */
static struct task *stealable(struct runq *q, unsigned id)
{
	for (int p = 0; p < PRIO_LEVELS; p++) {
		struct list_node *n, *tmp;

		list_for_each_safe(n, tmp, &q->level[p]) {
			struct task *t = container_of(n, struct task, rq_node);
			if (t->ran && (t->pin < 0 || (unsigned)t->pin == id))
				return t;
		}
	}
	return NULL;
}

/*
 * Balancing, from a CPU's tick: take one waiting task from the CPU with
 * the longest queue, when that queue is at least `margin` longer than
 * this CPU's.  An idle CPU looks at every tick with a margin of 1 (any
 * waiting task); a busy one every BALANCE_TICKS with a margin of 2, so
 * that one task never bounces between two CPUs that differ by one.
 * Queue lengths are read without locks (a hint); the move itself holds
 * both queues' locks and checks again.  Without the busy case, spinners
 * spawned on CPU 0 stayed there: the other CPUs, busy with the first one
 * each pulled, never looked again (measured on the Malta, `ps` after
 * `bench run stress` spawned 64: 63 on CPU 0), and the lone task on VPE 1
 * ran the whole VPE, long enough to finish a spin meant to outlive the
 * run (`bench: stress: read: ESRCH`).
 */
#define BALANCE_TICKS 8u
#define BALANCE_MARGIN_BUSY 2u

static void balance(struct cpu *c, unsigned margin)
{
	struct cpu *busiest = NULL;
	unsigned mine = __atomic_load_n(&c->rq.count, __ATOMIC_RELAXED);
	unsigned most = mine + margin - 1;

	for (unsigned i = 0; i < cpu_count(); i++) {
		struct cpu *o = cpu_get(i);
		unsigned n = o ? __atomic_load_n(&o->rq.count, __ATOMIC_RELAXED) : 0;

		if (o && o != c && n > most) {
			most = n;
			busiest = o;
		}
	}
	if (!busiest)
		return;
	lock_pair(c, busiest);
	struct task *t = busiest->rq.count >= c->rq.count + margin ?
	                 stealable(&busiest->rq, c->id) : NULL;
	if (t) {
		runq_remove(&busiest->rq, &t->rq_node, t->prio);
		make_ready_locked(c, t);
		c->pulled++;
	}
	unlock_pair(c, busiest);
}

void sched_tick(void)
{
	struct cpu *c = this_cpu();
	struct task *elsewhere[WAKE_ELSEWHERE_MAX];

	if (!ready)
		return;
	spin_lock(&c->lock);
	c->ticks++;
	unsigned k = wake_expired(c, elsewhere);
	slice_tick(c);
	bool idle = c->current == c->idle && c->rq.count == 0;
	spin_unlock(&c->lock);
	for (unsigned i = 0; i < k; i++)
		ready_if(elsewhere[i], TASK_SLEEPING);
	if (giant_on_) {                /* several CPUs run tasks */
		if (idle)
			balance(c, 1);
		else if (c->ticks % BALANCE_TICKS == 0)
			balance(c, BALANCE_MARGIN_BUSY);
	}
	sched_hook_tick(c->current, c->idle);
}

/* ---- boot-time tasks ------------------------------------------------------ */

static void kthread_entry(void *arg)
{
	struct task *t = arg;

	sched_first_run();
	giant_lock();           /* kernel threads run holding giant */
	t->kfn(t->karg);
	lifecycle_exit(WAIT_STATUS_EXITED(0));
	__builtin_unreachable();
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

static void __attribute__((noreturn)) idle_body(struct cpu *c)
{
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

static void idle_loop(void *arg)
{
	sched_first_run();
	idle_body(arg);
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
	spin_debug_init();
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
	console->on_cpu = true;
	/* The console's device interrupts arrive on CPU 0. */
	console->pin = 0;
	idle->pin = 0;
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

/* ---- the other CPUs ------------------------------------------------------- */

void sched_smp_prepare(void)
{
	/* Before any other CPU can run a task: from now on the console
	 * (this context) is a kernel thread like any other, holding giant. */
	giant_enable();
	giant_lock();
}

static struct task ap_idle[CPU_MAX];

void sched_ap_start(unsigned id)
{
	struct cpu *c = this_cpu();
	struct task *idle = &ap_idle[id];
	char name[TASK_NAME_MAX];

	if (c->id != id)
		panic("sched: cpu %u started on cpu %u's structure", id, c->id);
	snprintf(name, sizeof(name), "idle%u", id);
	/* Not in the task table (ps lists tasks, not CPUs): pid 0 like
	 * CPU 0's idle task, running on the stack the AP booted on. */
	task_init_static(idle, name, PID_IDLE);
	idle->kthread = idle->detached = true;
	idle->prio = PRIO_LOW;
	idle->state = TASK_RUNNING;
	idle->on_cpu = true;
	idle->pin = (int)id;
	idle->cpu = (int)id;
	task_hook_init(idle);
	c->current = c->idle = idle;
	arch_user_counters(false);
	acct_clock_init(&c->clock, arch_cycles(), arch_tlb_refill_count(true),
			arch_tlb_refill_count(false));
	cpu_set_online(id);
}

void sched_ap_idle(void)
{
	idle_body(this_cpu());
}

uint64_t sched_clock_backwards(void)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < cpu_count(); i++) {
		const struct cpu *c = cpu_get(i);

		if (c)
			n += __atomic_load_n(&c->clock.backwards, __ATOMIC_RELAXED);
	}
	return n;
}

static int cmd_sched(int argc, char **argv)
{
	if (cmd_extra_args(argc, argv))
		return CMD_ERR_REPORTED;
	for (unsigned i = 0; i < cpu_count(); i++) {
		struct cpu *c = cpu_get(i);
		if (!c) {
			printf("cpu%u offline\n", i);
			continue;
		}
		printf("cpu%u current=%d ready=%u switches=%llu ticks=%llu idle_iterations=%llu pulled=%llu\n",
		       i, c->current->pid, c->rq.count,
		       (unsigned long long)c->switches, (unsigned long long)c->ticks,
		       (unsigned long long)c->idle_iterations,
		       (unsigned long long)c->pulled);
	}
	/* CPUs that started but do not run the scheduler (none once they
	 * all join it; listed so that a gap would show). */
	char line[128];
	for (unsigned i = cpu_count(); arch_cpu_brief(i, line, sizeof(line)) == 0; i++)
		printf("cpu%u idle (runs no tasks) %s\n", i, line);
	return 0;
}
CONSOLE_CMD(sched, "per-CPU scheduler state and the idle count", "sched", cmd_sched);
