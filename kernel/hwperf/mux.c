/*
 * mux.c - which virtual counters sit on which hardware counters (R13).
 *
 * The counters come from the placement engine of kernel/events (place.h),
 * the one `events` dispatches with, so `events` predicts what happens
 * here.  What is hwperf's own is the rank: time-running, so each
 * placement offers the hardware to the virtual counters that have run
 * least so far.  The engine keeps every event it takes (moving earlier
 * ones along when a later one needs their counter), so whatever the
 * constraints every event gets its turn: with e events competing for c
 * interchangeable counters each runs c/e of the time, and on an
 * R10000-shaped PMU (virtual i only on hardware i/16) the events of one
 * hardware counter share it among themselves, untouched by the other.
 */

#include "bits.h"
#include "events/place.h"
#include "internal.h"

/*
 * Virtual counter vi into slot slot, on hardware counter hw.  Returns
 * whether the slot held that counter, code and modes already: its
 * period and the outputs of the check and ireload that placed it then
 * stay, for hwperf_place_full to keep when every slot and period is as it was
 * (a rotation of alike events that puts the same event on the same
 * counter again).  Inline: out of line, its call and saved registers
 * were 16 of its 39 instructions a slot (x86_64).
 */
static inline __attribute__((always_inline)) bool
slot_fill(struct hwperf_set *s, unsigned slot, unsigned vi, unsigned hw)
{
	struct pmu_counter_ctl *c = &s->pst.ctl.ctr[slot];
	uint32_t event = hwperf_event_code(&s->res[vi], hw);
	uint32_t modes = s->ctl.ev[vi].modes;

	s->slot_vctr[slot] = (uint8_t)vi;
	if (c->hw == hw && c->event == event && c->modes == modes)
		return true;
	/* Field by field: the rest is check()'s and set_periods' output. */
	*c = (struct pmu_counter_ctl){ .hw = hw, .event = event, .modes = modes };
	return false;
}

static uint32_t fixed_counters(const struct pmu_caps *caps)
{
	uint32_t m = 0;

	for (unsigned k = 0; k < caps->ncounters; k++)
		if (caps->counter[k].fixed)
			m |= 1u << k;
	return m;
}

_Static_assert(HWPERF_NVCTR <= EV_PLACE_MAX,
               "the engine must take every virtual counter");

/* Bumped whenever the PMU's shape may have changed (hwperf_init, a soft
 * reshape): every kept placement is then stale.  Never 0, which a new
 * set's place_shape is.  Read by hwperf_placement_kept (internal.h). */
uint32_t hwperf_place_shape = 1;

/*
 * The counters every used event of a crowded set may go on, when they are
 * alike (one mask, one measure of constraint) and none is fixed: a
 * multiplexed software PMU, or any PMU whose counters are interchangeable
 * for the set's events.  0 otherwise.
 */
static uint32_t alike_counters(const struct hwperf_set *s, uint32_t fixed)
{
	uint32_t mask;
	unsigned tight;

	if (!s->crowded || !s->used)
		return 0;
	mask = s->res[__builtin_ctz(s->used)].hwmask;
	tight = s->res[__builtin_ctz(s->used)].tight;
	if (!mask || (mask & fixed))
		return 0;
	for (uint32_t u = s->used; u; u &= u - 1) {
		const struct hwperf_res *r = &s->res[__builtin_ctz(u)];

		if (r->hwmask != mask || r->tight != tight)
			return 0;
	}
	return mask;
}

/*
 * choose() for a crowded alike set: the engine's answer (place.h), from
 * the set's rotor, which keeps its events in time-running order between
 * placements (only the placed ones' time-running moves, all by the same
 * span: hwperf_set_fold), instead of a general pass that copies them and
 * picks counter by counter, or a pass over all 32 (events_pick_least).
 * Every rotation of a multiplexed software PMU comes here.
 */
