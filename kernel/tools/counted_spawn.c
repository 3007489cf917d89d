/*
 * counted_spawn.c - spawn a program with counters on from its first
 * instruction (see counted_spawn.h for why that holds and how it is
 * checked).
 */
#include <errno.h>
#include <stdio.h>

#include "console/console.h"
#include "tools/counted_spawn.h"
#include "mm/heap.h"
#include "hwperf/hwperf_console.h"
#include "proc/proc.h"
#include "proc/task.h"

/* Arm the reap hook and hand over the profile buffer; false if pid is
 * not our child. */
static bool hook_child(int pid, struct counted_run *r)
{
	irqflags_t f = spin_lock_irqsave(&task_table_lock);
	struct task *t = task_find(pid);
	bool ok = t && t->parent == current_task();

	if (ok) {
		if (r->setup)
			r->setup(t, r);
		t->on_reap = r->on_reap;
		t->on_reap_arg = r->arg;
		t->profile = r->prof;
	}
	spin_unlock_irqrestore(&task_table_lock, f);
	return ok;
}

/* Has the child run at all?  Any run leaves time or a system call. */
static bool child_never_ran(int pid)
{
	irqflags_t f = spin_lock_irqsave(&task_table_lock);
	struct task *t = task_find(pid);
	bool fresh = t && t->state == TASK_READY && t->acct.user_cycles == 0 &&
		     t->acct.sys_cycles == 0 && t->acct.syscalls == 0;

	spin_unlock_irqrestore(&task_table_lock, f);
	return fresh;
}

/* End a child nobody will report on, so it leaves no zombie behind. */
static void discard_child(int pid)
{
	int status;

	proc_kill(pid, SIGKILL);
	proc_waitpid(pid, &status, 0, NULL);
}

static void free_prof(struct task_profile *p)
{
	if (p) {
		kfree(p->buckets);
		kfree(p);
	}
}

static int enable(int pid, const struct counted_run *r, struct hwperf_reason *why)
{
	if (r->profile)
		return hwperf_profile_enable(hwperf_console_caller(), pid, r->ctl, why);
	return hwperf_enable(hwperf_console_caller(), pid, r->ctl, why);
}

int counted_wait(int pid, int *status)
{
	console_intr_arm();
	int r = proc_waitpid(pid, status, 0, NULL);

	console_intr_disarm();
	if (r != -EINTR)
		return r;
	discard_child(pid);
	printf("interrupted: pid %d killed (its counts would be partial)\n", pid);
	return -EINTR;
}

int counted_spawn(int argc, char **argv, struct counted_run *r, int *gen,
		  struct hwperf_reason *why)
{
	struct task *me = current_task();
	struct spawn_req req = {
		.prog = argv[0], .argc = argc, .argv = argv,
		.uid = me->uid, .pgid = me->pgid, .kernel_group = true,
	};
	int pid = proc_spawn(&req);

	if (pid < 0) {
		snprintf(why->text, sizeof(why->text), "%s: cannot start '%s'%s",
			 errno_name(pid), req.prog,
			 pid == -ENOENT ? " (see `programs`)" : "");
		free_prof(r->prof);
		return pid;
	}
	if (!hook_child(pid, r)) {
		snprintf(why->text, sizeof(why->text), "ESRCH: pid %d vanished", pid);
		free_prof(r->prof);
		return -ESRCH;
	}
	if (!r->ctl)
		return pid;
	*gen = enable(pid, r, why);
	if (*gen >= 0 && !child_never_ran(pid)) {
		snprintf(why->text, sizeof(why->text), "EBUSY: pid %d ran before its "
			 "counters were enabled; its counts would miss its start", pid);
		*gen = -EBUSY;
	}
	if (*gen < 0) {
		discard_child(pid);     /* its slot frees the profile */
		return *gen;
	}
	return pid;
}
