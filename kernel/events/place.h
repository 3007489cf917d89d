/*
 * place.h - the one placement engine: which hardware counter each event of
 * a set goes on, under the counters' constraints.  `events` (dispatch.c),
 * hwperf's multiplexer (mux.c) and its spec parser (spec.c, for R10000
 * slot layouts) all call it, so what `events` says is what hwperf does.
 *
 * Constraints are data, as in FreeBSD hwpmc: each event brings the mask of
 * counters that can count it; the PMU brings which counters are fixed.
 *
 * The rules, in this order:
 *  - an event goes only on a counter of its mask;
 *  - events are taken by rank, lowest first (hwperf passes time-running,
 *    so the events that waited go on first; `events` passes 0), then the
 *    most constrained first (fewest counters its table allows), then by
 *    index;
 *  - each is placed by an augmenting path (Kuhn's matching): an event
 *    taken earlier may move to another of its counters to make room, but
 *    is never dropped, so an event is left out only when no placement
 *    holds it together with every event taken before it;
 *  - the counters of the events placed depend only on which events are
 *    placed, never on rank: they are matched again in (fewest counters,
 *    index) order, each taking a free fixed counter first (it counts only
 *    its own event, so a general counter stays free), else the lowest.
 * Nothing else goes in: the result is a function of the inputs.
 *
 * Portable and freestanding: the kernel and the user library (spec.c)
 * both link it.
 */
#ifndef TALLY_EVENTS_PLACE_H
#define TALLY_EVENTS_PLACE_H

#include <stdint.h>

#define EV_PLACE_MAX 32         /* events in one set: hwperf's virtual counters */
#define EV_PLACE_COUNTERS 32    /* counters a mask can name */
#define EV_PLACE_NONE 0xffu     /* hw[] of an event left out */

struct ev_place {
	/* inputs */
	uint32_t want;                  /* bit i: place event i */
	uint32_t fixed;                 /* counters tied to one event */
	uint32_t mask[EV_PLACE_MAX];    /* counters event i may go on */
	uint64_t rank[EV_PLACE_MAX];    /* lower goes first */
	/*
	 * Counters the event's table allows, where mask is narrower for
	 * another reason (an R10000 virtual counter has one hardware counter):
	 * how constrained the event is.  0: mask's count.
	 */
	uint8_t nctr[EV_PLACE_MAX];
	/* outputs */
	uint8_t hw[EV_PLACE_MAX];       /* of each wanted event: its counter,
	                                 * or EV_PLACE_NONE */
	uint8_t order[EV_PLACE_MAX];    /* events placed, in the order taken */
	unsigned nplaced;
	uint32_t placed;                /* bit i: event i placed */
};

/* Fill p's outputs from its inputs; returns p->nplaced. */
unsigned events_place(struct ev_place *p);

/*
 * events_place's answer for a crowded set of alike events -- every wanted
 * event has the same mask and the same measure of how constrained it is,
 * and that mask holds no fixed counter -- found in one pass without an
 * ev_place: the up to c events of want lowest by (rank, index), written
 * to order in that order; returns how many.  Then (place.h's last rule)
 * the i-th of those by index sits on the mask's i-th counter.  The rank
 * of event i is key[i * stride], so a caller's array of structs serves
 * as it is.  c <= EV_PLACE_COUNTERS.
 */
unsigned events_pick_least(const uint64_t *key, unsigned stride,
                           uint32_t want, unsigned c, uint8_t *order);

/*
 * events_pick_least's answer for a set picked again and again while only
 * the picked events' ranks grow (a multiplexed set: time-running grows
 * for the events on the counters, all by the same span).  The rotor
 * keeps every event of the set in a list in (rank, index) order; a pick
 * first takes the events whose ranks grew off the front and links each
 * in again at its place, searched from where the last one went in (an
 * event that just ran usually belongs right behind the one that ran
 * before it, or at the back), then reads the first c.  With spans alike
 * each event passes no other: O(c), instead of a pass over the whole set.
 *
 * The contract: between two picks (or the start and a pick) only the
 * ranks of the first r->grown events of the last pick's order may change,
 * all by the same amount, upwards.  The caller sets r->grown after a pick
 * to how many of its events it let run (a prefix of order); anything else
 * that changes a rank must start the rotor again.
 */
#define EV_ROTOR_END EV_PLACE_MAX       /* the list's head and tail node */

struct ev_rotor {
	/* A ring through the events and EV_ROTOR_END: next[EV_ROTOR_END]
	 * is the least, prev[EV_ROTOR_END] the greatest. */
	uint8_t next[EV_PLACE_MAX + 1];
	uint8_t prev[EV_PLACE_MAX + 1];
	uint8_t finger;                 /* the event linked in last, or END */
	uint8_t grown;                  /* the first grown ran */
};

/* Order want's events by (key[i], i); none has run since. */
void events_rotor_start(struct ev_rotor *r, const uint64_t *key, uint32_t want);
/* events_pick_least(key, 1, want, c, order) for the rotor's want. */
unsigned events_rotor_pick(struct ev_rotor *r, const uint64_t *key, unsigned c,
                           uint8_t *order);

#endif
