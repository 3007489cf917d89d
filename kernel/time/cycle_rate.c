/*
 * cycle_rate.c - find the cycle counter's rate (see cycle_rate.h).
 *
 * Boot used to poll the reference timer for 50 ms; a 1 ms window gives a bound of
 * tens of parts per million, and the snap to the simplest rate inside
 * it recovers the exact rate wherever the counter ticks a whole number
 * of nanoseconds (QEMU under -icount, where the benchmarks derive
 * instructions per tick from this rate).
 */
#include <stdio.h>

#include "bootargs.h"
#include "time/cycle_rate.h"
#include "platform.h"
#include "arch.h"

#define NS_PER_S 1000000000ull

BOOTARG(cyclehz, "cycle counter rate in Hz, instead of measuring it");

static struct cycle_rate current;

static uint64_t distance(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

int cycle_rate_from_window(const struct cycle_window *w, struct cycle_rate *r)
{
	if (w->ref_ticks == 0 || w->cycles == 0 || w->ref_hz == 0)
		return -1;
	uint64_t hz = (w->cycles * w->ref_hz + w->ref_ticks / 2) / w->ref_ticks;
	/* Rounded up, and one more Hz for the rounding of hz itself. */
	uint64_t err = ((w->slack + 2) * w->ref_hz + w->ref_ticks - 1) / w->ref_ticks + 1;

	r->hz = cycle_rate_snap(hz, err);
	r->err_hz = err;
	r->source = w->ref_name;
	return 0;
}

uint64_t cycle_rate_snap(uint64_t hz, uint64_t err)
{
	if (hz == 0)
		return 0;
	uint64_t k = (NS_PER_S + hz / 2) / hz;

	if (k > 0) {
		uint64_t whole_ns = (NS_PER_S + k / 2) / k;
		if (distance(whole_ns, hz) <= err)
			return whole_ns;
	}
	/* Coarsest power of ten first: the first fit has the fewest digits. */
	uint64_t p = 1;
	while (p <= hz / 10)
		p *= 10;
	for (; p > 1; p /= 10) {
		uint64_t c = (hz + p / 2) / p * p;
		if (c > 0 && distance(c, hz) <= err)
			return c;
	}
	return hz;
}

void cycle_rate_set(const struct cycle_rate *r)
{
	current = *r;
}

const struct cycle_rate *cycle_rate_get(void)
{
	return &current;
}

void cycle_rate_print(void)
{
	printf("cycle counter: %llu Hz \xc2\xb1 %llu (%s)\n", (unsigned long long)current.hz,
	       (unsigned long long)current.err_hz, current.source ? current.source : "none");
}

const struct cycle_rate *cycle_rate_boot(uint64_t (*read_cycles)(void),
					 const struct cycle_rate *cpu)
{
	struct cycle_rate r = { 0 };
	uint64_t given = bootarg_u64("cyclehz", 0, CYCLEHZ_MIN, CYCLEHZ_MAX);

	if (!given && bootarg_get("cyclehz"))
		printf("cyclehz: ignored, measuring the rate instead\n");
	if (given) {
		r.hz = given;
		r.source = "cyclehz";
	} else if (cpu) {
		r = *cpu;
	} else {
		for (unsigned i = 0; i < CYCLE_CAL_TRIES; i++) {
			struct cycle_window w;
			struct cycle_rate t;

			platform_ref_window(read_cycles, &w);
			if (cycle_rate_from_window(&w, &t) < 0)
				continue;
			if (r.hz == 0 || t.err_hz < r.err_hz)
				r = t;
			if (r.err_hz * CYCLE_CAL_GOOD_DIV <= r.hz)
				break;
		}
		if (r.hz == 0)
			panic("cycle counter did not move against the reference timer");
	}
	cycle_rate_set(&r);
	return &current;
}
