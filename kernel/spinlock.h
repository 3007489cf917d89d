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
 *   - a system call (trap_syscall_run), a user exception (page fault, fault
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
 *         -> heap -> page -> console output (console_out_lock, console.h)
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

/* The flags below are written once at boot and read on every lock and
 * switch: the common case (no lockdebug, giant off on one CPU) costs a
 * load and a branch, inline. */
extern bool spin_debug_;
extern bool giant_on_;

void spin_lock_debug(struct spinlock *l, uintptr_t site);
void spin_unlock_debug(struct spinlock *l);
void spin_wait(struct spinlock *l);

/* Interrupts must already be masked (the caller saved them). */
static inline void spin_lock(struct spinlock *l)
{
	if (spin_debug_) {
		__label__ site;
site:
		spin_lock_debug(l, (uintptr_t)&&site);
		return;
	}
	/* Wait with loads, not exchanges (spin_wait): the holder's cache
	 * line stays shared until it lets go. */
	while (__atomic_exchange_n(&l->locked, 1u, __ATOMIC_ACQUIRE))
		spin_wait(l);
}

static inline void spin_unlock(struct spinlock *l)
{
	if (spin_debug_)
		spin_unlock_debug(l);
	__atomic_store_n(&l->locked, 0u, __ATOMIC_RELEASE);
}

static inline irqflags_t spin_lock_irqsave(struct spinlock *l)
{
	irqflags_t f = arch_irq_save();

	spin_lock(l);
	return f;
}

static inline void spin_unlock_irqrestore(struct spinlock *l, irqflags_t flags)
{
	spin_unlock(l);
	arch_irq_restore(flags);
}

void spin_trylock_debug(struct spinlock *l);

/* One attempt, never spins: true when the lock is now the caller's.
 * Inline: the switch hook takes hwperf's lock this way at every switch
 * between counting tasks, where a call cost its call, return and frame
 * (Malta: 16 instructions).  The exchange first, as a failed attempt
 * (a waiter's loop, kernel/hwperf/xcall.c) needs nothing else.  No
 * label's address for lockdebug's site, as spin_lock takes: clang
 * inlines no function that takes one; the debug call's return address
 * names the caller as well. */
static inline bool spin_trylock(struct spinlock *l)
{
	if (__atomic_exchange_n(&l->locked, 1u, __ATOMIC_ACQUIRE))
		return false;
	if (spin_debug_)
		spin_trylock_debug(l);
	return true;
}
bool spin_is_locked(const struct spinlock *l);

/* lockdebug=1: read once at boot (spin_debug_init, from sched_init). */
void spin_debug_init(void);
bool spin_debug_on(void);
void spin_assert_none_held_slow(const char *what, int pid, const char *name);
/* lockdebug: panics naming the lock if this CPU holds any spinlock; what
 * the scheduler calls before every switch and sleep, naming the task
 * (pid -1: none) since this layer knows no tasks. */
static inline void spin_assert_none_held(const char *what, int pid, const char *name)
{
	if (spin_debug_)
		spin_assert_none_held_slow(what, pid, name);
}

/* ---- giant ---------------------------------------------------------------- */
/* Turned on once, by CPU 0, before a second CPU runs tasks. */
void giant_enable(void);
void giant_lock_slow(void);
void giant_unlock_slow(void);
unsigned giant_release_all_slow(void);
void giant_reacquire_slow(unsigned depth);

/* Recursive per CPU; may spin with interrupts as the caller had them. */
static inline void giant_lock(void)
{
	if (giant_on_)
		giant_lock_slow();
}

static inline void giant_unlock(void)
{
	if (giant_on_)
		giant_unlock_slow();
}

/* The switch: give up this CPU's depth (returned), and take it back. */
static inline unsigned giant_release_all(void)
{
	return giant_on_ ? giant_release_all_slow() : 0;
}

static inline void giant_reacquire(unsigned depth)
{
	if (depth)
		giant_reacquire_slow(depth);
}

#endif
