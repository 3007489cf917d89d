/*
 * runq.c - per-level FIFOs with a bitmap of non-empty levels (the
 * switch's operations are inline in runq.h).
 */
#include "runq.h"

void runq_init(struct runq *rq)
{
	for (int p = 0; p < PRIO_LEVELS; p++)
		list_init(&rq->level[p]);
	rq->nonempty = 0;
	rq->count = 0;
}

bool runq_must_yield(const struct runq *rq, int prio, unsigned slice_left)
{
	int best = runq_best_prio(rq);

	return best < prio || (slice_left == 0 && best == prio);
}
