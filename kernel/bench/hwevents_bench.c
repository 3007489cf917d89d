/*
 * hwevents_bench.c - hardware events of a loop of known shape, in the
 * spirit of kvm-unit-tests' x86 PMU test: instructions, branches, branch
 * misses and cache misses (hwevents), loads and stores (hwloadstore).
 *
 * The workload is user/loop.c, the user-mode twin of arch_bench_loop:
 * per iteration `insns` instructions, one load, one store, one
 * conditional branch (kernel/arch.h's arch_loop_shape).  Each event is
 * counted alone, in user mode (NAME:u), in its own run of the program, so
 * no event waits for a counter (no multiplexing) and no interrupt handler
 * is counted; the framework subtracts the run at 0, which carries the
 * program's start, its tick-edge nap and its exit.  What is left is the
 * loop, so:
 *
 *   instructions  [1.00, 1.02] x insns x n   2% for skid: some cores count
 *                                            an extra instruction around
 *                                            each interrupt taken
 *   branches      [1.00, 1.10] x n           one conditional branch a turn;
 *                                            10% as kvm-unit-tests allows
 *   branch-misses n/100 + 64 either way      the loop branch is learnt after
 *                                            a few turns and missed once at
 *                                            the exit; the rest of the
 *                                            program (a few hundred
 *                                            branches, equal in both runs)
 *                                            may predict differently from
 *                                            run to run
 *   cache-misses  n/100 + 64 either way      the loop touches one data line
 *                                            and one or two code lines, all
 *                                            resident after the first turn;
 *                                            the slack is for lines other
 *                                            code (interrupts, once a tick)
 *                                            evicts
 *   loads, stores [1.00, 1.02] x n           one of each a turn
 *
 * These need a hardware PMU that really counts.  Where none does (QEMU),
 * the workload is not run: nothing would count it, and every check SKIPs
 * with the probe's own reason (BENCH_NEEDS_HWPMU; see run.c).  The ranges
 * depend on the machine's loop shape, so they are filled in from
 * arch_loop_shape before each run.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "arch.h"
#include "bench.h"
#include "bench_task.h"
#include "hwperf/hwperf.h"
#include "hwperf/spec.h"
#include "loop_expect.h"

#define HW_DEFAULT_N 1000000u    /* a few ms of loop on real hardware */
#define LOOP_ARG_DIGITS 20       /* as uloop: parsing costs the same for every n */
#define LOOP_ARG_MAX 24
#define SPEC_MAX 64
#define EXACT_SLACK_MILLI 20     /* +2%: instructions, loads, stores */
#define BRANCH_SLACK_MILLI 100   /* +10%: branches */
#define NOISE_MILLI 10           /* 1% of n */
#define NOISE_EXTRA 64           /* events either way, independent of n */

/* Is a hardware driver that passed its liveness probe active?  The same
 * test run.c makes for BENCH_NEEDS_HWPMU. */
static bool hw_counting(void)
{
	const struct pmu_caps *caps = hwperf_caps();

	return caps && caps->counts && caps->cpu_events;
}

/* The first name of names[] the active PMU's tables know, or NULL. */
static const char *known_event(const char *const *names, size_t n)
{
	static struct hwperf_control probe;     /* large: off the stack */
	char spec[SPEC_MAX];

	for (size_t i = 0; i < n; i++) {
		snprintf(spec, sizeof(spec), "%s:u", names[i]);
		if (hwperf_spec_parse(spec, hwperf_caps(), &probe, NULL) == 0)
			return names[i];
	}
	return NULL;
}

/* One run of `loop n` counting `event` in user mode; its count in *out. */
static int count_event(const char *event, uint64_t n, uint64_t *out)
{
	static struct bench_prog p;
	char spec[SPEC_MAX], arg[LOOP_ARG_MAX];

	snprintf(spec, sizeof(spec), "%s:u", event);
	snprintf(arg, sizeof(arg), "%0*llu", LOOP_ARG_DIGITS, (unsigned long long)n);
	int r = bench_run_prog(spec, "loop", arg, &p, NULL);
	if (r < 0)
		return r;
	int slot = bench_slot(&p, event);
	if (slot < 0)
		return -EINVAL;
	*out = p.counts.count[slot];
	return 0;
}

/* n must fit the program's 32-bit loop count. */
static bool n_fits(uint64_t n, struct bench_sample *s)
{
	if (n <= UINT32_MAX)
		return true;
	snprintf(s->skip, sizeof(s->skip), "n=%llu: the loop counts in 32 bits; use n <= %u",
		 (unsigned long long)n, (unsigned)UINT32_MAX);
	return false;
}

