/*
 * xcall.c - running hwperf code on another CPU's PMU (R3, R5, R12).
 *
 * Only a CPU touches its own PMU, so a system acquire, a system read or a
 * forced loss that concerns another CPU asks that CPU to do the work now
 * and waits for it.  The caller holds the hwperf lock the whole time, and
 * the function it sends runs on the target under that same lock (the
 * target never takes it for the call): the state both see is consistent.
 *
 * One mailbox per CPU, written only by the lock holder.  The target finds
 * it two ways, because it may be unable to take an interrupt:
 *   - the ring (hwperf_env_ring: an IPI) when it idles or runs with
 *     interrupts on;
 *   - hwperf_lock, which polls its mailbox between attempts while it waits
 *     for the lock (with interrupts masked, from a tick or a switch): the
 *     holder it waits for may be waiting for it.
 *
 * A ring the arch refuses with EBUSY (the target is still in an earlier
 * ring's handler) is tried again while the holder waits: that handler
 * may be past its look at the mailbox.
 *
 * A mailbox goes IDLE -> POSTED (holder) -> RUNNING (target) -> DONE
 * (target) -> IDLE (holder).  A holder that gives up withdraws a POSTED
 * call (POSTED -> IDLE) so that a late ring finds nothing to do; a call
 * already RUNNING is waited for, since it is a few hundred instructions
 * away from DONE.  So nothing ever runs on a CPU after its caller left.
 */
#include <errno.h>

#include "env.h"
#include "internal.h"

enum { XC_IDLE, XC_POSTED, XC_RUNNING, XC_DONE };

struct xcall {
	uint32_t state;                 /* XC_*, atomic */
	void (*fn)(unsigned cpu, void *arg);
	void *arg;
};

static struct xcall mailbox[HWPERF_MAX_CPUS];

/* `hwperf status` shows them: calls that ran, calls that ran from the
 * lock's poll rather than the ring, calls given up. */
struct hwperf_xcall_stats hwperf_xcall_stats;

