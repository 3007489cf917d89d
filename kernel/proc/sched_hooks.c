/*
 * sched_hooks.c - where the task layer hands counters over to hwperf.
 *
 * The scheduler calls hwperf at exactly these points (architecture.md):
 * the switch (its switch-out and switch-in together) and the tick;
 * process lifetime adds init, fork, exit and reap.  The idle task holds
 * no counters, so it is NULL to hwperf.
 */
#include "arch.h"
#include "hwperf/hwperf.h"
#include "proc/sched_hooks.h"
#include "proc/task.h"

static struct hwperf_task *hw_of(struct task *t, struct task *idle)
{
	return (t == NULL || t == idle) ? NULL : &t->hw;
}

/* Out of line: inlined here (LTO) hwperf's locked switch made every
 * switch save and restore the registers its lock needs, although nearly
 * every switch has nothing for it to do. */
static __attribute__((noinline)) void switch_counters(struct hwperf_task *prev,
                                                      struct hwperf_task *next)
{
	hwperf_switch_slow(prev, next);
}

void sched_hook_switch(struct task *prev, struct task *next, struct task *idle)
{
	struct hwperf_task *hw = hw_of(next, idle);

	if (!hwperf_hooks_quiet(hw))
		switch_counters(hw_of(prev, idle), hw);
}

/* Out of line, as switch_counters is, and for the same reason. */
static __attribute__((noinline)) void user_counters_change(bool allow)
{
	arch_user_counters(allow);
}

void sched_hook_switch_in(struct task *prev, struct task *next)
{
	/* The idle task's hwperf_task is all zeroes (task_alloc): never
	 * a page, so the comparison below may look at it. */
	bool mapped = hwperf_upage_mapped(&next->hw);

	/* Only a task that mapped its read page may read counters in user
	 * mode (rdpmc, RDHWR): everyone else faults.  The CPU allows it
	 * exactly while such a task runs (mapping allows it, exit forbids
	 * it, sched_init starts forbidden), so only a switch between a task
	 * with a page and one without changes anything. */
	if (mapped != hwperf_upage_mapped(&prev->hw))
		user_counters_change(mapped);
}

void sched_hook_tick(struct task *cur, struct task *idle)
{
	hwperf_tick(hw_of(cur, idle));
}

void task_hook_init(struct task *t)
{
	hwperf_task_init(&t->hw);
}

void task_hook_fork(struct task *parent, struct task *child)
{
	hwperf_fork(&parent->hw, &child->hw);
}

void task_hook_exit(struct task *t)
{
	hwperf_exit(&t->hw);
	hwperf_upage_detach(&t->hw);
	/* t runs: without its page it may no longer read counters, which
	 * the switch-in relies on (it compares pages, not the CPU). */
	arch_user_counters(false);
}

void task_hook_reap(struct task *parent, struct task *child)
{
	if (child->on_reap)
		child->on_reap(child, child->on_reap_arg);
	hwperf_reap(parent ? &parent->hw : NULL, &child->hw);
}
