/*
 * mux.c - which virtual counters sit on which hardware counters (R13).
 *
 * Each placement offers the hardware to the virtual counters that have
 * run least so far (time-running), each taking the first free hardware
 * counter it may use (fixed counters first, to keep general ones free).
 * Whatever the constraints, every event gets its turn: with e events
 * competing for c interchangeable counters each runs c/e of the time, and
 * on an R10000-shaped PMU (virtual i only on hardware i/16) the events of
 * one hardware counter share it among themselves, untouched by the other.
 */
#include <string.h>

#include "internal.h"

static int pick_counter(uint32_t candidates)
{
	const struct pmu_caps *caps = &hwperf_core.caps;
	int general = -1;

	for (unsigned k = 0; k < caps->ncounters; k++) {
		if (!(candidates & (1u << k)))
			continue;
		if (caps->counter[k].fixed)
			return (int)k;
		if (general < 0)
			general = (int)k;
	}
	return general;
}

static void slot_fill(struct hwperf_set *s, unsigned slot, unsigned vi,
                      unsigned hw)
{
	struct pmu_counter_ctl *c = &s->pst.ctl.ctr[slot];

	memset(c, 0, sizeof(*c));
	c->hw = hw;
	c->event = hwperf_event_code(&s->res[vi], hw);
	c->modes = s->ctl.ev[vi].modes;
	s->slot_vctr[slot] = (uint8_t)vi;
}

/* Used virtual counters, least time-running first (ties: lower index). */
static unsigned by_least_running(const struct hwperf_set *s,
                                 uint8_t order[HWPERF_NVCTR])
{
	unsigned n = 0;

	for (unsigned vi = 0; vi < HWPERF_NVCTR; vi++) {
		unsigned j;

		if (!(s->used & (1u << vi)))
			continue;
		for (j = n; j > 0 && s->v[order[j - 1]].running > s->v[vi].running; j--)
			order[j] = order[j - 1];
		order[j] = (uint8_t)vi;
		n++;
	}
	return n;
}

/* Greedy in that order; returns how many slots were filled. */
static unsigned choose(struct hwperf_set *s)
{
	uint8_t order[HWPERF_NVCTR];
	unsigned nused = by_least_running(s, order);
	unsigned n = 0;
	uint32_t busy = 0;

	s->placed = 0;
	for (unsigned j = 0; j < nused; j++) {
		unsigned vi = order[j];
		int hw = pick_counter(s->res[vi].hwmask & ~busy);

		if (hw < 0)
			continue;
		slot_fill(s, n++, vi, (unsigned)hw);
		busy |= 1u << hw;
		s->placed |= 1u << vi;
	}
	return n;
}

void hwperf_set_periods(struct hwperf_set *s)
{
	const struct pmu_caps *caps = &hwperf_core.caps;

	for (unsigned k = 0; k < s->pst.ctl.n; k++) {
		struct pmu_counter_ctl *c = &s->pst.ctl.ctr[k];
		const struct hwperf_vctr *v = &s->v[s->slot_vctr[k]];
		uint64_t max = caps->counter[c->hw].max_period;
		uint64_t period = max;

		if (max == 0) {
			c->flags &= ~PMU_CTR_IMODE;
			continue;
		}
		if (s->ctl.ev[s->slot_vctr[k]].thresh > 0 && v->next_at > v->count &&
		    v->next_at - v->count < max)
			period = v->next_at - v->count;
		c->flags |= PMU_CTR_IMODE;
		c->period = period;
	}
}

/*
 * Choose, let the driver validate (it may refuse combinations hwperf
 * cannot foresee: then the last choice is dropped), set periods.
 */
int hwperf_place(struct hwperf_set *s, unsigned cpu, bool global)
{
	const struct pmu_ops *ops = hwperf_core.ops;
	char reason[PMU_REASON_MAX];
	unsigned n = choose(s);

	for (;;) {
		s->pst.ctl.n = n;
		hwperf_set_periods(s);
		if (ops->check(&s->pst.ctl, global, reason, sizeof(reason)) == 0)
			break;
		if (n == 0)
			return -1;
		n--;
		s->placed &= ~(1u << s->slot_vctr[n]);
	}
	for (unsigned k = 0; k < n; k++)
		s->pst.ctr[k].sum = 0;
	s->pst.cpu = cpu;
	s->pst.drv_cache = 0;
	ops->ireload(&s->pst);
	return 0;
}

bool hwperf_needs_rotation(const struct hwperf_set *s)
{
	return (s->used & ~s->placed) != 0;
}
