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

#endif
