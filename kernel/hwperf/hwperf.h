/*
 * hwperf.h - who may use the performance counters, and how counts are kept.
 *
 * The rules are docs/design/hwperf-semantics.md R1..R20.  In short:
 * the PMU is FREE, USER (any number of tasks, switched with them) or
 * SYSTEM (one holder, every CPU, never switched).  Each task and the system
 * own a *counter set*: 32 virtual counters, each an event with mode bits
 * and an optional overflow threshold, kept as 64-bit counts with
 * time-enabled and time-running (in cycle-counter ticks) so a multiplexed
 * count can be scaled.
 *
 * Every operation returns a non-negative value (a generation number, or 0
 * where the rule says so) or -errno, and on failure writes one line into
 * the caller's `struct hwperf_reason` (which may be NULL) that starts with
 * the errno's name: "EBUSY: pid 7 holds the counters in SYSTEM mode".
 *
 * `caller` is the task making the request, or NULL for the kernel itself
 * (the console), which acts as root.  `pid` 0 means the caller.
 *
 * The scheduler calls hwperf at two points only: hwperf_switch_slow (the
 * switch-out and switch-in of one switch, together) and hwperf_tick.
 * Process lifetime adds hwperf_task_init, hwperf_fork, hwperf_exit and
 * hwperf_reap (see each below).  A task that
 * mapped its read page adds the return to its user mode
 * (hwperf_upage_fill and _publish, upage.c).
 *
 * A CPU's PMU is only ever touched by that CPU.  So on SMP a change that
 * concerns counters live on another CPU (a loss, a release, a new control,
 * SYSTEM mode starting or ending) takes effect there at its next hook --
 * at worst one tick later, sooner if hwperf_env_kick interrupts it -- and
 * a read sees another CPU's live counts as of its last tick.  Counts on
 * the calling CPU are always read live.
 */
#ifndef TALLY_HWPERF_H
#define TALLY_HWPERF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "abi.h"
#include "events/place.h"
#include "pmu.h"

#define HWPERF_MAX_CPUS 16
#define HWPERF_REASON_MAX PMU_REASON_MAX

/* User programs name modes with abi.h's bits; they are the driver's. */
_Static_assert(HWPERF_MODE_X == PMU_MODE_X && HWPERF_MODE_K == PMU_MODE_K &&
               HWPERF_MODE_S == PMU_MODE_S && HWPERF_MODE_U == PMU_MODE_U,
               "abi.h mode bits must be pmu.h's");

enum hwperf_mode { HWPERF_FREE, HWPERF_USER, HWPERF_SYSTEM };

/* ---- what callers pass and get back: kernel/hwperf/abi.h ------------------
 * struct hwperf_event, hwperf_control, hwperf_counts and hwperf_rusage are
 * shared with user programs (SYS_hwperf), so they live there. */

struct hwperf_reason {
	char text[HWPERF_REASON_MAX];
};

/* ---- per-set and per-task state (embedded; fields are hwperf's) ---------- */

/* A name or raw code resolved against the active PMU's tables. */
struct hwperf_res {
	uint8_t used;
	uint8_t raw;
	uint8_t one_code;       /* code is the event's on every counter of
	                         * hwmask: found once, at enable (event.c) */
	uint8_t table;          /* caps.tables[] index */
	uint8_t nctr;           /* counters the table allows, where hwmask is
	                         * cut to one by the R10000 layout; else 0 */
	uint8_t tight;          /* nctr, or else hwmask's count: the engine's
	                         * measure of how constrained it is (place.h) */
	uint16_t entry;         /* first entry with the name */
	uint32_t code;          /* raw code */
	uint32_t hwmask;        /* hardware counters that may carry it */
};

