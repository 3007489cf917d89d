/*
 * runq.c - per-level FIFOs with a bitmap of non-empty levels.
 */
#include "runq.h"

void runq_init(struct runq *rq)
{
	for (int p = 0; p < PRIO_LEVELS; p++)
		list_init(&rq->level[p]);
	rq->nonempty = 0;
	rq->count = 0;
}

bool runq_prio_valid(int prio)
{
	return prio >= 0 && prio < PRIO_LEVELS;
}

void runq_push(struct runq *rq, struct list_node *n, int prio)
{
	list_add_tail(&rq->level[prio], n);
	rq->nonempty |= 1u << prio;
	rq->count++;
}

int runq_best_prio(const struct runq *rq)
{
	if (!rq->nonempty)
		return PRIO_LEVELS;
	return __builtin_ctz(rq->nonempty);
}

void runq_remove(struct runq *rq, struct list_node *n, int prio)
{
	list_del(n);
	rq->count--;
	if (list_empty(&rq->level[prio]))
		rq->nonempty &= ~(1u << prio);
}

struct list_node *runq_pop(struct runq *rq)
{
	int p = runq_best_prio(rq);

	if (p == PRIO_LEVELS)
		return NULL;
	struct list_node *n = list_first(&rq->level[p]);
	runq_remove(rq, n, p);
	return n;
}

bool runq_must_yield(const struct runq *rq, int prio, unsigned slice_left)
{
	int best = runq_best_prio(rq);

	return best < prio || (slice_left == 0 && best == prio);
}
