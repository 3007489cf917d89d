/*
 * vctr.c - 32 virtual 64-bit counters per set (R9, R13, R14).
 *
 * Hardware deltas arrive through the driver's sum/start folding (perfctr's
 * a-mode method), so a count never goes backwards whatever the counter's
 * width.  Time-enabled grows while the set is loaded; time-running only
 * for the virtual counters that were on a hardware counter, so a reader
 * can scale a multiplexed count by enabled / running.
 */
#include <string.h>

#include "bits.h"
#include "internal.h"

/* Installs so far: each set's control gets the next number. */
static uint32_t installs;

static uint64_t thresh_of(const struct hwperf_set *s, unsigned i)
{
	return s->ctl.ev[i].thresh > 0 ? (uint64_t)s->ctl.ev[i].thresh : 0;
}

static void vctr_reset(struct hwperf_set *s, unsigned i)
{
	memset(&s->v[i], 0, sizeof(s->v[i]));
	s->v[i].next_at = thresh_of(s, i);
}

void hwperf_set_clear(struct hwperf_set *s)
{
	for (unsigned i = 0; i < HWPERF_NVCTR; i++)
		vctr_reset(s, i);
}

bool hwperf_same_event(const struct hwperf_event *a,
                       const struct hwperf_event *b)
{
	return hwperf_name_eq(a->name, b->name) && a->flags == b->flags &&
	       a->code == b->code && a->modes == b->modes;
}

/* New control: counts of unchanged events survive, changed ones restart. */
void hwperf_set_install(struct hwperf_set *s, const struct hwperf_control *ctl,
                        const struct hwperf_res *res)
{
	uint32_t kept = 0, rethresh = 0, reach = 0;
	unsigned nused = 0;

	for (unsigned i = 0; i < HWPERF_NVCTR; i++) {
		if (!res[i].used || !s->has_ctl ||
		    !hwperf_same_event(&s->ctl.ev[i], &ctl->ev[i]))
			continue;
		kept |= 1u << i;
		if (s->ctl.ev[i].thresh != ctl->ev[i].thresh)
			rethresh |= 1u << i;
	}
	s->ctl = *ctl;
	memcpy(s->res, res, sizeof(s->res));
	s->used = 0;
	s->thresh_used = 0;
	for (unsigned i = 0; i < HWPERF_NVCTR; i++) {
		if (res[i].used) {
			s->used |= 1u << i;
			reach |= res[i].hwmask;
			nused++;
		}
		if (res[i].used && ctl->ev[i].thresh > 0)
			s->thresh_used |= 1u << i;
		if (!(kept & (1u << i)))
			vctr_reset(s, i);
		else if (rethresh & (1u << i))
			s->v[i].next_at = s->v[i].count + thresh_of(s, i);
	}
	s->crowded = nused > bits_count(reach);
	s->placed = 0;
	s->ctl_seq++;
	/* Never reused, unlike ctl_seq, which restarts with a new task's
	 * set: what the placement engine was last given is known by it. */
	s->ctl_id = ++installs;
	s->has_ctl = true;
}

void hwperf_set_fold(struct hwperf_set *s)
{
	uint64_t elapsed = s->pst.cycles_sum;

	for (unsigned k = 0; k < s->pst.ctl.n; k++) {
		s->v[s->slot_vctr[k]].count += s->pst.ctr[k].sum;
		s->pst.ctr[k].sum = 0;
	}
	s->pst.cycles_sum = 0;
	s->since_place += elapsed;
	/* Every switch and tick folds: visit the used counters only, and
	 * for time-running only those on hardware. */
	if ((s->used & (s->used + 1u)) == 0) {
		/* Counters 0..n-1, the usual shape: a plain walk. */
		unsigned n = s->used == ~0u ? HWPERF_NVCTR : (unsigned)__builtin_ctz(~s->used);

		for (unsigned i = 0; i < n; i++)
			s->v[i].enabled += elapsed;
	} else {
		for (uint32_t u = s->used; u; u &= u - 1)
			s->v[__builtin_ctz(u)].enabled += elapsed;
	}
	for (uint32_t u = s->placed; u; u &= u - 1)
		s->v[__builtin_ctz(u)].running += elapsed;
}

/* Every read leaves through here, so every read is checked. */
void hwperf_set_export(struct hwperf_set *s, struct hwperf_counts *out)
{
	hwperf_inv_check_set(s, s == &hwperf_core.sys ? "system read" : "read");
	for (unsigned i = 0; i < HWPERF_NVCTR; i++) {
		out->count[i] = s->v[i].count;
		out->enabled[i] = s->v[i].enabled;
		out->running[i] = s->v[i].running;
	}
}

/* A child's counts join the parent's; they are not the parent's events,
 * so the parent's next threshold moves along with them. */
void hwperf_set_add(struct hwperf_set *dst, const struct hwperf_set *src)
{
	for (unsigned i = 0; i < HWPERF_NVCTR; i++) {
		dst->v[i].count += src->v[i].count;
		dst->v[i].next_at += src->v[i].count;
		dst->v[i].enabled += src->v[i].enabled;
		dst->v[i].running += src->v[i].running;
	}
}
