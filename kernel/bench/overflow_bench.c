/*
 * overflow_bench.c - overflow thresholds (R15) end to end: the signal a
 * program asked for arrives after exactly n events of a software event,
 * and within one timer tick of the threshold for cycles.
 *
 * Faults: the software PMU counts a page fault in the hook that sees it,
 * and a counter with a threshold interrupts at once (softpmu.h), so the
 * signal is posted inside the fault and delivered on the return to the
 * store that faulted.  ovfpages touches OVF_ROUNDS * n pages with
 * threshold n: exactly OVF_ROUNDS signals, the first at fault n.
 *
 * Cycles: the software PMU adds user time to cycles:u only at kernel
 * entries, so a threshold crossed while the program spins is seen at the
 * next timer tick at the latest.  ovfspin exits from its handler, so its
 * final cycles:u count is the count at delivery (plus a handful of handler
 * instructions); what it overshoots the threshold by is at most one
 * tick's worth of cycles.  That is exact only where cycles are
 * instructions (cpi=1); the delivery count itself is checked everywhere.
 * R15 posts one signal per threshold crossed, and a user span the host
 * stretches (a vCPU descheduled without -icount) can cross two before
 * the entry that credits it: so the signals are checked against the
 * crossings the final count shows, and those are one only under cpi=1.
 */
#include <errno.h>
#include <stdio.h>

#include "arch.h"
#include "bench.h"
#include "bench_task.h"
#include "time/clock.h"
#include "derive.h"
#include "uabi.h"

#define SPEC_MAX 64
#define ARGS_MAX 32
#define OVF_ROUNDS 4            /* thresholds crossed per run */
#define OVF_SIGNAL SIGUSR1
#define EXIT_STATUS_MAX 255     /* ovfpages reports in its exit status */

static struct bench_prog prog;         /* large: off the stack */

/*
 * Run a program that reports through its exit status: bench_run_prog
 * fills the status and the final counts even when it is not 0.  Returns
 * the status (0..255) or -errno.
 */
static int run_reporting(const char *spec, const char *name, const char *args)
{
	struct hwperf_reason why;
	int r = bench_run_prog(spec, name, args, &prog, &why);

	if (r == -ECHILD && WIFEXITED(prog.status))
		return WEXITSTATUS(prog.status);
	if (r < 0) {
		printf("bench: %s %s: %s\n", name, args, why.text);
		return r;
	}
	return 0;
}

/* ---- a software event: faults:u ----------------------------------------- */

static int measure_faults(uint64_t n, struct bench_sample *s)
{
	char spec[SPEC_MAX], args[ARGS_MAX];

	if (n > EXIT_STATUS_MAX) {
		snprintf(s->skip, sizeof(s->skip), "ovfpages reports the first "
			 "signal's fault in an exit status: n at most %d", EXIT_STATUS_MAX);
		return 0;
	}
	snprintf(spec, sizeof(spec), "faults:u:thresh=%llu,sig=%d",
		 (unsigned long long)n, OVF_SIGNAL);
	snprintf(args, sizeof(args), "%llu count", (unsigned long long)(n * OVF_ROUNDS));
	int handled = run_reporting(spec, "ovfpages", args);
	if (handled < 0)
		return handled;
	int slot = bench_slot(&prog, "faults");
	if (slot < 0)
		return -EINVAL;
	s->value[0] = prog.counts.count[slot];
	s->value[1] = (uint64_t)handled;
	s->value[2] = prog.acct.signals;
	snprintf(args, sizeof(args), "%llu first", (unsigned long long)(n * OVF_ROUNDS));
	int first = run_reporting(spec, "ovfpages", args);
	if (first < 0)
		return first;
	s->value[3] = (uint64_t)first;
	return 0;
}

static const struct bench overflow_faults = {
	.name = "overflow_faults",
	.desc = "faults:u with threshold n: a signal after exactly every n faults, the first at fault n",
	.default_n = 10,
	.nchecks = 4,
	.checks = {
		{ .name = "faults", .kind = BENCH_EXACT, .per_iter = OVF_ROUNDS },
		{ .name = "handled", .kind = BENCH_EXACT, .extra = OVF_ROUNDS },
		{ .name = "acct_signals", .kind = BENCH_EXACT, .extra = OVF_ROUNDS },
		{ .name = "first_at", .kind = BENCH_EXACT, .per_iter = 1 },
	},
	.measure = measure_faults,
	.subtract_zero_run = false,
};
BENCH(overflow_faults, &overflow_faults);

/* ---- cycles: threshold n ticks' worth ----------------------------------- */

enum { OVC_SIGNALS, OVC_OVERSHOOT, OVC_CROSSINGS };

static int measure_cycles(uint64_t n, struct bench_sample *s)
{
	char spec[SPEC_MAX];
	uint64_t hz = arch_cycles_hz();

	if (hz == 0 || clock_hz == 0)
		return -ENODEV;
	uint64_t per_tick = hz / clock_hz;
	uint64_t thresh = n * per_tick;
	snprintf(spec, sizeof(spec), "cycles:u:thresh=%llu,sig=%d",
		 (unsigned long long)thresh, OVF_SIGNAL);
	int r = bench_run_prog(spec, "ovfspin", "", &prog, NULL);
	if (r < 0)
		return r;
	int slot = bench_slot(&prog, "cycles");
	if (slot < 0)
		return -EINVAL;
	uint64_t count = prog.counts.count[slot];
	s->value[OVC_SIGNALS] = prog.acct.signals;
	s->value[OVC_OVERSHOOT] = derive_overshoot_milli(count, thresh, per_tick);
	s->value[OVC_CROSSINGS] = count / thresh;
	if (n < 2) {
		/* A delivery a whole tick late would be a second crossing. */
		s->skip_checks = 1u << OVC_CROSSINGS;
		snprintf(s->skip_checks_why, sizeof(s->skip_checks_why),
			 "one crossing is promised for n of 2 or more");
	}
	return 0;
}

static const struct bench overflow_cycles = {
	.name = "overflow_cycles",
	.desc = "cycles:u with a threshold of n ticks' cycles: a signal per threshold crossed, at most a tick late",
	.default_n = 3,
	.nchecks = 3,
	.checks = {
		[OVC_SIGNALS] = { .name = "signals", .kind = BENCH_SAME,
				  .ratio_of = OVC_CROSSINGS },
		/* In thousandths of a tick: [0, 1000]. */
		[OVC_OVERSHOOT] = { .name = "overshoot_millitick", .kind = BENCH_RANGE,
				    .needs = BENCH_NEEDS_CPI1, .extra = 0,
				    .extra_max = DERIVE_MILLI },
		/* Delivered within a tick of a threshold of n >= 2 ticks:
		 * one (measure_cycles skips it for n = 1). */
		[OVC_CROSSINGS] = { .name = "crossings", .kind = BENCH_EXACT,
				    .needs = BENCH_NEEDS_CPI1, .extra = 1 },
	},
	.measure = measure_cycles,
	.subtract_zero_run = false,
};
BENCH(overflow_cycles, &overflow_cycles);