struct hwperf_set {
	struct hwperf_control ctl;
	struct hwperf_res res[HWPERF_NVCTR];
	/* The 32 virtual counters' counts and times in the user ABI's own
	 * layout (abi.h), so that a read is one copy of the whole block. */
	struct hwperf_counts c;
	uint64_t next_at[HWPERF_NVCTR]; /* count at which the next threshold
	                                 * action is due */
	uint64_t seen[HWPERF_NVCTR];    /* count the last check saw (invariant.c) */
	/* Time-enabled every used counter has gained and c.enabled does not
	 * show yet: a fold adds its span here once instead of to each of up
	 * to 32 counters (hwperf_set_settle, hwperf_set_enabled). */
	uint64_t enabled_owed;
	/* True only while every used counter's c.enabled is 0, so that each
	 * one's time-enabled is enabled_owed alone: a read then writes that
	 * one value 32 times instead of adding it to 32 stored ones.  Set
	 * by hwperf_set_clear; every path that adds to c.enabled clears it
	 * (vctr.c: the settling, a child's counts; syscpu.c's fold); a
	 * reset to 0 keeps it.  False is always safe (the general read). */
	bool enabled_all_owed;
	/* Used counters whose values some path changed since the invariants
	 * last looked at them: every writer of c marks them (invariant.c). */
	uint32_t unchecked;
	uint32_t used;          /* mask of virtual counters in use */
	uint32_t thresh_used;   /* those of used with a threshold */
	bool crowded;           /* more used than counters they can reach:
	                         * multiplexed whatever the driver says */
	uint32_t placed;        /* mask of those on hardware right now */
	/* The last placement (mux.c), kept while the set is off the PMU:
	 * valid for this ctl_seq and PMU shape when it placed every used
	 * counter, so loading the set again skips choosing and checking. */
	uint32_t place_seq;
	uint32_t place_shape;
	uint32_t place_mask;    /* placed, as of that placement */
	uint8_t place_n;
	bool place_all;
	bool place_global;
	uint64_t since_place;   /* cycles loaded since that placement */
	/* The driver's sums (pst) hold counts and times c does not show
	 * yet: a switch-out left them unfolded (hwperf_set_fold_later).
	 * Every reader of c folds them first (hwperf_set_catch_up). */
	bool fold_owed;
	/* A crowded alike set's events by time-running (mux.c), valid for
	 * rot_ctl_id and rot_shape; every writer of c.running but the fold
	 * sets rot_ctl_id to 0 (never an install's number). */
	struct ev_rotor rot;
	uint32_t rot_ctl_id;
	uint32_t rot_shape;
	uint8_t slot_vctr[PMU_MAX_COUNTERS];
	struct pmu_state pst;
	uint32_t gen;           /* generation (R7) */
	uint32_t ctl_seq;       /* bumped when ctl changes, to reload lazily */
	uint32_t ctl_id;        /* unique to each install, kernel-wide (mux.c) */
	bool profile;           /* overflow adds a profile hit, not a signal */
	bool has_ctl;           /* a control has ever been set */
};

/* Embed one in the kernel's task; hwperf_task_init before first use. */
struct hwperf_task {
	struct hwperf_set set;
	uint32_t flags;         /* HWPERF_TF_* (internal) */
	int on_cpu;             /* CPU whose PMU holds this set, or -1 */
	uint32_t loaded_seq;    /* set.ctl_seq when loaded */
	struct hwperf_task *next_holder;
	struct hwperf_task *prev_holder;
	struct hwperf_upage *upage;     /* mapped read page, or NULL (upage.c) */
	uint8_t ucycles_bits;           /* width of the cycle counter user mode reads */
};

/*
 * Event names compare as the event tables do (kernel/events): case-blind,
 * with '_' equal to '-', so "INST_RETIRED" finds "inst-retired".
 */
bool hwperf_name_eq(const char *a, const char *b);

/* ---- bring-up ------------------------------------------------------------ */

/* Probe ops and make it the active PMU.  Returns 0 or -ENODEV. */
int hwperf_init(const struct pmu_ops *ops, struct hwperf_reason *why);
/*
 * R13 rotates a multiplexed set at the clock ticks that land while it is
 * loaded; a switch-in keeps its last placement.  So that a task which
 * never has a tick land in it (it sleeps before each) still rotates, a
 * switch-in also places afresh once the set has been loaded `cycles`
 * cycle-counter ticks since its last placement: one tick period.  0 (the
 * state after hwperf_init) places afresh at every switch-in.
 */