static unsigned choose_alike(struct hwperf_set *s, uint32_t mask, unsigned c,
                             bool *same)
{
	uint8_t order[PMU_MAX_COUNTERS];
	uint32_t placed = 0;
	bool all_same = true;
	unsigned n;

	if (s->rot_ctl_id != s->ctl_id || s->rot_shape != hwperf_place_shape) {
		events_rotor_start(&s->rot, s->c.running, s->used);
		s->rot_ctl_id = s->ctl_id;
		s->rot_shape = hwperf_place_shape;
	}
	n = events_rotor_pick(&s->rot, s->c.running, c, order);
	for (unsigned k = 0; k < n; k++)
		placed |= 1u << order[k];
	/* Counters by index among the placed, rank aside: the i-th lowest
	 * placed event on the mask's i-th counter. */
	for (uint32_t p = placed; p; p &= p - 1) {
		unsigned vi = (unsigned)__builtin_ctz(p), hw = bits_lowest(mask), k;

		mask &= mask - 1;
		for (k = 0; order[k] != vi; k++)
			;
		all_same &= slot_fill(s, k, vi, hw);
	}
	s->placed = placed;
	*same = all_same;
	return n;
}

/*
 * Slots in the engine's order (least time-running first), so dropping the
 * last slot drops the event that ran most.  Returns the slots filled;
 * *same says every one held its counter, code and modes already
 * (slot_fill).
 */
static unsigned choose(struct hwperf_set *s, bool *same)
{
	bool all_same = true;

	/* Too big for a kernel stack; the hwperf lock guards it. */
	static struct ev_place pl;
	/* The control and shape pl's constraints were last filled for: a
	 * set rotating tick after tick gives only new ranks. */
	static uint32_t pl_ctl_id, pl_shape;
	/* That set, when crowded with alike events (events_pick_least's
	 * case): their common mask, else 0. */
	static uint32_t alike_mask;
	/* Its counters, counted once (every rotation picks that many). */
	static unsigned alike_n;

	if (pl_ctl_id != s->ctl_id || pl_shape != hwperf_place_shape) {
		pl.fixed = fixed_counters(&hwperf_core.caps);
		alike_mask = alike_counters(s, pl.fixed);
		alike_n = bits_count(alike_mask);
		/* A crowded set (every rotation) has the engine compare
		 * events by how constrained they are at each pick: nctr or,
		 * when 0, its count of the mask.  Give it the count found at
		 * enable, the same order without counting bits 32 times per
		 * pick.  (In a set that may fit, a 0 also tells the engine
		 * the counters are interchangeable: it keeps its 0s.) */
		for (uint32_t u = s->used; u; u &= u - 1) {
			unsigned vi = (unsigned)__builtin_ctz(u);

			pl.mask[vi] = s->res[vi].hwmask;
			pl.nctr[vi] = s->crowded ? s->res[vi].tight : s->res[vi].nctr;
		}
		pl_ctl_id = s->ctl_id;
		pl_shape = hwperf_place_shape;
	}
	if (alike_mask)
		return choose_alike(s, alike_mask, alike_n, same);
	pl.want = s->used;
	for (uint32_t u = s->used; u; u &= u - 1) {
		unsigned vi = (unsigned)__builtin_ctz(u);

		pl.rank[vi] = s->c.running[vi];
	}
	events_place(&pl);
	for (unsigned k = 0; k < pl.nplaced; k++)
		all_same &= slot_fill(s, k, pl.order[k], pl.hw[pl.order[k]]);
	s->placed = pl.placed;
	*same = all_same;
	return pl.nplaced;
}

bool hwperf_set_periods(struct hwperf_set *s)
{
	const struct pmu_caps *caps = &hwperf_core.caps;
	/* Without thresholds every period is its counter's longest: no
	 * threshold to look up per slot (a rotation's usual case). */
	bool thresholds = s->thresh_used != 0;
	uint64_t moved = 0;

	for (unsigned k = 0; k < s->pst.ctl.n; k++) {
		struct pmu_counter_ctl *c = &s->pst.ctl.ctr[k];
		unsigned vi = s->slot_vctr[k];
		uint64_t max = caps->counter[c->hw].max_period;
		uint64_t period = max;

		if (max == 0) {
			moved |= c->flags & PMU_CTR_IMODE;
			c->flags &= ~PMU_CTR_IMODE;
			continue;
		}
		if (thresholds && s->ctl.ev[vi].thresh > 0 &&
		    s->next_at[vi] > s->c.count[vi] &&
		    s->next_at[vi] - s->c.count[vi] < max)
			period = s->next_at[vi] - s->c.count[vi];
		moved |= (~c->flags & PMU_CTR_IMODE) | (c->period ^ period);
		c->flags |= PMU_CTR_IMODE;
		c->period = period;
	}
	return moved != 0;
}

