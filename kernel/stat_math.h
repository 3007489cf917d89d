/*
 * stat_math.h - the arithmetic of `stat`: scaling a multiplexed count to
 * the whole time its event was wanted, and the share of that time it was
 * really counted.  Pure functions, host-tested (tests/unit/test_stat_math.c).
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

#endif