void hwperf_set_rotation(uint64_t cycles);
/*
 * Probe the n drivers; the index of the one to use (present, counting,
 * highest rank, or the one named want if that qualifies), or -1.  report,
 * if given, sees every probe's result.
 */
int hwperf_pick(const struct pmu_driver *drv, unsigned n, const char *want,
                void (*report)(const struct pmu_driver *d,
                               const struct pmu_caps *caps, int rc));
/*
 * Kernel bring-up (boot.c): configure the software PMU from the boot
 * arguments, probe every registered driver, print their status lines and
 * start hwperf on the chosen one.  Call once, after the clock and the task
 * layer are up.  Returns 0 or -ENODEV.
 */
int hwperf_boot(void);
/* The probe result of every driver at boot, one line each. */
unsigned hwperf_probe_lines(const char **lines, unsigned max);
/* The probe line of the first CPU PMU driver (not the software PMU), or
 * NULL when the machine has none: the reason hardware-event checks SKIP. */
const char *hwperf_cpu_probe_line(void);
const struct pmu_caps *hwperf_caps(void);

/*
 * The invariants every read is checked against (invariant.c): running <=
 * enabled, a clock event's count <= running, no count backwards within a
 * generation, a system read equal to the sum over CPUs.  Reads checked,
 * violations seen, and the first and the latest violation described.
 */
struct hwperf_inv_report {
	uint64_t reads;
	uint64_t violations;
	char first[HWPERF_REASON_MAX];
	char last[HWPERF_REASON_MAX];
};
void hwperf_invariants(struct hwperf_inv_report *out);
enum hwperf_mode hwperf_mode(void);
const char *hwperf_mode_name(enum hwperf_mode m);

/* ---- task operations (IRIX /proc ioctls) --------------------------------- */

int hwperf_enable(struct hwperf_task *caller, int pid,
                  const struct hwperf_control *ctl, struct hwperf_reason *why);
/* Like enable, but each threshold adds a profile hit for the user PC. */
int hwperf_profile_enable(struct hwperf_task *caller, int pid,
                          const struct hwperf_control *ctl,
                          struct hwperf_reason *why);
/* out is written only when the read succeeds (whole then). */
int hwperf_read(struct hwperf_task *caller, int pid, struct hwperf_counts *out,
                struct hwperf_reason *why);
/* hwperf_read(t, 0, out, why): task t's own counters (its system call). */
int hwperf_read_own(struct hwperf_task *t, struct hwperf_counts *out,
                    struct hwperf_reason *why);
int hwperf_read_rusage(struct hwperf_task *caller, int pid,
                       struct hwperf_counts *out, struct hwperf_rusage *ru,
                       struct hwperf_reason *why);
int hwperf_get_control(struct hwperf_task *caller, int pid,
                       struct hwperf_control *out, struct hwperf_reason *why);
int hwperf_set_control(struct hwperf_task *caller, int pid,
                       const struct hwperf_control *ctl,
                       struct hwperf_reason *why);
int hwperf_release(struct hwperf_task *caller, int pid,
                   struct hwperf_reason *why);
/* The child `pid`'s counts go to its parent when it exits (R18). */
int hwperf_save_child(struct hwperf_task *caller, int pid,
                      struct hwperf_reason *why);

/* ---- perfmon and pctr habits (perfmon.c; rules in docs/hwperf.md) -------------- */

/* Stop counting without releasing; generation unchanged. */
int hwperf_pause(struct hwperf_task *caller, int pid, struct hwperf_reason *why);
/* Count again from the paused values; generation unchanged; EINVAL after
 * a loss (R6). */
int hwperf_resume(struct hwperf_task *caller, int pid, struct hwperf_reason *why);
/* Counts and times to zero; bumps the generation (R7). */
int hwperf_reset(struct hwperf_task *caller, int pid, struct hwperf_reason *why);
bool hwperf_paused(const struct hwperf_task *t);
/* The counts, the cycle counter and the idle count in one call. */
int hwperf_pctr_read(struct hwperf_task *caller, int pid,
                     struct hwperf_pctr *out, struct hwperf_reason *why);

