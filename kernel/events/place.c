/*
 * place.c - the placement engine (rules in place.h).
 *
 * Two matchings at most.  When the whole set can fit, one pass in
 * canonical order (fewest counters, index) either places everything or
 * proves it cannot.  Otherwise a pass in rank order picks which events go
 * on -- a greedy over a transversal matroid, so every event it keeps is
 * one that can join all kept before it -- and a second, canonical pass
 * over just those gives their counters.  Each pass stops as soon as every
 * counter any event could use is taken, so 32 events multiplexed on two
 * counters cost two augmentations, not 32.
 *
 * Everything lives on the caller's struct and a few bytes of stack; the
 * augmenting search recurses at most once per counter.
 */
#include <stdbool.h>

#include "kernel/bits.h"     /* also built into user programs (user.mk) */
#include "place.h"

struct match {
	const uint32_t *mask;
	uint32_t fixed;
	uint32_t busy;                  /* counters taken */
	uint32_t seen;                  /* counters this search went through */
	uint8_t owner[EV_PLACE_COUNTERS];
};

/* A free fixed counter of cand first, else the lowest free one. */
static bool take_free(struct match *m, unsigned i, uint32_t cand)
{
	uint32_t free = cand & ~m->busy;
	uint32_t pick = (free & m->fixed) ? free & m->fixed : free;
	unsigned k;

	if (!pick)
		return false;
	k = bits_lowest(pick);
	m->owner[k] = (uint8_t)i;
	m->busy |= 1u << k;
	return true;
}

/* Kuhn: put i on a free counter, or move an owner along to free one. */
static bool augment(struct match *m, unsigned i)
{
	uint32_t cand = m->mask[i] & ~m->seen;

	if (take_free(m, i, cand))
		return true;
	m->seen |= cand;
	for (uint32_t c = cand; c; c &= c - 1) {
		unsigned k = bits_lowest(c);

		if (augment(m, m->owner[k])) {
			m->owner[k] = (uint8_t)i;
			return true;
		}
	}
	return false;
}

/* Place ord[0..n) in that order from empty; returns the set placed. */
static uint32_t match(struct match *m, const uint8_t *ord, unsigned n,
                      uint32_t reach)
{
	uint32_t got = 0;

	m->busy = 0;
	for (unsigned k = 0; k < n && (m->busy & reach) != reach; k++) {
		m->seen = 0;
		if (augment(m, ord[k]))
			got |= 1u << ord[k];
	}
	return got;
}

/* How constrained event i is; counted only when ranks tie. */
static unsigned tight(const struct ev_place *p, unsigned i)
{
	return p->nctr[i] ? p->nctr[i] : bits_count(p->mask[i]);
}

static bool before(const struct ev_place *p, unsigned a, unsigned b,
                   bool by_rank)
{
	unsigned ta, tb;

	if (by_rank && p->rank[a] != p->rank[b])
		return p->rank[a] < p->rank[b];
	ta = tight(p, a);
	tb = tight(p, b);
	if (ta != tb)
		return ta < tb;
	return a < b;
}

/* The events of set, sorted (insertion: sets are small). */
static unsigned sort(const struct ev_place *p, uint32_t set, bool by_rank,
                     uint8_t *ord)
{
	unsigned n = 0;

	for (uint32_t s = set; s; s &= s - 1) {
		unsigned i = bits_lowest(s), j;

		for (j = n; j > 0 && before(p, i, ord[j - 1], by_rank); j--)
			ord[j] = ord[j - 1];
		ord[j] = (uint8_t)i;
		n++;
	}
	return n;
}

/* The first of set in rank order (set != 0). */
static unsigned first(const struct ev_place *p, uint32_t set)
{
	unsigned best = bits_lowest(set);

	for (set &= set - 1; set; set &= set - 1) {
		unsigned i = bits_lowest(set);

		if (before(p, i, best, true))
			best = i;
	}
	return best;
}

