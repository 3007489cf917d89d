/*
 * hooks.c - the two points where the scheduler and the clock call
 * hwperf: the switch and the tick.
 *
 * USER counters follow their task (R2): at a switch the outgoing task's
 * are saved and the incoming task's restored, under one lock.  SYSTEM
 * counters stay on their CPU and are never switched (R3).  The tick rotates multiplexed events (R13) and otherwise folds the
 * live counts: that keeps counters that cannot interrupt from wrapping
 * unseen (R14) and bounds how stale another CPU's counts can look to a
 * reader to one tick.  It also applies changes made from other CPUs.
 */
#include "env.h"
#include "pmu_kevent.h"
#include "internal.h"

uint32_t hwperf_hot;

/*
 * One switch on this CPU, from prev to next, under one lock: prev's set
 * is unloaded if it is the one loaded here, then next's is synced in
 * (tests/unit/doubles/hwperf_fake_env.c plays the same as two separate
 * steps and checks the counts agree).  When both tasks count, prev's set
 * goes off and next's on in one step (hwperf_handover): the driver does
 * not stop what it starts again.
 */
void hwperf_switch_slow(struct hwperf_task *prev, struct hwperf_task *next)
{
	unsigned cpu = hwperf_env_this_cpu();
	struct hwperf_cpu *c = &hwperf_core.cpu[cpu];

	/* c held in a register, as the compiler cannot make it again from
	 * cpu: it made it afresh after each call (a multiply, and on Malta
	 * four more instructions, four times a switch). */
	__asm__("" : "+r"(c));
	/* The scheduler calls with interrupts off (hwperf.h). */
	hwperf_lock_irqs_off(c, cpu);
	if (prev && c->task == prev) {
		if (next && next != prev && hwperf_task_wants_counting(next)) {
			hwperf_handover(c, cpu, next);
			hwperf_unlock_irqs_off(c, cpu);
			return;
		}
		hwperf_unload(cpu);
	}
	if (!hwperf_hooks_quiet(next))
		hwperf_cpu_sync(cpu, next);
	hwperf_unlock_irqs_off(c, cpu);
}

/* A rotation's work between the stop and the start (the driver's
 * rotate op calls it back): the counts folded and acted on, the set
 * placed anew.  Nonzero when the driver refused even an empty set. */
static int rotate_replace(struct pmu_state *st, void *arg)
{
	unsigned cpu = *(const unsigned *)arg;
	struct hwperf_cpu *c = &hwperf_core.cpu[cpu];
	struct hwperf_set *s = c->loaded;

	(void)st;       /* s->pst: the state the driver stopped */
	hwperf_set_fold(s);
	hwperf_thresholds(s, hwperf_owner(cpu), 0);
	return hwperf_place(s, cpu, c->task == NULL, true);
}

/* Stop, replace, start: as one driver step where the driver has one
 * (one clock reading, nothing stopped that starts again), else three. */
static void rotate(unsigned cpu)
{
	const struct pmu_ops *ops = hwperf_core.ops;
	struct hwperf_cpu *c = &hwperf_core.cpu[cpu];
	struct pmu_state *st = &c->loaded->pst;
	int err;

	if (ops->rotate) {
		err = ops->rotate(st, rotate_replace, &cpu);
	} else {
		ops->suspend(st);
		err = rotate_replace(st, &cpu);
		if (err == 0)
			ops->resume(st);
	}
	if (err == 0)
		return;
	/* The driver refused even an empty set: leave the PMU stopped. */
	if (c->task)
		c->task->on_cpu = -1;
	c->loaded = NULL;
	hwperf_hot &= ~(1u << cpu);
	c->task = NULL;
}

void hwperf_tick_slow(struct hwperf_task *cur)
{
	unsigned cpu = hwperf_env_this_cpu();
	unsigned long f;
	struct hwperf_cpu *c = &hwperf_core.cpu[cpu];

	if (!hwperf_core.ready)
		return;
	/* Hot elsewhere only (another CPU's set): nothing loaded here, no
	 * SYSTEM block to load, cur not counting, so hwperf_cpu_sync would
	 * find nothing to do.  Not taking the lock for it keeps an idle CPU's
	 * tick off the lock the loaded CPU's rotation holds. */
	if (!(hwperf_hot & (HWPERF_HOT_SYSTEM | (1u << cpu))) &&
	    !(cur && (cur->flags & HWPERF_TF_ENABLED)))
		return;
	f = hwperf_lock(cpu);
	hwperf_cpu_sync(cpu, cur);
	if (c->loaded && hwperf_needs_rotation(c->loaded))
		rotate(cpu);
	else if (c->loaded)
		hwperf_sample(cpu);
	hwperf_unlock(cpu, f);
}

/* 32 bits: one load on every machine; readers only ask "did it move". */
static uint32_t idle_ticks[HWPERF_MAX_CPUS];

uint64_t hwperf_idle_ticks(void)
{
	uint64_t sum = 0;

	for (unsigned c = 0; c < HWPERF_MAX_CPUS; c++)
		sum += __atomic_load_n(&idle_ticks[c], __ATOMIC_RELAXED);
	return sum;
}

uint32_t hwperf_cpu_ticks_seen(unsigned cpu)
{
	return __atomic_load_n(&idle_ticks[cpu % HWPERF_MAX_CPUS], __ATOMIC_RELAXED);
}

void hwperf_cpu_tick_seen(void)
{
	unsigned cpu = hwperf_env_this_cpu();

	/* Written by its own CPU only; others read it whole (one word). */
	__atomic_store_n(&idle_ticks[cpu % HWPERF_MAX_CPUS],
	                 idle_ticks[cpu % HWPERF_MAX_CPUS] + 1, __ATOMIC_RELAXED);
}

void hwperf_idle_cpu_tick(void)
{
	hwperf_cpu_tick_seen();
	pmu_kernel_event(PMU_KEV_TICKS, PMU_MODE_K, 1, 0);
	hwperf_tick(NULL);
}
