/*
 * event.c - a control set checked against the active PMU (R4's EINVALs):
 * names resolve through the PMU's event tables, modes must be ones the PMU
 * can filter, thresholds non-negative and the signal in 0..32, and every
 * event must be countable on some hardware counter its virtual counter may
 * use (on an R10000-shaped PMU, counter i / 16 only).
 */
#include <errno.h>
#include <string.h>

#include "bits.h"
#include "internal.h"

#include "spec.h"

static bool ev_unused(const struct hwperf_event *ev)
{
	return ev->name[0] == '\0' && !(ev->flags & HWPERF_EV_RAW);
}

static const char *ev_label(const struct hwperf_event *ev)
{
	if (ev->flags & HWPERF_EV_EVSEL)
		return "cpu/../";
	return ev->flags & HWPERF_EV_RAW ? "raw" : ev->name;
}

static uint32_t all_counters_mask(const struct pmu_caps *caps)
{
	return (uint32_t)pmu_width_mask(caps->ncounters);
}

uint32_t hwperf_event_code(const struct hwperf_res *r, unsigned hw)
{
	const struct pmu_event_table *tab;
	const char *name;

	if (r->raw || r->one_code)
		return r->code;
	tab = hwperf_core.caps.tables[r->table];
	name = tab->events[r->entry].name;
	for (unsigned e = r->entry; e < tab->count; e++)
		if ((tab->events[e].counters & (1u << hw)) &&
		    hwperf_name_eq(tab->events[e].name, name))
			return tab->events[e].code;
	return tab->events[r->entry].code;
}

static bool can_interrupt(const struct pmu_caps *caps, uint32_t hwmask)
{
	for (unsigned k = 0; k < caps->ncounters; k++)
		if ((hwmask & (1u << k)) && caps->counter[k].max_period)
			return true;
	return false;
}

/* Let the driver judge the event alone, so its reason reaches the user. */
static int driver_check(const struct hwperf_res *r, uint32_t modes,
                        unsigned vi, struct hwperf_reason *why)
{
	/* Too big for a kernel stack; the hwperf lock guards it. */
	static struct pmu_control one;
	char reason[PMU_REASON_MAX] = "";
	unsigned hw = bits_lowest(r->hwmask);

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

/*
 * An event given with parts (unit masks, counter mask, invert, edge, or
 * a bare event select): the driver builds the code, so each PMU puts
 * them where its register has them.  The result is final: r is raw from
 * here on.
 */
static int encode(const struct hwperf_event *ev, const struct hwperf_lookup *lk,
                  unsigned vi, struct hwperf_res *r, struct hwperf_reason *why)
{
	struct pmu_encoding enc;
	char reason[PMU_REASON_MAX] = "";
	uint32_t code;

	memset(&enc, 0, sizeof(enc));
	enc.code = hwperf_event_code(r, bits_lowest(r->hwmask));
	if (ev->flags & HWPERF_EV_EVSEL) {
		enc.code = 0;
		enc.fields |= PMU_FIELD_EVSEL;
		enc.evsel = ev->code;
	}
	if (lk->has_umask || (ev->flags & HWPERF_EV_UMASK)) {
		enc.fields |= PMU_FIELD_UMASK;
		enc.umask = (ev->flags & HWPERF_EV_UMASK ? ev->umask : 0) |
		            lk->umask;
	}
	if (ev->flags & HWPERF_EV_CMASK) {
		enc.fields |= PMU_FIELD_CMASK;
		enc.cmask = ev->cmask;
	}
	enc.fields |= ev->flags & HWPERF_EV_INV ? PMU_FIELD_INV : 0;
	enc.fields |= ev->flags & HWPERF_EV_EDGE ? PMU_FIELD_EDGE : 0;
	if (!hwperf_core.ops->encode)
		return hwperf_fail(why, EINVAL, "%s on counter %u: pmu %s "
		                   "builds no codes from parts", ev_label(ev),
		                   vi, hwperf_core.caps.name);
	if (hwperf_core.ops->encode(&enc, &code, reason, sizeof(reason)) < 0)
		return hwperf_fail(why, EINVAL, "%s on counter %u: %s",
		                   ev_label(ev), vi, reason);
	r->raw = 1;
	r->code = code;
	return 0;
}

/*
 * A named event usually has one code on every counter it may go on: then
 * find it here, once, and placement (every switch-in of a multiplexed
 * set) takes it without searching the table by name.  Where the code
 * differs by counter (MIPS 24K odd and even counters), the search stays.
 */
static void settle_code(struct hwperf_res *r)
{
	uint32_t code;

	if (r->raw)
		return;
	code = hwperf_event_code(r, bits_lowest(r->hwmask));
	for (uint32_t m = r->hwmask; m; m &= m - 1)
		if (hwperf_event_code(r, bits_lowest(m)) != code)
			return;
	r->code = code;
	r->one_code = 1;
}

static int resolve_one(const struct hwperf_event *ev, unsigned vi,
                       struct hwperf_res *r, struct hwperf_reason *why)
{
	const struct pmu_caps *caps = &hwperf_core.caps;
	unsigned spc = caps->slots_per_counter;
	struct hwperf_lookup lk;
	int err;

	if (ev->thresh < 0)
		return hwperf_fail(why, EINVAL, "negative threshold %lld on "
		                   "counter %u (%s)", (long long)ev->thresh, vi,
		                   ev_label(ev));
	if ((ev->flags & ~(HWPERF_EV_RAW | HWPERF_EV_EVSEL | HWPERF_EV_FIELDS)) ||
	    ((ev->flags & HWPERF_EV_EVSEL) && !(ev->flags & HWPERF_EV_RAW)))
		return hwperf_fail(why, EINVAL, "counter %u: unknown flags 0x%x",
		                   vi, (unsigned)ev->flags);
	if (ev->modes == 0)
		return hwperf_fail(why, EINVAL, "event %s on counter %u has no "
		                   "mode bits", ev_label(ev), vi);
	if (ev->modes & ~caps->modes)
		return hwperf_fail(why, EINVAL, "pmu %s cannot filter the modes "
		                   "asked for %s on counter %u", caps->name,
		                   ev_label(ev), vi);
	r->used = 1;
	if ((err = hwperf_lookup(caps, ev, &lk, why)) < 0)
		return err;
	r->table = lk.table;
	r->entry = lk.entry;
	r->hwmask = lk.hwmask & all_counters_mask(caps);
	if (ev->flags & HWPERF_EV_RAW) {
		r->raw = 1;
		r->code = ev->code;
	}
	if (spc) {
		/* How constrained the event is, for placement (place.h). */
		r->nctr = (uint8_t)bits_count(r->hwmask);
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
	if ((lk.has_umask || (ev->flags & (HWPERF_EV_FIELDS | HWPERF_EV_EVSEL))) &&
	    (err = encode(ev, &lk, vi, r, why)) < 0)
		return err;
	if ((err = driver_check(r, ev->modes, vi, why)) < 0)
		return err;
	settle_code(r);
	r->tight = (uint8_t)(r->nctr ? r->nctr : bits_count(r->hwmask));
	return 0;
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