bool hwperf_xcall_serve(unsigned cpu)
{
	struct xcall *x = &mailbox[cpu % HWPERF_MAX_CPUS];
	struct hwperf_cpu *c = &hwperf_core.cpu[cpu % HWPERF_MAX_CPUS];
	uint32_t want = XC_POSTED;
	bool was_busy;

	if (!__atomic_compare_exchange_n(&x->state, &want, XC_RUNNING, false,
	                                 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return false;
	/* An overflow raised by the work (the software PMU raises it from
	 * inside a fold) waits until the work is done, as under the lock. */
	was_busy = c->busy;
	c->busy = true;
	x->fn(cpu, x->arg);
	while (c->irq_pending) {
		c->irq_pending = false;
		hwperf_overflow(cpu, c->irq_pc, c->irq_mode);
	}
	c->busy = was_busy;
	__atomic_fetch_add(&hwperf_xcall_stats.served, 1u, __ATOMIC_RELAXED);
	__atomic_store_n(&x->state, XC_DONE, __ATOMIC_RELEASE);
	return true;
}

/*
 * How long a holder waits: 50 ticks of cycles (half a second at HZ=100),
 * or a fixed number of polls while the cycle rate is unknown.  A target
 * that took none of its own timer ticks in that time did not run with
 * interrupts on at all; under QEMU without -icount that is a vCPU thread
 * the host did not schedule (measured: 0 ticks on CPU 1 for 50 of CPU 0's
 * on a 2-core host running another QEMU beside it, while QEMU's monitor
 * showed its timer pending).  Such a CPU is waited for up to 500 ticks:
 * it is slow, not dead.  One that ticks but does not answer lost the ring,
 * and 50 ticks say so.  CPU 0's tick is the wall clock's and is not
 * counted per CPU: for CPU 0 the 50 ticks are all.
 */
#define XCALL_TICKS 50u
#define XCALL_TICKS_UNSEEN 500u
#define XCALL_POLLS 100000000u

/* The failure, told apart by the target's own ticks meanwhile: waited
 * is how many ticks the holder gave it (50, or 500 for one that ticked
 * not at all in the first 50). */
static int deaf(struct hwperf_reason *why, unsigned cpu, uint32_t ticks,
                unsigned waited)
{
	if (cpu == 0)
		return hwperf_fail(why, ETIMEDOUT, "cpu %u did not answer within "
		                   "%u ticks; nothing was changed there", cpu,
		                   waited);
	if (ticks == 0)
		return hwperf_fail(why, ETIMEDOUT, "cpu %u did not answer within "
		                   "%u ticks, and took none of its own; nothing "
		                   "was changed there", cpu, waited);
	return hwperf_fail(why, ETIMEDOUT, "cpu %u did not answer within %u "
	                   "ticks (it took %u of its own meanwhile); nothing "
	                   "was changed there", cpu, waited, ticks);
}

/* Past 50 ticks: a target that took none of its own meanwhile gets the
 * longer wait, once (the limit grows to 500 ticks from the start). */
static bool wait_longer(unsigned cpu, uint32_t ticks0, uint64_t *limit)
{
	uint64_t longest = hwperf_core.rotate_cycles * XCALL_TICKS_UNSEEN;

	if (cpu == 0 || *limit >= longest || hwperf_cpu_ticks_seen(cpu) != ticks0)
		return false;
	*limit = longest;
	return true;
}

int hwperf_xcall(unsigned me, unsigned cpu, void (*fn)(unsigned, void *),
                 void *arg, struct hwperf_reason *why)
{
	struct xcall *x;
	uint64_t t0, limit = hwperf_core.rotate_cycles * XCALL_TICKS;
	uint32_t want = XC_POSTED, ticks0;
	int err;

	if (cpu == me) {
		fn(cpu, arg);
		return 0;
	}
	if (cpu >= hwperf_env_ncpus() || cpu >= HWPERF_MAX_CPUS)
		return hwperf_fail(why, ENODEV, "cpu %u does not exist", cpu);
	x = &mailbox[cpu];
	ticks0 = hwperf_cpu_ticks_seen(cpu);
	x->fn = fn;
	x->arg = arg;
	__atomic_store_n(&x->state, XC_POSTED, __ATOMIC_RELEASE);
	err = hwperf_env_ring(cpu);
	if (err < 0 && err != -EBUSY) {
		__atomic_store_n(&x->state, XC_IDLE, __ATOMIC_RELAXED);
		return hwperf_fail(why, ENODEV, "cpu %u is not online (%s)", cpu,
		                   hwperf_errname(-err));
	}
	t0 = hwperf_env_cycles();
	for (uint32_t polls = 0;; polls++) {
		if (__atomic_load_n(&x->state, __ATOMIC_ACQUIRE) == XC_DONE)
			break;
		/* EBUSY: the target still runs an earlier ring's handler,
		 * which may already have looked at the mailbox (and found
		 * nothing: that call was served from the lock's poll).  No
		 * IPI went out, so ring until one does. */
		if (err == -EBUSY) {
			err = hwperf_env_ring(cpu);
			if (err != -EBUSY)
				__atomic_fetch_add(&hwperf_xcall_stats.rerung, 1u,
				                   __ATOMIC_RELAXED);
		}
		hwperf_env_relax();
		if (limit ? hwperf_env_cycles() - t0 < limit : polls < XCALL_POLLS)
			continue;
		if (limit && wait_longer(cpu, ticks0, &limit))
			continue;
		if (__atomic_compare_exchange_n(&x->state, &want, XC_IDLE, false,
		                                __ATOMIC_ACQUIRE,
		                                __ATOMIC_ACQUIRE)) {
			__atomic_fetch_add(&hwperf_xcall_stats.timeouts, 1u,
			                   __ATOMIC_RELAXED);
			return deaf(why, cpu, hwperf_cpu_ticks_seen(cpu) - ticks0,
			            limit ? (unsigned)(limit / hwperf_core.rotate_cycles)
			                  : XCALL_TICKS);
		}
		want = XC_POSTED;      /* RUNNING: it is about to finish */
		while (__atomic_load_n(&x->state, __ATOMIC_ACQUIRE) != XC_DONE)
			hwperf_env_relax();
		break;
	}
	__atomic_store_n(&x->state, XC_IDLE, __ATOMIC_RELAXED);
	return 0;
}

/* The same on every CPU but me, stopping at the first that fails: *late
 * names it.  The caller decides what a failure undoes. */
int hwperf_xcall_others(unsigned me, void (*fn)(unsigned, void *), void *arg,
                        unsigned *late, struct hwperf_reason *why)
{
	for (unsigned c = 0; c < hwperf_env_ncpus(); c++) {
		int err;

		if (c == me)
			continue;
		err = hwperf_xcall(me, c, fn, arg, why);
		if (err < 0) {
			if (late)
				*late = c;
			return err;
		}
	}
	return 0;
}

static void nothing_fn(unsigned cpu, void *arg)
{
	(void)cpu;
	(void)arg;
}

int hwperf_cpu_ping(unsigned cpu, struct hwperf_reason *why)
{
	unsigned me = hwperf_env_this_cpu();
	unsigned long f = hwperf_lock(me);
	int r = hwperf_xcall(me, cpu, nothing_fn, NULL, why);

	hwperf_unlock(me, f);
	return r;
}
