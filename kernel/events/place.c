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

#include "place.h"

struct match {
	const uint32_t *mask;
	uint32_t fixed;
	uint32_t busy;                  /* counters taken */
	uint32_t seen;                  /* counters this search went through */
	uint8_t owner[EV_PLACE_COUNTERS];
};

/* m != 0 */
static unsigned lowest(uint32_t m)
{
	return (unsigned)__builtin_ctz(m);
}

static unsigned ones(uint32_t m)
{
	unsigned n = 0;

	for (; m; m &= m - 1)
		n++;
	return n;
}

/* A free fixed counter of cand first, else the lowest free one. */
static bool take_free(struct match *m, unsigned i, uint32_t cand)
{
	uint32_t free = cand & ~m->busy;
	uint32_t pick = (free & m->fixed) ? free & m->fixed : free;
	unsigned k;

	if (!pick)
		return false;
	k = lowest(pick);
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
		unsigned k = lowest(c);

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

static bool before(const struct ev_place *p, const uint8_t *nctr,
                   unsigned a, unsigned b, bool by_rank)
{
	if (by_rank && p->rank[a] != p->rank[b])
		return p->rank[a] < p->rank[b];
	if (nctr[a] != nctr[b])
		return nctr[a] < nctr[b];
	return a < b;
}

/* The events of set, sorted (insertion: sets are small). */
static unsigned sort(const struct ev_place *p, uint32_t set,
                     const uint8_t *nctr, bool by_rank, uint8_t *ord)
{
	unsigned n = 0;

	for (uint32_t s = set; s; s &= s - 1) {
		unsigned i = lowest(s), j;

		for (j = n; j > 0 && before(p, nctr, i, ord[j - 1], by_rank); j--)
			ord[j] = ord[j - 1];
		ord[j] = (uint8_t)i;
		n++;
	}
	return n;
}

unsigned events_place(struct ev_place *p)
{
	uint8_t nctr[EV_PLACE_MAX] = { 0 };
	uint8_t prio[EV_PLACE_MAX], canon[EV_PLACE_MAX];
	struct match m = { .mask = p->mask, .fixed = p->fixed };
	uint32_t reach = 0, got = 0;
	unsigned n, nc;

	for (uint32_t s = p->want; s; s &= s - 1) {
		unsigned i = lowest(s);

		nctr[i] = p->nctr[i] ? p->nctr[i] : (uint8_t)ones(p->mask[i]);
		reach |= p->mask[i];
	}
	n = sort(p, p->want, nctr, true, prio);
	if (n <= ones(reach)) {
		nc = sort(p, p->want, nctr, false, canon);
		got = match(&m, canon, nc, reach);
	}
	if (got != p->want) {
		got = match(&m, prio, n, reach);
		nc = sort(p, got, nctr, false, canon);
		match(&m, canon, nc, reach);
	}
	for (unsigned i = 0; i < EV_PLACE_MAX; i++)
		p->hw[i] = EV_PLACE_NONE;
	for (uint32_t b = m.busy; b; b &= b - 1) {
		unsigned k = lowest(b);

		p->hw[m.owner[k]] = (uint8_t)k;
	}
	p->nplaced = 0;
	for (unsigned k = 0; k < n; k++)
		if (got & (1u << prio[k]))
			p->order[p->nplaced++] = prio[k];
	p->placed = got;
	return p->nplaced;
}
