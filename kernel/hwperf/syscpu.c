/*
 * syscpu.c - SYSTEM mode (R3, R5, R12, R19): one global block plus one
 * private block per CPU.
 *
 * Every CPU counts the same events into its own block and an overflow on
 * a CPU touches only that block.  The global block is the sum: a system
 * read or release folds each CPU's growth since its last fold into it
 * (`folded` remembers how much of each CPU's block is already in), so
 * folding twice never counts twice and a per-CPU read still shows that
 * CPU's whole count.  A CPU's live hardware is folded only by that CPU:
 * the calling CPU now, the others as of their last tick or overflow.
 */
#include <errno.h>
#include <string.h>

#include "env.h"
#include "internal.h"

/* One CPU's growth since its last fold into the global block. */
static void vctr_add_delta(struct hwperf_set *g, struct hwperf_counts *done,
                           const struct hwperf_counts *now, unsigned i)
{
	g->c.count[i] += now->count[i] - done->count[i];
	g->c.enabled[i] += now->enabled[i] - done->enabled[i];
	g->c.running[i] += now->running[i] - done->running[i];
	done->count[i] = now->count[i];
	done->enabled[i] = now->enabled[i];
	done->running[i] = now->running[i];
}

void hwperf_sys_fold_cpu(unsigned cpu)
{
	struct hwperf_core *h = &hwperf_core;
	struct hwperf_cpu *c = &h->cpu[cpu];

	if (c->sys_epoch != h->sys_epoch)
		return;
	hwperf_set_settle(&c->sys);
	hwperf_set_settle(&h->sys);
	for (unsigned i = 0; i < HWPERF_NVCTR; i++)
		vctr_add_delta(&h->sys, &c->folded, &c->sys.c, i);
	h->sys.enabled_all_owed = false;        /* it added to c.enabled */
	h->sys.unchecked = ~0u;
}

void hwperf_sys_fold_all(void)
{
	for (unsigned cpu = 0; cpu < hwperf_env_ncpus(); cpu++)
		hwperf_sys_fold_cpu(cpu);
}

static void cpu_block_reset(struct hwperf_cpu *c,
                            const struct hwperf_control *ctl,
                            const struct hwperf_res *res, uint32_t epoch)
{
	c->sys.has_ctl = false;
	hwperf_set_install(&c->sys, ctl, res);
	hwperf_set_clear(&c->sys);
	memset(&c->folded, 0, sizeof(c->folded));
	c->sys_epoch = epoch;
}

/* ---- work sent to each CPU (xcall.c), run there under the caller's lock -- */

/* Fold what cpu's PMU counted so far, whoever's set it is. */
static void sample_fn(unsigned cpu, void *arg)
{
	(void)arg;
	hwperf_sample(cpu);
}

/* R5: a USER holder running on cpu stops there with its counts folded
 * (frozen as of now); a system block is only folded. */
static void freeze_fn(unsigned cpu, void *arg)
{
	struct hwperf_cpu *c = &hwperf_core.cpu[cpu];

	(void)arg;
	if (c->loaded && c->loaded != &c->sys)
		hwperf_unload(cpu);
	else
		hwperf_sample(cpu);
}

/* Bring cpu's PMU in line with the shared state: a lost holder comes off,
 * the system block goes on.  The task loaded there is the one running. */
static void sync_fn(unsigned cpu, void *arg)
{
	(void)arg;
	hwperf_cpu_sync(cpu, hwperf_core.cpu[cpu].task);
}

/* SYSTEM mode ends: cpu's block comes off, its last counts folded. */
static void stop_fn(unsigned cpu, void *arg)
{
	struct hwperf_cpu *c = &hwperf_core.cpu[cpu];

	(void)arg;
	if (c->loaded == &c->sys)
		hwperf_unload(cpu);
}

