/*
 * bench_task.c - run a user program under counters and collect its final
 * counts and accounting (see bench_task.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "console/args.h"
#include "bench.h"
#include "bench_task.h"
#include "tools/counted_spawn.h"
#include "hwperf/spec.h"
#include "proc/proc.h"
#include "proc/signal.h"
#include "proc/task.h"
#include "time/clock.h"
#include "uabi.h"

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

int bench_argv(struct bench_argv *a, const char *prog, const char *args)
{
	int n = snprintf(a->line, sizeof(a->line), "%s %s", prog, args ? args : "");

	if (n < 0 || (size_t)n >= sizeof(a->line))
		return -E2BIG;
	a->argc = args_split(a->line, a->argv, BENCH_ARGV_MAX);
	if (a->argc <= 0)
		return -EINVAL;
	a->argv[a->argc] = NULL;
	return 0;
}

static int run_prog(const char *spec, const char *prog, const char *args,
		    struct bench_prog *out, struct hwperf_reason *why)
{
	static struct hwperf_control ctl;       /* large: off the stack */
	static struct bench_argv a;
	int gen;

	memset(out, 0, sizeof(*out));
	if (hwperf_spec_parse(spec, hwperf_caps(), &ctl, why) < 0)
		return -EINVAL;
	int err = bench_argv(&a, prog, args);
	if (err < 0) {
		snprintf(why->text, sizeof(why->text), "%s: cannot make a command line "
			 "of '%s' and its arguments", errno_name(err), prog);
		return err;
	}
	struct counted_run run = { .ctl = &ctl, .on_reap = on_reap };
	collecting = out;
	reaped = false;
	int pid = counted_spawn(a.argc, a.argv, &run, &gen, why);
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

int bench_run_prog(const char *spec, const char *prog, const char *args,
		   struct bench_prog *out, struct hwperf_reason *why)
{
	struct hwperf_reason own;
	int r = run_prog(spec, prog, args, out, why ? why : &own);

	/* Nobody to hand the reason to: it goes on the console, so a FAIL
	 * from "could not measure" has its cause right above it. */
	if (r < 0 && !why)
		printf("bench: %s %s: %s\n", prog, args ? args : "", own.text);
	return r;
}

int bench_slot(const struct bench_prog *out, const char *name)
{
	for (unsigned i = 0; i < HWPERF_NVCTR; i++)
		if (hwperf_name_eq(out->ctl.ev[i].name, name))
			return (int)i;
	return -1;
}

int bench_exact_slots(const struct bench_prog *out, const char *const *names,
		      int *slots, unsigned n, struct bench_sample *s)
{
	for (unsigned k = 0; k < n; k++) {
		slots[k] = bench_slot(out, names[k]);
		if (slots[k] < 0)
			return -EINVAL;
	}
	for (unsigned k = 0; k < n; k++) {
		int i = slots[k];

		if (out->counts.running[i] != out->counts.enabled[i]) {
			snprintf(s->skip, sizeof(s->skip), "%s was multiplexed "
				 "(softpmu_counters=1?)", names[k]);
			return 1;
		}
	}
	return 0;
}

/* The kernel ends its own helpers, whatever uid the console has now
 * (`as UID bench run rules` may not signal a root task). */
void bench_end_task(int pid)
{
	int status;

	if (pid <= 0)
		return;
	irqflags_t f = spin_lock_irqsave(&task_table_lock);
	struct task *t = task_find(pid);
	spin_unlock_irqrestore(&task_table_lock, f);
	if (t)
		signal_send(t, SIGKILL);
	proc_waitpid(pid, &status, 0, NULL);
}

void bench_skip_too_long(struct bench_sample *s, uint64_t n)
{
	snprintf(s->skip, sizeof(s->skip),
		 "no run at n=%llu fits between two ticks at hz=%u (try a smaller -n)",
		 (unsigned long long)n, clock_hz);
}
