/*
 * task.h - tasks, the task table, credentials and the per-CPU structure.
 *
 * A task is a kernel thread, or a user program with its own address space
 * (uvm) that enters the kernel through traps.  Every task has one kernel
 * stack of KSTACK_SIZE bytes: keep large objects off it (kmalloc them).
 *
 * Tasks live in a fixed table: a slot is cheap to find, a pid lookup is a
 * scan, and creating a task cannot fragment the heap.  Kernel stacks and
 * user pages come from the page allocator and go back to it when the task
 * is reaped, so spawning and reaping leaves the free page count unchanged.
 */
#ifndef TALLY_TASK_H
#define TALLY_TASK_H

#include <stdbool.h>
#include <stdint.h>

#include "proc/acct.h"
#include "hwperf/hwperf.h"
#include "list.h"
#include "mm/page.h"
#include "proc/runq.h"
#include "proc/signal.h"
#include "machdep.h"
#include "spinlock.h"

struct pmu_user_hold;

#define TASK_MAX 128
#define TASK_NAME_MAX 16
#define PID_MAX 32767
#define PID_IDLE 0              /* CPU 0's idle task */
#define PID_CONSOLE 1           /* the shell: parent of what it spawns */
#define KSTACK_SIZE PAGE_SIZE
/* Written at the lowest word of every kernel stack and checked at each
 * switch: an overflow then panics by name instead of corrupting a page. */
#define KSTACK_CANARY 0x7a11ca9e7a11ca9eull
#define ROOT_UID 0u
#define UID_MAX 65535u

/* ---- wait queues ------------------------------------------------------------ */
struct waitq {
	struct spinlock lock;
	struct list_node head;
};

void waitq_init(struct waitq *wq, const char *name);

enum task_state {
	TASK_FREE,              /* unused slot */
	TASK_NEW,               /* being built by spawn or fork; not runnable */
	TASK_READY,             /* on a run queue */
	TASK_RUNNING,           /* on a CPU */
	TASK_SLEEPING,          /* on a wait queue and/or the timer list */
	TASK_ZOMBIE,            /* exited, waiting to be reaped */
};

struct uvm;
struct hwperf_ring;

/* Optional profile buffer for overflow profiling (R15). */
struct task_profile {
	uintptr_t base;         /* first user PC counted */
	unsigned shift;         /* bucket = (pc - base) >> shift */
	uint32_t nbuckets;
	uint32_t *buckets;      /* kernel memory, read out by a system call */
	/* Sample records (kernel/hwperf/sample.h), or NULL; owned by whoever
	 * armed it (prof, hwperf profile -r), which outlives the task. */
	struct hwperf_ring *ring;
};

struct task {
	int pid;
	enum task_state state;
	char name[TASK_NAME_MAX];
	bool kthread;           /* never runs in user mode */
	bool detached;          /* no parent will reap it: freed at exit */
	int prio;               /* PRIO_* */
	unsigned slice_left;    /* ticks before it must let others run */
	int preempt_off;        /* >0: do not preempt (first run, critical) */
	int cpu;                /* CPU it runs on or last ran on; its sleepers
				 * list while it sleeps (cpu[].lock guards) */
	int pin;                /* the only CPU it may run on, or -1 */
	int rq_cpu;             /* whose run queue it is on while READY */
	/* Set from the moment a CPU picks it until that CPU, having switched
	 * away from it, is off its stack (finish_switch): no other CPU may
	 * switch to it, nor free it, before then. */
	volatile bool on_cpu;
	bool timed_out;         /* its timed sleep ended by the tick */
	bool ran;               /* has been on a CPU (the balancer's test) */
	unsigned giant_saved;   /* giant depth it held when switched out */
	uint64_t migrations;    /* times it ran on another CPU than the last */

	/* credentials and family */
	unsigned uid;
	int pgid;
	struct task *parent;
	/* parent's pid, 0 once orphaned: written with parent under
	 * task_table_lock, read without it (one aligned int), so getppid,
	 * the benchmarks' null system call, takes no lock. */
	int ppid;

	/* scheduling links */
	struct list_node rq_node;       /* run queue */
	struct list_node wq_node;       /* a wait queue */
	struct list_node sleep_node;    /* the timed sleep list */
	uint64_t wake_tick;
	struct waitq *waiting_on;
	/* A kernel thread's waits end with -EINTR while this is set: the
	 * console's Ctrl-C (console.c); user tasks have signals for that. */
	volatile bool wait_intr;