/*
 * Fold every other CPU's live counts, each on its own CPU, before
 * anything changes (R12; with freeze, R5's "folded first": a USER holder
 * running there also stops counting).  A CPU that does not answer fails
 * the whole request with its name and nothing changed: a fold alters no
 * count, and a holder stopped but not marked lost is loaded again by its
 * CPU's next hook.
 */
int hwperf_sys_fold_others(unsigned cpu, bool freeze, struct hwperf_reason *why)
{
	unsigned late = 0;

	return hwperf_xcall_others(cpu, freeze ? freeze_fn : sample_fn, NULL,
	                           &late, why);
}

/*
 * Every other CPU applies a change now.  The change is already made in
 * the shared state, so a CPU that answered the fold a moment ago but not
 * this applies it at its next hook instead (its tick, at most one tick
 * away): the error is not the caller's.
 */
static void sync_others(unsigned cpu, void (*fn)(unsigned, void *))
{
	for (unsigned c = 0; c < hwperf_env_ncpus(); c++)
		if (c != cpu && hwperf_xcall(cpu, c, fn, NULL, NULL) < 0)
			hwperf_env_kick(c);
}

/* Take SYSTEM mode: every USER holder loses its counters (R6).  The
 * caller has folded every CPU first (hwperf_sys_fold_others). */
void hwperf_sys_start(const struct hwperf_control *ctl,
                      const struct hwperf_res *res, int pid,
                      struct hwperf_task *t, unsigned cpu,
                      struct hwperf_task *cur)
{
	struct hwperf_core *h = &hwperf_core;

	while (h->holders)
		hwperf_lose(h->holders, cpu);
	h->mode = HWPERF_SYSTEM;
	hwperf_hot |= HWPERF_HOT_SYSTEM;
	h->sys_epoch++;
	h->sys.has_ctl = false;
	hwperf_set_install(&h->sys, ctl, res);
	hwperf_set_clear(&h->sys);
	h->sys.profile = false;
	h->sys_pid = pid;
	h->sys_task = t;
	for (unsigned c = 0; c < hwperf_env_ncpus(); c++)
		cpu_block_reset(&h->cpu[c], ctl, res, h->sys_epoch);
	hwperf_cpu_sync(cpu, cur);
	sync_others(cpu, sync_fn);
}

/* Leave SYSTEM mode, folding every CPU's counts into the global block. */
void hwperf_sys_stop(unsigned cpu)
{
	struct hwperf_core *h = &hwperf_core;

	if (h->cpu[cpu].loaded == &h->cpu[cpu].sys)
		hwperf_unload(cpu);
	sync_others(cpu, stop_fn);
	hwperf_sys_fold_all();
	if (h->sys_task)
		h->sys_task->flags &= ~HWPERF_TF_SYSHOLDER;
	h->sys_task = NULL;
	h->sys_pid = -1;
	h->mode = HWPERF_FREE;
	hwperf_hot &= ~HWPERF_HOT_SYSTEM;
	hwperf_mode_update();
	hwperf_kick_others(cpu);
}

/* R12: every CPU folds its live counts on itself first; one that does
 * not answer fails the read, naming it. */
int hwperf_sys_read_locked(unsigned cpu, struct hwperf_counts *out,
                           struct hwperf_reason *why)
{
	struct hwperf_core *h = &hwperf_core;
	int err;

	if (h->cpu[cpu].loaded == &h->cpu[cpu].sys)
		hwperf_sample(cpu);
	if (h->mode == HWPERF_SYSTEM &&
	    (err = hwperf_sys_fold_others(cpu, false, why)) < 0)
		return err;
	hwperf_sys_fold_all();
	hwperf_inv_check_sys_sum();
	hwperf_set_export(&h->sys, out);
	return (int)h->sys.gen;
}

static int need_pmu(struct hwperf_reason *why)
{
	if (hwperf_core.ready)
		return 0;
	return hwperf_fail(why, ENODEV, "no PMU driver is active");
}

