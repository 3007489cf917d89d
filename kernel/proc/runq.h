/*
 * runq.h - a CPU's run queue: one FIFO per priority level.
 *
 * Level 0 is the most urgent.  The highest non-empty level always runs
 * first, and tasks within a level take turns (round robin).  A bitmap of
 * non-empty levels makes picking the next task independent of how many
 * tasks wait.  The queue knows nothing about tasks: it links list nodes,
 * so the host unit tests drive it with bare nodes.
 */
#ifndef TALLY_RUNQ_H
#define TALLY_RUNQ_H

#include <stdbool.h>
#include <stdint.h>

#include "list.h"

#define PRIO_HIGH   0   /* the console: answers a person at once */
#define PRIO_NORMAL 1   /* user programs and benchmarks */
#define PRIO_LOW    2   /* background work */
#define PRIO_LEVELS 3

struct runq {
	struct list_node level[PRIO_LEVELS];
	uint32_t nonempty;      /* bit p set: level p has a task */
	unsigned count;
};

void runq_init(struct runq *rq);

/* The rest is on every switch's path: inline, so a switch pays no calls. */

static inline bool runq_prio_valid(int prio)
{
	return prio >= 0 && prio < PRIO_LEVELS;
}

/* Append at the tail of its level: it runs after those already waiting. */
static inline void runq_push(struct runq *rq, struct list_node *n, int prio)
{
	list_add_tail(&rq->level[prio], n);
	rq->nonempty |= 1u << prio;
	rq->count++;
}

/* Most urgent waiting level, or PRIO_LEVELS when the queue is empty. */
static inline int runq_best_prio(const struct runq *rq)
{
	if (!rq->nonempty)
		return PRIO_LEVELS;
	return __builtin_ctz(rq->nonempty);
}

/* Take n off the queue (it is on level prio). */
static inline void runq_remove(struct runq *rq, struct list_node *n, int prio)
{
	list_del(n);
	rq->count--;
	if (list_empty(&rq->level[prio]))
		rq->nonempty &= ~(1u << prio);
}

/* Remove and return the head of the most urgent level, or NULL. */
static inline struct list_node *runq_pop(struct runq *rq)
{
	int p = runq_best_prio(rq);

	if (p == PRIO_LEVELS)
		return NULL;
	struct list_node *n = list_first(&rq->level[p]);
	runq_remove(rq, n, p);
	return n;
}

/*
 * The tick's rule: must a task of level prio, with slice_left ticks of
 * its slice left after this tick, give up the CPU?  Yes when a more
 * urgent task waits, or when its slice is used up and a task of its own
 * level waits (round robin).  Alone at its level it keeps running.
 */
static inline bool runq_must_yield(const struct runq *rq, int prio, unsigned slice_left)
{
	int best = runq_best_prio(rq);

	return best < prio || (slice_left == 0 && best == prio);
}

#endif
