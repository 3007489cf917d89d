/*
 * runq.c - per-level FIFOs with a bitmap of non-empty levels (the
 * switch's and the tick's operations are inline in runq.h).
 */
#include "proc/runq.h"

void runq_init(struct runq *rq)
{
	for (int p = 0; p < PRIO_LEVELS; p++)
		list_init(&rq->level[p]);
	rq->nonempty = 0;
	rq->count = 0;
}
