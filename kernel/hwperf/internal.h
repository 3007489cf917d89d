/*
 * internal.h - state shared by the files of kernel/hwperf, not by callers.
 *
 * One lock (hwperf_env_lock) guards everything here.  A CPU's PMU is only
 * touched by that CPU; changes made on one CPU that concern another (a
 * loss, a system acquire or release) are recorded here and applied by the
 * other CPU at its next hook (cpu_sync), after a kick.
 */
#ifndef TALLY_HWPERF_INTERNAL_H
#define TALLY_HWPERF_INTERNAL_H

#include "env.h"
#include "hwperf.h"

/* Generations start here, so every successful call returns a positive
 * number even for a set that never changed. */
#define HWPERF_GEN_FIRST 1u

/* hwperf_task.flags */
/* HWPERF_TF_ENABLED   0x01u is hwperf.h's: the hooks' shortcut reads it */
#define HWPERF_TF_LOST      0x02u /* lost them to SYSTEM mode (R6) */
#define HWPERF_TF_SAVECHILD 0x04u /* give counts to parent at exit (R18) */
#define HWPERF_TF_GIVEN     0x08u /* counts already went to the parent */
#define HWPERF_TF_SYSHOLDER 0x10u /* acquired SYSTEM mode through enable */
#define HWPERF_TF_EXITED    0x20u
#define HWPERF_TF_HOLDER    0x40u /* on the USER holders list */
#define HWPERF_TF_PAUSED    0x80u /* holds its counters, not counting (perfmon.c) */

/* A place a set can be loaded: a task's set or a CPU's system block. */
struct hwperf_cpu {
	struct hwperf_set *loaded;      /* on this CPU's PMU now, or NULL */
	struct hwperf_task *task;       /* owner when loaded is a task set */
	uint32_t loaded_seq;            /* loaded->ctl_seq at load time */
	/* SYSTEM mode: this CPU's private block (R19). */
	struct hwperf_set sys;
	uint32_t sys_epoch;             /* acquire this block belongs to */
	struct hwperf_counts folded;    /* part moved to global */
	bool busy;                      /* inside hwperf on this CPU */
	bool irq_pending;               /* pmu_interrupt arrived while busy */
	uintptr_t irq_pc;
	uint32_t irq_mode;
};

struct hwperf_core {
	const struct pmu_ops *ops;
	struct pmu_caps caps;
	bool ready;
	enum hwperf_mode mode;
	struct hwperf_task *holders;    /* tasks holding USER counters */
	uint64_t rotate_cycles;         /* hwperf_set_rotation */
	/* SYSTEM mode: the global block and who holds it. */
	struct hwperf_set sys;
	int sys_pid;                    /* holder pid, -1 for the kernel */
	struct hwperf_task *sys_task;   /* holder through enable, or NULL */
	uint32_t sys_epoch;             /* bumped at every acquire */
	struct hwperf_cpu cpu[HWPERF_MAX_CPUS];
};

extern struct hwperf_core hwperf_core;

/* xcall.c: run fn on cpu's PMU now, under the caller's lock (held). */
int hwperf_xcall(unsigned me, unsigned cpu, void (*fn)(unsigned cpu, void *arg),
                 void *arg, struct hwperf_reason *why);
int hwperf_xcall_others(unsigned me, void (*fn)(unsigned cpu, void *arg),
                        void *arg, unsigned *late, struct hwperf_reason *why);

