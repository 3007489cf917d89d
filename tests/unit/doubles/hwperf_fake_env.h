/*
 * hwperf_fake_env.h - fake tasks and CPUs behind kernel/hwperf/env.h, for
 * the host tests of hwperf.  A fake task embeds the hwperf_task first, the
 * way the kernel's task will embed it.
 */
#ifndef TALLY_HWPERF_FAKE_ENV_H
#define TALLY_HWPERF_FAKE_ENV_H

#include <stdbool.h>
#include <stdint.h>

#include "hwperf/hwperf.h"

#define FAKE_MAX_TASKS 32
#define FAKE_SIGS (HWPERF_SIG_MAX + 1)
#define FAKE_NO_CPU (-1)

struct fake_task {
	struct hwperf_task hw;          /* first: the env casts back */
	bool alive;
	int pid;
	unsigned uid;
	int pgid;
	int ppid;
	int cpu;                        /* running on, or FAKE_NO_CPU */
	unsigned sigs[FAKE_SIGS];       /* signals posted, by number */
	unsigned prof_hits;
	uintptr_t last_prof_pc;
	unsigned samples;               /* hwperf_env_profile_sample calls */
	unsigned last_sample_vctr;
	uintptr_t last_sample_pc;
	struct hwperf_rusage ru;
};

extern unsigned fake_cpu;               /* what hwperf_env_this_cpu says */
extern unsigned fake_kicks;
/* arch_kevents_set calls (pmu_kevents_want), the last kinds and CPU;
 * each CPU's word is arch_kevents_of's. */
extern unsigned fake_kevents_told;
extern uint32_t fake_kevents_last;
extern unsigned fake_kevents_last_cpu;
/* hwperf_env_ring calls; CPUs (bit per CPU) whose ring never arrives, so
 * that an xcall to them times out; cycles added at every clock reading. */
extern unsigned fake_rings;
extern uint32_t fake_deaf_cpus;
extern unsigned fake_deaf_ticks;        /* ticks a deaf CPU takes meanwhile */
extern unsigned fake_deaf_late_ticks;   /* ... and 100 ticks after the ring */
/* Rings to refuse with -EBUSY first: the target is still finishing an
 * earlier ring's handler, past its look at the mailbox. */
extern unsigned fake_busy_rings;
extern uint64_t fake_cycles_step;
/* A CPU (or -1) that, while someone waits for it, is itself waiting for
 * the lock with interrupts masked: it serves its call from that wait;
 * and how many trylocks fail before one succeeds. */
extern int fake_poll_cpu;
extern unsigned fake_trylock_fails;
extern char fake_log[256];              /* last hwperf_env_log line */
extern unsigned fake_logs;
/* What hwperf_env_cycles and hwperf_env_idle answer (the pctr read). */
extern uint64_t fake_cycles, fake_idle_cycles, fake_idle_iterations;
/* hwperf_env_counts_out calls (the full set's copy out). */
extern unsigned fake_counts_out_calls;

void fake_env_reset(unsigned ncpus);
struct fake_task *fake_spawn(int pid, unsigned uid, int pgid, int ppid);
struct fake_task *fake_find(int pid);
/* The scheduler's part: switch cpu from whatever runs there to t (or idle
 * when t is NULL) in two steps, prev's set unloaded then t's synced (the
 * reference), or with fake_switch_fused (cleared by fake_env_reset) the
 * kernel's one hwperf_switch. */
extern bool fake_switch_fused;
void fake_run(unsigned cpu, struct fake_task *t);
struct fake_task *fake_current(unsigned cpu);
void fake_tick(unsigned cpu);
/* fork through hwperf_fork; the child does not run yet. */
struct fake_task *fake_fork(struct fake_task *parent, int pid);
/* The child exits (hwperf_exit on its CPU) and stops running. */
void fake_exit(struct fake_task *t);

#endif
