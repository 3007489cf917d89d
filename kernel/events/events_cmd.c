/*
 * events_cmd.c - `events`: list any model's event table, and place a set
 * of events on its counters, on any machine.
 *
 *	events                                  the models
 *	events --model 74k                      that model's events
 *	events --model r10000 cycles tlb-misses dispatch them
 *
 * Output, one record per line:
 *	model NAME counters=N slots=S DESC
 *	event NAME code=0xC counters=0xM DESC
 *	umask EVENT:NAME bits=0xB DESC
 *	assign I SPEC hw=H code=0xC name=NAME
 *	dispatch ERROR: REASON
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
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

static void list_umasks(const struct ev_model *m)
{
	for (unsigned s = 0; s < m->numask_sets; s++) {
		const struct ev_umask_set *set = &m->umask_sets[s];

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
	list_umasks(m);
}

static int dispatch(const struct ev_model *m, int n, char **specs)
{
	struct ev_target t;
	struct ev_assign out[PMU_MAX_COUNTERS];
	char reason[PMU_REASON_MAX] = "";
	enum ev_err err;

	events_target_of_model(m, &t);
	err = events_dispatch(&t, (const char *const *)specs, (unsigned)n, out,
	                      reason, sizeof(reason));
	if (err != EV_OK) {
		printf("dispatch %s: %s\n", events_strerror(err), reason);
		return CMD_ERR_REPORTED;
	}
	for (int i = 0; i < n; i++)
		printf("assign %d %s hw=%u code=0x%x name=%s\n", i, specs[i],
		       out[i].hw, (unsigned)out[i].code, out[i].name);
	return 0;
}

/* Every event of the PMU hwperf runs on: what `hwperf enable` accepts. */
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
}

static int cmd_events(int argc, char **argv)
{
	const struct ev_model *m;

	if (argc == 1) {
		list_active();
		return 0;
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
	return dispatch(m, argc - 3, argv + 3);
}

CONSOLE_CMD(events, "events of the active PMU; any model's table; dispatch a set",
            "events                         the active PMU's events: name, code, counters, modes\n"
            "events --models                every PMU model Tally has a table for\n"
            "events --model NAME            list NAME's events and unit masks\n"
            "events --model NAME EV[:UM]... place the events on NAME's counters",
            cmd_events);
