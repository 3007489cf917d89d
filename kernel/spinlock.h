/*
 * spinlock.h - spinlocks that mask interrupts on the local CPU, and the
 * kernel lock ("giant") that serialises the task, memory and signal state
 * between CPUs.
 *
 * A spinlock is a test-and-test-and-set word: one atomic exchange to
 * take it, plain loads (with the arch's pause) while another CPU holds
 * it.  On x86-64 the exchange is XCHG; on MIPS clang emits an LL/SC loop
 * for the same C11 builtin, so the lock is correct there too although
 * Malta runs one CPU.  Every lock is also taken from the timer interrupt,
 * so taking one masks interrupts first: an interrupt handler can then
 * never spin on a lock its own CPU holds.  Locks must not be held across
 * a switch or a sleep (lockdebug=1 checks both, below).
 *
 * The kernel lock, giant.  Most of the kernel was written for one CPU,
 * where masking interrupts was the whole of mutual exclusion: the task
 * table's families, signals, address spaces, the console's commands.
 * Rather than a lock per structure, whoever runs that code holds giant:
 *   - a system call (trap_syscall), a user exception (page fault, fault
 *     signal) and signal delivery on the way back to user mode take it
 *     and drop it around their work (kernel/entry.c);
 *   - kernel threads (the console) hold it whenever they run.
 * It is dropped at every switch and taken again when the task resumes,
 * so a sleeping holder blocks no one.  Interrupts never take it: the
 * tick, the IPIs and the PMU interrupt touch only per-CPU state and
 * state under the spinlocks below, so a CPU spinning on giant never
 * holds up another CPU's tick or IPI call (and a CPU spinning on giant
 * with interrupts off still answers IPI calls: arch_lock_relax).
 * Its cost: system calls of different CPUs run one at a time; user code
 * and the tick run in parallel.  With one CPU running tasks giant is off
 * (a load and a branch), so one-CPU costs do not change.
 *
 * Lock order (take left before right; never the other way):
 *   giant -> hwperf (kernel/hwperf/lock.c, through hwperf_env_lock)
 *         -> task_table -> a wait queue's lock -> cpu[i].lock (run queue,
 *            sleepers; two at once only in ascending CPU id)
 *         -> heap -> page -> console output
 * The scheduler calls hwperf's switch and tick hooks holding no lock of
 * its own.
 */
#ifndef TALLY_SPINLOCK_H
#define TALLY_SPINLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "arch.h"

struct spinlock {
	volatile unsigned locked;
	const char *name;       /* for the lockdebug panics */
	/* lockdebug=1 only: the CPU holding it (+1; 0 none) and where it
	 * took it, so a second take names both places. */
	volatile unsigned owner;
	uintptr_t site;
};

#define SPINLOCK_INIT(lname) { .locked = 0, .name = (lname), .owner = 0, .site = 0 }

/* Interrupts must already be masked (the caller saved them). */
void spin_lock(struct spinlock *l);
void spin_unlock(struct spinlock *l);
irqflags_t spin_lock_irqsave(struct spinlock *l);
void spin_unlock_irqrestore(struct spinlock *l, irqflags_t flags);
bool spin_is_locked(const struct spinlock *l);

/* lockdebug=1: read once at boot (spin_debug_init, from sched_init). */
void spin_debug_init(void);
bool spin_debug_on(void);
/* lockdebug: panics naming the lock if this CPU holds any spinlock; what
 * the scheduler calls before every switch and sleep. */
void spin_assert_none_held(const char *what);

/* ---- giant ---------------------------------------------------------------- */
/* Turned on once, by CPU 0, before a second CPU runs tasks. */
void giant_enable(void);
bool giant_enabled(void);
/* Recursive per CPU; may spin with interrupts as the caller had them. */
void giant_lock(void);
void giant_unlock(void);
/* The switch: give up this CPU's depth (returned), and take it back. */
unsigned giant_release_all(void);
void giant_reacquire(unsigned depth);
/* Depth this CPU holds (0: not held). */
unsigned giant_depth(void);

#endif
