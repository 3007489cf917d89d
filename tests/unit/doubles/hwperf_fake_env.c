/*
 * hwperf_fake_env.c - the task layer as hwperf sees it, faked for host
 * tests: a table of tasks, CPUs that run one of them each, and counters of
 * the signals and profile hits hwperf asked for.
 */
#include <errno.h>
#include <string.h>

#include "hwperf/env.h"
#include "hwperf/internal.h"
#include "arch.h"
#include "hwperf_fake_env.h"
#include "machdep.h"

#define FAKE_MAX_CPUS HWPERF_MAX_CPUS

static struct fake_task tasks[FAKE_MAX_TASKS];
static struct fake_task *running[FAKE_MAX_CPUS];
static unsigned ncpus = 1;
unsigned fake_cpu;
unsigned fake_kicks;
unsigned fake_kevents_told;
uint32_t fake_kevents_last;
unsigned fake_kevents_last_cpu;
static uint32_t kevents[FAKE_MAX_CPUS];
unsigned fake_rings;
unsigned fake_counts_out_calls;
uint32_t fake_deaf_cpus;
unsigned fake_deaf_ticks;
unsigned fake_deaf_late_ticks;
static unsigned deaf_cpu;
static uint64_t deaf_since;
unsigned fake_busy_rings;
uint64_t fake_cycles_step;
int fake_poll_cpu = -1;
unsigned fake_trylock_fails;
char fake_log[256];
unsigned fake_logs;
uint64_t fake_cycles, fake_idle_cycles, fake_idle_iterations;

static struct fake_task *of(const struct hwperf_task *t)
{
	return (struct fake_task *)(uintptr_t)t;
}

bool fake_switch_fused;

void fake_env_reset(unsigned n)
{
	fake_switch_fused = false;
	memset(tasks, 0, sizeof(tasks));
	memset(running, 0, sizeof(running));
	fake_rings = 0;
	fake_counts_out_calls = 0;
	fake_deaf_cpus = 0;
	fake_deaf_ticks = 0;
	fake_deaf_late_ticks = 0;
	fake_busy_rings = 0;
	fake_cycles_step = 0;
	fake_poll_cpu = -1;
	fake_trylock_fails = 0;
	ncpus = n;
	fake_cpu = 0;
	fake_kicks = 0;
	fake_kevents_told = 0;
	fake_kevents_last = 0;
	fake_kevents_last_cpu = 0;
	memset(kevents, 0, sizeof(kevents));
	fake_log[0] = '\0';
	fake_logs = 0;
	fake_cycles = fake_idle_cycles = fake_idle_iterations = 0;
}

struct fake_task *fake_spawn(int pid, unsigned uid, int pgid, int ppid)
{
	for (unsigned i = 0; i < FAKE_MAX_TASKS; i++) {
		struct fake_task *t = &tasks[i];

		if (t->alive)
			continue;
		memset(t, 0, sizeof(*t));
		hwperf_task_init(&t->hw);
		t->alive = true;
		t->pid = pid;
		t->uid = uid;
		t->pgid = pgid;
		t->ppid = ppid;
		t->cpu = FAKE_NO_CPU;
		return t;
	}
	return NULL;
}

struct fake_task *fake_find(int pid)
{
	for (unsigned i = 0; i < FAKE_MAX_TASKS; i++)
		if (tasks[i].alive && tasks[i].pid == pid)
			return &tasks[i];
	return NULL;
}

struct fake_task *fake_current(unsigned cpu)
{
	return running[cpu];
}

/*
 * The switch as two steps, each under its own lock, with the tasks moved
 * between them (the kernel's order before hwperf_switch): the reference
 * the fused hook is checked against.
 */
static void switch_out_apart(struct hwperf_task *prev)
{
	if (hwperf_hot == 0)
		return;
	unsigned cpu = hwperf_env_this_cpu();
	unsigned long f = hwperf_lock(cpu);

	if (prev && hwperf_core.cpu[cpu].task == prev)
		hwperf_unload(cpu);
	hwperf_unlock(cpu, f);
}

static void switch_in_apart(struct hwperf_task *next)
{
	if (hwperf_hooks_quiet(next))
		return;
	unsigned cpu = hwperf_env_this_cpu();
	unsigned long f = hwperf_lock(cpu);

	hwperf_cpu_sync(cpu, next);
	hwperf_unlock(cpu, f);
}

