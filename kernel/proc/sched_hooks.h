/*
 * sched_hooks.h - where the scheduler and the task lifetime call hwperf.
 *
 * The scheduler offers hwperf exactly one hook a switch (its switch-out
 * and switch-in together), and the timer tick one.  Task lifetime adds
 * four: a task created from nothing, fork, exit and reap.  kernel/hwperf
 * implements these in sched_hooks.c (mapping a task to its embedded struct hwperf_task, and
 * the idle task to NULL); nothing else in the task layer knows hwperf.
 *
 * All are called with interrupts disabled and must not sleep.
 */
#ifndef TALLY_SCHED_HOOKS_H
#define TALLY_SCHED_HOOKS_H

struct task;

/* On the switching CPU, before the register switch, once next may run
 * here (no other CPU is still on its stack): prev stops counting and next
 * starts, in one step (hwperf_switch_slow). */
void sched_hook_switch(struct task *prev, struct task *next, struct task *idle);
/* After the switch, on next's stack, before next continues; prev is the
 * task switched from, not yet released: the CPU's user-mode counter
 * reads (a read page's). */
void sched_hook_switch_in(struct task *prev, struct task *next);
/* Every timer tick, interrupt context; cur is the running task. */
void sched_hook_tick(struct task *cur, struct task *idle);

/* A task that did not come from fork (spawned program, kernel thread). */
void task_hook_init(struct task *t);
/* child was just made from parent and has not run. */
void task_hook_fork(struct task *parent, struct task *child);
/* t is running and exiting; before its last switch-out. */
void task_hook_exit(struct task *t);
/* parent reaped child; before child's slot is freed. */
void task_hook_reap(struct task *parent, struct task *child);

#endif
