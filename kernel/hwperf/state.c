/*
 * state.c - who holds the counters (R1..R8) and the per-task operations
 * (IRIX's /proc ioctls: enable, read, get/set control, release,
 * save-child-counters).
 *
 * The PMU is FREE, USER or SYSTEM (R1).  USER is held by the tasks on the
 * holders list, each counting only while it runs (R2).  SYSTEM is held
 * once (R3); taking it makes every USER holder lose its counters for good
 * (R6) -- either because none was running at that moment (enable, R4) or
 * by force (hwperf_sys_acquire, R5).
 */
#include <errno.h>
#include <string.h>

#include "env.h"
#include "internal.h"

struct hwperf_core hwperf_core;

/* ---- ownership ------------------------------------------------------------ */

int hwperf_init(const struct pmu_ops *ops, struct hwperf_reason *why)
{
	struct hwperf_core *h = &hwperf_core;
	static bool core_used;

	/* The first init finds .bss zero; only a later one (host tests) has
	 * a used core to clear, and the per-CPU blocks (about 6 KB each at
	 * HWPERF_MAX_CPUS CPUs) are most of it, so boot skips it all. */
	if (core_used)
		memset(h, 0, sizeof(*h));
	core_used = true;
	hwperf_hot = 0;
	hwperf_place_forget_all();
	if (ops->probe(&h->caps) < 0)
		return hwperf_fail(why, ENODEV, "%s", h->caps.status);
	h->ops = ops;
	h->ready = true;
	/* The kernel's event hooks and the overflow interrupt now lead here. */
	pmu_set_active(ops);
	pmu_set_overflow_handler(hwperf_pmu_interrupt);
	h->mode = HWPERF_FREE;
	h->sys_pid = -1;
	h->sys.gen = HWPERF_GEN_FIRST;
	return 0;
}

const struct pmu_caps *hwperf_caps(void)
{
	return &hwperf_core.caps;
}

enum hwperf_mode hwperf_mode(void)
{
	return hwperf_core.mode;
}

const char *hwperf_mode_name(enum hwperf_mode m)
{
	switch (m) {
	case HWPERF_USER:   return "USER";
	case HWPERF_SYSTEM: return "SYSTEM";
	default:            return "FREE";
	}
}

bool hwperf_is_root(const struct hwperf_task *t)
{
	return !t || hwperf_env_uid(t) == HWPERF_ROOT_UID;
}

int hwperf_pid_of(const struct hwperf_task *t)
{
	return t ? hwperf_env_pid(t) : 0;
}

void hwperf_mode_update(void)
{
	struct hwperf_core *h = &hwperf_core;

	if (h->mode != HWPERF_SYSTEM)
		h->mode = h->holders ? HWPERF_USER : HWPERF_FREE;
}

void hwperf_holder_add(struct hwperf_task *t)
{
	struct hwperf_core *h = &hwperf_core;

	if (t->flags & HWPERF_TF_HOLDER)
		return;
	t->flags |= HWPERF_TF_HOLDER;
	t->prev_holder = NULL;
	t->next_holder = h->holders;
	if (h->holders)
		h->holders->prev_holder = t;
	h->holders = t;
	hwperf_mode_update();
}

void hwperf_holder_del(struct hwperf_task *t)
{
	struct hwperf_core *h = &hwperf_core;

	if (!(t->flags & HWPERF_TF_HOLDER))
		return;
	if (t->prev_holder)
		t->prev_holder->next_holder = t->next_holder;
	else
		h->holders = t->next_holder;
	if (t->next_holder)
		t->next_holder->prev_holder = t->prev_holder;
	t->next_holder = t->prev_holder = NULL;
	t->flags &= ~HWPERF_TF_HOLDER;
	hwperf_mode_update();
}

void hwperf_kick_others(unsigned cpu)
{
	for (unsigned c = 0; c < hwperf_env_ncpus(); c++)
		if (c != cpu)
			hwperf_env_kick(c);
}

/* R6: counts up to now stay; the kernel never restarts these counters. */
void hwperf_lose(struct hwperf_task *t, unsigned cpu)
{
	t->set.gen++;
	t->flags |= HWPERF_TF_LOST;
	hwperf_holder_del(t);
	if (t->on_cpu == (int)cpu)
		hwperf_unload(cpu);
	else if (t->on_cpu >= 0)
		hwperf_env_kick((unsigned)t->on_cpu);
}

