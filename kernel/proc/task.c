/*
 * task.c - the task table, pids, credentials and per-CPU structures.
 */
#include <errno.h>
#include <string.h>

#include "mm/heap.h"
#include "mm/page.h"
#include "pmu_kevent.h"
#include "proc/task.h"

/* Pids below this are the boot-time tasks; new ones start here. */
#define PID_FIRST_USER 2

struct spinlock task_table_lock = SPINLOCK_INIT("task_table");

static struct task table[TASK_MAX];
static int next_pid = PID_FIRST_USER;
/* Indexed by machdep_cpu_id() (this_cpu, task.h). */
struct cpu cpus_[CPU_MAX];
static unsigned ncpus = 1;

unsigned cpu_count(void)
{
	return __atomic_load_n(&ncpus, __ATOMIC_ACQUIRE);
}

struct cpu *cpu_get(unsigned id)
{
	return (id < cpu_count() && cpus_[id].online) ? &cpus_[id] : NULL;
}

void cpu_set_online(unsigned id)
{
	__atomic_store_n(&cpus_[id].online, true, __ATOMIC_RELEASE);
	/* CPUs come up in id order, one at a time (smp_boot waits). */
	if (id + 1 > ncpus)
		__atomic_store_n(&ncpus, id + 1, __ATOMIC_RELEASE);
}

void waitq_init(struct waitq *wq, const char *name)
{
	wq->lock = (struct spinlock)SPINLOCK_INIT(name);
	list_init(&wq->head);
}

_Static_assert(PMU_HOLD_CPUS >= CPU_MAX, "every CPU holds its own user cycles");

void task_table_init(void)
{
	for (unsigned i = 0; i < CPU_MAX; i++) {
		cpus_[i].id = i;
		cpus_[i].hold = &pmu_user_hold[i];
		cpus_[i].lock = (struct spinlock)SPINLOCK_INIT("cpu_runq");
		runq_init(&cpus_[i].rq);
		list_init(&cpus_[i].sleepers);
	}
	cpus_[0].online = true;
}

static bool pid_in_use(int pid)
{
	for (unsigned i = 0; i < TASK_MAX; i++) {
		if (table[i].state != TASK_FREE && table[i].pid == pid)
			return true;
	}
	return false;
}

/* Pids count up and wrap, so a reaped pid is not reused at once and a
 * stale pid in a script does not hit an unrelated new task. */
static int pid_next(void)
{
	for (;;) {
		int pid = next_pid;
		next_pid = next_pid >= PID_MAX ? PID_FIRST_USER : next_pid + 1;
		if (!pid_in_use(pid))
			return pid;
	}
}

static struct task *free_slot(void)
{
	for (unsigned i = 0; i < TASK_MAX; i++) {
		if (table[i].state == TASK_FREE)
			return &table[i];
	}
	return NULL;
}

static void task_clear(struct task *t)
{
	memset(t, 0, sizeof(*t));
	list_init(&t->rq_node);
	list_init(&t->wq_node);
	list_init(&t->sleep_node);
	sigstate_init(&t->sig);
	t->prio = PRIO_NORMAL;
	t->pin = -1;
}

void task_init_static(struct task *t, const char *name, int pid)
{
	task_clear(t);
	t->pid = pid;
	task_set_name(t, name);
	waitq_init(&t->child_exit, "child_exit");
}

void task_set_name(struct task *t, const char *name)
{
	strlcpy(t->name, name, sizeof(t->name));
}

static struct task *alloc_slot(const char *name, int pid, bool with_stack, int *err)
{
	void *stack = with_stack ? page_alloc() : NULL;

	if (with_stack && !stack) {
		*err = -ENOMEM;
		return NULL;
	}
	irqflags_t f = spin_lock_irqsave(&task_table_lock);
	struct task *t = free_slot();
	if (!t) {
		spin_unlock_irqrestore(&task_table_lock, f);
		page_free(stack);
		*err = -EAGAIN;
		return NULL;
	}
	task_clear(t);
	t->pid = pid >= 0 ? pid : pid_next();
	/* Not FREE any more, but not yet runnable: the creator finishes it. */
	t->state = TASK_NEW;
	spin_unlock_irqrestore(&task_table_lock, f);

	t->kstack = stack;
	if (stack)
		*(uint64_t *)stack = KSTACK_CANARY;
	task_set_name(t, name);
	waitq_init(&t->child_exit, "child_exit");
	return t;
}

struct task *task_alloc(const char *name, int *err)
{
	return alloc_slot(name, -1, true, err);
}

struct task *task_alloc_boot(const char *name, int pid, bool with_stack, int *err)
{
	return alloc_slot(name, pid, with_stack, err);
}

void task_free(struct task *t)
{
	/* A task that has just ended may still be leaving its CPU, on the
	 * stack freed below. */
	while (__atomic_load_n(&t->on_cpu, __ATOMIC_ACQUIRE))
		arch_lock_relax(true);
	void *stack = t->kstack;
	struct task_profile *prof = t->profile;

	irqflags_t f = spin_lock_irqsave(&task_table_lock);
	t->kstack = NULL;
	t->profile = NULL;
	t->state = TASK_FREE;
	spin_unlock_irqrestore(&task_table_lock, f);
	page_free(stack);
	if (prof) {
		kfree(prof->buckets);
		kfree(prof);
	}
}

struct task *task_find(int pid)
{
	for (unsigned i = 0; i < TASK_MAX; i++) {
		if (table[i].state != TASK_FREE && table[i].pid == pid)
			return &table[i];
	}
	return NULL;
}

void task_foreach(void (*fn)(struct task *t, void *arg), void *arg)
{
	irqflags_t f = spin_lock_irqsave(&task_table_lock);
	for (unsigned i = 0; i < TASK_MAX; i++) {
		if (table[i].state != TASK_FREE)
			fn(&table[i], arg);
	}
	spin_unlock_irqrestore(&task_table_lock, f);
}

struct task *task_slot(unsigned i)
{
	return i < TASK_MAX ? &table[i] : NULL;
}

void task_check_kstack(const struct task *t)
{
	if (t->kstack && *(const uint64_t *)t->kstack != KSTACK_CANARY)
		panic("pid %d (%s) overflowed its %u-byte kernel stack", t->pid,
		      t->name, (unsigned)KSTACK_SIZE);
}

bool task_is_root(const struct task *t)
{
	return t->uid == ROOT_UID;
}

bool task_may_signal(const struct task *by, const struct task *t)
{
	return task_is_root(by) || by->uid == t->uid;
}

bool task_group_has_user(int pgid, unsigned uid)
{
	for (unsigned i = 0; i < TASK_MAX; i++) {
		const struct task *t = task_slot(i);

		if (t->state != TASK_FREE && !t->kthread && t->pgid == pgid &&
		    t->uid == uid)
			return true;
	}
	return false;
}

const char *task_state_name(enum task_state s)
{
	switch (s) {
	case TASK_FREE:     return "free";
	case TASK_NEW:      return "new";
	case TASK_READY:    return "ready";
	case TASK_RUNNING:  return "run";
	case TASK_SLEEPING: return "sleep";
	case TASK_ZOMBIE:   return "zombie";
	}
	return "?";
}
