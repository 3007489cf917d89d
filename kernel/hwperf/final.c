/*
 * final.c - a task's counts once it has ended (for `stat`).
 *
 * hwperf_exit has already folded and unloaded the task's set, so what the
 * set holds now is final: reading it needs the lock only to be consistent
 * with a save-child or reap adding into it from elsewhere.
 */
#include <errno.h>
#include <string.h>

#include "env.h"
#include "internal.h"

int hwperf_task_final(struct hwperf_task *t, struct hwperf_control *ctl,
                      struct hwperf_counts *out)
{
	unsigned cpu = hwperf_env_this_cpu();
	unsigned long f = hwperf_lock(cpu);
	int r = -EINVAL;

	memset(ctl, 0, sizeof(*ctl));
	memset(out, 0, sizeof(*out));
	if (t->set.has_ctl) {
		/* Still running here (not the usual case): fold what the
		 * hardware holds first. */
		*ctl = t->set.ctl;
		r = hwperf_task_export(t, cpu, out);
	}
	hwperf_unlock(cpu, f);
	return r;
}
