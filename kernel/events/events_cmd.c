/*
 * events_cmd.c - `events`: list any model's event table, and place a set
 * of events on its counters, on any machine.
 *
 *	events                                  the models
 *	events --model 74k                      that model's events
 *	events --model r10000 cycles tlb-misses dispatch them
 *	events cycles syscalls                  dispatch on the active PMU
 *	events --model skylake --resolve SPEC   the codes SPEC gets there
 *
 * Dispatch places the set with hwperf's own engine (place.h), so on the
 * active PMU it says where `hwperf enable` will put the same events
 * (given in virtual-counter order), and what `hwperf status` shows.
 *
 * Output, one record per line:
 *	model NAME counters=N slots=S DESC
 *	event NAME code=0xC counters=0xM DESC
 *	umask EVENT:NAME bits=0xB DESC
 *	assign I SPEC hw=H code=0xC name=NAME
 *	error: dispatch ERROR: REASON
 *	wait I SPEC
 *	resolve I NAME code=0xC counters=0xM modes=M     (--resolve)
 * After TOOMANY, NOASSIGN or EVTMANY the assign lines are the events that
 * go on together (what hwperf counts first when it multiplexes the set)
 * and the wait lines the others.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "console/cmd.h"
#include "hwperf/hwperf.h"
#include "hwperf/spec.h"
#include "events.h"

static void list_models(void)
{
	for (unsigned i = 0; i < events_model_count(); i++) {
		const struct ev_model *m = events_model_at(i);

		printf("model %s counters=%u slots=%u %s\n", m->name,
		       m->ncounters, m->slots_per_counter, m->desc);
	}
}

static void list_umask_sets(const struct ev_umask_set *sets, unsigned n)
{
	for (unsigned s = 0; s < n; s++) {
		const struct ev_umask_set *set = &sets[s];

		for (unsigned u = 0; u < set->count; u++)
			printf("umask %s:%s bits=0x%x %s\n", set->event,
			       set->umasks[u].name, (unsigned)set->umasks[u].bits,
			       set->umasks[u].desc);
	}
}

static void list_events(const struct ev_model *m)
{
	for (unsigned t = 0; t < m->ntables; t++) {
		const struct pmu_event_table *tab = m->tables[t];

		for (unsigned e = 0; e < tab->count; e++)
			printf("event %s code=0x%x counters=0x%x %s\n",
			       tab->events[e].name, (unsigned)tab->events[e].code,
			       (unsigned)(tab->events[e].counters &
			                  pmu_width_mask(m->ncounters)),
			       tab->events[e].desc);
	}
	list_umask_sets(m->umask_sets, m->numask_sets);
}

static bool partial(enum ev_err err)
{
	return err == EV_ERR_TOOMANY || err == EV_ERR_NOASSIGN ||
	       err == EV_ERR_EVTMANY;
}

static int dispatch(const struct ev_target *t, int n, char **specs)
{
	/* Too big for a kernel stack; the console runs one command at a time. */
	static struct ev_assign out[EV_DISPATCH_MAX];
	char reason[PMU_REASON_MAX] = "";
	enum ev_err err;

	err = events_dispatch(t, (const char *const *)specs, (unsigned)n, out,
	                      reason, sizeof(reason));
	if (err != EV_OK)
		printf("error: dispatch %s: %s\n", events_strerror(err), reason);
	if (err != EV_OK && (!partial(err) || n > EV_DISPATCH_MAX))
		return CMD_ERR_REPORTED;
	for (int i = 0; i < n; i++)
		if (out[i].placed)
			printf("assign %d %s hw=%u code=0x%x name=%s\n", i, specs[i],
			       out[i].hw, (unsigned)out[i].code, out[i].name);
		else
			printf("wait %d %s\n", i, specs[i]);
	return err == EV_OK ? 0 : CMD_ERR_REPORTED;
}

/* Every event of the PMU hwperf runs on, with its unit masks: what
 * `hwperf enable` accepts. */
static void list_active(void)
{
	const struct pmu_caps *caps = hwperf_caps();
	char modes[8];

	hwperf_modes_str(caps->modes, modes, sizeof(modes));
	for (unsigned t = 0; t < caps->ntables; t++) {
		const struct pmu_event_table *tab = caps->tables[t];

		for (unsigned e = 0; e < tab->count; e++)
			printf("event %s code=0x%x counters=0x%x modes=%s pmu=%s %s\n",
			       tab->events[e].name, (unsigned)tab->events[e].code,
			       (unsigned)(tab->events[e].counters &
			                  pmu_width_mask(caps->ncounters)),
			       modes, caps->name,
			       tab->events[e].desc);
	}
	list_umask_sets(caps->umask_sets, caps->numask_sets);
}

/* A spec as hwperf would take it on model m: `ok`, then one line each. */
static int resolve(const struct ev_model *m, const char *spec)
{
	static struct ev_resolved out[HWPERF_NVCTR];
	char reason[HWPERF_REASON_MAX];
	char modes[8];
	unsigned n;

	if (events_resolve(m, spec, out, HWPERF_NVCTR, &n, reason,
	                   sizeof(reason)) < 0) {
		printf("err %s\n", reason);
		return CMD_ERR_REPORTED;
	}
	printf("ok %u\n", n);
	for (unsigned i = 0; i < n; i++) {
		hwperf_modes_str(out[i].modes, modes, sizeof(modes));
		printf("resolve %u %s code=0x%x counters=0x%x modes=%s\n",
		       out[i].vi, out[i].name, (unsigned)out[i].code,
		       (unsigned)out[i].counters, modes);
	}
	return 0;
}

static int cmd_events(int argc, char **argv)
{
	const struct ev_model *m;
	struct ev_target t;

	if (argc == 1) {
		list_active();
		return 0;
	}
	if (argv[1][0] != '-') {
		events_target_of_caps(hwperf_caps(), &t);
		return dispatch(&t, argc - 1, argv + 1);
	}
	if (argc == 2 && strcmp(argv[1], "--models") == 0) {
		list_models();
		return 0;
	}
	if (argc < 3 || strcmp(argv[1], "--model") != 0)
		return -EINVAL;
	m = events_model_find(argv[2]);
	if (!m) {
		printf("error: events: no model '%s' (try events --models)\n", argv[2]);
		return CMD_ERR_REPORTED;
	}
	if (argc == 3) {
		list_events(m);
		return 0;
	}
	if (strcmp(argv[3], "--resolve") == 0) {
		if (argc != 5)
			return -EINVAL;
		return resolve(m, argv[4]);
	}
	events_target_of_model(m, &t);
	return dispatch(&t, argc - 3, argv + 3);
}

CONSOLE_CMD(events, "events of the active PMU; any model's table; dispatch a set",
            "events                         the active PMU's events: name, code, counters, modes;\n"
            "                               then its unit masks\n"
            "events --models                every PMU model Tally has a table for\n"
            "events --model NAME            list NAME's events and unit masks\n"
            "events --model NAME EV[:UM]... place the events on NAME's counters\n"
            "events --model NAME --resolve SPEC  the codes SPEC (hwperf syntax) gets\n"
            "                               on NAME, built by its driver's encoder\n"
            "events EV...                   place them on the active PMU, as hwperf will\n"
            "                               (wait: multiplexed, counted in turns)",
            cmd_events);
