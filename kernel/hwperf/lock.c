/*
 * lock.c - the hwperf lock, plus a per-CPU guard: an overflow that the
 * software PMU raises while this CPU is already inside hwperf (say, from
 * an env callback) is held back and handled when the outer call unlocks,
 * instead of re-entering half-updated state.
 */
#include "env.h"
#include "internal.h"

/*
 * The holder may be waiting for this CPU (xcall.c), which cannot take its
 * ring while interrupts are masked: serve it meanwhile.  Out of line:
 * hwperf_lock's fast path (internal.h) is inlined into every caller.
 */
unsigned long hwperf_lock_contended(unsigned cpu)
{
	unsigned long flags;

	do {
		if (hwperf_xcall_serve(cpu))
			__atomic_fetch_add(&hwperf_xcall_stats.polled, 1u,
			                   __ATOMIC_RELAXED);
		hwperf_env_relax();
	} while (!hwperf_env_trylock(&flags));
	hwperf_core.cpu[cpu].busy = true;
	return flags;
}

/* The overflows held back while this CPU was inside hwperf, handled
 * before the lock goes (hwperf_unlock's rare case, internal.h). */
void hwperf_unlock_pending(unsigned cpu)
{
	struct hwperf_cpu *c = &hwperf_core.cpu[cpu];

	while (c->irq_pending) {
		c->irq_pending = false;
		hwperf_overflow(cpu, c->irq_pc, c->irq_mode);
	}
}

/* The PMU's overflow interrupt, as kernel/pmu/core.c hands it to hwperf
 * (registered by hwperf_init). */
bool hwperf_pmu_interrupt(uintptr_t pc, uint32_t mode)
{
	unsigned cpu = hwperf_env_this_cpu();
	struct hwperf_cpu *c = &hwperf_core.cpu[cpu];
	unsigned long flags;
	uint32_t slots;

	if (c->busy) {
		c->irq_pending = true;
		c->irq_pc = pc;
		c->irq_mode = mode;
		return true;
	}
	flags = hwperf_lock(cpu);
	slots = hwperf_overflow(cpu, pc, mode);
	hwperf_unlock(cpu, flags);
	return slots != 0;
}
