/*
 * inherit.c - counters across fork, exit and wait (R16, R17, R18).
 *
 * A child starts with its parent's control and zero counts, and counts
 * from its first run if the parent was counting.  Its counts return to
 * the parent once: when the parent reaps it, or at its exit if the parent
 * asked (save-child-counters).  A child that lost its counters to SYSTEM
 * mode gives nothing: its counts stopped meaning anything at the loss.
 */
#include <string.h>

#include "env.h"
#include "internal.h"

void hwperf_task_init(struct hwperf_task *t)
{
	memset(t, 0, sizeof(*t));
	t->on_cpu = -1;
	t->set.gen = HWPERF_GEN_FIRST;
}

void hwperf_fork(struct hwperf_task *parent, struct hwperf_task *child)
{
	unsigned cpu = hwperf_env_this_cpu();
	unsigned long f = hwperf_lock(cpu);
	const struct hwperf_set *ps = &parent->set;

	hwperf_task_init(child);
	if (ps->has_ctl) {
		hwperf_set_install(&child->set, &ps->ctl, ps->res);
		hwperf_set_clear(&child->set);
		child->set.profile = ps->profile;
		child->set.gen = ps->gen;
	}
	child->flags = parent->flags & (HWPERF_TF_ENABLED | HWPERF_TF_LOST);
	if ((child->flags & HWPERF_TF_ENABLED) &&
	    !(child->flags & HWPERF_TF_LOST))
		hwperf_holder_add(child);
	hwperf_unlock(cpu, f);
}

static void give_to_parent(struct hwperf_task *parent, struct hwperf_task *child)
{
	if (child->flags & (HWPERF_TF_GIVEN | HWPERF_TF_LOST))
		return;
	/* The child's sums a switch-out left unfolded are its counts too. */
	hwperf_set_catch_up(&child->set);
	hwperf_set_add(&parent->set, &child->set);
	child->flags |= HWPERF_TF_GIVEN;
}

void hwperf_exit(struct hwperf_task *t)
{
	unsigned cpu = hwperf_env_this_cpu();
	unsigned long f = hwperf_lock(cpu);
	struct hwperf_task *parent;

	if (hwperf_core.cpu[cpu].task == t)
		hwperf_unload(cpu);
	t->flags |= HWPERF_TF_EXITED;
	t->flags &= ~HWPERF_TF_ENABLED;
	hwperf_holder_del(t);
	if ((t->flags & HWPERF_TF_SYSHOLDER) && hwperf_core.mode == HWPERF_SYSTEM)
		hwperf_sys_stop(cpu);
	parent = hwperf_env_parent(t);
	if ((t->flags & HWPERF_TF_SAVECHILD) && parent)
		give_to_parent(parent, t);
	hwperf_unlock(cpu, f);
}

void hwperf_reap(struct hwperf_task *parent, struct hwperf_task *child)
{
	unsigned cpu = hwperf_env_this_cpu();
	unsigned long f = hwperf_lock(cpu);

	if (parent)
		give_to_parent(parent, child);
	/* Its slot is about to be reused: whatever went wrong, it must not
	 * stay on the holders list (a phantom USER holder, a looping list). */
	hwperf_holder_del(child);
	hwperf_unlock(cpu, f);
}