int hwperf_busy_system(struct hwperf_reason *why)
{
	const struct hwperf_core *h = &hwperf_core;

	if (h->sys_pid > 0)
		return hwperf_fail(why, EBUSY, "pid %d holds the counters in "
		                   "SYSTEM mode on all %u cpus", h->sys_pid,
		                   hwperf_env_ncpus());
	return hwperf_fail(why, EBUSY, "the kernel holds the counters in "
	                   "SYSTEM mode on all %u cpus", hwperf_env_ncpus());
}

/* ---- finding and checking the target (R8) --------------------------------- */

static bool may_touch(const struct hwperf_task *caller,
                      const struct hwperf_task *t)
{
	/* Itself first: a task's reads of its own counters ask nothing. */
	return caller == t || hwperf_is_root(caller) ||
	       hwperf_env_pgid(caller) == hwperf_env_pgid(t);
}

static int find_target(struct hwperf_task *caller, int pid,
                       struct hwperf_task **out, struct hwperf_reason *why)
{
	struct hwperf_task *t;

	if (!hwperf_core.ready)
		return hwperf_fail(why, ENODEV, "no PMU driver is active");
	t = pid == 0 ? caller : hwperf_env_lookup(pid);
	if (!t)
		return hwperf_fail(why, ESRCH, "no task with pid %d", pid);
	if (!may_touch(caller, t))
		return hwperf_fail(why, EPERM, "pid %d (uid %u, pgid %d) may not "
		                   "touch pid %d (pgid %d): not its process "
		                   "group and not root", hwperf_pid_of(caller),
		                   hwperf_env_uid(caller), hwperf_env_pgid(caller),
		                   hwperf_env_pid(t), hwperf_env_pgid(t));
	*out = t;
	return 0;
}

static int check_privilege(const struct hwperf_task *caller, uint32_t modes,
                           struct hwperf_reason *why)
{
	if ((modes & PMU_MODE_PRIV) && !hwperf_is_root(caller))
		return hwperf_fail(why, EPERM, "modes k, s and x need root; pid "
		                   "%d has uid %u", hwperf_pid_of(caller),
		                   hwperf_env_uid(caller));
	return 0;
}

static bool holds_system(const struct hwperf_task *t)
{
	return (t->flags & HWPERF_TF_SYSHOLDER) &&
	       hwperf_core.mode == HWPERF_SYSTEM;
}

static bool has_thresholds(const struct hwperf_control *ctl)
{
	for (unsigned i = 0; i < HWPERF_NVCTR; i++)
		if (ctl->ev[i].thresh > 0)
			return true;
	return false;
}

/*
 * A task that has passed hwperf_exit is still in the task table until it
 * becomes a zombie, so lookup finds it.  Counters given to it now would
 * never be taken back: it would stay on the holders list after its slot
 * is freed (a phantom USER holder, and a list that loops once the slot is
 * reused).  To hwperf it no longer exists.
 */
static int refuse_exited(const struct hwperf_task *t, struct hwperf_reason *why)
{
	if (t->flags & HWPERF_TF_EXITED)
		return hwperf_fail(why, ESRCH, "pid %d is exiting",
		                   hwperf_env_pid(t));
	return 0;
}

/* Start t's counters now if it runs here; elsewhere at that CPU's hook. */
static void start_where_running(struct hwperf_task *t, unsigned cpu)
{
	int where = hwperf_env_task_cpu(t);

	if (where == (int)cpu)
		hwperf_cpu_sync(cpu, t);
	else if (where >= 0)
		hwperf_env_kick((unsigned)where);
}

/* ---- enable (R4) ----------------------------------------------------------- */

/* R4: a system request never forces anyone off a CPU. */
static int live_user_counters(struct hwperf_reason *why)
{
	for (struct hwperf_task *h = hwperf_core.holders; h; h = h->next_holder) {
		int cpu = h->on_cpu >= 0 ? h->on_cpu : hwperf_env_task_cpu(h);

		if (cpu >= 0)
			return hwperf_fail(why, EBUSY, "pid %d has USER counters "
			                   "live on cpu %d", hwperf_env_pid(h), cpu);
	}
	return 0;
}

static int enable_system(struct hwperf_task *caller, struct hwperf_task *t,
                         const struct hwperf_control *ctl,
                         const struct hwperf_res *res, unsigned cpu,
                         struct hwperf_reason *why)
{
	int err = live_user_counters(why);

	if (err < 0 || (err = hwperf_sys_fold_others(cpu, true, why)) < 0)
		return err;
	hwperf_sys_start(ctl, res, hwperf_env_pid(t), t, cpu, caller);
	t->flags |= HWPERF_TF_SYSHOLDER;
	return (int)hwperf_core.sys.gen;
}