/*
 * first() when every event of set is as constrained as the others (the
 * same tight()): ties then fall to the index alone, which the
 * ascending walk gives, so only ranks are compared.  This is the
 * multiplexed software PMU's case at every rotation: 32 events, each
 * compare a bit count less.
 */
static unsigned first_alike(const struct ev_place *p, uint32_t set)
{
	unsigned best = bits_lowest(set);
	uint64_t r = p->rank[best];

	for (set &= set - 1; set; set &= set - 1) {
		unsigned i = bits_lowest(set);

		if (p->rank[i] < r) {
			best = i;
			r = p->rank[i];
		}
	}
	return best;
}

/*
 * Too many for the counters: take events in rank order, each picked from
 * those left (only as many picks as it takes to fill the counters, not a
 * sort of all 32), keeping those that fit; p->order gets the kept.
 */
static uint32_t keep_by_rank(struct ev_place *p, struct match *m,
                             uint32_t reach, bool same_tight)
{
	uint32_t left = p->want, got = 0;

	m->busy = 0;
	p->nplaced = 0;
	while (left && (m->busy & reach) != reach) {
		unsigned i = same_tight ? first_alike(p, left) : first(p, left);

		left &= ~(1u << i);
		m->seen = 0;
		if (augment(m, i)) {
			got |= 1u << i;
			p->order[p->nplaced++] = (uint8_t)i;
		}
	}
	return got;
}

unsigned events_place(struct ev_place *p)
{
	uint8_t canon[EV_PLACE_MAX];
	struct match m = { .mask = p->mask, .fixed = p->fixed };
	uint32_t reach = 0, got = 0;
	uint64_t rank0 = p->want ? p->rank[bits_lowest(p->want)] : 0;
	uint32_t mask0 = p->want ? p->mask[bits_lowest(p->want)] : 0;
	unsigned tight0 = p->want ? tight(p, bits_lowest(p->want)) : 0;
	bool ranks_tie = true, alike = true, same_tight = true;
	unsigned n = 0, nc;

	for (uint32_t s = p->want; s; s &= s - 1) {
		unsigned i = bits_lowest(s);

		reach |= p->mask[i];
		ranks_tie &= p->rank[i] == rank0;
		alike &= p->mask[i] == mask0 && p->nctr[i] == 0;
		same_tight &= tight(p, i) == tight0;
		p->hw[i] = EV_PLACE_NONE;
		n++;
	}
	if (alike && !(reach & p->fixed) && n <= bits_count(reach)) {
		/* Interchangeable counters, none fixed (the software PMU): the
		 * canonical matching is the i-th event on the i-th counter,
		 * found without sorting or searching. */
		uint32_t free = reach;

		nc = 0;
		for (uint32_t s = p->want; s; s &= s - 1) {
			unsigned k = bits_lowest(free);

			free &= free - 1;
			m.owner[k] = (uint8_t)bits_lowest(s);
			canon[nc++] = (uint8_t)bits_lowest(s);
		}
		m.busy = reach & ~free;
		got = p->want;
	} else if (n <= bits_count(reach)) {
		nc = sort(p, p->want, false, canon);
		got = match(&m, canon, nc, reach);
	}
	if (got == p->want) {
		/* All on: the slot order is still rank order. */
		p->nplaced = n;
		if (ranks_tie)
			for (unsigned k = 0; k < n; k++)
				p->order[k] = canon[k];
		else
			sort(p, got, true, p->order);
	} else {
		got = keep_by_rank(p, &m, reach, same_tight);
		nc = sort(p, got, false, canon);
		match(&m, canon, nc, reach);
	}
	for (uint32_t b = m.busy; b; b &= b - 1) {
		unsigned k = bits_lowest(b);

		p->hw[m.owner[k]] = (uint8_t)k;
	}
	p->placed = got;
	return p->nplaced;
}

