/*
 * dispatch.c - placing a set of events on counters, as libpfm's
 * pfm_dispatch_events(3) does, with its errors by name.
 *
 * Names and unit masks are resolved here; the counters come from the
 * engine hwperf uses (place.c), so the answer is hwperf's: most
 * constrained first, fixed counters used for their event, and a set
 * refused with NOASSIGN only when no placement exists at all.
 *
 * The console runs one command at a time, and a set's state is too big
 * for a one-page kernel stack, so it lives here (see scratch below).
 */
#include <stdio.h>
#include <string.h>

#include "bits.h"
#include "events.h"
#include "place.h"

#define SPEC_MAX 128
#define UMASKS_MAX 8

struct req {
	const struct pmu_event_table *tab;
	unsigned entry;                 /* first entry of the name */
	uint32_t mask;                  /* usable counters */
	uint32_t umask;                 /* field bits, already shifted */
	bool has_umask;
};

static const char *const err_names[] = {
	[EV_OK] = "OK",
	[EV_ERR_INVAL] = "INVAL",
	[EV_ERR_NOTFOUND] = "NOTFOUND",
	[EV_ERR_UMASK] = "UMASK",
	[EV_ERR_TOOMANY] = "TOOMANY",
	[EV_ERR_NOASSIGN] = "NOASSIGN",
	[EV_ERR_EVTMANY] = "EVTMANY",
};

const char *events_strerror(enum ev_err err)
{
	if ((unsigned)err >= sizeof(err_names) / sizeof(err_names[0]))
		return "?";
	return err_names[err];
}

void events_target_of_model(const struct ev_model *m, struct ev_target *t)
{
	memset(t, 0, sizeof(*t));
	t->ntables = m->ntables;
	t->tables = m->tables;
	t->umask_sets = m->umask_sets;
	t->numask_sets = m->numask_sets;
	t->umask_shift = m->umask_shift;
	t->umask_field = m->umask_field;
	t->ncounters = m->ncounters;
	t->fixed = m->fixed;
}

void events_target_of_caps(const struct pmu_caps *caps, struct ev_target *t)
{
	memset(t, 0, sizeof(*t));
	t->ntables = caps->ntables;
	t->tables = caps->tables;
	t->ncounters = caps->ncounters;
	t->umask_sets = caps->umask_sets;
	t->numask_sets = caps->numask_sets;
	for (unsigned k = 0; k < caps->ncounters; k++)
		if (caps->counter[k].fixed)
			t->fixed |= 1u << k;
}

static enum ev_err fail(enum ev_err e, char *reason, size_t len,
                        const char *fmt, const char *arg)
{
	if (reason && len)
		snprintf(reason, len, fmt, arg);
	return e;
}

/* The first table holding name wins, as hwperf's lookup does. */
static bool find_event(const struct ev_target *t, const char *name,
                       struct req *r)
{
	for (unsigned k = 0; k < t->ntables; k++) {
		const struct pmu_event_table *tab = t->tables[k];
		bool found = false;

		for (unsigned e = 0; e < tab->count; e++) {
			if (!events_name_eq(tab->events[e].name, name))
				continue;
			if (!found) {
				r->tab = tab;
				r->entry = e;
				found = true;
			}
			r->mask |= tab->events[e].counters;
		}
		if (found)
			return true;
	}
	return false;
}

static const struct ev_umask_set *umask_set(const struct ev_target *t,
                                            const char *event)
{
	for (unsigned i = 0; i < t->numask_sets; i++)
		if (events_name_eq(t->umask_sets[i].event, event))
			return &t->umask_sets[i];
	return NULL;
}

static bool find_umask(const struct ev_umask_set *s, const char *name,
                       uint32_t *bits)
{
	for (unsigned i = 0; i < s->count; i++)
		if (events_name_eq(s->umasks[i].name, name)) {
			*bits |= s->umasks[i].bits;
			return true;
		}
	return false;
}

static enum ev_err apply_umasks(const struct ev_target *t, struct req *r,
                                char **um, unsigned num, char *reason,
                                size_t len)
{
	const char *event = r->tab->events[r->entry].name;
	const struct ev_umask_set *s = umask_set(t, event);
	uint32_t bits = 0;

	if (!s && num)
		return fail(EV_ERR_UMASK, reason, len,
		            "event %s takes no unit mask", event);
	if (s && s->required && !num)
		return fail(EV_ERR_UMASK, reason, len,
		            "event %s needs a unit mask", event);
	for (unsigned i = 0; i < num; i++)
		if (!find_umask(s, um[i], &bits))
			return fail(EV_ERR_UMASK, reason, len,
			            "unknown unit mask '%s'", um[i]);
	r->has_umask = num > 0;
	r->umask = (bits << t->umask_shift) & t->umask_field;
	return EV_OK;
}