void fake_run(unsigned cpu, struct fake_task *t)
{
	struct fake_task *prev = running[cpu];
	unsigned saved = fake_cpu;

	fake_cpu = cpu;
	if (fake_switch_fused) {
		/* The kernel's order: the tasks first, then the one hook. */
		if (prev)
			prev->cpu = FAKE_NO_CPU;
		running[cpu] = t;
		if (t)
			t->cpu = (int)cpu;
		/* As sched_hook_switch. */
		if (!hwperf_hooks_quiet(t ? &t->hw : NULL))
			hwperf_switch_slow(prev ? &prev->hw : NULL, t ? &t->hw : NULL);
		fake_cpu = saved;
		return;
	}
	switch_out_apart(prev ? &prev->hw : NULL);
	if (prev)
		prev->cpu = FAKE_NO_CPU;
	running[cpu] = t;
	if (t)
		t->cpu = (int)cpu;
	switch_in_apart(t ? &t->hw : NULL);
	fake_cpu = saved;
}

void fake_tick(unsigned cpu)
{
	unsigned saved = fake_cpu;

	fake_cpu = cpu;
	hwperf_tick(running[cpu] ? &running[cpu]->hw : NULL);
	fake_cpu = saved;
}

struct fake_task *fake_fork(struct fake_task *parent, int pid)
{
	struct fake_task *c = fake_spawn(pid, parent->uid, parent->pgid,
	                                 parent->pid);

	if (c)
		hwperf_fork(&parent->hw, &c->hw);
	return c;
}

void fake_exit(struct fake_task *t)
{
	unsigned saved = fake_cpu;

	if (t->cpu >= 0)
		fake_cpu = (unsigned)t->cpu;
	hwperf_exit(&t->hw);
	if (t->cpu >= 0)
		fake_run((unsigned)t->cpu, NULL);
	fake_cpu = saved;
}

/* ---- env.h ---------------------------------------------------------------- */

struct hwperf_task *hwperf_env_lookup(int pid)
{
	struct fake_task *t = fake_find(pid);

	return t ? &t->hw : NULL;
}

int hwperf_env_pid(const struct hwperf_task *t)
{
	return of(t)->pid;
}

unsigned hwperf_env_uid(const struct hwperf_task *t)
{
	return of(t)->uid;
}

int hwperf_env_pgid(const struct hwperf_task *t)
{
	return of(t)->pgid;
}

struct hwperf_task *hwperf_env_parent(const struct hwperf_task *t)
{
	struct fake_task *p = fake_find(of(t)->ppid);

	return p ? &p->hw : NULL;
}

int hwperf_env_task_cpu(const struct hwperf_task *t)
{
	return of(t)->cpu;
}

unsigned hwperf_env_ncpus(void)
{
	return ncpus;
}

unsigned hwperf_env_this_cpu(void)
{
	return fake_cpu;
}

void hwperf_env_signal(struct hwperf_task *t, int sig)
{
	if (sig > 0 && sig < FAKE_SIGS)
		of(t)->sigs[sig]++;
}

void hwperf_env_profile_hit(struct hwperf_task *t, uintptr_t pc)
{
	of(t)->prof_hits++;
	of(t)->last_prof_pc = pc;
}

void hwperf_env_profile_sample(struct hwperf_task *t, unsigned vctr, uintptr_t pc)
{
	of(t)->samples++;
	of(t)->last_sample_vctr = vctr;
	of(t)->last_sample_pc = pc;
}

uint64_t hwperf_env_cycles(void)
{
	fake_cycles += fake_cycles_step;
	return fake_cycles;
}

void hwperf_env_idle(uint64_t *cycles, uint64_t *iterations)
{
	*cycles = fake_idle_cycles;
	*iterations = fake_idle_iterations;
}

void hwperf_env_rusage(const struct hwperf_task *t, struct hwperf_rusage *ru)
{
	*ru = of(t)->ru;
}

void hwperf_env_log(const char *line)
{
	size_t n = strlen(line);

	if (n >= sizeof(fake_log))
		n = sizeof(fake_log) - 1;
	memcpy(fake_log, line, n);
	fake_log[n] = '\0';
	fake_logs++;
}

