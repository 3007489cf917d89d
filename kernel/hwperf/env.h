/*
 * env.h - everything hwperf needs from the task layer, and nothing more.
 *
 * hwperf never sees the kernel's task structure: it keeps a struct
 * hwperf_task embedded in it and asks these functions the rest.  The
 * kernel implements them (kernel/proc/task.c, with container_of from the
 * embedded hwperf_task); the host unit tests implement them with fakes
 * (tests/unit/hwperf_fake_env.c).
 *
 * Rules for the implementation:
 *  - Every function but hwperf_env_log is called with the hwperf lock held
 *    and interrupts off -- from system calls, from the scheduler hooks
 *    (switch-out runs with the scheduler's own locks held) and from the PMU
 *    overflow interrupt.  None may sleep, call back into hwperf, or take a
 *    lock that is held around a call into hwperf.
 *  - So hwperf_env_signal only posts the signal (sets it pending); it must
 *    not wake the task or touch run queues.  Its target is the task whose
 *    counters overflowed: running, being switched out, or (for a SYSTEM
 *    mode holder) possibly asleep, in which case it sees the signal when
 *    it next runs.
 *  - Lock order: hwperf lock, then the task table lock (lookup may take
 *    it).  So the task layer calls hwperf_fork / hwperf_exit / hwperf_reap
 *    without holding the task table lock.
 *  - A task's slot must not be reused before hwperf_reap(parent, t) (parent
 *    NULL for a task nobody waits for) has returned: that call is what
 *    guarantees no lookup still holds it.
 */
#ifndef TALLY_HWPERF_ENV_H
#define TALLY_HWPERF_ENV_H

#include <stdbool.h>
#include <stdint.h>

struct hwperf_task;
struct hwperf_rusage;
struct hwperf_counts;

#define HWPERF_ROOT_UID 0u

/* The task with this pid, or NULL (hwperf answers ESRCH). */
struct hwperf_task *hwperf_env_lookup(int pid);
int hwperf_env_pid(const struct hwperf_task *t);
unsigned hwperf_env_uid(const struct hwperf_task *t);
int hwperf_env_pgid(const struct hwperf_task *t);
/* t's parent, or NULL when it has none (or it was reparented away). */
struct hwperf_task *hwperf_env_parent(const struct hwperf_task *t);
/* The CPU t is running on right now, or -1 when it is not running. */
int hwperf_env_task_cpu(const struct hwperf_task *t);

/* CPUs whose PMU hwperf keeps (every online CPU, whether it runs tasks
 * or only idles), 1..HWPERF_MAX_CPUS; ids 0..ncpus-1. */
unsigned hwperf_env_ncpus(void);
unsigned hwperf_env_this_cpu(void);     /* 0..ncpus-1 */

/* Post sig (1..32) to t; delivery happens on its way back to user mode. */
void hwperf_env_signal(struct hwperf_task *t, int sig);
/* Add one to t's profile bucket for pc (ignored when pc is not in the
 * profiled range, e.g. a kernel PC). */
void hwperf_env_profile_hit(struct hwperf_task *t, uintptr_t pc);
/* (+) One sample record for a profile hit of virtual counter vctr at pc
 * (sample.c's format), taken on this CPU with t's user state: kept only
 * when t has a record ring and pc is a hit profile_hit counted. */
void hwperf_env_profile_sample(struct hwperf_task *t, unsigned vctr, uintptr_t pc);
/* (+) The cycle counter now, and what every CPU's idle task has done so
 * far: its accounted cycles and its loop count (the pctr read). */
uint64_t hwperf_env_cycles(void);
void hwperf_env_idle(uint64_t *cycles, uint64_t *iterations);
/* A full set's counts out (vctr.c, the 32-counter read): out's count and
 * running are c's, every enabled is `enabled`.  Out of hwperf because on
 * a 32-bit machine the copy is most of a read, and only the arch knows
 * its fastest (kernel/arch.h arch_copy_fill_u64). */
void hwperf_env_counts_out(struct hwperf_counts *out,
                           const struct hwperf_counts *c, uint64_t enabled);
/* Fill the kernel's own accounting for t (R9). */
void hwperf_env_rusage(const struct hwperf_task *t, struct hwperf_rusage *ru);

/* One line for the console (R20: every refusal is also told there):
 * "pid 12: EBUSY: ...".  Called without the hwperf lock. */
void hwperf_env_log(const char *line);

/* Call fn for every live task (for `hwperf status`: holders and tasks
 * that lost their counters).  Takes the task table lock; fn may not call
 * back into the env. */
void hwperf_env_foreach(void (*fn)(struct hwperf_task *t, void *arg), void *arg);

/* Ask cpu to run hwperf_tick soon (an IPI); may do nothing, then the
 * change is applied at that CPU's next tick or switch. */
void hwperf_env_kick(unsigned cpu);

/*
 * Interrupt cpu (never the caller's) so that it calls hwperf_xcall_serve
 * on itself soon, from its interrupt handler; does not wait (xcall.c
 * waits).  0, -EBUSY (a ring is still pending there: it will serve), or
 * -ENODEV / -EAGAIN (no such CPU, not online).
 */
int hwperf_env_ring(unsigned cpu);
/* Called in every turn of a wait for another CPU (a PAUSE). */
void hwperf_env_relax(void);

/* The one hwperf lock: disables interrupts and, on SMP, spins.
 * trylock makes one attempt: true with the lock held and *flags to give
 * back to unlock, false with interrupts as they were. */
unsigned long hwperf_env_lock(void);
bool hwperf_env_trylock(unsigned long *flags);
void hwperf_env_unlock(unsigned long flags);
/* The same for a caller that runs with interrupts off already (the
 * switch hook): no flags to save, mask or give back. */
bool hwperf_env_trylock_irqs_off(void);
void hwperf_env_unlock_irqs_off(void);

#endif
