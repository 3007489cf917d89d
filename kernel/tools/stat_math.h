/*
 * stat_math.h - the arithmetic of `stat`: scaling a multiplexed count to
 * the whole time its event was wanted, and the share of that time it was
 * really counted.  Pure functions, host-tested (tests/unit/kernel/tools/test_stat_math.c).
 */
#ifndef TALLY_STAT_MATH_H
#define TALLY_STAT_MATH_H

#include <stdint.h>

/* a * b / c, exact for every 64-bit a, b and c > 0, without a 128-bit
 * type (MIPS32 has none); UINT64_MAX when the result does not fit, and
 * for c == 0. */
uint64_t stat_muldiv(uint64_t a, uint64_t b, uint64_t c);

/* count * enabled / running: the estimate of what the event would have
 * counted had it been on a counter all the time.  A counter that never
 * ran estimates 0. */
uint64_t stat_scaled(uint64_t count, uint64_t enabled, uint64_t running);

/* running / enabled in hundredths of a percent (10000 = 100.00%), rounded
 * down; 10000 when the event was never wanted (nothing was missed). */
unsigned stat_running_pct100(uint64_t running, uint64_t enabled);

/* The mean of n values (n >= 1), rounded to nearest; exact for any 64-bit
 * values (no sum that overflows). */
uint64_t stat_mean(const uint64_t *v, unsigned n);

/*
 * perf stat -r's spread: the standard deviation of the mean (sample
 * standard deviation over sqrt(n)) as a share of the mean, in hundredths
 * of a percent (123 = 1.23%).  0 for n < 2 or a mean of 0.  Each value's
 * distance from the mean is taken in millionths of the mean and capped at
 * STAT_NOISE_CAP_PPM, so the squares of 100 runs fit in 64 bits; a run
 * that far off saturates the figure rather than wrapping it.
 */
#define STAT_NOISE_CAP_PPM 400000000u
#define STAT_RUNS_MAX 100
unsigned stat_noise_pct100(const uint64_t *v, unsigned n);

/* floor(sqrt(x)) for any 64-bit x. */
uint64_t stat_isqrt(uint64_t x);

/* v in decimal with a comma every three digits ("12,345,678"), as perf
 * prints counts; returns buf.  len >= 27 holds any 64-bit value. */
#define STAT_COMMAS_LEN 27
char *stat_commas(uint64_t v, char *buf, unsigned len);

/* num / den with three decimals, as thousandths (num * 1000 / den, rounded
 * down); UINT64_MAX when den is 0 or it does not fit. */
uint64_t stat_ratio_milli(uint64_t num, uint64_t den);

#endif