/*
 * Reshape the active PMU (its reshape op: the software PMU's counters and
 * width), for benchmarks of multiplexing and wrap-around and for `hwperf
 * soft`.  Allowed only while the active driver can be reshaped (ENODEV),
 * the caller is root (EPERM), and the PMU is FREE with nothing loaded on
 * any CPU (EBUSY, naming the holder, R20).  EINVAL for a count or width
 * out of range.  Returns 0; on refusal why says which, and nothing
 * changed.
 */
int hwperf_soft_configure(struct hwperf_task *caller, unsigned ncounters,
                          unsigned width, struct hwperf_reason *why);

/* ---- system operations (IRIX syssgi SGI_EVENTCTR) ------------------------- */

int hwperf_sys_acquire(struct hwperf_task *caller,
                       const struct hwperf_control *ctl,
                       struct hwperf_reason *why);
int hwperf_sys_read(struct hwperf_task *caller, struct hwperf_counts *out,
                    struct hwperf_reason *why);
/* Returns the system generation, or 0 (not an error) for no such CPU. */
int hwperf_cpu_read(struct hwperf_task *caller, int cpu,
                    struct hwperf_counts *out, struct hwperf_reason *why);
int hwperf_sys_get_control(struct hwperf_task *caller,
                           struct hwperf_control *out,
                           struct hwperf_reason *why);
int hwperf_sys_set_control(struct hwperf_task *caller,
                           const struct hwperf_control *ctl,
                           struct hwperf_reason *why);
/* Returns 0. */
int hwperf_sys_release(struct hwperf_task *caller, struct hwperf_reason *why);

/* ---- hooks --------------------------------------------------------------- */

/*
 * The hooks' shortcut.  hwperf_hot has bit cpu set while that CPU has a
 * set loaded, and HWPERF_HOT_SYSTEM while SYSTEM mode is held (each CPU
 * loads its block at its next hook).  With the word zero and a task not
 * HWPERF_TF_ENABLED, a hook has nothing to do: nothing to unload, nothing
 * stale, nothing to load.  So a switch or a tick among tasks without
 * counters costs a load and a branch, not the lock.  Written under the
 * hwperf lock; a change made on another CPU reaches this one with its
 * kick, as every such change does.
 */
#define HWPERF_HOT_SYSTEM 0x80000000u
_Static_assert(HWPERF_MAX_CPUS < 31, "a bit per CPU below HWPERF_HOT_SYSTEM");
extern uint32_t hwperf_hot;

/* hwperf_task.flags: has counters and wants them counting (the rest of
 * the flags are internal.h's). */
#define HWPERF_TF_ENABLED 0x01u

void hwperf_tick_slow(struct hwperf_task *cur);

static inline bool hwperf_hooks_quiet(const struct hwperf_task *t)
{
	return hwperf_hot == 0 && !(t && (t->flags & HWPERF_TF_ENABLED));
}

/* Scheduler (sched_hooks.c), on the CPU doing the switch, interrupts off,
 * once next may run here, unless hwperf_hooks_quiet(next): prev's
 * counters stop and next's start, under one lock.  Either may be NULL
 * (idle).  next's counters then count from here, not from after the
 * register switch. */
void hwperf_switch_slow(struct hwperf_task *prev, struct hwperf_task *next);

/* Timer tick, every CPU, interrupt context; cur is the running task or
 * NULL.  Rotates multiplexed events, folds counts, applies mode changes
 * made from other CPUs. */
static inline void hwperf_tick(struct hwperf_task *cur)
{
	if (!hwperf_hooks_quiet(cur))
		hwperf_tick_slow(cur);
}

/* A CPU that runs no task (an x86_64 AP while only CPU 0 schedules):
 * its timer tick, interrupt context.  Counts the tick for the PMU and
 * keeps that CPU's counters (SYSTEM blocks) as hwperf_tick does. */
void hwperf_idle_cpu_tick(void);
/* A tick of a CPU other than the wall clock's, seen (hwperf_idle_ticks
 * moves): what the AP tick of a CPU running tasks reports besides its
 * clock_tick_cpu. */
void hwperf_cpu_tick_seen(void);

