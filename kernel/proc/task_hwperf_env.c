/*
 * task_hwperf_env.c - what hwperf asks of tasks (kernel/hwperf/env.h),
 * answered from the task table.  hwperf holds a struct hwperf_task that
 * is embedded in struct task, so each answer starts from container_of.
 *
 * hwperf calls these with its lock held and interrupts off; the task
 * layer never calls hwperf while holding one of its own locks, so taking
 * the task table lock here keeps a fixed order (hwperf, then tasks).
 */
#include <stdio.h>

#include "arch.h"
#include "hwperf/env.h"
#include "hwperf/hwperf.h"
#include "proc/sched.h"
#include "proc/signal.h"
#include "spinlock.h"
#include "proc/task.h"

static struct spinlock hwperf_env_lock_ = SPINLOCK_INIT("hwperf");

static struct task *task_of(const struct hwperf_task *h)
{
	return container_of(h, struct task, hw);
}

struct hwperf_task *hwperf_env_lookup(int pid)
{
	irqflags_t f = spin_lock_irqsave(&task_table_lock);
	struct task *t = task_find(pid);
	/* Kernel threads and tasks still being built or already gone hold
	 * no counters: to hwperf they do not exist.  The console is the one
	 * kernel thread that asks for counters itself (`hwperf sys enable`
	 * is its own PIOCENEVCTRS), so it is visible. */
	bool usable = t && (!t->kthread || t->pid == PID_CONSOLE) &&
		      t->state != TASK_NEW && t->state != TASK_ZOMBIE;
	spin_unlock_irqrestore(&task_table_lock, f);
	return usable ? &t->hw : NULL;
}

int hwperf_env_pid(const struct hwperf_task *t)
{
	return task_of(t)->pid;
}

unsigned hwperf_env_uid(const struct hwperf_task *t)
{
	return task_of(t)->uid;
}

int hwperf_env_pgid(const struct hwperf_task *t)
{
	return task_of(t)->pgid;
}

/* The console spawns tasks and reaps them, so to hwperf it is their
 * parent as `ps` says (as lookup sees it); other kernel threads are not. */
struct hwperf_task *hwperf_env_parent(const struct hwperf_task *t)
{
	struct task *p = task_of(t)->parent;

	return (p && (!p->kthread || p->pid == PID_CONSOLE)) ? &p->hw : NULL;
}

int hwperf_env_task_cpu(const struct hwperf_task *t)
{
	const struct task *k = task_of(t);

	return k->state == TASK_RUNNING ? k->cpu : -1;
}

/* Every online CPU has a PMU to keep, tasks or not. */
unsigned hwperf_env_ncpus(void)
{
	return arch_cpus_online();
}

unsigned hwperf_env_this_cpu(void)
{
	return arch_cpu_id();
}

static void ring_fn(void *arg)
{
	(void)arg;
	hwperf_xcall_serve(arch_cpu_id());
}

int hwperf_env_ring(unsigned cpu)
{
	return arch_cpu_ring(cpu, ring_fn, NULL);
}

/*
 * hwperf posts overflow signals from switch-out and from the overflow
 * interrupt, with scheduler locks held: post only, never wake.  The task
 * is running or about to run (its counters overflowed), so it acts on the
 * signal at its next return to user mode.
 */
void hwperf_env_signal(struct hwperf_task *t, int sig)
{
	signal_post_only(task_of(t), sig);
}

/*
 * R20: a task's refusal is also told on the console.  A refusal the
 * console itself asked for (also under `as`) is already its `err` line.
 */
void hwperf_env_log(const char *line)
{
	if (current_task()->pid == PID_CONSOLE)
		return;
	printf("hwperf: %s\n", line);
}

struct foreach_ctx {
	void (*fn)(struct hwperf_task *t, void *arg);
	void *arg;
};

static void foreach_one(struct task *t, void *arg)
{
	struct foreach_ctx *ctx = arg;

	if (!t->kthread || t->pid == PID_CONSOLE)
		ctx->fn(&t->hw, ctx->arg);
}

void hwperf_env_foreach(void (*fn)(struct hwperf_task *t, void *arg), void *arg)
{
	struct foreach_ctx ctx = { fn, arg };

	task_foreach(foreach_one, &ctx);
}

void hwperf_env_profile_hit(struct hwperf_task *t, uintptr_t pc)
{
	struct task_profile *p = task_of(t)->profile;

	if (!p || pc < p->base)
		return;
	uintptr_t bucket = (pc - p->base) >> p->shift;
	if (bucket < p->nbuckets)
		p->buckets[bucket]++;
}

void hwperf_env_rusage(const struct hwperf_task *t, struct hwperf_rusage *ru)
{
	struct task_acct v;
	const struct task_acct *a = &v;
	uint64_t hz = arch_cycles_hz();

	/* Its fast system calls' pending share included (acct.h). */
	acct_view(&v, &task_of(t)->acct);
	ru->utime_ns = acct_cycles_to_ns(a->user_cycles, hz);
	ru->stime_ns = acct_cycles_to_ns(a->sys_cycles, hz);
	ru->faults = a->faults;
	ru->tlb_refills = a->tlb_user + a->tlb_kernel;
	ru->signals = a->signals;
	ru->vcsw = a->vcsw;
	ru->ivcsw = a->ivcsw;
	ru->syscalls = a->syscalls;
	ru->utime_cycles = a->user_cycles;
	ru->stime_cycles = a->sys_cycles;
}

/* Always inline (across files: LTO), into the read's own frame. */
__attribute__((always_inline)) inline void hwperf_env_counts_out(struct hwperf_counts *out,
                                                                 const struct hwperf_counts *c,
                                                                 uint64_t enabled)
{
	_Static_assert(sizeof(*out) == 3 * HWPERF_NVCTR * sizeof(uint64_t),
		       "hwperf_counts is three arrays of HWPERF_NVCTR words");
	arch_copy_fill_u64((uint64_t *)out, (const uint64_t *)c, enabled,
			   HWPERF_NVCTR);
}

/* One CPU runs: there is no other CPU to interrupt.  SMP sends an IPI. */
void hwperf_env_kick(unsigned cpu)
{
	(void)cpu;
}

unsigned long hwperf_env_lock(void)
{
	return spin_lock_irqsave(&hwperf_env_lock_);
}

void hwperf_env_relax(void)
{
	arch_cpu_relax();
}

bool hwperf_env_trylock(unsigned long *flags)
{
	irqflags_t f = arch_irq_save();

	if (spin_trylock(&hwperf_env_lock_)) {
		*flags = f;
		return true;
	}
	arch_irq_restore(f);
	return false;
}

void hwperf_env_unlock(unsigned long flags)
{
	spin_unlock_irqrestore(&hwperf_env_lock_, flags);
}

bool hwperf_env_trylock_irqs_off(void)
{
	return spin_trylock(&hwperf_env_lock_);
}

void hwperf_env_unlock_irqs_off(void)
{
	spin_unlock(&hwperf_env_lock_);
}