static int enable_user(struct hwperf_task *t, const struct hwperf_control *ctl,
                       const struct hwperf_res *res, bool profile,
                       unsigned cpu)
{
	hwperf_set_install(&t->set, ctl, res);
	hwperf_set_clear(&t->set);
	t->set.profile = profile;
	t->flags = (t->flags | HWPERF_TF_ENABLED) &
		   ~(HWPERF_TF_LOST | HWPERF_TF_PAUSED);
	hwperf_holder_add(t);
	start_where_running(t, cpu);
	return (int)t->set.gen;
}

static int do_enable(struct hwperf_task *caller, int pid,
                     const struct hwperf_control *ctl, bool profile,
                     unsigned cpu, struct hwperf_reason *why)
{
	struct hwperf_res res[HWPERF_NVCTR];
	struct hwperf_task *t;
	uint32_t modes;
	int err;

	if ((err = find_target(caller, pid, &t, why)) < 0 ||
	    (err = refuse_exited(t, why)) < 0 ||
	    (err = hwperf_resolve(ctl, res, why)) < 0)
		return err;
	modes = hwperf_ctl_modes(ctl);
	if ((err = check_privilege(caller, modes, why)) < 0)
		return err;
	if (profile && !has_thresholds(ctl))
		return hwperf_fail(why, EINVAL, "profiling needs a threshold "
		                   "on at least one event");
	if (profile && (modes & PMU_MODE_K))
		return hwperf_fail(why, EINVAL, "profiling is per task; k mode "
		                   "asks for system-wide counting");
	if (hwperf_core.mode == HWPERF_SYSTEM)
		return hwperf_busy_system(why);
	if ((t->flags & HWPERF_TF_ENABLED) && !(t->flags & HWPERF_TF_LOST))
		return hwperf_fail(why, EBUSY, "pid %d already has counters "
		                   "enabled (use set-control)", hwperf_env_pid(t));
	if (modes & PMU_MODE_K)
		return enable_system(caller, t, ctl, res, cpu, why);
	return enable_user(t, ctl, res, profile, cpu);
}

int hwperf_enable(struct hwperf_task *caller, int pid,
                  const struct hwperf_control *ctl, struct hwperf_reason *why)
{
	unsigned cpu = hwperf_env_this_cpu();
	unsigned long f = hwperf_lock(cpu);
	int r = do_enable(caller, pid, ctl, false, cpu, why);

	hwperf_unlock(cpu, f);
	return hwperf_report(caller, r, why);
}

int hwperf_profile_enable(struct hwperf_task *caller, int pid,
                          const struct hwperf_control *ctl,
                          struct hwperf_reason *why)
{
	unsigned cpu = hwperf_env_this_cpu();
	unsigned long f = hwperf_lock(cpu);
	int r = do_enable(caller, pid, ctl, true, cpu, why);

	hwperf_unlock(cpu, f);
	return hwperf_report(caller, r, why);
}

/* ---- read, get control (R9, R10) ------------------------------------------- */

static int do_read(struct hwperf_task *caller, int pid,
                   struct hwperf_counts *out, struct hwperf_rusage *ru,
                   unsigned cpu, struct hwperf_reason *why)
{
	struct hwperf_task *t;
	int err;

	/* Both reads below fill every field (hwperf_set_export), and only
	 * on success: out may be the caller's own buffer (hwperf_syscall.c),
	 * which a refused read leaves as it was. */
	_Static_assert(sizeof(*out) == 3 * HWPERF_NVCTR * sizeof(uint64_t),
		       "hwperf_set_export writes every field of hwperf_counts");
	if ((err = find_target(caller, pid, &t, why)) < 0)
		return err;
	if (ru)
		hwperf_env_rusage(t, ru);
	if (holds_system(t))
		return hwperf_sys_read_locked(cpu, out, why);
	return hwperf_task_export(t, cpu, out);
}

int hwperf_read(struct hwperf_task *caller, int pid, struct hwperf_counts *out,
                struct hwperf_reason *why)
{
	unsigned cpu = hwperf_env_this_cpu();
	unsigned long f = hwperf_lock(cpu);
	int r = do_read(caller, pid, out, NULL, cpu, why);

	hwperf_unlock(cpu, f);
	return hwperf_report(caller, r, why);
}

/* hwperf_read_own's rare case (no PMU, SYSTEM mode), the lock held:
 * do_read's answer.  Out of line, so that the own read's frame holds
 * only what its common case keeps across its two calls. */