/* On cpu (this CPU), from its ring or from hwperf_lock's wait: run the
 * call another CPU posted for it, if any (xcall.c), and say whether it did. */
bool hwperf_xcall_serve(unsigned cpu);
/* (+) The cost of a cross-call: take the lock, run nothing on cpu and
 * wait for its answer (cost_smp's ipi_roundtrip).  0, or the
 * errors of a cross-call (ENODEV, ETIMEDOUT naming cpu). */
int hwperf_cpu_ping(unsigned cpu, struct hwperf_reason *why);
/* Timer ticks taken so far by CPUs that run no task, all added: a
 * measured span with a change here had an AP tick in it. */
uint64_t hwperf_idle_ticks(void);
/* The same for one CPU (0 for the wall clock's CPU, whose tick is not
 * counted here): a cross-call that times out says whether its target
 * took its own timer meanwhile. */
uint32_t hwperf_cpu_ticks_seen(unsigned cpu);
/* Since boot, added to atomically (32 bits: one word on every machine). */
struct hwperf_xcall_stats {
	uint32_t served;
	uint32_t polled;                /* served from hwperf_lock's wait */
	uint32_t timeouts;
	uint32_t rerung;                /* rings sent again after an EBUSY */
};
extern struct hwperf_xcall_stats hwperf_xcall_stats;

/* A new task that did not come from fork (the first task). */
void hwperf_task_init(struct hwperf_task *t);
/* fork: child was just created from parent and has not run (R16). */
void hwperf_fork(struct hwperf_task *parent, struct hwperf_task *child);
/* exit: t is the running task, on its way out; counts become final and go
 * to the parent if it asked (R18).  Call before t's last switch_out. */
void hwperf_exit(struct hwperf_task *t);
/*
 * The final control and counts of t, a task that has exited (or any task
 * its owner holds on to): for `stat`, from the task's on_reap hook, where
 * the pid lookup no longer finds it.  No permission check -- the caller
 * already owns t.  Returns t's generation, or -EINVAL (and zeroes) when t
 * never had counters.
 */
int hwperf_task_final(struct hwperf_task *t, struct hwperf_control *ctl,
                      struct hwperf_counts *out);
/* ---- the read page: counts without a system call (upage.c, abi.h) ------- */

/* May caller map a read page on the active PMU?  0, or -ENODEV (told on
 * the console, like every refusal). */
int hwperf_upage_check(struct hwperf_task *caller, struct hwperf_reason *why);
/*
 * t (the caller, running here) gets page, the kernel's view of the page
 * the task layer mapped at HWPERF_UPAGE_ADDR; user mode reads a cycle
 * counter cycles_bits wide.  Filled as of cycle-counter time now.  A
 * second call keeps the first page.  Returns t's generation.
 */
int hwperf_upage_attach(struct hwperf_task *t, struct hwperf_upage *page,
                        unsigned cycles_bits, uint64_t now);
/*
 * Return to t's user mode (trap exit, interrupts off), in two steps: fill
 * the sums, then publish with `now` as the cycle counter at which user
 * time starts.  Publish returns where that start lives in the page when a
 * CYCLES counter reads it, NULL otherwise: the caller has the exit path
 * overwrite it with the real moment (arch_user_stamp_to), which no C code
 * can know.  Both do nothing for a task without a page.
 */
void hwperf_upage_fill(struct hwperf_task *t);
uint64_t *hwperf_upage_publish(struct hwperf_task *t, uint64_t now);
/* t is going away (exit): the page is no longer written. */
void hwperf_upage_detach(struct hwperf_task *t);
static inline bool hwperf_upage_mapped(const struct hwperf_task *t)
{
	return t && t->upage;
}
/* t holds counters: enabled, lost to SYSTEM mode (R6) or holding SYSTEM
 * mode through enable; not after release, though its last counts stay
 * readable in its set (`mem` counts the holders). */
bool hwperf_task_holds(const struct hwperf_task *t);

/* wait: parent just reaped child (R17).  Call before freeing child's
 * slot; for a task nobody waits for, call hwperf_reap(NULL, t). */
void hwperf_reap(struct hwperf_task *parent, struct hwperf_task *child);

#endif
