/*
 * Host tests of the placement engine (kernel/events/place.c) against
 * brute force: what it keeps, where it puts it, and what it depends on.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "events/place.h"

#define NCTR 5
#define NEV 8

/* Can every event of set sit on its own counter of its mask? */
static bool fits(const uint32_t *mask, uint32_t set, uint32_t used)
{
	unsigned i;

	if (!set)
		return true;
	i = (unsigned)__builtin_ctz(set);
	for (unsigned hw = 0; hw < NCTR; hw++)
		if ((mask[i] & ~used & (1u << hw)) &&
		    fits(mask, set & (set - 1), used | 1u << hw))
			return true;
	return false;
}

static unsigned ones(uint32_t m)
{
	return (unsigned)__builtin_popcount(m);
}

/* Rank, then fewest counters, then index: the order place.h promises. */
static bool goes_first(const struct ev_place *p, unsigned a, unsigned b)
{
	if (p->rank[a] != p->rank[b])
		return p->rank[a] < p->rank[b];
	if (ones(p->mask[a]) != ones(p->mask[b]))
		return ones(p->mask[a]) < ones(p->mask[b]);
	return a < b;
}

static void test_place_keeps_what_fits_in_priority_order(void **state)
{
	static struct ev_place p, q;
	uint32_t seed = 777;

	(void)state;
	for (unsigned round = 0; round < 20000; round++) {
		unsigned n = 1 + round % NEV;
		uint32_t kept = 0, busy = 0;
		bool done[NEV] = { false };

		memset(&p, 0, sizeof(p));
		seed = seed * 1103515245u + 12345u;
		p.fixed = (seed >> 16) & 0x18u;
		for (unsigned i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			/* 0: nowhere; every 4th round all alike (the soft PMU) */
			p.mask[i] = round % 4 == 0 && i > 0 ? p.mask[0] :
			            (seed >> 16) % 32u;
			p.rank[i] = (seed >> 24) % 3u;
			p.want |= 1u << i;
		}
		events_place(&p);
		/* Greedy by priority: an event is kept iff it fits with every
		 * event kept before it. */
		for (unsigned k = 0; k < n; k++) {
			unsigned best = NEV;

			for (unsigned i = 0; i < n; i++)
				if (!done[i] && (best == NEV || goes_first(&p, i, best)))
					best = i;
			done[best] = true;
			if (fits(p.mask, kept | 1u << best, 0))
				kept |= 1u << best;
		}
		assert_int_equal(p.placed, kept);
		assert_int_equal(p.nplaced, ones(kept));
		for (unsigned k = 0; k < p.nplaced; k++) {
			unsigned i = p.order[k], hw = p.hw[i];

			assert_true(k == 0 || goes_first(&p, p.order[k - 1], i));
			assert_true(p.mask[i] & (1u << hw));
			assert_false(busy & (1u << hw));
			busy |= 1u << hw;
		}
		for (unsigned i = 0; i < n; i++)
			if (!(kept & (1u << i)))
				assert_int_equal(p.hw[i], EV_PLACE_NONE);
		/* Fixed counters first: none left free that a kept event on a
		 * general counter could have had. */
		for (unsigned i = 0; i < n; i++)
			if ((kept & (1u << i)) && !(p.fixed & (1u << p.hw[i])))
				assert_false(p.mask[i] & p.fixed & ~busy);
		/* The counters depend on which events are kept, not on rank. */
		q = p;
		q.want = kept;
		memset(q.rank, 0, sizeof(q.rank));
		events_place(&q);
		for (unsigned i = 0; i < n; i++)
			if (kept & (1u << i))
				assert_int_equal(q.hw[i], p.hw[i]);
	}
}

static void test_place_32_on_2_takes_least_ranked(void **state)
{
	static struct ev_place p;

	(void)state;
	memset(&p, 0, sizeof(p));
	p.want = ~0u;
	for (unsigned i = 0; i < EV_PLACE_MAX; i++) {
		p.mask[i] = 0x3;
		p.rank[i] = 100 - i;    /* the last two ran least */
	}
	assert_int_equal(events_place(&p), 2);
	assert_int_equal(p.order[0], 31);
	assert_int_equal(p.order[1], 30);
	/* Canonical counters: by index among the kept, rank aside. */
	assert_int_equal(p.hw[30], 0);
	assert_int_equal(p.hw[31], 1);
	/* A narrower table constraint (nctr) goes first on equal rank. */
	memset(&p, 0, sizeof(p));
	p.want = 0x3;
	p.mask[0] = 0x1;
	p.mask[1] = 0x1;
	p.nctr[0] = 2;
	assert_int_equal(events_place(&p), 1);
	assert_int_equal(p.placed, 0x2);
}

/* A small generator, so every run checks the same cases. */
static uint32_t next_rand(uint32_t *x)
{
	*x = *x * 1103515245u + 12345u;
	return *x >> 8;
}