	/* machine state */
	void *kstack;                   /* one page; top is kstack + KSTACK_SIZE */
	uintptr_t ksp;                  /* saved by arch_switch */
	struct trapframe *utf;          /* user context on entry, if any */
	struct uvm *uvm;                /* NULL for kernel threads */

	/* exit */
	int exit_status;                /* WAIT_STATUS_* when ZOMBIE */
	struct waitq child_exit;        /* woken when a child of ours exits */

	/* kernel threads: what to run */
	void (*kfn)(void *);
	void *karg;

	struct sigstate sig;
	struct task_acct acct;
	struct task_acct child_acct;    /* reaped children (RUSAGE_CHILDREN) */
	struct task_profile *profile;
	struct hwperf_task hw;
	/* Called once the task has ended, just before its parent reaps it:
	 * the last moment its final counts can be read (`stat`). */
	void (*on_reap)(struct task *t, void *arg);
	void *on_reap_arg;
};


/* ---- per CPU ----------------------------------------------------------------- */
struct cpu {
	unsigned id;
	struct task *current;
	struct task *idle;
	struct task *prev;              /* switched from; finished by next */
	bool online;                    /* runs the scheduler */
	struct spinlock lock;           /* run queue and sleepers */
	struct runq rq;
	struct list_node sleepers;      /* ordered by wake_tick */
	bool need_resched;
	struct acct_clock clock;
	/* PMU_MODE_* of the innermost interrupt or exception, for the
	 * events its handlers report (trap_current_mode); trap_enter sets
	 * it, a system call's fast entry leaves it (it reports U itself). */
	uint32_t trap_mode;
	uint64_t idle_iterations;
	uint64_t switches;
	uint64_t ticks;                 /* this CPU's own ticks */
	uint64_t pulled;                /* tasks the balancer moved here */
	/* pmu_user_hold[id] (pmu_kevent.h): the user cycles its entries
	 * hold for the PMU's driver, at an address the entry loads. */
	struct pmu_user_hold *hold;
};

/* CPUs the scheduler runs on: ids 0..cpu_count()-1, of which a CPU that
 * failed to start is !online. */
unsigned cpu_count(void);
extern struct cpu cpus_[CPU_MAX];
static inline struct cpu *this_cpu(void)
{
	return machdep_cpu_local(&cpus_[0]);
}
/* CPU id if it runs the scheduler, else NULL. */
struct cpu *cpu_get(unsigned id);
/* An AP joins the scheduler (sched.c). */
void cpu_set_online(unsigned id);
static inline struct task *current_task(void)
{
	return this_cpu()->current;
}

/* ---- the task table --------------------------------------------------------- */
/* Guards slots, pids, parents and states ZOMBIE/FREE. */
extern struct spinlock task_table_lock;

void task_table_init(void);
/* A zeroed slot with a fresh pid and a kernel stack, or NULL (*err says
 * -EAGAIN: table full, -ENOMEM: no page). */
struct task *task_alloc(const char *name, int *err);
/* A boot-time task with a fixed pid: with a kernel stack page, or, when
 * !with_stack, one that runs on the stack it was created on. */
struct task *task_alloc_boot(const char *name, int pid, bool with_stack, int *err);
/* A task outside the table (an AP's idle task): cleared and named. */
void task_init_static(struct task *t, const char *name, int pid);
/* Back to the table: kernel stack, profile, slot.  Not the uvm. */
void task_free(struct task *t);
struct task *task_find(int pid);        /* caller holds task_table_lock */
/* Calls fn for every live (not FREE) task, holding task_table_lock. */
void task_foreach(void (*fn)(struct task *t, void *arg), void *arg);
struct task *task_slot(unsigned i);     /* i < TASK_MAX */
void task_set_name(struct task *t, const char *name);

static inline void *task_kstack_top(const struct task *t)
{
	return (char *)t->kstack + KSTACK_SIZE;
}

/* Panics if t's kernel stack has overflowed its page. */
void task_check_kstack(const struct task *t);
bool task_is_root(const struct task *t);
/* May `by` signal or inspect t?  Root, or the same uid. */
bool task_may_signal(const struct task *by, const struct task *t);
/* Does group pgid hold a user task (not a kernel thread) of uid?  What a
 * non-root task needs to join a group that is not its own.  Caller holds
 * task_table_lock. */
bool task_group_has_user(int pgid, unsigned uid);
const char *task_state_name(enum task_state s);

#endif
