/*
 * loop_expect.h - what the loop benchmarks expect, from the machine's loop
 * shape (kernel/arch.h's arch_loop_shape).  Pure functions of their
 * arguments, so the host tests can feed them both machines' shapes.
 */
#ifndef TALLY_LOOP_EXPECT_H
#define TALLY_LOOP_EXPECT_H

#include <stdbool.h>
#include <stdint.h>

#include "arch.h"
#include "bench.h"

/* Cycle-counter ticks of one iteration at cpi=1, or 0 when the shape does
 * not make that a whole number (then no exact check can be derived). */
int64_t loop_ticks_per_iter(const struct arch_loop_shape *s);

/*
 * Set c to expect n iterations' ticks.  phase_locked: the two
 * cycle-counter reads that bound the count are laid out so that their
 * truncation cancels (kloop).  Otherwise, on a counter that ticks once per
 * several instructions, each read truncates at a phase nobody chose and the
 * difference of two runs is off by up to one tick either way; with one
 * tick per instruction nothing truncates and the check stays exact.
 */
void loop_expect_cycles(struct bench_check *c, const struct arch_loop_shape *s,
			bool phase_locked);

/* Set c to expect between per and per * (1000 + slack_milli) / 1000 events
 * per iteration (hardware events). */
void loop_expect_events(struct bench_check *c, uint32_t per, int64_t slack_milli);

/* The largest n whose n * per ticks stay within budget (0 if per <= 0). */
uint64_t loop_max_n(uint64_t budget, int64_t per);

#endif