static int need_root(const struct hwperf_task *caller, const char *what,
                     struct hwperf_reason *why)
{
	if (hwperf_is_root(caller))
		return 0;
	return hwperf_fail(why, EPERM, "%s needs root; pid %d has uid %u",
	                   what, hwperf_pid_of(caller), hwperf_env_uid(caller));
}

static int need_system(struct hwperf_reason *why)
{
	if (hwperf_core.mode == HWPERF_SYSTEM)
		return 0;
	return hwperf_fail(why, EINVAL, "the counters are not in SYSTEM mode "
	                   "(they are %s)", hwperf_mode_name(hwperf_core.mode));
}

static int resolve_system(const struct hwperf_control *ctl,
                          struct hwperf_res *res, struct hwperf_reason *why)
{
	int err = hwperf_resolve(ctl, res, why);

	if (err < 0)
		return err;
	if (!(hwperf_ctl_modes(ctl) & PMU_MODE_K))
		return hwperf_fail(why, EINVAL, "system counting needs at least "
		                   "one event with k mode");
	return 0;
}

/* ---- operations ------------------------------------------------------------- */

static int do_acquire(struct hwperf_task *caller,
                      const struct hwperf_control *ctl, unsigned cpu,
                      struct hwperf_reason *why)
{
	struct hwperf_res res[HWPERF_NVCTR];
	int err;

	if ((err = need_pmu(why)) < 0 ||
	    (err = need_root(caller, "forced system acquire", why)) < 0 ||
	    (err = resolve_system(ctl, res, why)) < 0)
		return err;
	if (hwperf_core.mode == HWPERF_SYSTEM)
		return hwperf_busy_system(why);
	if ((err = hwperf_sys_fold_others(cpu, true, why)) < 0)
		return err;
	hwperf_sys_start(ctl, res, caller ? hwperf_env_pid(caller) : -1, NULL,
	                 cpu, caller);
	return (int)hwperf_core.sys.gen;
}

int hwperf_sys_acquire(struct hwperf_task *caller,
                       const struct hwperf_control *ctl,
                       struct hwperf_reason *why)
{
	unsigned cpu = hwperf_env_this_cpu();
	unsigned long f = hwperf_lock(cpu);
	int r = do_acquire(caller, ctl, cpu, why);

	hwperf_unlock(cpu, f);
	return hwperf_report(caller, r, why);
}

int hwperf_sys_read(struct hwperf_task *caller, struct hwperf_counts *out,
                    struct hwperf_reason *why)
{
	unsigned cpu = hwperf_env_this_cpu();
	unsigned long f = hwperf_lock(cpu);
	int r;

	memset(out, 0, sizeof(*out));
	r = need_pmu(why);
	if (r == 0)
		r = hwperf_sys_read_locked(cpu, out, why);
	hwperf_unlock(cpu, f);
	return hwperf_report(caller, r, why);
}

int hwperf_cpu_read(struct hwperf_task *caller, int cpu,
                    struct hwperf_counts *out, struct hwperf_reason *why)
{
	struct hwperf_core *h = &hwperf_core;
	unsigned me = hwperf_env_this_cpu();
	unsigned long f;
	int r = 0;

	memset(out, 0, sizeof(*out));
	if (!h->ready)
		return hwperf_report(caller, need_pmu(why), why);
	/* R12: 0, not a generation, only for a CPU that does not exist. */
	if (cpu < 0 || (unsigned)cpu >= hwperf_env_ncpus())
		return 0;
	f = hwperf_lock(me);
	/* That CPU folds its own live counts, now (an IPI unless it is me). */
	if (h->cpu[cpu].loaded == &h->cpu[cpu].sys)
		r = hwperf_xcall(me, (unsigned)cpu, sample_fn, NULL, why);
	if (r == 0 && h->cpu[cpu].sys_epoch == h->sys_epoch)
		hwperf_set_export(&h->cpu[cpu].sys, out);
	if (r == 0)
		r = (int)h->sys.gen;
	hwperf_unlock(me, f);
	return r < 0 ? hwperf_report(caller, r, why) : r;
}

