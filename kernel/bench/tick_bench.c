/*
 * tick_bench.c - the timer tick against the cycle counter.
 *
 * Every soft-PMU count and every time-enabled/time-running figure rests on
 * the cycle counter and its measured rate; the tick rests on an independent
 * timer on x86 (the i8254).  Busy-waiting n ticks' worth of cycles must see
 * n ticks, give or take the one in flight at each end.
 */
#include <errno.h>

#include "arch.h"
#include "bench.h"
#include "time/clock.h"

enum { TICKS, TICKS_FREE, ROUNDS };

/* A free-running round that starved may be measured again, at most this
 * many times in all: a starved host only takes ticks away, so the best
 * round is the one the host disturbed least. */
#define ROUNDS_MAX 5

/* Busy-wait n ticks' worth of cycles from just after a tick; the ticks seen. */
static uint64_t one_round(uint64_t n, uint64_t per_tick)
{
	uint64_t t0 = clock_wait_tick();
	uint64_t c0 = arch_cycles();

	while (arch_cycles() - c0 < n * per_tick)
		;
	return clock_ticks() - t0;
}

static int measure(uint64_t n, struct bench_sample *s)
{
	uint64_t hz = arch_cycles_hz();

	if (hz == 0 || clock_hz == 0)
		return -ENODEV;
	uint64_t per_tick = hz / clock_hz;
	uint64_t first = one_round(n, per_tick), best = first;
	unsigned rounds = 1;

	/* One short of n is in range either way, so only a round that lost
	 * more than the tick in flight is measured again. */
	while (best + 1 < n && rounds < ROUNDS_MAX) {
		uint64_t t = one_round(n, per_tick);

		if (t > best)
			best = t;
		rounds++;
	}
	s->value[TICKS] = first;
	s->value[TICKS_FREE] = best;
	s->value[ROUNDS] = rounds;
	return 0;
}

static const struct bench tick_vs_cycles = {
	.name = "tick_vs_cycles",
	.desc = "n ticks' worth of cycles sees n timer ticks (+-1)",
	.default_n = 50,
	.nchecks = 3,
	.checks = {
		/* Under -icount the timer and the cycle counter run off one
		 * virtual clock: only the ticks in flight at each end differ. */
		[TICKS] = { .name = "ticks", .kind = BENCH_RANGE, .needs = BENCH_NEEDS_CPI1,
		  .min_milli = 1000, .max_milli = 1000, .extra = -1, .extra_max = 1 },
		/* Free-running, QEMU follows host time: a host that starves it
		 * delivers late ticks after the loop has already seen its
		 * cycles, and late edges of the timer merge, so ticks may be
		 * missing (never extra).  CI's loaded 2-core host once lost 7
		 * of 50 in one round: the best of up to ROUNDS_MAX rounds is
		 * checked, within 10% below. */
		[TICKS_FREE] = { .name = "ticks_free", .kind = BENCH_RANGE,
		  .min_milli = 900, .max_milli = 1000, .extra = -1, .extra_max = 1 },
		/* How many rounds that took: 1 unless the host starved QEMU. */
		[ROUNDS] = { .name = "rounds", .kind = BENCH_NOTE },
	},
	.measure = measure,
	.subtract_zero_run = false,
};
BENCH(tick_vs_cycles, &tick_vs_cycles);
