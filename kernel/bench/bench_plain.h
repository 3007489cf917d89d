/*
 * bench_plain.h - run a built-in user program with no counters of its
 * own, for benchmarks that count system-wide (k-mode events such as
 * context switches and signal deliveries, which the software PMU reports
 * in kernel mode) or that act on the program while it runs.
 */
#ifndef TALLY_BENCH_PLAIN_H
#define TALLY_BENCH_PLAIN_H

#include <stdbool.h>
#include <stdint.h>

#include "proc/acct.h"
#include "bench.h"

/* Start `prog` with the words of `args` as the caller's child: its pid,
 * or -errno. */
int bench_plain_spawn(const char *prog, const char *args);

/* Reap pid: 0 with its wait status and accounting, or -errno. */
int bench_plain_wait(int pid, int *status, struct task_acct *acct);

/* Spawn and reap: 0 when it exited 0 (its accounting in *acct), -ECHILD
 * when it did not, or -errno. */
int bench_plain_run(const char *prog, const char *args, struct task_acct *acct);

/*
 * true, with the reason in s->skip, when this benchmark may not take the
 * PMU into SYSTEM mode: the console is not root (R3/R5), or the PMU is not
 * FREE (some task's counters or SYSTEM mode would be taken from it).
 */
bool bench_pmu_unavailable(struct bench_sample *s);

/*
 * Count `spec` (events with k mode) system-wide while `prog args` runs to
 * its end: *count is virtual counter 0's count over the whole run.  Only
 * when bench_pmu_unavailable allows, and no other user task is alive, so that the count is this run's alone:
 * otherwise s->skip says why and 0 is returned with nothing run.  Returns
 * 0, or -errno (with the program's exit status checked: non-zero is
 * -ECHILD).
 */
int bench_sys_count(const char *spec, const char *prog, const char *args,
		    uint64_t *count, struct task_acct *acct, struct bench_sample *s);

#endif