int hwperf_sys_get_control(struct hwperf_task *caller,
                           struct hwperf_control *out,
                           struct hwperf_reason *why)
{
	unsigned cpu = hwperf_env_this_cpu();
	unsigned long f = hwperf_lock(cpu);
	int r;

	memset(out, 0, sizeof(*out));
	if ((r = need_pmu(why)) == 0)
		r = need_system(why);
	if (r == 0) {
		*out = hwperf_core.sys.ctl;
		r = (int)hwperf_core.sys.gen;
	}
	hwperf_unlock(cpu, f);
	return hwperf_report(caller, r, why);
}

/* New events everywhere; counts of unchanged events carry on (R7). */
int hwperf_sys_set_locked(const struct hwperf_control *ctl, unsigned cpu,
                          struct hwperf_task *cur, struct hwperf_reason *why)
{
	struct hwperf_core *h = &hwperf_core;
	struct hwperf_res res[HWPERF_NVCTR];
	int err;

	if ((err = need_pmu(why)) < 0 ||
	    (err = need_root(cur, "system set-control", why)) < 0 ||
	    (err = need_system(why)) < 0 ||
	    (err = resolve_system(ctl, res, why)) < 0)
		return err;
	if (h->cpu[cpu].loaded == &h->cpu[cpu].sys)
		hwperf_unload(cpu);
	/* Every CPU takes its block off (folded) on itself before the events
	 * change under it.  One that does not answer fails the call, named,
	 * and the blocks already off go back on at once, their counts whole
	 * and their events unchanged. */
	unsigned late = 0;
	if ((err = hwperf_xcall_others(cpu, stop_fn, NULL, &late, why)) < 0) {
		hwperf_cpu_sync(cpu, cur);
		for (unsigned c = 0; c < late; c++)
			if (c != cpu && hwperf_xcall(cpu, c, sync_fn, NULL, NULL) < 0)
				hwperf_env_kick(c);
		return err;
	}
	hwperf_sys_fold_all();
	for (unsigned i = 0; i < HWPERF_NVCTR; i++) {
		bool same = hwperf_same_event(&h->sys.ctl.ev[i], &ctl->ev[i]);

		for (unsigned c = 0; c < hwperf_env_ncpus() && !same; c++) {
			h->cpu[c].folded.count[i] = 0;
			h->cpu[c].folded.enabled[i] = 0;
			h->cpu[c].folded.running[i] = 0;
		}
	}
	hwperf_set_install(&h->sys, ctl, res);
	for (unsigned c = 0; c < hwperf_env_ncpus(); c++)
		hwperf_set_install(&h->cpu[c].sys, ctl, res);
	h->sys.gen++;
	hwperf_cpu_sync(cpu, cur);
	sync_others(cpu, sync_fn);
	return (int)h->sys.gen;
}

int hwperf_sys_set_control(struct hwperf_task *caller,
                           const struct hwperf_control *ctl,
                           struct hwperf_reason *why)
{
	unsigned cpu = hwperf_env_this_cpu();
	unsigned long f = hwperf_lock(cpu);
	int r = hwperf_sys_set_locked(ctl, cpu, caller, why);

	hwperf_unlock(cpu, f);
	return hwperf_report(caller, r, why);
}

int hwperf_sys_release(struct hwperf_task *caller, struct hwperf_reason *why)
{
	unsigned cpu = hwperf_env_this_cpu();
	unsigned long f = hwperf_lock(cpu);
	int r;

	if ((r = need_pmu(why)) == 0 &&
	    (r = need_root(caller, "system release", why)) == 0 &&
	    (r = need_system(why)) == 0)
		hwperf_sys_stop(cpu);
	hwperf_unlock(cpu, f);
	return hwperf_report(caller, r, why);
}