/* reason.c */
int hwperf_fail(struct hwperf_reason *why, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
const char *hwperf_errname(int err);
int hwperf_report(const struct hwperf_task *caller, int rc,
                  const struct hwperf_reason *why);

/* lock.c: the lock plus the per-CPU busy guard.  The uncontended take is
 * inline: every switch of a counting task takes the lock twice. */
unsigned long hwperf_lock_contended(unsigned cpu)
	__attribute__((noinline, cold));
static inline unsigned long hwperf_lock(unsigned cpu)
{
	unsigned long flags;

	if (__builtin_expect(!hwperf_env_trylock(&flags), 0))
		return hwperf_lock_contended(cpu);
	hwperf_core.cpu[cpu].busy = true;
	return flags;
}
void hwperf_unlock_pending(unsigned cpu);
/* Leaving hwperf on cpu, the lock still held: the overflows held back
 * meanwhile first.  Inline like hwperf_lock: they are the rare case. */
static inline void hwperf_leave(unsigned cpu)
{
	struct hwperf_cpu *c = &hwperf_core.cpu[cpu];

	if (__builtin_expect(c->irq_pending, 0))
		hwperf_unlock_pending(cpu);
	c->busy = false;
}
static inline void hwperf_unlock(unsigned cpu, unsigned long flags)
{
	hwperf_leave(cpu);
	hwperf_env_unlock(flags);
}

/*
 * hwperf_lock and hwperf_unlock for a caller whose interrupts are off
 * already and stay so (the switch hook, hwperf.h): the same lock and
 * busy guard, without saving, masking and restoring the interrupt flag
 * (x86_64: pushf, pop, cli, the flags' store and load, the test and
 * sti).  A contended take waits as hwperf_lock's does; the flags it
 * saved say "off", which the caller's state already is.  c is cpu's
 * hwperf_cpu, which the caller holds already (the switch hook).
 */
static inline void hwperf_lock_irqs_off(struct hwperf_cpu *c, unsigned cpu)
{
	if (__builtin_expect(!hwperf_env_trylock_irqs_off(), 0))
		(void)hwperf_lock_contended(cpu);
	c->busy = true;
}
static inline void hwperf_unlock_irqs_off(struct hwperf_cpu *c, unsigned cpu)
{
	if (__builtin_expect(c->irq_pending, 0))
		hwperf_unlock_pending(cpu);
	c->busy = false;
	hwperf_env_unlock_irqs_off();
}

/* event.c: names, modes and thresholds checked against the PMU (R4) */
int hwperf_resolve(const struct hwperf_control *ctl, struct hwperf_res *res,
                   struct hwperf_reason *why);
uint32_t hwperf_ctl_modes(const struct hwperf_control *ctl);
uint32_t hwperf_event_code(const struct hwperf_res *r, unsigned hw);

/* vctr.c: a set's virtual counters */
bool hwperf_same_event(const struct hwperf_event *a,
                       const struct hwperf_event *b);
void hwperf_set_clear(struct hwperf_set *s);
void hwperf_set_install(struct hwperf_set *s, const struct hwperf_control *ctl,
                        const struct hwperf_res *res);
void hwperf_set_fold(struct hwperf_set *s);
/*
 * The lazy fold.  A switch-out of a set without thresholds whose
 * placement took every counter leaves the driver's sums (pst) unfolded
 * (hwperf_set_fold_later): the placement is kept at the next switch-in,
 * where the driver goes on adding to the same sums, so most switches
 * fold nothing.  Whatever reads or replaces c, the slots or the sums
 * folds first (hwperf_set_catch_up): an export (every read, the final
 * read), a clear, an install (a control change, fork), a child's counts
 * given to its parent, a placement that is not kept (a new control, a
 * reshape, thresholds), the read page's fill.  A tick, a read of the
 * running set and every other unload fold as before, the unfolded sums
 * included (they are the same sums).
 */
void hwperf_set_fold_owed(struct hwperf_set *s) __attribute__((noinline));
static inline void hwperf_set_catch_up(struct hwperf_set *s)
{
	if (__builtin_expect(s->fold_owed, 0))
		hwperf_set_fold_owed(s);
}
/* May s's switch-out leave its fold for later?  No thresholds (a fold
 * acts on them), every used counter placed (a multiplexed set's rotor
 * and period follow the folded times), and the placement the current
 * control's (an install clears placed alone while another CPU may still
 * hold the slots, hwperf_set_fold). */
static inline bool hwperf_set_fold_later(const struct hwperf_set *s)
{
	return !s->thresh_used && s->place_all && s->place_seq == s->ctl_seq;
}
void hwperf_set_export(struct hwperf_set *s, struct hwperf_counts *out);

/* invariant.c: what every read must satisfy (checked, counted) */
/* sys: s is the system block (named so in a report). */
void hwperf_inv_check_set(struct hwperf_set *s, bool sys);
void hwperf_inv_check_sys_sum(void);
void hwperf_set_add(struct hwperf_set *dst, const struct hwperf_set *src);
/* Counter i's time-enabled, what a fold still owes it included. */
uint64_t hwperf_set_enabled(const struct hwperf_set *s, unsigned i);
/* Add what the folds owe to every used counter's c.enabled. */
void hwperf_set_settle(struct hwperf_set *s);
/* The export without settling: s's counts as hwperf_set_export gives
 * them, with what is owed added to enabled on the way out (what
 * hwperf_set_export does on a 32-bit machine; no invariant check). */
void hwperf_set_export_owing(const struct hwperf_set *s, struct hwperf_counts *out);
/* hwperf_set_export, its full set whose time-enabled is all owed (the
 * 32-counter read's usual shape, vctr.c export_full_owed) inline: for
 * the system call's own read, whose frame then serves it. */
static inline void hwperf_set_export_here(struct hwperf_set *s,
                                          struct hwperf_counts *out)
{
	if (s->used != ~0u || !s->enabled_all_owed) {
		hwperf_set_export(s, out);
		return;
	}
	hwperf_inv_check_set(s, s == &hwperf_core.sys);
	hwperf_env_counts_out(out, &s->c, s->enabled_owed);
}

/* mux.c: placement on hardware counters and rotation (R13) */
/* The PMU's shape: bumped whenever it may have changed (hwperf_init, a
 * soft reshape), so that every kept placement goes stale.  Never 0. */
extern uint32_t hwperf_place_shape;

/*
 * A set whose last placement took every used counter, placed again with
 * the same control on the same PMU, would be placed the same: ranks only
 * order the slots when something must be left out, and an unchanged
 * control passes check() again.  Only the periods are new (ireload's
 * part, as the driver interface allows).  A multiplexed set keeps its
 * placement until a tick rotates it (R13), or until it has been loaded a
 * tick period since (hwperf_set_rotation): then least time-running first.
 */
static inline __attribute__((always_inline)) bool
hwperf_placement_kept(const struct hwperf_set *s, bool global, bool rotate)
{
	uint64_t period = hwperf_core.rotate_cycles;

	if (s->place_seq != s->ctl_seq || s->place_shape != hwperf_place_shape ||
	    s->place_global != global)
		return false;
	if (s->place_all)
		return true;
	return !rotate && period > 0 && s->since_place < period;
}

/* Every placement but hwperf_place's kept case below: choose, check,
 * periods, reload (mux.c). */
int hwperf_place_full(struct hwperf_set *s, unsigned cpu, bool global, bool rotate)
	__attribute__((noinline));

/*
 * Place s for loading on cpu; 0, or -1 when the driver refused even an
 * empty set.  rotate: a tick's rotation (R13), never the kept placement.
 * The usual placement at a switch-in, a kept one without thresholds, is
 * inline: a few compares and four stores, where the call to it and back
 * cost a third of it (x86_64, per switch of ctxsw_2).
 */
static inline int hwperf_place(struct hwperf_set *s, unsigned cpu, bool global,
                               bool rotate)
{
	/* A tick's rotation never keeps a placement: straight on. */
	if (rotate || s->thresh_used || !hwperf_placement_kept(s, global, false)) {
		/* The unfolded sums are the old slots': folded before
		 * the slots change. */
		hwperf_set_catch_up(s);
		return hwperf_place_full(s, cpu, global, rotate);
	}
	/* Without thresholds every period is its counter's longest, as the
	 * placement left it (only thresholds move them), so no period needs
	 * restarting: each i-mode counter goes on from where the stop left
	 * its start, which the driver interface allows (resume: "an
	 * interrupted period continues"), and overflows within its longest
	 * period still.  Each sum is 0 (a fold) or what the lazy fold left,
	 * to which the driver adds on (same slots, same virtual counters).
	 * Nothing of the slots to write. */
	s->pst.ctl.n = s->place_n;
	s->placed = s->place_mask;
	s->pst.cpu = cpu;
	/* drv_cache stays: the control is the one the placement left
	 * (the driver may know it, pmu.h). */
	return 0;
}
/* The PMU's shape may have changed: no kept placement is valid. */
void hwperf_place_forget_all(void);
/* Each slot's period from its counter and threshold; true when one moved
 * (or a slot's i-mode came or went). */
bool hwperf_set_periods(struct hwperf_set *s);
bool hwperf_needs_rotation(const struct hwperf_set *s);

/* load.c: putting sets on a CPU's PMU and taking them off */
void hwperf_load(unsigned cpu, struct hwperf_set *s, struct hwperf_task *t);
void hwperf_unload(unsigned cpu);
/* A switch: the task set loaded here (c->task's) off, next's on; c is
 * cpu's hwperf_cpu. */
void hwperf_handover(struct hwperf_cpu *c, unsigned cpu, struct hwperf_task *next);
/* t has counters, enabled, and USER mode lets them count (cpu_sync loads
 * them at t's switch-in). */
bool hwperf_task_wants_counting(const struct hwperf_task *t);
void hwperf_sample(unsigned cpu);
void hwperf_sample_stopped(struct hwperf_cpu *c, struct hwperf_set *s)
	__attribute__((noinline));
/* hwperf_sample's body, inline for the system call's own read (its
 * frame and call, and a second lookup of the CPU's block, were a tenth
 * of what the read kept of its own on Malta). */
static inline void hwperf_sample_here(unsigned cpu)
{
	struct hwperf_cpu *c = &hwperf_core.cpu[cpu];
	struct hwperf_set *s = c->loaded;

	if (!s)
		return;
	/* Without thresholds every period is its counter's longest and
	 * stays so: nothing to restart, so a driver that can fold without
	 * stopping lets the counters run on (a read's whole fold). */
	if (!s->thresh_used && hwperf_core.ops->sync) {
		hwperf_core.ops->sync(&s->pst);
		hwperf_set_fold(s);
		return;
	}
	hwperf_sample_stopped(c, s);
}
void hwperf_restart(struct hwperf_set *s);
struct hwperf_task *hwperf_owner(unsigned cpu);
/* A task's counts as they stand, with the hardware's share folded in
 * first when the task runs on this CPU; the set's generation back.
 * Every per-task read (do_read, the own read, the final read) is this. */
static inline int hwperf_task_export(struct hwperf_task *t, unsigned cpu,
                                     struct hwperf_counts *out)
{
	if (t->on_cpu == (int)cpu)
		hwperf_sample(cpu);
	hwperf_set_export(&t->set, out);
	return (int)t->set.gen;
}
void hwperf_cpu_sync(unsigned cpu, struct hwperf_task *cur);

/* overflow.c: thresholds (R15); every fold is followed by this, and most
 * sets have none, so that case costs no call. */
void hwperf_thresholds_due(struct hwperf_set *s, struct hwperf_task *owner,
                           uintptr_t pc);
static inline void hwperf_thresholds(struct hwperf_set *s,
                                     struct hwperf_task *owner, uintptr_t pc)
{
	if (s->thresh_used)
		hwperf_thresholds_due(s, owner, pc);
}
/* Returns the slots identify_overflow() found overflowed (0: spurious). */
uint32_t hwperf_overflow(unsigned cpu, uintptr_t pc, uint32_t mode);

/* syscpu.c: per-CPU system blocks (R12, R19) */
void hwperf_sys_fold_all(void);
void hwperf_sys_fold_cpu(unsigned cpu);

/* state.c: ownership */
void hwperf_holder_add(struct hwperf_task *t);
void hwperf_holder_del(struct hwperf_task *t);
void hwperf_mode_update(void);
void hwperf_lose(struct hwperf_task *t, unsigned cpu);
bool hwperf_is_root(const struct hwperf_task *t);
int hwperf_pid_of(const struct hwperf_task *t);
int hwperf_busy_system(struct hwperf_reason *why);
void hwperf_kick_others(unsigned cpu);

/* state.c, for perfmon.c: the R8 target check, the exiting refusal, "t
 * holds SYSTEM mode", and starting t's counters where it runs. */
int hwperf_find_target(struct hwperf_task *caller, int pid,
                       struct hwperf_task **out, struct hwperf_reason *why);
int hwperf_refuse_exited(const struct hwperf_task *t, struct hwperf_reason *why);
bool hwperf_holds_system(const struct hwperf_task *t);
void hwperf_start_where_running(struct hwperf_task *t, unsigned cpu);

/* syscpu.c: SYSTEM mode */
void hwperf_sys_start(const struct hwperf_control *ctl,
                      const struct hwperf_res *res, int pid,
                      struct hwperf_task *t, unsigned cpu,
                      struct hwperf_task *cur);
void hwperf_sys_stop(unsigned cpu);
int hwperf_sys_read_locked(unsigned cpu, struct hwperf_counts *out,
                           struct hwperf_reason *why);
int hwperf_sys_fold_others(unsigned cpu, bool freeze, struct hwperf_reason *why);
int hwperf_sys_set_locked(const struct hwperf_control *ctl, unsigned cpu,
                          struct hwperf_task *cur, struct hwperf_reason *why);

bool hwperf_pmu_interrupt(uintptr_t pc, uint32_t mode);

#endif
