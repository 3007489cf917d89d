/*
 * entry.h - the way into user mode for a new task.  (The arch calls the
 * rest of entry.c through arch_task.h; interrupt handlers ask for the
 * interrupted mode through pmu_kevent.h.)
 */
#ifndef TALLY_ENTRY_H
#define TALLY_ENTRY_H

struct trapframe;

/* Pending work (preemption, signals), accounting, then user mode. */
void trap_enter_user(struct trapframe *tf) __attribute__((noreturn));

/* Tell the PMU layer of a user event (a system call, a fault) with
 * interrupts off, at the user pc of tf; one branch when nothing counts it. */
enum pmu_kevent;
void trap_count_event(enum pmu_kevent kind, const struct trapframe *tf);

#endif
