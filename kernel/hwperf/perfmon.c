/*
 * perfmon.c - FreeBSD perfmon's and OpenBSD pctr's habits on a task's
 * counters (issue 15 item 5): pause and resume without releasing, reset
 * to zero, and one read that returns the counts with the cycle counter
 * and the idle count.
 *
 * In the terms of hwperf-semantics.md (docs/hwperf.md, "Pause, resume, reset
 * and the pctr read", says the same for users):
 *  - pause keeps the control and the ownership (the task stays a USER
 *    holder, R1/R2) but the kernel stops loading the set, like a task
 *    that is switched out: counts, time-enabled and time-running stand
 *    still.  Counts stay continuous, so the generation does not move (R7
 *    moves it only when counts stop being comparable).
 *  - resume loads the set again where the task runs; counting continues
 *    from the paused values, generation unchanged.  A task that lost its
 *    counters (R6) is not restarted by resume: only enable or set-control
 *    does that.
 *  - reset zeroes counts, times and threshold progress, keeps the control
 *    and a pause, and bumps the generation: the counts went backwards, and
 *    R7's promise is that a reader sees that in the generation.
 *  - the pctr read is R9's read plus the cycle counter and the idle count.
 * All four follow R8 (who may touch the target) and R20 (named errors);
 * all are per task: a SYSTEM-mode holder gets EINVAL.
 */
#include <errno.h>
#include <string.h>

#include "env.h"
#include "internal.h"

enum pm_op { PM_PAUSE, PM_RESUME, PM_RESET };

static const char *const pm_name[] = { "pause", "resume", "reset" };

/* The target must hold per-task counters for any of the three. */
static int check_target(const struct hwperf_task *t, enum pm_op op,
                        struct hwperf_reason *why)
{
	int err;

	if ((err = hwperf_refuse_exited(t, why)) < 0)
		return err;
	if (hwperf_holds_system(t))
		return hwperf_fail(why, EINVAL, "%s is per task; pid %d holds "
		                   "SYSTEM mode (use sys setctl or sys release)",
		                   pm_name[op], hwperf_env_pid(t));
	if (!(t->flags & (HWPERF_TF_ENABLED | HWPERF_TF_LOST)))
		return hwperf_fail(why, EINVAL, "pid %d has no counters to %s "
		                   "(use enable)", hwperf_env_pid(t), pm_name[op]);
	if (op == PM_RESUME && (t->flags & HWPERF_TF_LOST))
		return hwperf_fail(why, EINVAL, "pid %d lost its counters to "
		                   "SYSTEM mode (R6): only enable or set-control "
		                   "restarts them", hwperf_env_pid(t));
	return 0;
}

/* Stop t's counters wherever they run, folding what they counted. */
static void stop_now(struct hwperf_task *t, unsigned cpu)
{
	if (t->on_cpu == (int)cpu)
		hwperf_unload(cpu);
	else if (t->on_cpu >= 0)
		hwperf_env_kick((unsigned)t->on_cpu);
}

static void reset_counts(struct hwperf_task *t, unsigned cpu)
{
	struct hwperf_set *s = &t->set;
	bool running_here = t->on_cpu == (int)cpu;

	/* Take the set off so the hardware's partial sums go with it. */
	if (running_here)
		hwperf_unload(cpu);
	hwperf_set_clear(s);
	s->gen++;
	/* A set loaded elsewhere reloads at its CPU's next hook. */
	s->ctl_seq++;
	if (running_here || t->on_cpu >= 0)
		hwperf_start_where_running(t, cpu);
}

static int do_pm(struct hwperf_task *caller, int pid, enum pm_op op,
                 unsigned cpu, struct hwperf_reason *why)
{
	struct hwperf_task *t;
	int err;

	if ((err = hwperf_find_target(caller, pid, &t, why)) < 0 ||
	    (err = check_target(t, op, why)) < 0)
		return err;
	switch (op) {
	case PM_PAUSE:
		t->flags |= HWPERF_TF_PAUSED;
		stop_now(t, cpu);
		break;
	case PM_RESUME:
		if (t->flags & HWPERF_TF_PAUSED) {
			t->flags &= ~HWPERF_TF_PAUSED;
			hwperf_start_where_running(t, cpu);
		}
		break;
	case PM_RESET:
		reset_counts(t, cpu);
		break;
	}
	return (int)t->set.gen;
}

static int pm(struct hwperf_task *caller, int pid, enum pm_op op,
              struct hwperf_reason *why)
{
	unsigned cpu = hwperf_env_this_cpu();
	unsigned long f = hwperf_lock(cpu);
	int r = do_pm(caller, pid, op, cpu, why);

	hwperf_unlock(cpu, f);
	return hwperf_report(caller, r, why);
}

int hwperf_pause(struct hwperf_task *caller, int pid, struct hwperf_reason *why)
{
	return pm(caller, pid, PM_PAUSE, why);
}

int hwperf_resume(struct hwperf_task *caller, int pid, struct hwperf_reason *why)
{
	return pm(caller, pid, PM_RESUME, why);
}

int hwperf_reset(struct hwperf_task *caller, int pid, struct hwperf_reason *why)
{
	return pm(caller, pid, PM_RESET, why);
}

bool hwperf_paused(const struct hwperf_task *t)
{
	return (t->flags & HWPERF_TF_PAUSED) != 0;
}

int hwperf_pctr_read(struct hwperf_task *caller, int pid,
                     struct hwperf_pctr *out, struct hwperf_reason *why)
{
	int r;

	memset(out, 0, sizeof(*out));
	r = hwperf_read(caller, pid, &out->counts, why);
	if (r < 0)
		return r;
	/* Right after the counts, so the cycle counter is never older than
	 * they are; the idle figures last, each only ever growing. */
	out->cycles = hwperf_env_cycles();
	hwperf_env_idle(&out->idle_cycles, &out->idle_iterations);
	out->gen = (uint32_t)r;
	out->ncpus = hwperf_env_ncpus();
	return r;
}
