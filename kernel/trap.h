/*
 * trap.h - the kernel side of traps (the arch calls the functions that
 * arch_task.h declares); plus the way into user mode for a new task.
 */
#ifndef TALLY_TRAP_H
#define TALLY_TRAP_H

struct trapframe;

/* Pending work (preemption, signals), accounting, then user mode. */
void trap_enter_user(struct trapframe *tf) __attribute__((noreturn));

/* PMU_MODE_U or PMU_MODE_K: the mode the innermost trap interrupted,
 * for events reported from interrupt handlers (soft PMU irqs, ticks). */
uint32_t trap_current_mode(void);

#endif
