/*
 * bench_task.c - run a user program under counters and collect its final
 * counts and accounting (see bench_task.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "bench_task.h"
#include "counted_spawn.h"
#include "hwperf/spec.h"
#include "proc.h"
#include "task.h"
#include "uabi.h"

#define PROG_ARGV_MAX 8
#define PROG_LINE_MAX 128

/* Filled by the child's reap hook; benchmarks run one at a time. */
static struct bench_prog *collecting;
static bool reaped;

static void on_reap(struct task *t, void *arg)
{
	(void)arg;
	if (!collecting)
		return;
	collecting->gen = hwperf_task_final(&t->hw, &collecting->ctl, &collecting->counts);
	collecting->acct = t->acct;
	reaped = true;
}

int bench_run_prog(const char *spec, const char *prog, const char *args,
		   struct bench_prog *out, struct hwperf_reason *why)
{
	static struct hwperf_control ctl;       /* large: off the stack */
	char line[PROG_LINE_MAX];
	char *argv[PROG_ARGV_MAX + 1];
	int gen;

	memset(out, 0, sizeof(*out));
	if (hwperf_spec_parse(spec, hwperf_caps(), &ctl, why) < 0)
		return -EINVAL;
	int n = snprintf(line, sizeof(line), "%s %s", prog, args ? args : "");
	if (n < 0 || (size_t)n >= sizeof(line)) {
		snprintf(why->text, sizeof(why->text), "E2BIG: arguments of '%s' too long", prog);
		return -E2BIG;
	}
	int argc = args_split(line, argv, PROG_ARGV_MAX);
	if (argc <= 0) {
		snprintf(why->text, sizeof(why->text), "EINVAL: cannot split '%s'", line);
		return -EINVAL;
	}
	argv[argc] = NULL;

	struct counted_run run = { .ctl = &ctl, .on_reap = on_reap };
	collecting = out;
	reaped = false;
	int pid = counted_spawn(argc, argv, &run, &gen, why);
	if (pid < 0) {
		collecting = NULL;
		return pid;
	}
	out->pid = pid;
	int r = proc_waitpid(pid, &out->status, 0, NULL);
	collecting = NULL;
	if (r < 0 || !reaped) {
		snprintf(why->text, sizeof(why->text), "%s: waiting for pid %d failed",
			 errno_name(r < 0 ? r : -ECHILD), pid);
		return r < 0 ? r : -ECHILD;
	}
	if (!WIFEXITED(out->status) || WEXITSTATUS(out->status) != 0) {
		snprintf(why->text, sizeof(why->text), "ECHILD: '%s' ended with status 0x%x",
			 prog, (unsigned)out->status);
		return -ECHILD;
	}
	return 0;
}

int bench_slot(const struct bench_prog *out, const char *name)
{
	for (unsigned i = 0; i < HWPERF_NVCTR; i++)
		if (hwperf_name_eq(out->ctl.ev[i].name, name))
			return (int)i;
	return -1;
}
