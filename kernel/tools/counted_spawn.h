/*
 * counted_spawn.h - start a built-in program with its counters already
 * enabled, for `stat` and `prof`.
 *
 * Counting must start before the program's first instruction.  spawn
 * leaves the child READY, not running; the console is the most urgent
 * task (PRIO_HIGH) and Tally runs one CPU, so the child cannot run until
 * the console waits.  That is checked, not hoped: after enabling, the
 * child must still be READY with no time and no system call accounted,
 * or the run is refused (EBUSY) and the child ended.
 */
#ifndef TALLY_COUNTED_SPAWN_H
#define TALLY_COUNTED_SPAWN_H

#include <stdbool.h>

#include "hwperf/hwperf.h"

struct task;
struct task_profile;

struct counted_run {
	/* NULL: enable nothing for the child, whose counting is already on
	 * elsewhere (stat -a's system-wide set); gen is then not written. */
	const struct hwperf_control *ctl;
	bool profile;                   /* hwperf_profile_enable, not enable */
	struct task_profile *prof;      /* given to the child (profile only) */
	/* Called with the task table locked, before counting starts: may
	 * fill r->prof from the child's address space (no allocation). */
	void (*setup)(struct task *t, struct counted_run *r);
	/* The child's on_reap hook: where its final counts are read. */
	void (*on_reap)(struct task *t, void *arg);
	void *arg;
};

/*
 * Spawn argv[0] with argc - 1 arguments as the console's child, in the
 * console's process group (so a non-root console may touch its counters,
 * R8), and enable r->ctl for it as the console's caller.  Returns the pid
 * and the generation in *gen, or -errno with why filled ("ENAME: ...").
 * On failure r->prof has been freed or never attached: the caller keeps
 * ownership only on success, when the child's slot frees it.
 */
int counted_spawn(int argc, char **argv, struct counted_run *r, int *gen,
		  struct hwperf_reason *why);

/*
 * Wait for a counted child.  Ctrl-C at the console ends it: its counts
 * would be partial, so the child is killed and reaped (its on_reap hook
 * runs), a line `interrupted: pid N killed ...` is printed and -EINTR
 * returned.  Otherwise proc_waitpid's result.
 */
int counted_wait(int pid, int *status);

#endif
