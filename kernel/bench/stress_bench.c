/*
 * stress_bench.c - counters on every CPU under forced takeovers (issue 13).
 *
 * STRESS_TASKS spinning tasks hold USER counters (cycles:u); the console,
 * at every timer tick for n seconds, forces SYSTEM mode (R5: every holder,
 * on whatever CPU it runs, is folded there by cross-call, then loses its
 * counters, R6), releases it, and gives a quarter of the tasks their
 * counters back.  Checks:
 *
 *   ticks            forced takeovers asked for: one per tick (noted)
 *   forced           takeovers that succeeded: all of them
 *   errors           hwperf calls that failed (a CPU that did not answer)
 *   ended            holders that ended during the run (they spin until
 *                    killed: one that ends was killed or crashed); the
 *                    first is reaped and its wait status printed
 *   backwards        reads where a task's count went down within one
 *                    enable (R14)
 *   lost-moved       reads where a task that lost its counters showed a
 *                    count other than the one it had at the loss (R6)
 *   pages-leaked     free pages before the tasks minus after they are
 *                    reaped (0: nothing kept)
 *   clock-backwards  cuts of a CPU's accounting clock during the run that
 *                    found the cycle counter behind its last stamp (a
 *                    VPE's Count under QEMU without -icount steps back:
 *                    docs/design/platforms.md, issue 13); every count
 *                    taken across such a step is off by it
 *   R1-free-after    the PMU is FREE afterwards
 *
 * It needs a second CPU online (on one, every check SKIPs).  Where the
 * tasks run is the scheduler's business: until it runs tasks on the
 * application processors they all run on CPU 0, and the APs take part
 * through their SYSTEM blocks, which every takeover programs, folds and
 * clears on them by cross-call.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "arch.h"
#include "bench.h"
#include "hwperf/hwperf.h"
#include "hwperf/spec.h"
#include "mm/page.h"
#include "bench_task.h"
#include "proc/proc.h"
#include "proc/sched.h"
#include "proc/signal.h"
#include "proc/task.h"
#include "time/clock.h"

#define STRESS_TASKS 64
#define SPIN_FOREVER "forever"          /* runs until killed at the end */
#define USER_SPEC "cycles:u"
#define SYS_SPEC "cycles:k"
#define REENABLE_EVERY 4                /* a quarter of the tasks per tick */

enum { TICKS, FORCED, ERRORS, ENDED, BACKWARDS, LOST_MOVED, PAGES_LEAKED, CLOCK_BACKWARDS,
       R1_FREE_AFTER, NCHECKS };

struct holder {
	int pid;                        /* -1 once it ended (counted, reaped) */
	bool lost;                      /* lost, not enabled again yet */
	uint64_t last;                  /* count at the last read */
};

static struct holder holders[STRESS_TASKS];
static struct hwperf_control user_ctl, sys_ctl;
static struct hwperf_counts counts;


static int spawn_spinner(void)
{
	char *argv[] = { "spin", SPIN_FOREVER, NULL };
	struct spawn_req req = { .prog = "spin", .argc = 2, .argv = argv,
	                         .uid = 0, .pgid = current_task()->pgid };

	return proc_spawn(&req);
}

static void fail_call(struct bench_sample *s, const char *what, const struct hwperf_reason *why)
{
	if (s->value[ERRORS]++ == 0)
		printf("bench: stress: %s: %s\n", what, why->text);
}

/*
 * A holder that ended: count it, reap it and say how it ended (its wait
 * status) and at which tick, for the first one, so that a failure names
 * its cause and not only a count of failed reads.
 */
static void holder_ended(struct holder *h, uint64_t tick, struct bench_sample *s)
{
	struct task_acct a;
	int status;

	if (proc_waitpid(h->pid, &status, WNOHANG, &a) != h->pid)
		return;                 /* still there: the read failed otherwise */
	if (s->value[ENDED]++ == 0) {
		char how[WAIT_TEXT_MAX];

		wait_status_text(status, how, sizeof(how));
		printf("bench: stress: pid %d ended at tick %llu: %s (user cycles %llu, "
		       "system calls %llu, faults %llu)\n", h->pid, (unsigned long long)tick,
		       how, (unsigned long long)a.user_cycles,
		       (unsigned long long)a.syscalls, (unsigned long long)a.faults);
	}
	h->pid = -1;
}

/* Read every task: never backwards while enabled, frozen once lost. */
static void read_all(uint64_t tick, struct bench_sample *s)
{
	struct hwperf_reason why;

	for (unsigned i = 0; i < STRESS_TASKS; i++) {
		struct holder *h = &holders[i];

		if (h->pid < 0)
			continue;
		if (hwperf_read(NULL, h->pid, &counts, &why) < 0) {
			holder_ended(h, tick, s);
			if (h->pid >= 0)
				fail_call(s, "read", &why);
			continue;
		}
		if (h->lost)
			s->value[LOST_MOVED] += counts.count[0] != h->last;
		else
			s->value[BACKWARDS] += counts.count[0] < h->last;
		h->last = counts.count[0];
	}
}

