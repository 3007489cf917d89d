/*
 * spinlock.h - locks that mask interrupts on the local CPU.
 *
 * Every lock in the task layer is also taken from the timer interrupt, so
 * taking one masks interrupts first: an interrupt handler can then never
 * spin on a lock its own CPU holds.  With masked interrupts nothing can
 * preempt the holder either, so a held lock also means "no switch here".
 * Locks must not be held across arch_switch (see sched.c).
 *
 * One CPU only: masking interrupts is all the exclusion these give, and
 * it holds because only CPU 0 runs tasks or takes them.  The x86_64 APs
 * (arch/x86_64/smp.c) run no task and take no lock until the SMP
 * scheduler makes these real spinlocks (issue 13).
 */
#ifndef TALLY_SPINLOCK_H
#define TALLY_SPINLOCK_H

#include <stdbool.h>

#include "arch.h"

struct spinlock {
	volatile unsigned locked;
	const char *name;       /* for the deadlock panic */
};

#define SPINLOCK_INIT(lname) { .locked = 0, .name = (lname) }

/* Interrupts must already be masked (the caller saved them). */
void spin_lock(struct spinlock *l);
void spin_unlock(struct spinlock *l);
irqflags_t spin_lock_irqsave(struct spinlock *l);
void spin_unlock_irqrestore(struct spinlock *l, irqflags_t flags);
/* One attempt, never spins: true when the lock is now the caller's. */
bool spin_trylock(struct spinlock *l);
bool spin_is_locked(const struct spinlock *l);

#endif
