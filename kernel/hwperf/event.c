/*
 * event.c - a control set checked against the active PMU (R4's EINVALs):
 * names resolve through the PMU's event tables, modes must be ones the PMU
 * can filter, thresholds non-negative and the signal in 0..32, and every
 * event must be countable on some hardware counter its virtual counter may
 * use (on an R10000-shaped PMU, counter i / 16 only).
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

static bool ev_unused(const struct hwperf_event *ev)
{
	return ev->name[0] == '\0' && !(ev->flags & HWPERF_EV_RAW);
}

static const char *ev_label(const struct hwperf_event *ev)
{
	return ev->flags & HWPERF_EV_RAW ? "raw" : ev->name;
}

static uint32_t all_counters_mask(const struct pmu_caps *caps)
{
	return (uint32_t)pmu_width_mask(caps->ncounters);
}

/* Counters a raw code may use: any that is not fixed to one event. */
static uint32_t raw_mask(const struct pmu_caps *caps)
{
	uint32_t m = 0;

	for (unsigned k = 0; k < caps->ncounters; k++)
		if (!caps->counter[k].fixed)
			m |= 1u << k;
	return m;
}

static int find_name(const struct pmu_caps *caps, const char *name,
                     struct hwperf_res *r)
{
	for (unsigned t = 0; t < caps->ntables; t++) {
		const struct pmu_event_table *tab = caps->tables[t];
		bool found = false;

		for (unsigned e = 0; e < tab->count; e++) {
			if (!hwperf_name_eq(tab->events[e].name, name))
				continue;
			if (!found) {
				r->table = (uint8_t)t;
				r->entry = (uint16_t)e;
				found = true;
			}
			r->hwmask |= tab->events[e].counters;
		}
		if (found)
			return 0;
	}
	return -EINVAL;
}

uint32_t hwperf_event_code(const struct hwperf_res *r, unsigned hw)
{
	const struct pmu_event_table *tab;
	const char *name;

	if (r->raw)
		return r->code;
	tab = hwperf_core.caps.tables[r->table];
	name = tab->events[r->entry].name;
	for (unsigned e = r->entry; e < tab->count; e++)
		if ((tab->events[e].counters & (1u << hw)) &&
		    hwperf_name_eq(tab->events[e].name, name))
			return tab->events[e].code;
	return tab->events[r->entry].code;
}

static unsigned popcount(uint32_t m)
{
	unsigned n = 0;

	for (; m; m &= m - 1)
		n++;
	return n;
}

static bool can_interrupt(const struct pmu_caps *caps, uint32_t hwmask)
{
	for (unsigned k = 0; k < caps->ncounters; k++)
		if ((hwmask & (1u << k)) && caps->counter[k].max_period)
			return true;
	return false;
}

static unsigned lowest_bit(uint32_t m)
{
	unsigned k = 0;

	while (!(m & (1u << k)))
		k++;
	return k;
}

/* Let the driver judge the event alone, so its reason reaches the user. */
static int driver_check(const struct hwperf_res *r, uint32_t modes,
                        unsigned vi, struct hwperf_reason *why)
{
	/* Too big for a kernel stack; the hwperf lock guards it. */
	static struct pmu_control one;
	char reason[PMU_REASON_MAX] = "";
	unsigned hw = lowest_bit(r->hwmask);

	memset(&one, 0, sizeof(one));
	one.n = 1;
	one.ctr[0].hw = hw;
	one.ctr[0].event = hwperf_event_code(r, hw);
	one.ctr[0].modes = modes;
	if (hwperf_core.ops->check(&one, (modes & PMU_MODE_K) != 0, reason,
	                           sizeof(reason)) < 0)
		return hwperf_fail(why, EINVAL, "counter %u: %s", vi, reason);
	return 0;
}

static int resolve_one(const struct hwperf_event *ev, unsigned vi,
                       struct hwperf_res *r, struct hwperf_reason *why)
{
	const struct pmu_caps *caps = &hwperf_core.caps;
	unsigned spc = caps->slots_per_counter;

	if (ev->thresh < 0)
		return hwperf_fail(why, EINVAL, "negative threshold %lld on "
		                   "counter %u (%s)", (long long)ev->thresh, vi,
		                   ev_label(ev));
	if (ev->modes == 0)
		return hwperf_fail(why, EINVAL, "event %s on counter %u has no "
		                   "mode bits", ev_label(ev), vi);
	if (ev->modes & ~caps->modes)
		return hwperf_fail(why, EINVAL, "pmu %s cannot filter the modes "
		                   "asked for %s on counter %u", caps->name,
		                   ev_label(ev), vi);
	r->used = 1;
	if (ev->flags & HWPERF_EV_RAW) {
		r->raw = 1;
		r->code = ev->code;
		r->hwmask = raw_mask(caps);
	} else if (find_name(caps, ev->name, r) < 0) {
		return hwperf_fail(why, EINVAL, "unknown event '%s' on counter "
		                   "%u (pmu %s)", ev->name, vi, caps->name);
	}
	r->hwmask &= all_counters_mask(caps);
	if (spc) {
		/* How constrained the event is, for placement (place.h). */
		r->nctr = (uint8_t)popcount(r->hwmask);
		r->hwmask &= 1u << (vi / spc);
	}
	if (r->hwmask == 0)
		return hwperf_fail(why, EINVAL, "event %s is not countable on "
		                   "the hardware counter of virtual counter %u",
		                   ev_label(ev), vi);
	if (ev->thresh > 0 && !can_interrupt(caps, r->hwmask))
		return hwperf_fail(why, EINVAL, "threshold on %s needs an "
		                   "overflow interrupt pmu %s lacks", ev_label(ev),
		                   caps->name);
	return driver_check(r, ev->modes, vi, why);
}

int hwperf_resolve(const struct hwperf_control *ctl, struct hwperf_res *res,
                   struct hwperf_reason *why)
{
	unsigned nused = 0;

	memset(res, 0, sizeof(*res) * HWPERF_NVCTR);
	if (ctl->sig < 0 || ctl->sig > HWPERF_SIG_MAX)
		return hwperf_fail(why, EINVAL, "overflow signal %d outside "
		                   "0..%d", ctl->sig, HWPERF_SIG_MAX);
	for (unsigned i = 0; i < HWPERF_NVCTR; i++) {
		const struct hwperf_event *ev = &ctl->ev[i];
		int err;

		if (ev_unused(ev)) {
			if (ev->modes || ev->thresh)
				return hwperf_fail(why, EINVAL, "counter %u has "
				                   "modes or a threshold but no "
				                   "event", i);
			continue;
		}
		err = resolve_one(ev, i, &res[i], why);
		if (err < 0)
			return err;
		nused++;
	}
	if (nused == 0)
		return hwperf_fail(why, EINVAL, "no events given");
	return 0;
}

uint32_t hwperf_ctl_modes(const struct hwperf_control *ctl)
{
	uint32_t m = 0;

	for (unsigned i = 0; i < HWPERF_NVCTR; i++)
		if (!ev_unused(&ctl->ev[i]))
			m |= ctl->ev[i].modes;
	return m;
}