static void takeover(uint64_t tick, struct bench_sample *s)
{
	struct hwperf_reason why;

	s->value[TICKS]++;
	if (hwperf_sys_acquire(NULL, &sys_ctl, &why) < 0) {
		fail_call(s, "force", &why);
		return;
	}
	s->value[FORCED]++;
	/* The counts the losers keep: each was folded on its own CPU first. */
	for (unsigned i = 0; i < STRESS_TASKS; i++) {
		if (holders[i].pid < 0)
			continue;
		if (hwperf_read(NULL, holders[i].pid, &counts, &why) < 0) {
			fail_call(s, "read after force", &why);
			continue;
		}
		holders[i].lost = true;
		holders[i].last = counts.count[0];
	}
	if (hwperf_sys_release(NULL, &why) < 0)
		fail_call(s, "release", &why);
	for (unsigned i = (unsigned)(tick % REENABLE_EVERY); i < STRESS_TASKS; i += REENABLE_EVERY) {
		if (holders[i].pid < 0)
			continue;
		if (hwperf_enable(NULL, holders[i].pid, &user_ctl, &why) < 0) {
			fail_call(s, "enable again", &why);
			continue;
		}
		holders[i].lost = false;
		holders[i].last = 0;    /* a new enable counts from zero (R4) */
	}
}

static int cast_up(struct bench_sample *s)
{
	struct hwperf_reason why;

	memset(holders, 0, sizeof(holders));
	for (unsigned i = 0; i < STRESS_TASKS; i++) {
		holders[i].pid = spawn_spinner();
		if (holders[i].pid < 0)
			return holders[i].pid;
		if (hwperf_enable(NULL, holders[i].pid, &user_ctl, &why) < 0)
			fail_call(s, "enable", &why);
	}
	return 0;
}

static int measure(uint64_t n, struct bench_sample *s)
{
	struct hwperf_reason why;
	size_t pages0;
	uint64_t back0;
	int r;

	if (arch_cpus_online() < 2) {
		snprintf(s->skip, sizeof(s->skip),
		         "one CPU online: the stress is about several (qemu -smp 4)");
		return 0;
	}
	if (hwperf_mode() != HWPERF_FREE || clock_hz == 0) {
		snprintf(s->skip, sizeof(s->skip), "the PMU is not FREE (mode %s) or no tick",
		         hwperf_mode_name(hwperf_mode()));
		return 0;
	}
	if (hwperf_spec_parse(USER_SPEC, hwperf_caps(), &user_ctl, &why) < 0 ||
	    hwperf_spec_parse(SYS_SPEC, hwperf_caps(), &sys_ctl, &why) < 0) {
		snprintf(s->skip, sizeof(s->skip), "the active PMU cannot count: %s", why.text);
		return 0;
	}
	/* A first cast, ended at once, pays the one-time growth of kernel
	 * memory for this many tasks (as the cost rows' warm-up run does):
	 * what the measured run keeps after it is then a leak. */
	r = cast_up(s);
	for (unsigned i = 0; i < STRESS_TASKS; i++)
		bench_end_task(holders[i].pid);
	pages0 = page_free_count();
	back0 = sched_clock_backwards();
	if (r == 0)
		r = cast_up(s);
	for (uint64_t tick = 0; r == 0 && tick < n * clock_hz; tick++) {
		sched_sleep_ticks(1);   /* the tasks run */
		read_all(tick, s);
		takeover(tick, s);
	}
	for (unsigned i = 0; i < STRESS_TASKS; i++)
		bench_end_task(holders[i].pid);
	size_t pages1 = page_free_count();
	s->value[PAGES_LEAKED] = pages0 > pages1 ? pages0 - pages1 : pages1 - pages0;
	s->value[CLOCK_BACKWARDS] = sched_clock_backwards() - back0;
	s->value[R1_FREE_AFTER] = (uint64_t)hwperf_mode();
	return r;
}

#define IS(nm, v) { .name = nm, .kind = BENCH_EXACT, .extra = (v) }

static const struct bench stress_bench = {
	.name = "stress",
	.desc = "64 tasks with counters, forced takeover every tick, every CPU (n seconds)",
	.default_n = 10,
	.nchecks = NCHECKS,
	.checks = {
		[TICKS] = { .name = "ticks", .kind = BENCH_NOTE },
		[FORCED] = { .name = "forced", .kind = BENCH_SAME, .ratio_of = TICKS },
		[ERRORS] = IS("errors", 0),
		[ENDED] = IS("ended", 0),
		[BACKWARDS] = IS("backwards", 0),
		[LOST_MOVED] = IS("lost-moved", 0),
		[PAGES_LEAKED] = IS("pages-leaked", 0),
		[CLOCK_BACKWARDS] = IS("clock-backwards", 0),
		[R1_FREE_AFTER] = IS("R1-free-after", HWPERF_FREE),
	},
	.measure = measure,
	.subtract_zero_run = false,
};
BENCH(stress, &stress_bench);
