/*
 * Host test of the rule "events and hwperf agree on placement": every set
 * of the dispatch tests (dispatch_sets.h), on the model it names, and
 * random sets on random constraints, placed once as `events` does
 * (events_dispatch) and once as hwperf does (spec parse, enable, load on
 * a PMU double shaped like the model: its table, counters, fixed counters
 * and R10000 slot layout) must give the same events the same counters and
 * leave the same events waiting.  hwperf has no unit masks, so its side
 * gets the names alone; a set `events` refuses for its unit masks is a
 * question about names, not placement, and is checked only for that.
 */
#include "hwperf_test.h"
#include "kernel/hwperf/internal.h"
#include "dispatch_sets.h"

#define NONE 0xffu
#define TABLE_MAX 64

#define NAME_MAX_ 64

struct placed {
	char name[NAME_MAX_];
	unsigned hw;                    /* NONE: waits */
};

static int by_name_hw(const void *a, const void *b)
{
	const struct placed *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (int)x->hw - (int)y->hw;
}

static void strip_umasks(const char *spec, char *name)
{
	size_t n = strcspn(spec, ":");

	assert_true(n < NAME_MAX_);
	memcpy(name, spec, n);
	name[n] = '\0';
}

/* ---- the events side ----------------------------------------------------- */

static enum ev_err events_side(const struct ev_target *t, const char *const *specs,
                               unsigned n, struct placed *got)
{
	struct ev_assign out[EV_DISPATCH_MAX] = { { 0 } };
	char reason[PMU_REASON_MAX];
	enum ev_err err = events_dispatch(t, specs, n, out, reason, sizeof(reason));

	for (unsigned i = 0; i < n; i++) {
		strip_umasks(specs[i], got[i].name);
		got[i].hw = out[i].placed ? out[i].hw : NONE;
	}
	return err;
}

/* ---- the hwperf side ----------------------------------------------------- */

/* The table with the unavailable counters taken out of every mask: the
 * same constraints, told to hwperf as a PMU would tell them. */
static struct pmu_event events[TABLE_MAX];
static struct pmu_event_table table = { "agree", events, 0 };

static int hwperf_side(const struct pmu_event_table *src, unsigned ncounters,
                       uint32_t fixed, unsigned spc, uint32_t unavail,
                       const char *const *specs, unsigned n, struct placed *got)
{
	struct fakepmu_cfg cfg;
	struct hwperf_control ctl;
	struct hwperf_reason why;
	char spec[256] = "";
	const struct hwperf_set *s;

	assert_true(src->count <= TABLE_MAX);
	for (unsigned e = 0; e < src->count; e++) {
		events[e] = src->events[e];
		events[e].counters &= ~unavail;
	}
	table.count = src->count;
	fakepmu_default(&cfg);
	cfg.ncounters = ncounters;
	cfg.fixed_mask = fixed;
	cfg.slots_per_counter = spc;
	cfg.table = &table;
	hwt_setup_cfg(&cfg, 1);
	fake_run(0, fake_spawn(10, ROOT, 1, 1));
	for (unsigned i = 0; i < n; i++) {
		char name[NAME_MAX_];

		strip_umasks(specs[i], name);
		if (strlen(name) >= HWPERF_NAME_MAX)
			return -ENAMETOOLONG;
		snprintf(spec + strlen(spec), sizeof(spec) - strlen(spec), "%s%s",
		         i ? "," : "", name);
	}
	if (hwperf_spec_parse(spec, hwperf_caps(), &ctl, &why) < 0 ||
	    hwperf_enable(NULL, 10, &ctl, &why) < 0)
		return -EINVAL;
	fake_tick(0);
	s = hwperf_core.cpu[0].loaded;
	assert_non_null(s);
	n = 0;
	for (unsigned vi = 0; vi < HWPERF_NVCTR; vi++) {
		if (!(s->used & (1u << vi)))
			continue;
		snprintf(got[n].name, sizeof(got[n].name), "%s", ctl.ev[vi].name);
		got[n].hw = NONE;
		for (unsigned k = 0; k < s->pst.ctl.n; k++)
			if (s->slot_vctr[k] == vi)
				got[n].hw = s->pst.ctl.ctr[k].hw;
		n++;
	}
	return (int)n;
}