static __attribute__((noinline)) int read_own_slow(struct hwperf_task *t,
                                                   struct hwperf_counts *out,
                                                   unsigned cpu, unsigned long f,
                                                   struct hwperf_reason *why)
{
	int r = do_read(t, 0, out, NULL, cpu, why);

	hwperf_unlock(cpu, f);
	return hwperf_report(t, r, why);
}

/*
 * hwperf_read(t, 0, ...) as a task's system call asks it (`hwread`): the
 * caller itself needs no lookup or permission, and a loaded set of its
 * own is folded and exported here, without do_read's frame; anything
 * else (no PMU, SYSTEM mode) is do_read's, so the answer is the same.
 * Always inline, into the system call's hot path too (across files: the
 * kernel is linked with LTO), whose frame is then the read's alone.
 */
__attribute__((always_inline)) inline int hwperf_read_own(struct hwperf_task *t,
                                                          struct hwperf_counts *out,
                                                          struct hwperf_reason *why)
{
	unsigned cpu = hwperf_env_this_cpu();
	unsigned long f = hwperf_lock(cpu);
	int r;

	if (__builtin_expect(!hwperf_core.ready || holds_system(t), 0))
		return read_own_slow(t, out, cpu, f, why);
	/* hwperf_task_export with the sample and the usual export inline. */
	if (t->on_cpu == (int)cpu)
		hwperf_sample_here(cpu);
	hwperf_set_export_here(&t->set, out);
	r = (int)t->set.gen;
	hwperf_unlock(cpu, f);
	return r;
}

int hwperf_read_rusage(struct hwperf_task *caller, int pid,
                       struct hwperf_counts *out, struct hwperf_rusage *ru,
                       struct hwperf_reason *why)
{
	unsigned cpu = hwperf_env_this_cpu();
	unsigned long f;
	int r;

	memset(ru, 0, sizeof(*ru));
	f = hwperf_lock(cpu);
	r = do_read(caller, pid, out, ru, cpu, why);
	hwperf_unlock(cpu, f);
	return hwperf_report(caller, r, why);
}

static int do_get_control(struct hwperf_task *caller, int pid,
                          struct hwperf_control *out, struct hwperf_reason *why)
{
	struct hwperf_task *t;
	int err;

	memset(out, 0, sizeof(*out));
	if ((err = find_target(caller, pid, &t, why)) < 0)
		return err;
	if (holds_system(t)) {
		*out = hwperf_core.sys.ctl;
		return (int)hwperf_core.sys.gen;
	}
	if (!t->set.has_ctl)
		return hwperf_fail(why, EINVAL, "pid %d has never enabled "
		                   "counters", hwperf_env_pid(t));
	*out = t->set.ctl;
	return (int)t->set.gen;
}

int hwperf_get_control(struct hwperf_task *caller, int pid,
                       struct hwperf_control *out, struct hwperf_reason *why)
{
	unsigned cpu = hwperf_env_this_cpu();
	unsigned long f = hwperf_lock(cpu);
	int r = do_get_control(caller, pid, out, why);

	hwperf_unlock(cpu, f);
	return hwperf_report(caller, r, why);
}

/* ---- set control (R7, R10) -------------------------------------------------- */

static int do_set_control(struct hwperf_task *caller, int pid,
                          const struct hwperf_control *ctl, unsigned cpu,
                          struct hwperf_reason *why)
{
	struct hwperf_res res[HWPERF_NVCTR];
	struct hwperf_task *t;
	int err;

	if ((err = find_target(caller, pid, &t, why)) < 0)
		return err;
	if (holds_system(t))
		return hwperf_sys_set_locked(ctl, cpu, caller, why);
	if ((err = refuse_exited(t, why)) < 0 ||
	    (err = hwperf_resolve(ctl, res, why)) < 0 ||
	    (err = check_privilege(caller, hwperf_ctl_modes(ctl), why)) < 0)
		return err;
	if (hwperf_ctl_modes(ctl) & PMU_MODE_K)
		return hwperf_fail(why, EINVAL, "k mode counts system-wide: use "
		                   "enable or the system acquire");
	if (!(t->flags & (HWPERF_TF_ENABLED | HWPERF_TF_LOST)))
		return hwperf_fail(why, EINVAL, "pid %d has no counters enabled "
		                   "(use enable)", hwperf_env_pid(t));
	if (hwperf_core.mode == HWPERF_SYSTEM)
		return hwperf_busy_system(why);
	if (t->on_cpu == (int)cpu)
		hwperf_unload(cpu);
	hwperf_set_install(&t->set, ctl, res);
	t->set.gen++;
	t->flags = (t->flags | HWPERF_TF_ENABLED) & ~HWPERF_TF_LOST;
	hwperf_holder_add(t);
	start_where_running(t, cpu);
	return (int)t->set.gen;
}