/*
 * events_pick_least against the engine: for crowded sets of alike events
 * (one mask, no fixed counter) with ranks that often tie, the same events
 * in the same order, and each on the engine's counter when the i-th by
 * index takes the mask's i-th counter.  Ranks are read at a stride, as
 * hwperf reads time-running from its virtual counters.
 */
static void test_pick_least_is_the_engines_answer(void **state)
{
	static struct ev_place p;
	uint32_t x = 7;

	(void)state;
	for (unsigned trial = 0; trial < 2000; trial++) {
		uint64_t key[EV_PLACE_MAX][3];
		uint32_t mask = 0, want = 0, free;
		uint8_t order[EV_PLACE_COUNTERS];
		unsigned n, c;

		while (!mask)
			mask = next_rand(&x) & 0x1f;
		c = ones(mask);
		while (ones(want) <= c)
			want |= 1u << (next_rand(&x) % EV_PLACE_MAX);
		memset(&p, 0, sizeof(p));
		memset(key, 0xa5, sizeof(key));
		p.want = want;
		for (unsigned i = 0; i < EV_PLACE_MAX; i++) {
			p.mask[i] = mask;
			p.rank[i] = next_rand(&x) % (trial % 2 ? 4 : 1000);
			key[i][1] = p.rank[i];
		}
		n = events_pick_least(&key[0][1], 3, want, c, order);
		assert_int_equal(events_place(&p), n);
		assert_int_equal(n, c);
		assert_memory_equal(order, p.order, n);
		free = mask;
		for (unsigned i = 0; i < EV_PLACE_MAX; i++) {
			if (!(p.placed & (1u << i)))
				continue;
			assert_int_equal(p.hw[i], __builtin_ctz(free));
			free &= free - 1;
		}
	}
}

static void test_pick_least_takes_what_there_is(void **state)
{
	uint64_t key[4] = { 5, 3, 3, 1 };
	uint8_t order[4];

	(void)state;
	/* Fewer wanted than counters: all, lowest rank first, ties by index. */
	assert_int_equal(events_pick_least(key, 1, 0x6, 4, order), 2);
	assert_int_equal(order[0], 1);
	assert_int_equal(order[1], 2);
	assert_int_equal(events_pick_least(key, 1, 0xf, 3, order), 3);
	assert_int_equal(order[0], 3);
	assert_int_equal(order[1], 1);
	assert_int_equal(order[2], 2);
	assert_int_equal(events_pick_least(key, 1, 0xf, 0, order), 0);
	assert_int_equal(events_pick_least(key, 1, 0, 2, order), 0);
}

/*
 * The rotor against events_pick_least, pick after pick: each time, the
 * same events in the same order, while a prefix of the last pick (the
 * events a caller let run; sometimes fewer, as when a driver refuses the
 * last) gains one span, often 0 (ties), sometimes small, sometimes large
 * enough to pass every other event, sometimes nothing runs at all.
 */
static void test_rotor_picks_as_pick_least(void **state)
{
	uint32_t x = 11;

	(void)state;
	for (unsigned trial = 0; trial < 400; trial++) {
		uint64_t key[EV_PLACE_MAX];
		uint32_t want = 0;
		unsigned c = 1 + next_rand(&x) % 6;
		struct ev_rotor r;

		while (ones(want) <= c)
			want |= 1u << (next_rand(&x) % EV_PLACE_MAX);
		if (trial % 4 == 0)
			want = 0xffffffffu;
		for (unsigned i = 0; i < EV_PLACE_MAX; i++)
			key[i] = trial % 3 ? next_rand(&x) % (trial % 2 ? 4 : 1000) : 0;
		events_rotor_start(&r, key, want);
		for (unsigned turn = 0; turn < 300; turn++) {
			uint8_t got[EV_PLACE_COUNTERS], expect[EV_PLACE_COUNTERS];
			unsigned n = events_rotor_pick(&r, key, c, got);
			unsigned ran, kind = next_rand(&x) % 8;
			uint64_t span;

			assert_int_equal(events_pick_least(key, 1, want, c, expect), n);
			assert_memory_equal(got, expect, n);
			ran = kind == 0 ? next_rand(&x) % (n + 1) : n;
			span = kind == 1 ? 0 : kind == 2 ? 100000 + next_rand(&x) % 7
			     : next_rand(&x) % 50;
			for (unsigned k = 0; k < ran; k++)
				key[got[k]] += span;
			r.grown = (uint8_t)ran;
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_place_keeps_what_fits_in_priority_order),
		cmocka_unit_test(test_place_32_on_2_takes_least_ranked),
		cmocka_unit_test(test_pick_least_is_the_engines_answer),
		cmocka_unit_test(test_pick_least_takes_what_there_is),
		cmocka_unit_test(test_rotor_picks_as_pick_least),
	};
	return cmocka_run_group_tests_name("events_place", tests, NULL, NULL);
}