static void same_placement(struct placed *ev, struct placed *hw, unsigned n,
                           const char *what)
{
	qsort(ev, n, sizeof(*ev), by_name_hw);
	qsort(hw, n, sizeof(*hw), by_name_hw);
	for (unsigned i = 0; i < n; i++)
		if (strcmp(ev[i].name, hw[i].name) || ev[i].hw != hw[i].hw)
			fail_msg("%s: events puts %s on %d, hwperf %s on %d", what,
			         ev[i].name, ev[i].hw == NONE ? -1 : (int)ev[i].hw,
			         hw[i].name, hw[i].hw == NONE ? -1 : (int)hw[i].hw);
}

static bool placement_answer(enum ev_err err)
{
	return err == EV_OK || err == EV_ERR_TOOMANY || err == EV_ERR_EVTMANY ||
	       err == EV_ERR_NOASSIGN;
}

static void test_events_and_hwperf_agree_on_placement(void **state)
{
	(void)state;
	for (unsigned i = 0; i < N_DISPATCH_SETS; i++) {
		const struct dispatch_set *d = &dispatch_sets[i];
		const struct ev_model *m = events_model_find(d->model);
		struct placed ev[DS_MAX], hw[DS_MAX];
		struct ev_target t;
		enum ev_err err;
		int nh;
		char what[64];

		assert_non_null(m);
		events_target_of_model(m, &t);
		t.unavail = d->unavail;
		err = events_side(&t, d->specs, d->n, ev);
		nh = hwperf_side(m->tables[0], m->ncounters, m->fixed,
		                 m->slots_per_counter, d->unavail, d->specs, d->n, hw);
		snprintf(what, sizeof(what), "set %u (%s %s...)", i, d->model,
		         d->specs[0]);
		if (err == EV_ERR_UMASK)
			continue;       /* hwperf has no unit masks to refuse */
		/* A name as long as AMD's 41-character one does not fit hwperf's
		 * 32-byte name field (abi.h): a naming limit, not placement. */
		if (nh == -ENAMETOOLONG)
			continue;
		if (nh < 0) {
			/* Refused by both: unknown names, or no counter at all. */
			if (placement_answer(err) && err != EV_ERR_NOASSIGN)
				fail_msg("%s: hwperf refused, events said %s", what,
				         events_strerror(err));
			continue;
		}
		if (!placement_answer(err))
			fail_msg("%s: events said %s, hwperf placed it", what,
			         events_strerror(err));
		assert_int_equal((unsigned)nh, d->n);
		same_placement(ev, hw, d->n, what);
	}
}

/* Random constraints, fixed counters and R10000 layouts on 4 counters. */
static void test_events_and_hwperf_agree_on_random_sets(void **state)
{
	static const char *const names[] = { "e0", "e1", "e2", "e3", "e4", "e5" };
	struct pmu_event evs[6];
	const struct pmu_event_table tab = { "random", evs, 6 };
	const struct pmu_event_table *tabs[1] = { &tab };
	uint32_t seed = 4242;

	(void)state;
	for (unsigned round = 0; round < 3000; round++) {
		struct ev_target t = { .ntables = 1, .tables = tabs, .ncounters = 4 };
		const char *specs[6];
		struct placed ev[6], hw[6];
		unsigned n = 1 + round % 6, spc;
		int nh;

		seed = seed * 1103515245u + 12345u;
		t.fixed = (seed >> 20) & 0xcu;  /* counters 2 and 3 may be fixed */
		spc = (seed >> 24) % 4 == 0 ? 16 : 0;
		for (unsigned e = 0; e < 6; e++) {
			seed = seed * 1103515245u + 12345u;
			evs[e] = (struct pmu_event){ names[e], e, 1u + (seed >> 16) % 15u, "x" };
		}
		for (unsigned i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			specs[i] = names[(seed >> 16) % 6];
		}
		events_side(&t, specs, n, ev);
		nh = hwperf_side(&tab, 4, t.fixed, spc, 0, specs, n, hw);
		if (nh < 0)
			continue;       /* the R10000 layout ran out of slots: none */
		assert_int_equal((unsigned)nh, n);
		same_placement(ev, hw, n, "random set");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_events_and_hwperf_agree_on_placement),
		cmocka_unit_test(test_events_and_hwperf_agree_on_random_sets),
	};
	return cmocka_run_group_tests_name("events_agree", tests, NULL, NULL);
}
