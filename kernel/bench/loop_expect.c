/*
 * loop_expect.c - expectations of the loop benchmarks from the loop's
 * shape (see loop_expect.h).
 */
#include "loop_expect.h"

/* arch/x86_64/bench_loop.asm and arch/mips/bench_loop.S lay the shape out
 * as five 32-bit words; a new field must be added there too. */
_Static_assert(sizeof(struct arch_loop_shape) == 5 * sizeof(uint32_t),
	       "arch_loop_shape is five words in bench_loop.*");

#define MILLI 1000
#define TRUNCATION_TICKS 1      /* one read's truncation, at most, each way */

int64_t loop_ticks_per_iter(const struct arch_loop_shape *s)
{
	if (s->insns_per_tick == 0 || s->insns % s->insns_per_tick != 0)
		return 0;
	return (int64_t)(s->insns / s->insns_per_tick);
}

void loop_expect_cycles(struct bench_check *c, const struct arch_loop_shape *s,
			bool phase_locked)
{
	int64_t per = loop_ticks_per_iter(s);
	int64_t slack = (phase_locked || s->insns_per_tick <= 1) ? 0 : TRUNCATION_TICKS;

	c->per_iter = per;
	c->kind = slack ? BENCH_RANGE : BENCH_EXACT;
	c->min_milli = c->max_milli = per * MILLI;
	c->extra = -slack;
	c->extra_max = slack;
}

void loop_expect_events(struct bench_check *c, uint32_t per, int64_t slack_milli)
{
	c->kind = BENCH_RANGE;
	c->min_milli = (int64_t)per * MILLI;
	c->max_milli = (int64_t)per * (MILLI + slack_milli);
}

uint64_t loop_max_n(uint64_t budget, int64_t per)
{
	return per > 0 ? budget / (uint64_t)per : 0;
}