/* "name[:umask...]" -> r.  buf is scratch, split in place. */
static enum ev_err resolve(const struct ev_target *t, const char *spec,
                           uint32_t usable, struct req *r, char *reason,
                           size_t len)
{
	char buf[SPEC_MAX];
	char *um[UMASKS_MAX];
	unsigned num = 0;
	char *p;

	memset(r, 0, sizeof(*r));
	if (!spec)
		return fail(EV_ERR_INVAL, reason, len, "%s", "missing event spec");
	if (strlcpy(buf, spec, sizeof(buf)) >= sizeof(buf))
		return fail(EV_ERR_INVAL, reason, len, "event spec '%.40s...' "
		            "is too long", spec);
	for (p = strchr(buf, ':'); p; p = strchr(p + 1, ':')) {
		*p = '\0';
		if (num == UMASKS_MAX || p[1] == '\0')
			return fail(EV_ERR_UMASK, reason, len,
			            "bad unit-mask list in '%s'", spec);
		um[num++] = p + 1;
	}
	if (buf[0] == '\0')
		return fail(EV_ERR_INVAL, reason, len, "empty event name in '%s'",
		            spec);
	if (!find_event(t, buf, r))
		return fail(EV_ERR_NOTFOUND, reason, len, "no event '%s' here",
		            buf);
	r->mask &= usable;
	return apply_umasks(t, r, um, num, reason, len);
}

static bool same_event(const struct req *a, const struct req *b)
{
	return a->tab == b->tab && a->entry == b->entry &&
	       a->umask == b->umask && a->has_umask == b->has_umask;
}

/* One event asked for more often than it has counters: EVTMANY. */
static int overused(const struct req *r, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		unsigned dup = 0;

		for (unsigned j = 0; j < n; j++)
			dup += same_event(&r[i], &r[j]);
		if (dup > 1 && dup > bits_count(r[i].mask))
			return (int)i;
	}
	return -1;
}

/* The entry of r's name whose counter mask holds hw (any entry when the
 * event waits: hw < 0), with unit masks. */
static uint32_t code_on(const struct ev_target *t, const struct req *r,
                        int hw, const char **name)
{
	const struct pmu_event *ev = &r->tab->events[r->entry];

	for (unsigned e = r->entry; hw >= 0 && e < r->tab->count; e++)
		if (events_name_eq(r->tab->events[e].name, ev->name) &&
		    (r->tab->events[e].counters & (1u << hw))) {
			ev = &r->tab->events[e];
			break;
		}
	*name = ev->name;
	if (!r->has_umask)
		return ev->code;
	return (ev->code & ~t->umask_field) | r->umask;
}

static struct {
	struct req r[EV_DISPATCH_MAX];
	struct ev_place pl;
} scratch;

/* Every event that fits goes on; out[] says where, or that it waits. */
static void place(const struct ev_target *t, const struct req *r,
                  unsigned n, struct ev_assign *out)
{
	struct ev_place *pl = &scratch.pl;

	pl->want = n < EV_PLACE_MAX ? (1u << n) - 1 : ~0u;
	pl->fixed = t->fixed;
	for (unsigned i = 0; i < n; i++) {
		pl->mask[i] = r[i].mask;
		pl->rank[i] = 0;
		pl->nctr[i] = 0;
	}
	events_place(pl);
	for (unsigned i = 0; i < n; i++) {
		int hw = pl->hw[i] == EV_PLACE_NONE ? -1 : (int)pl->hw[i];

		out[i].placed = hw >= 0;
		out[i].hw = hw >= 0 ? (unsigned)hw : 0;
		out[i].code = code_on(t, &r[i], hw, &out[i].name);
	}
}

/* The event the engine gave up on first: fewest counters, then index. */
static unsigned first_waiting(const struct req *r, unsigned n,
                              const struct ev_assign *out)
{
	unsigned best = n;

	for (unsigned i = 0; i < n; i++)
		if (!out[i].placed && (best == n ||
		    bits_count(r[i].mask) < bits_count(r[best].mask)))
			best = i;
	return best;
}

enum ev_err events_dispatch(const struct ev_target *t,
                            const char *const *specs, unsigned n,
                            struct ev_assign *out, char *reason,
                            size_t reason_len)
{
	struct req *r = scratch.r;
	uint32_t usable;
	enum ev_err err;
	unsigned wait;
	int dup;

	if (n == 0 || !specs || !out || t->ncounters > PMU_MAX_COUNTERS)
		return fail(EV_ERR_INVAL, reason, reason_len, "%s",
		            "no events, or no target");
	if (n > EV_DISPATCH_MAX) {
		if (reason && reason_len)
			snprintf(reason, reason_len, "%u events, at most %u in a "
			         "set", n, EV_DISPATCH_MAX);
		return EV_ERR_TOOMANY;
	}
	usable = (uint32_t)pmu_width_mask(t->ncounters) & ~t->unavail;
	for (unsigned i = 0; i < n; i++) {
		err = resolve(t, specs[i], usable, &r[i], reason, reason_len);
		if (err != EV_OK)
			return err;
	}
	place(t, r, n, out);
	if (n > bits_count(usable)) {
		if (reason && reason_len)
			snprintf(reason, reason_len, "%u events, %u usable "
			         "counters", n, bits_count(usable));
		return EV_ERR_TOOMANY;
	}
	for (unsigned i = 0; i < n; i++)
		if (r[i].mask == 0)
			return fail(EV_ERR_NOASSIGN, reason, reason_len,
			            "'%s' countable on no usable counter",
			            specs[i]);
	dup = overused(r, n);
	if (dup >= 0)
		return fail(EV_ERR_EVTMANY, reason, reason_len,
		            "'%s' given more often than it has counters",
		            specs[dup]);
	wait = first_waiting(r, n, out);
	if (wait < n)
		return fail(EV_ERR_NOASSIGN, reason, reason_len,
		            "no counter left for '%s' under the constraints "
		            "of the set", specs[wait]);
	return EV_OK;
}