void hwperf_place_forget_all(void)
{
	hwperf_place_shape = hwperf_place_shape + 1 ? hwperf_place_shape + 1 : 1;
}

void hwperf_set_rotation(uint64_t cycles)
{
	hwperf_core.rotate_cycles = cycles;
}

/*
 * The slots of s's last placement, all checked and reloaded, still stand
 * for a new one of n slots that slot_fill and set_periods found unchanged
 * in every input (same counter, code, modes, flags and period): made for
 * this control, on this PMU shape, for the same kind of set.  The driver's
 * outputs are a function of those inputs (check() computes every register
 * value from them once; hwperf_placement_kept rests on the same), so checking
 * again would give them again.
 */
static inline bool last_check_stands(const struct hwperf_set *s, bool global,
                                     unsigned n)
{
	return s->place_seq == s->ctl_seq && s->place_shape == hwperf_place_shape &&
	       s->place_global == global && s->place_n == n;
}

/*
 * Choose, let the driver validate (it may refuse combinations hwperf
 * cannot foresee: then the last choice is dropped), set periods.  A
 * choice whose every slot the last placement's check already covered
 * (last_check_stands) skips the check and the ireload, as a kept
 * placement does: a rotation of alike events onto the same counters with
 * the same code.  Out of line: the usual placement, a kept one without
 * thresholds (hwperf_place, internal.h), needs none of this frame.
 */
int hwperf_place_full(struct hwperf_set *s, unsigned cpu, bool global, bool rotate)
{
	const struct pmu_ops *ops = hwperf_core.ops;
	char reason[PMU_REASON_MAX];
	bool same, checked = true;
	unsigned n;

	if (hwperf_placement_kept(s, global, rotate)) {
		n = s->place_n;
		s->pst.ctl.n = n;
		s->placed = s->place_mask;
		hwperf_set_periods(s);
		goto load;
	}
	n = choose(s, &same);
	s->pst.ctl.n = n;
	if (!hwperf_set_periods(s) && same && last_check_stands(s, global, n)) {
		checked = false;
		goto placed;
	}
	while (ops->check(&s->pst.ctl, global, reason, sizeof(reason)) != 0) {
		if (n == 0) {
			s->place_shape = 0;    /* nothing kept (shape is never 0) */
			return -1;
		}
		n--;
		s->placed &= ~(1u << s->slot_vctr[n]);
		s->pst.ctl.n = n;
		hwperf_set_periods(s);
	}
placed:
	/* The slots that stay are the rotor's front (choose_alike): their
	 * time-running grows from now on.  (A set placed by the engine has
	 * no valid rotor; its grown is never read.) */
	s->rot.grown = (uint8_t)n;
	s->place_seq = s->ctl_seq;
	s->place_shape = hwperf_place_shape;
	s->place_global = global;
	s->place_n = (uint8_t)n;
	s->place_mask = s->placed;
	s->place_all = s->placed == s->used;
	s->since_place = 0;
load:
	s->pst.cpu = cpu;
	s->pst.drv_cache = 0;
	if (checked) {
		for (unsigned k = 0; k < n; k++)
			s->pst.ctr[k].sum = 0;
		ops->ireload(&s->pst);
		return 0;
	}
	/* What that ireload gave, with the periods it had: each period
	 * starts at ireset again (hwperf_place's kept case). */
	for (unsigned k = 0; k < n; k++) {
		struct pmu_counter_state *st = &s->pst.ctr[k];

		st->sum = 0;
		if (s->pst.ctl.ctr[k].flags & PMU_CTR_IMODE)
			st->start = s->pst.ctl.ctr[k].ireset;
	}
	return 0;
}

bool hwperf_needs_rotation(const struct hwperf_set *s)
{
	return (s->used & ~s->placed) != 0;
}
