/*
 * mux_bench.c - multiplexing (R13): eight virtual counters on the
 * software PMU's two, each scaled estimate against the exact truth.
 *
 * `sys n W` runs under four slots of syscalls:u and four of cycles:u on a
 * soft PMU of two counters, so every event is on hardware about 2/8 of
 * the time and hwperf rotates them at each tick.  The workload is steady
 * (W turns of a user loop, then one getppid), so an event's count over the time it ran,
 * scaled by enabled / running, must give what it would have counted
 * alone.  The truth comes from the kernel's own accounting of the same
 * task, which never multiplexes: its system calls (n + 1: the loop and
 * exit) and its user time in cycles, cut at the same kernel entries and
 * exits as cycles:u.
 *
 * Checks:
 *   syscalls         accounted system calls == n + 1 (the truth itself)
 *   utime-cycles     accounted user cycles (reported; the cycles truth)
 *   est@I=EVENT      scaled estimate / truth within [0.990, 1.010]
 *   share@I=EVENT    running / enabled in 1/1000s within [220, 280]
 *
 * Why W: each round trip's user time is cut by the cycle counter, which
 * on Malta ticks once per 6 instructions, so a short user stretch is
 * measured to +-1 tick, with a sign set by the Count phase, which the
 * kernel path's length mod 6 sets.  That length depends on what is
 * counted (the kernel-event hooks are skipped while no loaded counter
 * wants them, pmu_kevent.h), so the periods when cycles:u is loaded and
 * those when it is not can round the other way: with bare getppid loops
 * (about 30 user instructions) the estimates fell up to 2% off the
 * truth.  W = SYS_WORK makes the stretch 357 ticks long on Malta (1,841
 * cycles on x86-64), and the rounding at most 0.3%.
 *
 * Why the share bound: placement always gives the hardware to the events
 * that have run least, so no event's running time drifts more than one
 * rotation period L (one tick) from the fair c/e = 2/8 of enabled time E.
 * The share is then 250 +- 1000 * L / E per mille; default n keeps E at
 * 34 ticks or more (under cpi=1 one loop of W = SYS_WORK takes 2,450
 * cycles on x86-64 and 532 Count ticks -- 3,190 instructions -- on Malta,
 * measured as enabled / n of `stat --kv -e syscalls:u sys 200000 300`,
 * so 200,000 loops span 49 and 64 ticks at hz=100), hence +-30.  Estimates and shares rest on
 * time being proportional to work, which holds only under -icount
 * (cpi=1): without it a host stall stretches one event's turn, so they
 * SKIP there.
 */
#include <errno.h>
#include <stdio.h>

#include "bench.h"
#include "bench_soft.h"
#include "bench_task.h"
#include "tools/stat_math.h"

#define MUX_COUNTERS 2
#define MUX_WIDTH 32
#define MUX_EVENTS 8
#define SYS_OTHER_SYSCALLS 1            /* exit, as user/sys.c says */
#define TRUTH_SYSCALLS 0                /* check indices */
#define TRUTH_CYCLES 1
#define FIRST_EST 2
#define FIRST_SHARE (FIRST_EST + MUX_EVENTS)
#define PER_MILLE 1000u
#define EST_MIN_MILLI 990               /* within 1% of the truth */
#define EST_MAX_MILLI 1010
#define SHARE_FAIR (PER_MILLE * MUX_COUNTERS / MUX_EVENTS)
#define SHARE_SLACK 30                  /* 1000 * L / E for E >= 34 ticks */
#define ARGS_MAX 24
#define SYS_WORK 300                    /* user loop turns per system call */

/* Slot i holds syscalls:u for even i, cycles:u for odd i. */
static const char spec[] =
	"@0=syscalls:u,@1=cycles:u,@2=syscalls:u,@3=cycles:u,"
	"@4=syscalls:u,@5=cycles:u,@6=syscalls:u,@7=cycles:u";

static struct bench_prog run;           /* large: off the stack */

static int measure_sys(uint64_t n, struct bench_sample *s)
{
	char args[ARGS_MAX];

	snprintf(args, sizeof(args), "%llu %u", (unsigned long long)n, SYS_WORK);
	int r = bench_run_prog(spec, "sys", args, &run, NULL);
	if (r < 0)
		return r;
	s->value[TRUTH_SYSCALLS] = run.acct.syscalls;
	s->value[TRUTH_CYCLES] = run.acct.user_cycles;
	for (unsigned i = 0; i < MUX_EVENTS; i++) {
		const struct hwperf_counts *c = &run.counts;

		s->value[FIRST_EST + i] = stat_scaled(c->count[i], c->enabled[i], c->running[i]);
		s->value[FIRST_SHARE + i] = c->enabled[i]
			? stat_muldiv(c->running[i], PER_MILLE, c->enabled[i]) : 0;
	}
	return 0;
}

static int measure(uint64_t n, struct bench_sample *s)
{
	struct softpmu_config saved;

	if (!bench_soft_enter(MUX_COUNTERS, MUX_WIDTH, &saved, s))
		return 0;
	int r = measure_sys(n, s);
	int back = bench_soft_leave(&saved);
	return r < 0 ? r : back;
}

#define EST(i, ev, truth) \
	{ .name = "est@" #i "=" ev, .kind = BENCH_RATIO, .needs = BENCH_NEEDS_CPI1, \
	  .ratio_of = (truth), .min_milli = EST_MIN_MILLI, .max_milli = EST_MAX_MILLI }
#define SHARE(i, ev) \
	{ .name = "share@" #i "=" ev, .kind = BENCH_RANGE, .needs = BENCH_NEEDS_CPI1, \
	  .extra = SHARE_FAIR - SHARE_SLACK, .extra_max = SHARE_FAIR + SHARE_SLACK }

static const struct bench mux_bench = {
	.name = "mux",
	.desc = "8 events on 2 soft counters: scaled estimates within 1% of the truth",
	.default_n = 200000,
	.nchecks = 2 + 2 * MUX_EVENTS,
	.checks = {
		[TRUTH_SYSCALLS] = { .name = "syscalls", .kind = BENCH_EXACT, .per_iter = 1,
				     .extra = SYS_OTHER_SYSCALLS },
		[TRUTH_CYCLES] = { .name = "utime-cycles", .kind = BENCH_NOTE },
		EST(0, "syscalls:u", TRUTH_SYSCALLS), EST(1, "cycles:u", TRUTH_CYCLES),
		EST(2, "syscalls:u", TRUTH_SYSCALLS), EST(3, "cycles:u", TRUTH_CYCLES),
		EST(4, "syscalls:u", TRUTH_SYSCALLS), EST(5, "cycles:u", TRUTH_CYCLES),
		EST(6, "syscalls:u", TRUTH_SYSCALLS), EST(7, "cycles:u", TRUTH_CYCLES),
		SHARE(0, "syscalls:u"), SHARE(1, "cycles:u"),
		SHARE(2, "syscalls:u"), SHARE(3, "cycles:u"),
		SHARE(4, "syscalls:u"), SHARE(5, "cycles:u"),
		SHARE(6, "syscalls:u"), SHARE(7, "cycles:u"),
	},
	.measure = measure,
	.subtract_zero_run = false,
};
BENCH(mux, &mux_bench);
