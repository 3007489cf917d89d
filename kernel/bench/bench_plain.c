/*
 * bench_plain.c - plain program runs and system-wide counts around them
 * (see bench_plain.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bench_plain.h"
#include "bench_task.h"
#include "hwperf/hwperf.h"
#include "hwperf/spec.h"
#include "proc/proc.h"
#include "proc/task.h"
#include "uabi.h"

int bench_plain_spawn(const char *prog, const char *args)
{
	static struct bench_argv a;
	struct task *me = current_task();
	int err = bench_argv(&a, prog, args);

	if (err < 0)
		return err;
	struct spawn_req req = {
		.prog = a.argv[0], .argc = a.argc, .argv = a.argv,
		.uid = me->uid, .pgid = me->pgid,
	};
	return proc_spawn(&req);
}

int bench_plain_wait(int pid, int *status, struct task_acct *acct)
{
	int r = proc_waitpid(pid, status, 0, acct);

	return r < 0 ? r : 0;
}

int bench_plain_run(const char *prog, const char *args, struct task_acct *acct)
{
	int status;
	int pid = bench_plain_spawn(prog, args);

	if (pid < 0)
		return pid;
	int r = bench_plain_wait(pid, &status, acct);
	if (r < 0)
		return r;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -ECHILD;
}

static void count_user_task(struct task *t, void *arg)
{
	unsigned *n = arg;

	if (t->uvm && t->state != TASK_ZOMBIE)
		(*n)++;
}

bool bench_pmu_unavailable(struct bench_sample *s)
{
	struct task *me = current_task();
	enum hwperf_mode mode = hwperf_mode();

	if (!task_is_root(me)) {
		snprintf(s->skip, sizeof(s->skip), "SYSTEM mode needs root (R3/R5); "
			 "the console runs as uid %u", me->uid);
		return true;
	}
	if (mode != HWPERF_FREE) {
		snprintf(s->skip, sizeof(s->skip), "the PMU is in %s mode; SYSTEM "
			 "mode would take it", hwperf_mode_name(mode));
		return true;
	}
	return false;
}

/* true, with the reason in s->skip, if a system-wide count would not be
 * this run's alone. */
static bool shared_machine(struct bench_sample *s)
{
	unsigned others = 0;

	if (bench_pmu_unavailable(s))
		return true;
	task_foreach(count_user_task, &others);
	if (others) {
		snprintf(s->skip, sizeof(s->skip), "%u other user task%s alive: a "
			 "system-wide count would include theirs", others,
			 others == 1 ? " is" : "s are");
		return true;
	}
	return false;
}

int bench_sys_count(const char *spec, const char *prog, const char *args,
		    uint64_t *count, struct task_acct *acct, struct bench_sample *s)
{
	static struct hwperf_control ctl;       /* large: off the stack */
	static struct hwperf_counts counts;
	struct hwperf_reason why;

	if (shared_machine(s))
		return 0;
	if (hwperf_spec_parse(spec, hwperf_caps(), &ctl, &why) < 0)
		return -EINVAL;
	int r = hwperf_sys_acquire(NULL, &ctl, &why);
	if (r < 0)
		return r;
	r = bench_plain_run(prog, args, acct);
	int rd = hwperf_sys_read(NULL, &counts, &why);
	hwperf_sys_release(NULL, &why);
	if (r < 0)
		return r;
	if (rd < 0)
		return rd;
	*count = counts.count[0];
	return 0;
}
