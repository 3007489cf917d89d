/*
 * overflow.c - thresholds (R15) and the PMU overflow interrupt.
 *
 * A threshold n on a virtual counter means: act each time its count
 * reaches the next multiple of n since it was set.  The decision is made
 * on the folded 64-bit count, not on which hardware counter interrupted,
 * so it is exact even when the overflow arrived late (skid), when the
 * period was longer than the counter could hold, or when the count was
 * folded at a context switch.  Acting means posting the set's signal, or
 * for a profiling set (IRIX HWPERF_PROFENABLE) one profile hit at the
 * interrupted PC and, when the task keeps a record ring, one sample
 * record naming the counter (sample.h).
 */
#include <string.h>

#include "env.h"
#include "internal.h"

static void act(struct hwperf_set *s, struct hwperf_task *owner, unsigned i,
                uintptr_t pc)
{
	if (!owner)
		return;
	if (s->profile) {
		hwperf_env_profile_hit(owner, pc);
		hwperf_env_profile_sample(owner, i, pc);
	} else if (s->ctl.sig > 0)
		hwperf_env_signal(owner, s->ctl.sig);
}

void hwperf_thresholds_due(struct hwperf_set *s, struct hwperf_task *owner,
                           uintptr_t pc)
{
	/* Every switch-out and tick lands here: only the counters with a
	 * threshold (found at install) are looked at. */
	for (uint32_t m = s->thresh_used; m; m &= m - 1) {
		unsigned i = (unsigned)__builtin_ctz(m);
		int64_t n = s->ctl.ev[i].thresh;

		while (s->c.count[i] >= s->next_at[i]) {
			act(s, owner, i, pc);
			s->next_at[i] += (uint64_t)n;
		}
	}
}

/*
 * The interrupt proper.  In SYSTEM mode the loaded set is this CPU's own
 * block, so an overflow here touches only this CPU's counts (R19).
 */
uint32_t hwperf_overflow(unsigned cpu, uintptr_t pc, uint32_t mode)
{
	/* Too big for an interrupt stack; each CPU only touches its own. */
	static struct pmu_state idle_state[HWPERF_MAX_CPUS];
	const struct pmu_ops *ops = hwperf_core.ops;
	struct hwperf_set *s = hwperf_core.cpu[cpu].loaded;
	struct pmu_state *idle = &idle_state[cpu];
	uint32_t slots;

	(void)mode;
	if (!ops)
		return 0;
	if (!s) {
		/* Nothing of ours is counting: just quiet the hardware. */
		memset(idle, 0, sizeof(*idle));
		idle->cpu = cpu;
		return ops->identify_overflow(idle);
	}
	ops->suspend(&s->pst);
	slots = ops->identify_overflow(&s->pst);
	hwperf_set_fold(s);
	hwperf_thresholds(s, hwperf_owner(cpu), pc);
	hwperf_restart(s);
	return slots;
}
