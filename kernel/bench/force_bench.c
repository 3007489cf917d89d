/*
 * force_bench.c - the forced system acquire (R5) against a USER holder
 * that is asleep, and what the holder sees when it wakes (R6).
 *
 * hwlose (user/hwlose.c) enables syscalls:u for itself and sleeps.  Once
 * it sleeps with its counters, the benchmark, as the kernel (root), forces
 * SYSTEM mode with a k-mode event and releases it, n times.  The first
 * acquire takes the holder's counters: its generation goes up by one and
 * it is marked lost.  The later ones find no USER holder, and a lost set
 * is never restarted (not even when SYSTEM mode ends), so they change
 * nothing: the bump stays exactly one at every n.  The holder, woken,
 * reports its own view in its exit status ((G1 - G0) << 1 | lost); the
 * kernel's view of the holder's generation is checked alongside.
 */
#include <errno.h>
#include <stdio.h>

#include "bench.h"
#include "bench_plain.h"
#include "derive.h"
#include "hwperf/hwperf.h"
#include "hwperf/spec.h"
#include "proc/proc.h"
#include "proc/sched.h"
#include "proc/task.h"
#include "uabi.h"

#define HOLD_MS "200"           /* the holder's sleep: far longer than n acquires */
#define POLL_TICKS_MAX 50       /* for the holder to enable and fall asleep */
#define SYS_SPEC "syscalls:k"   /* any k-mode event makes the acquire legal */

static struct hwperf_control sys_ctl;
static struct hwperf_counts counts;

/* Asleep, with counters enabled (a root read returns its generation). */
static bool holding_asleep(int pid, int *gen)
{
	irqflags_t f = spin_lock_irqsave(&task_table_lock);
	struct task *t = task_find(pid);
	bool asleep = t && t->state == TASK_SLEEPING;

	spin_unlock_irqrestore(&task_table_lock, f);
	*gen = hwperf_read(NULL, pid, &counts, NULL);
	return asleep && *gen > 0;
}

static int wait_holding(int pid, int *gen)
{
	for (unsigned i = 0; i < POLL_TICKS_MAX; i++) {
		if (holding_asleep(pid, gen))
			return 0;
		sched_sleep_ticks(1);
	}
	return -EAGAIN;      /* the holder never got its counters or never slept */
}

/* n forced acquires, each released at once; how many succeeded, or -errno. */
static int force_n(uint64_t n)
{
	struct hwperf_reason why;
	int done = 0;

	if (hwperf_spec_parse(SYS_SPEC, hwperf_caps(), &sys_ctl, &why) < 0)
		return -EINVAL;
	for (uint64_t i = 0; i < n; i++) {
		int r = hwperf_sys_acquire(NULL, &sys_ctl, &why);
		if (r < 0) {
			printf("bench: force_acquire: %s\n", why.text);
			return r;
		}
		hwperf_sys_release(NULL, &why);
		done++;
	}
	return done;
}

static void end_holder(int pid)
{
	int status;

	proc_kill(pid, SIGKILL);
	bench_plain_wait(pid, &status, NULL);
}

static int measure(uint64_t n, struct bench_sample *s)
{
	int g0, g1, status;

	if (bench_pmu_unavailable(s))
		return 0;
	int pid = bench_plain_spawn("hwlose", HOLD_MS);
	if (pid < 0)
		return pid;
	int r = wait_holding(pid, &g0);
	if (r == 0)
		r = force_n(n);
	if (r < 0) {
		end_holder(pid);
		return r;
	}
	s->value[0] = (uint64_t)r;
	g1 = hwperf_read(NULL, pid, &counts, NULL);
	s->value[3] = g1 >= g0 ? (uint64_t)(g1 - g0) : 0;
	r = bench_plain_wait(pid, &status, NULL);
	if (r < 0)
		return r;
	struct holder_report rep;
	if (!WIFEXITED(status) || !derive_holder_report((unsigned)WEXITSTATUS(status), &rep))
		return -ECHILD;
	s->value[1] = rep.gen_bump;
	s->value[2] = rep.lost;
	return 0;
}

static const struct bench force_acquire = {
	.name = "force_acquire",
	.desc = "n forced system acquires while a USER holder sleeps: it sees gen + 1 and lost (R5/R6)",
	.default_n = 3,
	.nchecks = 4,
	.checks = {
		{ .name = "acquired", .kind = BENCH_EXACT, .per_iter = 1 },
		{ .name = "gen_bump", .kind = BENCH_EXACT, .extra = 1 },
		{ .name = "lost", .kind = BENCH_EXACT, .extra = 1 },
		{ .name = "root_sees_gen_bump", .kind = BENCH_EXACT, .extra = 1 },
	},
	.measure = measure,
	.subtract_zero_run = false,
};
BENCH(force_acquire, &force_acquire);
