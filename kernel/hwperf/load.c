/*
 * load.c - putting a counter set on this CPU's PMU and taking it off.
 *
 * Only the CPU that owns a PMU touches it.  A change made elsewhere (a
 * loss, a system acquire or release, a new control) is noted in the shared
 * state and applied here by hwperf_cpu_sync at this CPU's next hook.
 */
#include "env.h"
#include "internal.h"

static struct hwperf_task *owner_of(const struct hwperf_cpu *c)
{
	return c->loaded == &c->sys ? hwperf_core.sys_task : c->task;
}

/* Who gets the signal or profile hit for the set loaded on cpu. */
struct hwperf_task *hwperf_owner(unsigned cpu)
{
	return owner_of(&hwperf_core.cpu[cpu]);
}

/* The books of a set the driver has just started on cpu for t (NULL: the
 * system block). */
static inline void loaded_books(struct hwperf_cpu *c, unsigned cpu,
                                struct hwperf_set *s, struct hwperf_task *t)
{
	c->loaded = s;
	c->task = t;
	c->loaded_seq = s->ctl_seq;
	if (t) {
		t->on_cpu = (int)cpu;
		t->loaded_seq = s->ctl_seq;
	}
}

/* The books of a loaded set s, which the driver has just stopped: its
 * counts folded, its thresholds acted on for owner, and its task t (NULL:
 * the system block) off this CPU. */
static inline void unloaded_books(struct hwperf_set *s, struct hwperf_task *owner,
                                  struct hwperf_task *t)
{
	hwperf_set_fold(s);
	hwperf_thresholds(s, owner, 0);
	s->placed = 0;
	s->pst.ctl.n = 0;
	if (t)
		t->on_cpu = -1;
}

void hwperf_load(unsigned cpu, struct hwperf_set *s, struct hwperf_task *t)
{
	if (hwperf_place(s, cpu, t == NULL, false) < 0)
		return;
	hwperf_core.ops->resume(&s->pst);
	loaded_books(&hwperf_core.cpu[cpu], cpu, s, t);
	hwperf_hot |= 1u << cpu;
}

/* Stop and fold; the counts are final up to now. */
void hwperf_unload(unsigned cpu)
{
	struct hwperf_cpu *c = &hwperf_core.cpu[cpu];
	struct hwperf_set *s = c->loaded;

	if (!s)
		return;
	hwperf_core.ops->suspend(&s->pst);
	unloaded_books(s, owner_of(c), c->task);
	c->loaded = NULL;
	hwperf_hot &= ~(1u << cpu);
	c->task = NULL;
}

/* The driver's step from s to n: its switch_sets where it has one (one
 * clock reading), else a suspend and a resume. */
static inline __attribute__((always_inline)) void
switch_driver(const struct pmu_ops *ops, struct hwperf_set *s, struct hwperf_set *n)
{
	if (ops->switch_sets) {
		ops->switch_sets(&s->pst, &n->pst);
	} else {
		ops->suspend(&s->pst);
		ops->resume(&n->pst);
	}
}

/*
 * The set of the task switched from, loaded here, and that of next, which
 * counts (task_wants_counting) and now runs here: hwperf_unload and then
 * hwperf_load, with the driver's switch_sets between the two sets.
 * next's placement is made before prev's set stops: it reads nothing of
 * prev's set or of the PMU, so it is the placement the load would make;
 * when it fails the load would have loaded nothing, and that is what
 * follows (unload alone).
 */
void hwperf_handover(struct hwperf_cpu *c, unsigned cpu, struct hwperf_task *next)
{
	const struct pmu_ops *ops = hwperf_core.ops;
	struct hwperf_set *s = c->loaded, *n = &next->set;

	if (hwperf_place(n, cpu, false, false) < 0) {
		hwperf_unload(cpu);
		return;
	}
	/* A set that may leave its fold for later (internal.h, the lazy
	 * fold) keeps its sums, and its next switch-in adds on to them.
	 * Its books and n's read nothing the driver writes, and the driver
	 * reads none of them (only s's control, whose n goes last), so
	 * they are written before the driver's step: across that call only
	 * s is then held, not c, next and n as well (ctxsw_2). */
	if (hwperf_set_fold_later(s)) {
		s->fold_owed = true;
		s->placed = 0;
		c->task->on_cpu = -1;
		loaded_books(c, cpu, n, next);
		switch_driver(ops, s, n);
		s->pst.ctl.n = 0;
		return;
	}
	switch_driver(ops, s, n);
	/* hwperf_unload's books for s (a task set: c->task owns it), then
	 * hwperf_load's for n: this CPU stays hot. */
	unloaded_books(s, c->task, c->task);
	loaded_books(c, cpu, n, next);
}

/* hwperf_sample of a set with thresholds: stop, fold, act on what the
 * fold reached, restart.  Out of line, so that the sync path
 * (hwperf_sample_here, internal.h) holds only the set across its calls. */
void hwperf_sample_stopped(struct hwperf_cpu *c, struct hwperf_set *s)
{
	hwperf_core.ops->suspend(&s->pst);
	hwperf_set_fold(s);
	hwperf_thresholds(s, owner_of(c), 0);
	hwperf_restart(s);
}

/* Fold the live counts without stopping for longer than a read. */
void hwperf_sample(unsigned cpu)
{
	hwperf_sample_here(cpu);
}

/*
 * Every resume after a fold starts fresh periods computed from the exact
 * counts, so a threshold stays exact whatever happened since: skid past an
 * overflow, a fold in the middle of a period, a period the counter could
 * not hold in one go.
 */
void hwperf_restart(struct hwperf_set *s)
{
	hwperf_set_periods(s);
	s->pst.drv_cache = 0;
	hwperf_core.ops->ireload(&s->pst);
	hwperf_core.ops->resume(&s->pst);
}

bool hwperf_task_wants_counting(const struct hwperf_task *t)
{
	return t && (t->flags & HWPERF_TF_ENABLED) &&
	       !(t->flags & (HWPERF_TF_LOST | HWPERF_TF_EXITED |
	                     HWPERF_TF_PAUSED)) &&
	       hwperf_core.mode == HWPERF_USER;
}

static bool loaded_is_stale(const struct hwperf_cpu *c,
                            const struct hwperf_task *cur)
{
	const struct hwperf_core *h = &hwperf_core;

	if (c->loaded == &c->sys)
		return h->mode != HWPERF_SYSTEM || c->sys_epoch != h->sys_epoch ||
		       c->loaded_seq != c->sys.ctl_seq;
	return c->task != cur || !hwperf_task_wants_counting(c->task) ||
	       c->loaded_seq != c->loaded->ctl_seq;
}

/* Bring this CPU's PMU in line with the shared state for task cur. */
void hwperf_cpu_sync(unsigned cpu, struct hwperf_task *cur)
{
	struct hwperf_core *h = &hwperf_core;
	struct hwperf_cpu *c = &h->cpu[cpu];

	if (c->loaded && loaded_is_stale(c, cur)) {
		bool was_sys = c->loaded == &c->sys;

		hwperf_unload(cpu);
		if (was_sys && c->sys_epoch == h->sys_epoch)
			hwperf_sys_fold_cpu(cpu);
	}
	if (c->loaded)
		return;
	if (h->mode == HWPERF_SYSTEM) {
		if (c->sys_epoch == h->sys_epoch)
			hwperf_load(cpu, &c->sys, NULL);
	} else if (hwperf_task_wants_counting(cur)) {
		hwperf_load(cpu, &cur->set, cur);
	}
}