void hwperf_env_foreach(void (*fn)(struct hwperf_task *t, void *arg), void *arg)
{
	for (unsigned i = 0; i < FAKE_MAX_TASKS; i++)
		if (tasks[i].alive)
			fn(&tasks[i].hw, arg);
}

/* kernel/arch.h: each CPU's word as pmu_kevents_want told it, and what
 * it told last, to which CPU, and how often. */
void arch_kevents_set(unsigned cpu, uint32_t kinds)
{
	fake_kevents_told++;
	fake_kevents_last = kinds;
	fake_kevents_last_cpu = cpu;
	kevents[cpu % FAKE_MAX_CPUS] = kinds;
}

uint32_t arch_kevents_of(unsigned cpu)
{
	return kevents[cpu % FAKE_MAX_CPUS];
}

/* machdep.h (doubles/): the running CPU is fake_cpu. */
bool fake_kevents_any(uint32_t bits)
{
	return (kevents[fake_cpu % FAKE_MAX_CPUS] & bits) != 0;
}

void hwperf_env_kick(unsigned cpu)
{
	(void)cpu;
	fake_kicks++;
}

/* A ring either serves at once, as the target CPU would (fake_cpu is that
 * CPU meanwhile), or, for a CPU named in fake_deaf_cpus, never arrives:
 * the caller times out (fake_cycles_step moves the clock per reading)
 * while that CPU takes fake_deaf_ticks timer ticks of its own. */
int hwperf_env_ring(unsigned cpu)
{
	unsigned me = fake_cpu;

	fake_rings++;
	if (cpu >= ncpus)
		return -ENODEV;
	if (fake_busy_rings > 0) {
		fake_busy_rings--;
		return -EBUSY;
	}
	if (fake_deaf_cpus & (1u << cpu)) {
		deaf_cpu = cpu;
		deaf_since = fake_cycles;
		fake_cpu = cpu;
		for (unsigned i = 0; i < fake_deaf_ticks; i++)
			hwperf_cpu_tick_seen();
		fake_cpu = me;
		return 0;
	}
	fake_cpu = cpu;
	hwperf_xcall_serve(cpu);
	fake_cpu = me;
	return 0;
}

/* The portable copy; the kernel's is the arch's (arch_copy_fill_u64). */
void hwperf_env_counts_out(struct hwperf_counts *out,
                           const struct hwperf_counts *c, uint64_t enabled)
{
	fake_counts_out_calls++;
	for (unsigned i = 0; i < HWPERF_NVCTR; i++) {
		out->count[i] = c->count[i];
		out->enabled[i] = enabled;
		out->running[i] = c->running[i];
	}
}

/*
 * While a caller waits for fake_poll_cpu, that CPU is "waiting for the
 * lock with interrupts masked": it serves its mailbox from
 * hwperf_lock_contended, as a real one does (its trylock fails once),
 * then takes the lock and gives it back.
 */
void hwperf_env_relax(void)
{
	static bool inside;
	unsigned me = fake_cpu;

	/* The deaf CPU starts taking its ticks 100 ticks after the ring. */
	if (fake_deaf_late_ticks &&
	    fake_cycles - deaf_since >= 100 * hwperf_core.rotate_cycles) {
		fake_cpu = deaf_cpu;
		for (; fake_deaf_late_ticks > 0; fake_deaf_late_ticks--)
			hwperf_cpu_tick_seen();
		fake_cpu = me;
	}
	if (fake_poll_cpu < 0 || inside)
		return;
	inside = true;
	fake_cpu = (unsigned)fake_poll_cpu;
	fake_trylock_fails = 1;
	unsigned long f = hwperf_lock_contended(fake_cpu);
	hwperf_unlock(fake_cpu, f);
	fake_cpu = me;
	inside = false;
}

bool hwperf_env_trylock(unsigned long *flags)
{
	*flags = 0;
	if (fake_trylock_fails) {
		fake_trylock_fails--;
		return false;
	}
	return true;
}

unsigned long hwperf_env_lock(void)
{
	return 0;
}

void hwperf_env_unlock(unsigned long flags)
{
	(void)flags;
}

/* The switch hook's take and give-back: the same lock, failing alike. */
bool hwperf_env_trylock_irqs_off(void)
{
	unsigned long flags;

	return hwperf_env_trylock(&flags);
}

void hwperf_env_unlock_irqs_off(void)
{
}
