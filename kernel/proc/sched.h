/*
 * sched.h - the preemptive scheduler.
 *
 * Each CPU runs the most urgent ready task (runq.h: PRIO_HIGH first,
 * round robin within a level).  The timer tick counts down the running
 * task's slice; when it runs out and a task of the same or a more urgent
 * level waits, or when a more urgent task wakes, the CPU is asked to
 * reschedule, which happens on the way out of the interrupt
 * (sched_preempt, from trap_exit and trap_return_check).
 *
 * Accounting of switches: a voluntary switch is counted every time a task
 * gives up the CPU by its own call (yield, sleep, a wait that blocks),
 * even when it is picked again at once; an involuntary one every time it
 * is taken off the CPU by preemption.  Exiting counts neither.
 */
#ifndef TALLY_SCHED_H
#define TALLY_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "proc/task.h"

/* Ticks a task runs before others of its level get a turn. */
#define SLICE_TICKS_HIGH   1
#define SLICE_TICKS_NORMAL 2
#define SLICE_TICKS_LOW    4

/* Make the running context the console task and start the idle task. */
void sched_init(void);
/*
 * The process layer's part of a task's end, set once at boot before any
 * task runs (kmain: proc_release, proc_exit), so that the scheduler below
 * it calls up through these and includes nothing of it: release frees a
 * detached zombie once the switch has left its stack; exit ends a kernel
 * thread whose function returned (it does not return).
 */
void sched_set_lifecycle(void (*release)(struct task *t), void (*exit)(int status));
bool sched_ready(void);

/* Timer interrupt (clock_tick). */
void sched_tick(void);
/* On the way out of a trap: switch if the CPU was asked to. */
void sched_preempt(void);

void sched_yield(void);
/* Sleep for ticks (>=1).  0, or -EINTR when a signal cut it short. */
int sched_sleep_ticks(uint64_t ticks);
/* Wait for the console's next interrupt; idles the CPU before sched_init. */
void sched_wait_interrupt(void);
/*
 * Sleep on wq until done(arg) holds; done is checked with wq's lock held
 * and interrupts off, and must not sleep.  -EINTR if a signal arrives
 * first (user tasks only; kernel threads wait through signals).
 */
int sched_wait(struct waitq *wq, bool (*done)(void *), void *arg);
void waitq_wake_all(struct waitq *wq);

/* t was SLEEPING (or new): make it ready to run. */
void sched_wakeup(struct task *t);
/* A task created by spawn or fork joins the run queue. */
void sched_start_task(struct task *t);
/* The first thing a new task does on its own stack. */
void sched_first_run(void);
/* The current task, now a ZOMBIE, leaves the CPU for good. */
void sched_exit_switch(void) __attribute__((noreturn));

/* A kernel thread running fn(arg) at prio; it exits when fn returns. */
struct task *sched_kthread(const char *name, void (*fn)(void *), void *arg,
			   int prio, int *err);

unsigned sched_slice_ticks(int prio);

/* ---- several CPUs ---------------------------------------------------------- */
/* On CPU 0, before the first AP starts: giant on, held by the console. */
void sched_smp_prepare(void);
/* On AP id, interrupts off, on its boot stack: that context becomes the
 * CPU's idle task and the CPU joins the scheduler; then sched_ap_idle. */
void sched_ap_start(unsigned id);
void sched_ap_idle(void) __attribute__((noreturn));
/* Pin t (a user task) to cpu, or unpin (-1): it runs nowhere else from
 * its next switch on.  0, -ENODEV (no such CPU), -EPERM (kernel thread). */
int sched_set_pin(struct task *t, int cpu);
/* Spin until t is off every CPU's stack (before reading or freeing it). */
void sched_wait_off_cpu(const struct task *t);
/* Callback of the idle task, used by `sched`. */
uint64_t sched_idle_iterations(unsigned cpu);
/* Cuts of every CPU's accounting clock so far that found the cycle
 * counter behind the clock's stamp (acct.h struct acct_clock). */
uint64_t sched_clock_backwards(void);

#endif
