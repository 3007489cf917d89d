/*
 * bench_task.h - run a built-in user program under counters, for
 * benchmarks that measure user-mode work or kernel paths a program drives.
 *
 * The program runs as the caller's child with counters enabled before its
 * first instruction (counted_spawn), the caller waits for it, and the
 * counts, the control they were kept under and the kernel's own
 * accounting are read at the last moment they exist (the reap hook).
 * Everything a benchmark needs to compare a count with its truth comes
 * back in one place.
 */
#ifndef TALLY_BENCH_TASK_H
#define TALLY_BENCH_TASK_H

#include <stdint.h>

#include "proc/acct.h"
#include "hwperf/hwperf.h"

/* A program's command line as spawn takes it: "prog" and its words. */
#define BENCH_ARGV_MAX 8
#define BENCH_LINE_MAX 128
struct bench_argv {
	char line[BENCH_LINE_MAX];
	char *argv[BENCH_ARGV_MAX + 1];         /* NULL-terminated */
	int argc;
};

/* A run at n that no two ticks hold is too long for this tick rate, not
 * broken: the benchmark's SKIP reason says so (cost, cost_smp). */
struct bench_sample;
void bench_skip_too_long(struct bench_sample *s, uint64_t n);

/* SIGKILL task pid (if it still exists) and reap it; pid <= 0: nothing. */
void bench_end_task(int pid);

/* Split "prog args" (args may be NULL) into a: 0, -E2BIG or -EINVAL. */
int bench_argv(struct bench_argv *a, const char *prog, const char *args);

struct bench_prog {
	struct hwperf_control ctl;      /* final control (slot layout of counts) */
	struct hwperf_counts counts;    /* final counts, children included (R17) */
	struct task_acct acct;          /* the program's own accounting */
	int gen;                        /* final generation */
	int status;                     /* WAIT_STATUS_* */
	int pid;
};

/*
 * Run `prog` with the words of `args` (space-separated, may be "") under
 * the events of `spec` (user-mode events only, like stat).  Returns 0 when
 * the program ran and exited with status 0, or -errno: the spec did not
 * parse, the program could not start, or it exited non-zero or by a
 * signal (-ECHILD).  On failure *why says which, in one line.  With
 * -ECHILD the program was reaped: out is filled all the same, so a program
 * that reports through its exit status can be read (overflow_bench.c).
 * With why NULL the reason is printed instead, as `bench: PROG ARGS:
 * ENAME: ...`, right above the FAIL it explains.
 */
int bench_run_prog(const char *spec, const char *prog, const char *args,
		   struct bench_prog *out, struct hwperf_reason *why);

/* Index of the first slot of out->ctl whose event is `name` (any modes),
 * or -1. */
int bench_slot(const struct bench_prog *out, const char *name);

struct bench_sample;
/*
 * The slots of the n events `names` in out->ctl, into slots[], for a check
 * that needs exact counts: each event must have been on a counter the
 * whole time it was enabled (a multiplexed count is an estimate).  Returns
 * 0; 1 when one was multiplexed (s->skip then says so: every check
 * SKIPs); -EINVAL when an event is missing.
 */
int bench_exact_slots(const struct bench_prog *out, const char *const *names,
		      int *slots, unsigned n, struct bench_sample *s);

#endif
