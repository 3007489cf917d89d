/*
 * resolve.c - a spec, in any syntax hwperf takes, against a model's
 * table: names and unit masks checked by hwperf's own lookup, the code
 * built by the model's driver encoder.  What a machine with that PMU
 * would program, shown on a machine without it (QEMU counts nothing).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "hwperf/spec.h"
#include "events.h"

/* Too big for a kernel stack; the console runs one command at a time. */
static struct {
	struct pmu_caps caps;
	struct hwperf_control ctl;
} scratch;

static int failed(char *reason, size_t len, const char *text)
{
	if (reason && len)
		snprintf(reason, len, "%s", text);
	return -EINVAL;
}

/* The event's parts as the driver's encoder takes them, as hwperf does. */
static void encoding_of(const struct hwperf_event *ev,
                        const struct hwperf_lookup *lk, uint32_t base,
                        struct pmu_encoding *enc)
{
	memset(enc, 0, sizeof(*enc));
	enc->code = base;
	if (ev->flags & HWPERF_EV_EVSEL) {
		enc->code = 0;
		enc->fields |= PMU_FIELD_EVSEL;
		enc->evsel = ev->code;
	}
	if (lk->has_umask || (ev->flags & HWPERF_EV_UMASK)) {
		enc->fields |= PMU_FIELD_UMASK;
		enc->umask = (ev->flags & HWPERF_EV_UMASK ? ev->umask : 0) |
		             lk->umask;
	}
	if (ev->flags & HWPERF_EV_CMASK) {
		enc->fields |= PMU_FIELD_CMASK;
		enc->cmask = ev->cmask;
	}
	enc->fields |= ev->flags & HWPERF_EV_INV ? PMU_FIELD_INV : 0;
	enc->fields |= ev->flags & HWPERF_EV_EDGE ? PMU_FIELD_EDGE : 0;
}

static int resolve_one(const struct ev_model *m, const struct hwperf_event *ev,
                       struct ev_resolved *r, char *reason, size_t len)
{
	const struct pmu_caps *caps = &scratch.caps;
	struct hwperf_reason why;
	struct hwperf_lookup lk;
	struct pmu_encoding enc;
	char drv[PMU_REASON_MAX] = "";
	uint32_t base;

	if (hwperf_lookup(caps, ev, &lk, &why) < 0)
		return failed(reason, len, why.text);
	r->counters = lk.hwmask & (uint32_t)pmu_width_mask(caps->ncounters);
	r->modes = ev->modes;
	if (ev->flags & HWPERF_EV_RAW) {
		base = ev->code;
		r->name = "raw";
	} else {
		base = caps->tables[lk.table]->events[lk.entry].code;
		r->name = caps->tables[lk.table]->events[lk.entry].name;
	}
	r->code = base;
	if (!lk.has_umask && !(ev->flags & (HWPERF_EV_FIELDS | HWPERF_EV_EVSEL)))
		return 0;
	if (!m->encode) {
		snprintf(reason, len, "EINVAL: pmu %s builds no codes from parts",
		         m->name);
		return -EINVAL;
	}
	encoding_of(ev, &lk, (ev->flags & HWPERF_EV_EVSEL) ? 0 : base, &enc);
	if (m->encode(&enc, &r->code, drv, sizeof(drv)) < 0) {
		snprintf(reason, len, "EINVAL: %s", drv);
		return -EINVAL;
	}
	return 0;
}

int events_resolve(const struct ev_model *m, const char *spec,
                   struct ev_resolved *out, unsigned max, unsigned *n,
                   char *reason, size_t len)
{
	struct hwperf_reason why;
	int err;

	*n = 0;
	events_caps_of_model(m, &scratch.caps);
	if (hwperf_spec_parse(spec, &scratch.caps, &scratch.ctl, &why) < 0)
		return failed(reason, len, why.text);
	for (unsigned i = 0; i < HWPERF_NVCTR; i++) {
		const struct hwperf_event *ev = &scratch.ctl.ev[i];

		if (!ev->name[0] && !(ev->flags & HWPERF_EV_RAW))
			continue;
		if (*n == max)
			return failed(reason, len, "EINVAL: too many events");
		out[*n].vi = i;
		if ((err = resolve_one(m, ev, &out[*n], reason, len)) < 0)
			return err;
		(*n)++;
	}
	return 0;
}