/* ---- hwevents ------------------------------------------------------------ */

enum { HW_INSNS, HW_BRANCHES, HW_BRANCH_MISSES, HW_CACHE_MISSES, HW_NCHECKS };

static const char *const hw_event_names[HW_NCHECKS] = {
	[HW_INSNS] = "instructions",
	[HW_BRANCHES] = "branches",
	[HW_BRANCH_MISSES] = "branch-misses",
	[HW_CACHE_MISSES] = "cache-misses",
};

static struct bench hwevents;

static int hwevents_measure(uint64_t n, struct bench_sample *s)
{
	loop_expect_events(&hwevents.checks[HW_INSNS], arch_loop_shape.insns, EXACT_SLACK_MILLI);
	loop_expect_events(&hwevents.checks[HW_BRANCHES], arch_loop_shape.branches, BRANCH_SLACK_MILLI);
	if (!hw_counting() || !n_fits(n, s))
		return 0;
	for (unsigned i = 0; i < HW_NCHECKS; i++) {
		if (!known_event(&hw_event_names[i], 1)) {
			snprintf(s->skip, sizeof(s->skip), "no '%s' event in the %s tables",
				 hw_event_names[i], hwperf_caps()->name);
			return 0;
		}
		int r = count_event(hw_event_names[i], n, &s->value[i]);
		if (r < 0)
			return r;
	}
	return 0;
}

#define NOISE_CHECK(nm) \
	{ .name = nm, .kind = BENCH_RANGE, .needs = BENCH_NEEDS_HWPMU, \
	  .min_milli = -NOISE_MILLI, .max_milli = NOISE_MILLI, \
	  .extra = -NOISE_EXTRA, .extra_max = NOISE_EXTRA }

static struct bench hwevents = {
	.name = "hwevents",
	.desc = "instructions, branches, misses of a known user loop (hardware PMU)",
	.default_n = HW_DEFAULT_N,
	.nchecks = HW_NCHECKS,
	.checks = {
		[HW_INSNS] = { .name = "instructions", .kind = BENCH_RANGE,
			       .needs = BENCH_NEEDS_HWPMU },
		[HW_BRANCHES] = { .name = "branches", .kind = BENCH_RANGE,
				  .needs = BENCH_NEEDS_HWPMU },
		[HW_BRANCH_MISSES] = NOISE_CHECK("branch-misses"),
		[HW_CACHE_MISSES] = NOISE_CHECK("cache-misses"),
	},
	.measure = hwevents_measure,
	.subtract_zero_run = true,
};
BENCH(hwevents, &hwevents);

/* ---- hwloadstore: tables name loads and stores differently ---------------- */

enum { HW_LOADS, HW_STORES, HW_LS_NCHECKS };

static const char *const load_names[] = { "load-insns", "graduated-loads" };
static const char *const store_names[] = { "store-insns", "graduated-stores" };

static struct bench hwloadstore;

static int hwloadstore_measure(uint64_t n, struct bench_sample *s)
{
	loop_expect_events(&hwloadstore.checks[HW_LOADS], arch_loop_shape.loads, EXACT_SLACK_MILLI);
	loop_expect_events(&hwloadstore.checks[HW_STORES], arch_loop_shape.stores, EXACT_SLACK_MILLI);
	if (!hw_counting() || !n_fits(n, s))
		return 0;
	const char *ld = known_event(load_names, sizeof(load_names) / sizeof(load_names[0]));
	const char *st = known_event(store_names, sizeof(store_names) / sizeof(store_names[0]));
	if (!ld || !st) {
		snprintf(s->skip, sizeof(s->skip), "the %s tables name no %s event",
			 hwperf_caps()->name, ld ? "store" : "load");
		return 0;
	}
	int r = count_event(ld, n, &s->value[HW_LOADS]);
	return r < 0 ? r : count_event(st, n, &s->value[HW_STORES]);
}

static struct bench hwloadstore = {
	.name = "hwloadstore",
	.desc = "loads and stores of a known user loop (hardware PMU with such events)",
	.default_n = HW_DEFAULT_N,
	.nchecks = HW_LS_NCHECKS,
	.checks = {
		[HW_LOADS] = { .name = "loads", .kind = BENCH_RANGE, .needs = BENCH_NEEDS_HWPMU },
		[HW_STORES] = { .name = "stores", .kind = BENCH_RANGE, .needs = BENCH_NEEDS_HWPMU },
	},
	.measure = hwloadstore_measure,
	.subtract_zero_run = true,
};
BENCH(hwloadstore, &hwloadstore);
