/*
 * softcfg.c - reconfiguring the software PMU at run time (counters and
 * width), so that a benchmark or a person at the console can exercise
 * multiplexing and wrap-around without rebooting with softpmu_counters=
 * or softpmu_width=.
 *
 * Changing the registers under a counting set would corrupt its counts,
 * so it is refused unless the PMU is FREE and no CPU has a set loaded;
 * the refusal names who holds the counters (R20).  A task that lost its
 * counters (R6) or released them holds nothing: its next enable or
 * set-control resolves and places its events against the new shape.
 */
#include <errno.h>
#include <stdio.h>

#include "env.h"
#include "internal.h"
#include "pmu/soft/softpmu.h"

static int busy_user(struct hwperf_reason *why)
{
	const struct hwperf_task *h = hwperf_core.holders;
	int cpu = hwperf_env_task_cpu(h);
	char where[24];
	unsigned n = 0;

	for (const struct hwperf_task *t = h; t; t = t->next_holder)
		n++;
	if (cpu >= 0)
		snprintf(where, sizeof(where), "running on cpu %d", cpu);
	else
		snprintf(where, sizeof(where), "not running");
	return hwperf_fail(why, EBUSY, "pid %d holds the counters in USER mode "
	                   "(%s; %u holder%s)", hwperf_env_pid(h), where, n,
	                   n == 1 ? "" : "s");
}

/* Anything that still counts, or could, on any CPU. */
static int check_free(struct hwperf_reason *why)
{
	const struct hwperf_core *h = &hwperf_core;

	if (h->mode == HWPERF_SYSTEM)
		return hwperf_busy_system(why);
	if (h->holders)
		return busy_user(why);
	for (unsigned c = 0; c < hwperf_env_ncpus(); c++)
		if (h->cpu[c].loaded)
			return hwperf_fail(why, EBUSY, "cpu %u still has a counter "
			                   "set loaded", c);
	return 0;
}

static int do_configure(struct hwperf_task *caller, unsigned ncounters,
                        unsigned width, struct hwperf_reason *why)
{
	struct hwperf_core *h = &hwperf_core;
	int err;

	if (!h->ready || !h->ops->reshape)
		return hwperf_fail(why, ENODEV, "the active PMU is %s, which cannot be reshaped (soft can)",
		                   h->ready ? h->caps.name : "none");
	if (!hwperf_is_root(caller))
		return hwperf_fail(why, EPERM, "reconfiguring the PMU needs root; "
		                   "pid %d has uid %u", hwperf_pid_of(caller),
		                   hwperf_env_uid(caller));
	if ((err = check_free(why)) < 0)
		return err;
	if (h->ops->reshape(ncounters, width) < 0)
		return hwperf_fail(why, EINVAL, "soft PMU takes %u..%u counters of "
		                   "%u..%u bits, not %u x %u", SOFTPMU_COUNTERS_MIN,
		                   SOFTPMU_COUNTERS_MAX, SOFTPMU_WIDTH_MIN,
		                   SOFTPMU_WIDTH_MAX, ncounters, width);
	/* Every later placement and period reads the new shape from here. */
	hwperf_place_forget_all();
	if (h->ops->probe(&h->caps) < 0)
		return hwperf_fail(why, ENODEV, "%s", h->caps.status);
	return 0;
}

int hwperf_soft_configure(struct hwperf_task *caller, unsigned ncounters,
                          unsigned width, struct hwperf_reason *why)
{
	unsigned cpu = hwperf_env_this_cpu();
	unsigned long f = hwperf_lock(cpu);
	int r = do_configure(caller, ncounters, width, why);

	hwperf_unlock(cpu, f);
	return hwperf_report(caller, r, why);
}