int hwperf_set_control(struct hwperf_task *caller, int pid,
                       const struct hwperf_control *ctl,
                       struct hwperf_reason *why)
{
	unsigned cpu = hwperf_env_this_cpu();
	unsigned long f = hwperf_lock(cpu);
	int r = do_set_control(caller, pid, ctl, cpu, why);

	hwperf_unlock(cpu, f);
	return hwperf_report(caller, r, why);
}

/* ---- release, save child (R11, R18) ------------------------------------------ */

static int do_release(struct hwperf_task *caller, int pid, unsigned cpu,
                      struct hwperf_reason *why)
{
	struct hwperf_task *t;
	int err;

	if ((err = find_target(caller, pid, &t, why)) < 0)
		return err;
	if (holds_system(t)) {
		if (!hwperf_is_root(caller))
			return hwperf_fail(why, EPERM, "releasing SYSTEM mode "
			                   "needs root; pid %d has uid %u",
			                   hwperf_pid_of(caller),
			                   hwperf_env_uid(caller));
		hwperf_sys_stop(cpu);
		return 0;
	}
	if (!(t->flags & (HWPERF_TF_ENABLED | HWPERF_TF_LOST)))
		return hwperf_fail(why, EINVAL, "pid %d has no counters to "
		                   "release", hwperf_env_pid(t));
	if (t->on_cpu == (int)cpu)
		hwperf_unload(cpu);
	else if (t->on_cpu >= 0)
		hwperf_env_kick((unsigned)t->on_cpu);
	/* A lost set is released too: nothing is left to restart (R6), and
	 * neither a second release nor set-control may find it. */
	t->flags &= ~(HWPERF_TF_ENABLED | HWPERF_TF_LOST);
	hwperf_holder_del(t);
	return (int)t->set.gen;
}

bool hwperf_task_holds(const struct hwperf_task *t)
{
	return (t->flags & (HWPERF_TF_ENABLED | HWPERF_TF_LOST | HWPERF_TF_SYSHOLDER)) != 0;
}

int hwperf_release(struct hwperf_task *caller, int pid,
                   struct hwperf_reason *why)
{
	unsigned cpu = hwperf_env_this_cpu();
	unsigned long f = hwperf_lock(cpu);
	int r = do_release(caller, pid, cpu, why);

	hwperf_unlock(cpu, f);
	return hwperf_report(caller, r, why);
}

static int do_save_child(struct hwperf_task *caller, int pid,
                         struct hwperf_reason *why)
{
	struct hwperf_task *t;
	struct hwperf_task *parent;
	int err;

	if ((err = find_target(caller, pid, &t, why)) < 0)
		return err;
	parent = hwperf_env_parent(t);
	if (!parent)
		return hwperf_fail(why, ESRCH, "pid %d has no parent",
		                   hwperf_env_pid(t));
	if (caller && caller != parent && !hwperf_is_root(caller))
		return hwperf_fail(why, EPERM, "pid %d is not the parent of "
		                   "pid %d", hwperf_pid_of(caller),
		                   hwperf_env_pid(t));
	t->flags |= HWPERF_TF_SAVECHILD;
	return (int)t->set.gen;
}

int hwperf_save_child(struct hwperf_task *caller, int pid,
                      struct hwperf_reason *why)
{
	unsigned cpu = hwperf_env_this_cpu();
	unsigned long f = hwperf_lock(cpu);
	int r = do_save_child(caller, pid, why);

	hwperf_unlock(cpu, f);
	return hwperf_report(caller, r, why);
}

/* ---- for perfmon.c (pause, resume, reset) ---------------------------------- */

int hwperf_find_target(struct hwperf_task *caller, int pid,
                       struct hwperf_task **out, struct hwperf_reason *why)
{
	return find_target(caller, pid, out, why);
}

int hwperf_refuse_exited(const struct hwperf_task *t, struct hwperf_reason *why)
{
	return refuse_exited(t, why);
}

bool hwperf_holds_system(const struct hwperf_task *t)
{
	return holds_system(t);
}

void hwperf_start_where_running(struct hwperf_task *t, unsigned cpu)
{
	start_where_running(t, cpu);
}
