/*
 * bench.h - self-checking microbenchmarks: data plus a workload.
 *
 * A benchmark names its workload and, for each quantity it measures, what
 * the count must be: exact, within a range, or a ratio of another count,
 * each as a function of the loop count n.  The framework runs the workload
 * at n and at zero iterations and checks the difference, so loop and
 * measurement overhead is measured, never guessed.  A check whose
 * condition does not hold here (exact cycles need cpi=1; hardware events
 * need a counting hardware PMU) is SKIPped with the reason, never passed.
 *
 * Benchmarks register themselves where they live:
 *	BENCH(tick_vs_cycles, &tick_vs_cycles_bench);
 */
#ifndef TALLY_BENCH_H
#define TALLY_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "set.h"

#define BENCH_MAX_CHECKS 24
#define BENCH_REASON_MAX 96

/* Conditions a check may need. */
#define BENCH_NEEDS_CPI1   0x1u  /* boot argument cpi=1: one insn per cycle */
#define BENCH_NEEDS_HWPMU  0x2u  /* a hardware PMU that really counts */

enum bench_kind {
	BENCH_EXACT,    /* count == per_iter * n (+ extra) */
	BENCH_RANGE,    /* min_per_iter * n <= count <= max_per_iter * n, in 1/1000s */
	BENCH_RATIO,    /* count / other's count within [min, max] in 1/1000s */
	BENCH_COST,     /* reported, not checked: cycle-counter ticks per operation */
	BENCH_SAME,     /* count == counts[ratio_of], a truth measured alongside */
	BENCH_NOTE,     /* printed as measured, not checked: a truth SAME checks use */
};

struct bench_check {
	const char *name;               /* what is counted: "cycles", "ticks" */
	enum bench_kind kind;
	uint32_t needs;                 /* BENCH_NEEDS_* */
	/* EXACT: expected = per_iter * n + extra.
	 * RANGE: [min_milli * n / 1000 + extra, max_milli * n / 1000 + extra_max].
	 * RATIO: count * 1000 / counts[ratio_of] in [min_milli, max_milli].
	 * SAME: expected = counts[ratio_of] (e.g. the kernel's own accounting
	 * of what a counter counted), exactly. */
	int64_t per_iter;
	int64_t extra, extra_max;
	int64_t min_milli, max_milli;
	unsigned ratio_of;              /* index of the other check */
};

/* What one run of the workload measured, one value per check. */
struct bench_sample {
	uint64_t value[BENCH_MAX_CHECKS];
	/* COST only: how many operations the workload did for check i.  Left
	 * 0 in both runs, the operations are n (one per iteration). */
	uint64_t ops[BENCH_MAX_CHECKS];
	/* Set by a workload that cannot run here (e.g. no hardware PMU):
	 * every check is SKIPped with this reason. */
	char skip[BENCH_REASON_MAX];
	/* Set by a workload for single checks that cannot run here (bit i:
	 * check i), each SKIPped with skip_checks_why; the others run. */
	uint32_t skip_checks;
	char skip_checks_why[BENCH_REASON_MAX];
};
_Static_assert(BENCH_MAX_CHECKS <= 32, "skip_checks has one bit per check");

struct bench {
	const char *name;
	const char *desc;
	uint64_t default_n;
	unsigned nchecks;
	struct bench_check checks[BENCH_MAX_CHECKS];
	/*
	 * Run the workload n times (n may be 0) and fill s->value[] for every
	 * check.  Returns 0, or a negative errno if it could not measure (the
	 * checks then FAIL: a benchmark that should run but cannot is broken).
	 */
	int (*measure)(uint64_t n, struct bench_sample *s);
	/* true: the check subtracts the n=0 run (overhead).  false: the
	 * workload already returns pure per-n quantities (e.g. tick drift). */
	bool subtract_zero_run;
};

#define BENCH(bname, bptr) SET_ADD(bench, bname, bptr)

SET_DECLARE(bench, const struct bench);

/* ---- running and reporting ---------------------------------------------- */

/* REPORTED: a cost, in the cost table.  NOTED: a measured truth, one INFO
 * line.  Neither is a test. */
enum bench_verdict { BENCH_PASS, BENCH_FAIL, BENCH_SKIP, BENCH_REPORTED, BENCH_NOTED };

struct bench_outcome {
	enum bench_verdict verdict;
	uint64_t count;
	int64_t expected;               /* EXACT, SAME; COST: the operations */
	int64_t min, max;               /* RANGE, RATIO (RATIO in 1/1000s) */
	char reason[BENCH_REASON_MAX];  /* SKIP or FAIL reason, "" otherwise */
};

struct bench_env {
	bool cpi1;                      /* boot argument cpi=1 */
	bool hwpmu_counts;
	const char *hwpmu_reason;       /* why not, for SKIP lines */
	/* Boot argument benchbreak=NAME: that benchmark's expectations are
	 * moved by one past what can hold, to prove the checks can fail. */
	const char *broken;
	/* cpi=1 and the cycle counter's rate is a whole fraction of one
	 * instruction per ns: instructions per cycle-counter tick (x86 TSC 1,
	 * Malta CP0 Count 6 in QEMU).  0: costs stay in ticks. */
	unsigned insns_per_tick;
};

struct bench_totals {
	unsigned tests, failures, skipped, reported;
};

/*
 * Pure evaluation: given the benchmark, n, the two samples and the
 * environment, decide each check.  No I/O, so it is unit-tested on the host.
 */
void bench_evaluate(const struct bench *b, uint64_t n,
		    const struct bench_sample *at_n, const struct bench_sample *at_0,
		    const struct bench_env *env, struct bench_outcome *out);

/* One line per check, in the documented format, into buf. */
int bench_format(char *buf, size_t len, bool json, const struct bench *b,
		 const struct bench_check *c, const struct bench_outcome *o);
void bench_tally(struct bench_totals *t, const struct bench_outcome *o);
/*
 * The cost table row of a REPORTED check, in instructions when
 * env->insns_per_tick is known, else in cycle-counter ticks:
 *   COST: bench: NAME: CHECK per_op=X.ddd unit=insns|ticks n=OPS total=T
 */
int bench_format_cost_row(char *buf, size_t len, bool json, const struct bench *b,
			  const struct bench_check *c, const struct bench_outcome *o,
			  const struct bench_env *env);
/* Instructions per cycle-counter tick for a counter of hz under cpi=1
 * (one instruction per ns), or 0 when hz is not a whole fraction of 1 GHz. */
unsigned bench_insns_per_tick(uint64_t hz);

#endif
