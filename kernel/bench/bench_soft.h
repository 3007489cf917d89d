/*
 * bench_soft.h - run a benchmark on a software PMU of a chosen shape
 * (number of counters, width), then put the previous shape back.
 *
 * Multiplexing and wrap-around are properties of the shape, so the
 * benchmarks that test them choose it instead of trusting the boot
 * arguments.  Reshaping is refused unless the soft PMU is the active
 * driver and the PMU is FREE (hwperf_soft_configure): the benchmark then
 * cannot run here, and every check SKIPs with the refusal as its reason.
 */
#ifndef TALLY_BENCH_SOFT_H
#define TALLY_BENCH_SOFT_H

#include <stdbool.h>

#include "bench.h"
#include "pmu/soft/softpmu.h"

/* Reshape; false (and s->skip says why) when that is refused. */
bool bench_soft_enter(unsigned ncounters, unsigned width,
		      struct softpmu_config *saved, struct bench_sample *s);
/* Put the saved shape back.  0, or -errno when that was refused (a task
 * took the counters meanwhile): the caller's measurement then fails. */
int bench_soft_leave(const struct softpmu_config *saved);

#endif