unsigned events_pick_least(const uint64_t *key, unsigned stride,
                           uint32_t want, unsigned c, uint8_t *order)
{
	uint64_t best[EV_PLACE_COUNTERS];
	uint64_t worst;
	unsigned n = 0, j;
	uint32_t s = want;

	if (c == 0)
		return 0;
	/* The first c by index, sorted by rank (ties keep index order). */
	for (; s && n < c; s &= s - 1, n++) {
		unsigned i = bits_lowest(s);
		uint64_t r = key[i * stride];

		for (j = n; j > 0 && r < best[j - 1]; j--) {
			best[j] = best[j - 1];
			order[j] = order[j - 1];
		}
		best[j] = r;
		order[j] = (uint8_t)i;
	}
	if (!s)
		return n;
	/* Then each later one only if it ranks strictly below the worst
	 * kept: an equal rank never displaces a lower index, as in
	 * events_place.  Most lose in one compare. */
	worst = best[c - 1];
	for (; s; s &= s - 1) {
		unsigned i = bits_lowest(s);
		uint64_t r = key[i * stride];

		if (r >= worst)
			continue;
		for (j = c - 1; j > 0 && r < best[j - 1]; j--) {
			best[j] = best[j - 1];
			order[j] = order[j - 1];
		}
		best[j] = r;
		order[j] = (uint8_t)i;
		worst = best[c - 1];
	}
	return n;
}

/* Does event a go before event b: lower rank, then lower index?  The
 * list's end goes after every event. */
static bool rotor_before(const uint64_t *key, unsigned a, unsigned b)
{
	return b == EV_ROTOR_END || key[a] < key[b] || (key[a] == key[b] && a < b);
}

/*
 * Link event x in before the first event it goes before, searched from
 * the finger (the event linked in last): backwards while x goes before
 * the one in front, else forwards while it does not go before the next.
 */
static void rotor_link(struct ev_rotor *r, const uint64_t *key, unsigned x)
{
	unsigned y = r->finger;

	if (rotor_before(key, x, y)) {
		while (r->prev[y] != EV_ROTOR_END && rotor_before(key, x, r->prev[y]))
			y = r->prev[y];
	} else {
		do
			y = r->next[y];
		while (!rotor_before(key, x, y));
	}
	r->next[x] = (uint8_t)y;
	r->prev[x] = r->prev[y];
	r->next[r->prev[y]] = (uint8_t)x;
	r->prev[y] = (uint8_t)x;
	r->finger = (uint8_t)x;
}

void events_rotor_start(struct ev_rotor *r, const uint64_t *key, uint32_t want)
{
	r->next[EV_ROTOR_END] = r->prev[EV_ROTOR_END] = EV_ROTOR_END;
	r->finger = EV_ROTOR_END;
	r->grown = 0;
	/* By index upwards: events of equal rank (a new set's are all 0)
	 * each go in right behind the one before. */
	for (uint32_t s = want; s; s &= s - 1)
		rotor_link(r, key, bits_lowest(s));
}

unsigned events_rotor_pick(struct ev_rotor *r, const uint64_t *key, unsigned c,
                           uint8_t *order)
{
	uint8_t ran[EV_PLACE_COUNTERS];
	unsigned g = r->grown, n = 0;

	/* The events that ran are the front, still in order among
	 * themselves (the same span added to each).  All leave the list
	 * first (one that gained nothing may go back in at the very front),
	 * then each goes back in, in order. */
	for (unsigned k = 0; k < g; k++) {
		unsigned x = r->next[EV_ROTOR_END];

		ran[k] = (uint8_t)x;
		r->next[EV_ROTOR_END] = r->next[x];
		r->prev[r->next[x]] = EV_ROTOR_END;
		if (r->finger == x)
			r->finger = EV_ROTOR_END;
	}
	for (unsigned k = 0; k < g; k++)
		rotor_link(r, key, ran[k]);
	r->grown = 0;
	for (unsigned x = r->next[EV_ROTOR_END]; n < c && x != EV_ROTOR_END; x = r->next[x])
		order[n++] = (uint8_t)x;
	return n;
}
