/*
 * Host tests of kernel/events: the model registry, the tables' shape and
 * aliases, intel_arch_bind(), and dispatch with libpfm's errors by name.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "events/events.h"
#include "dispatch_sets.h"

/* events_cmd.c is included whole, printf pointed at a buffer, so its
 * static handler can be run and its output read back. */
#define CMD_OUT_MAX 8192

static char cmd_out[CMD_OUT_MAX];
static size_t cmd_out_len;

__attribute__((format(printf, 1, 2)))
static int capture(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(cmd_out + cmd_out_len, sizeof(cmd_out) - cmd_out_len, fmt,
	              ap);
	va_end(ap);
	if (n > 0)
		cmd_out_len += (size_t)n < sizeof(cmd_out) - cmd_out_len ?
		               (size_t)n : sizeof(cmd_out) - cmd_out_len - 1;
	return n;
}

#include "console/cmd.h"
#define printf capture
#include "kernel/events/events_cmd.c"
#undef printf

static struct ev_assign out[PMU_MAX_COUNTERS];
static char reason[PMU_REASON_MAX];

static enum ev_err run(const char *model, uint32_t unavail, unsigned n,
                       const char *const *specs)
{
	const struct ev_model *m = events_model_find(model);
	struct ev_target t;

	assert_non_null(m);
	events_target_of_model(m, &t);
	t.unavail = unavail;
	memset(out, 0xff, sizeof(out));
	reason[0] = '\0';
	return events_dispatch(&t, specs, n, out, reason, sizeof(reason));
}

#define SPECS(...) ((const char *const[]){ __VA_ARGS__ })
#define NSPECS(...) (sizeof(SPECS(__VA_ARGS__)) / sizeof(const char *))
#define RUN(model, unavail, ...) \
	run(model, unavail, NSPECS(__VA_ARGS__), SPECS(__VA_ARGS__))

static void expect(enum ev_err got, enum ev_err want, const char *why)
{
	if (got != want)
		fail_msg("got %s, want %s (%s)", events_strerror(got),
		         events_strerror(want), reason);
	if (why && !strstr(reason, why))
		fail_msg("reason '%s' lacks '%s'", reason, why);
}

/* ---- registry and tables ------------------------------------------------- */

static void test_registry(void **state)
{
	static const char *const names[] = {
		"intel-arch", "skylake", "amd-legacy", "amd-core", "amd-fam19h",
		"24k", "34k", "74k", "1004k", "interaptiv", "p5600", "r10000",
		"r12000",
	};

	(void)state;
	assert_int_equal(events_model_count(), 13);
	for (unsigned i = 0; i < 13; i++)
		assert_non_null(events_model_find(names[i]));
	assert_ptr_equal(events_model_find("74K"), &ev_model_mips_74k);
	assert_ptr_equal(events_model_find("R10000"), &ev_model_r10000);
	assert_null(events_model_find("r4000"));
	assert_null(events_model_at(13));
	assert_string_equal(events_strerror(EV_ERR_EVTMANY), "EVTMANY");
}

/* Lower case, digits and '-'; one '.' between words for the SDM's and
 * perf's dotted names of an event with its modifiers
 * ("cycle-activity.stalls-total"). */
static bool well_formed(const char *name)
{
	const char *dot = strchr(name, '.');

	if (!name[0] || name[0] == '-')
		return false;
	if (dot && (dot == name || !dot[1] || strchr(dot + 1, '.')))
		return false;
	for (const char *p = name; *p; p++)
		if (!(islower((unsigned char)*p) || isdigit((unsigned char)*p) ||
		      *p == '-' || *p == '.'))
			return false;
	return true;
}

static uint32_t model_mask(const struct ev_model *m, const char *name)
{
	uint32_t mask = 0;

	for (unsigned t = 0; t < m->ntables; t++)
		for (unsigned e = 0; e < m->tables[t]->count; e++)
			if (strcmp(m->tables[t]->events[e].name, name) == 0)
				mask |= m->tables[t]->events[e].counters;
	return mask & (uint32_t)pmu_width_mask(m->ncounters);
}

static void test_tables_well_formed_with_aliases(void **state)
{
	(void)state;
	for (unsigned i = 0; i < events_model_count(); i++) {
		const struct ev_model *m = events_model_at(i);

		assert_true(m->ntables >= 1);
		for (unsigned t = 0; t < m->ntables; t++) {
			const struct pmu_event_table *tab = m->tables[t];

			assert_true(tab->count > 0);
			for (unsigned e = 0; e < tab->count; e++) {
				const struct pmu_event *ev = &tab->events[e];

				if (!well_formed(ev->name))
					fail_msg("%s: bad name '%s'", m->name, ev->name);
				if (!(ev->counters & pmu_width_mask(m->ncounters)))
					fail_msg("%s: %s on no counter", m->name,
					         ev->name);
				assert_true(ev->desc && ev->desc[0]);
			}
		}
		/* The generic names every model answers to. */
		assert_true(model_mask(m, "cycles"));
		assert_true(model_mask(m, "instructions"));
		assert_true(model_mask(m, "branches"));
		assert_true(model_mask(m, "branch-misses"));
	}
	assert_int_equal(model_mask(&ev_model_mips_24k, "branches"), 0x1);
	assert_int_equal(model_mask(&ev_model_mips_24k, "branch-misses"), 0x2);
	assert_int_equal(model_mask(&ev_model_mips_74k, "branch-misses"), 0xa);
	assert_int_equal(model_mask(&ev_model_r10000, "cycles"), 0x3);
	assert_int_equal(model_mask(&ev_model_r12000, "cycles"), 0x1);
	assert_int_equal(model_mask(&ev_model_r10000, "tlb-misses"), 0x2);
}

static void test_r10k_tables_follow_irix_numbering(void **state)
{
	(void)state;
	/* 32 distinct IRIX numbers, 0-15 on counter 0, 16-31 on counter 1. */
	for (unsigned k = 0; k < 2; k++) {
		const struct pmu_event_table *tab =
		        k ? &r12000_table : &r10000_table;
		uint32_t seen = 0;

		for (unsigned e = 0; e < tab->count; e++) {
			uint32_t code = tab->events[e].code;

			assert_true(code < 32);
			assert_int_equal(tab->events[e].counters, 1u << (code / 16));
			seen |= 1u << code;
		}
		assert_true(seen == 0xffffffffu);
	}
}

static unsigned bound_mask(const struct pmu_event *ev, unsigned n,
                           const char *name)
{
	unsigned m = 0;

	for (unsigned i = 0; i < n; i++)
		if (strcmp(ev[i].name, name) == 0)
			m |= ev[i].counters;
	return m;
}

static void test_intel_arch_bind(void **state)
{
	struct pmu_event ev[INTEL_ARCH_TABLE_MAX];
	unsigned n;

	(void)state;
	/* 8 general + 4 fixed, all 8 events (version 5 layout). */
	n = intel_arch_bind(ev, 8, 4, 0xf, 0, 8);
	assert_int_equal(bound_mask(ev, n, "topdown-slots"), 0xff | 1u << 11);
	assert_int_equal(bound_mask(ev, n, "slots"), 1u << 11);
	assert_int_equal(bound_mask(ev, n, "cycles"), 0xff | 1u << 9);
	assert_int_equal(bound_mask(ev, n, "instructions"), 0xff | 1u << 8);
	assert_int_equal(bound_mask(ev, n, "ref-cycles"), 1u << 10);
	/* Version 1: 2 general, no fixed counters. */
	n = intel_arch_bind(ev, 2, 0, 0, 0, 7);
	assert_int_equal(bound_mask(ev, n, "cycles"), 0x3);
	assert_int_equal(bound_mask(ev, n, "ref-cycles"), 0);
	/* EBX bit 6 set: branch misses not available. */
	n = intel_arch_bind(ev, 4, 3, 0x7, 0x40, 7);
	assert_int_equal(bound_mask(ev, n, "branch-misses"), 0);
	assert_int_equal(bound_mask(ev, n, "branches"), 0xf);
	assert_int_equal(intel_fixed_code(1), 0x3c);
	assert_int_equal(intel_fixed_code(4), 0);
}

/* ---- dispatch ------------------------------------------------------------ */

static void test_fixed_counter_most_constrained_first(void **state)
{
	(void)state;
	/* Fixed counters go to their events first (hwperf's rule, now the
	 * one engine's), keeping the general counters free. */
	expect(RUN("intel-arch", 0, "cycles", "instructions", "ref-cycles"),
	       EV_OK, NULL);
	assert_int_equal(out[2].hw, 6);         /* fixed 2 = 4 + 2 */
	assert_int_equal(out[2].code, INTEL_FIXED_REF_CYCLES_CODE);
	assert_int_equal(out[0].hw, 5);         /* fixed 1 */
	assert_int_equal(out[0].code, 0x3c);
	assert_int_equal(out[1].hw, 4);         /* fixed 0 */
	assert_int_equal(out[1].code, 0xc0);
	/* A second cycles finds its fixed counter taken: a general one. */
	expect(RUN("intel-arch", 0, "cycles", "cycles"), EV_OK, NULL);
	assert_int_equal(out[0].hw, 5);
	assert_int_equal(out[1].hw, 0);
	assert_true(out[0].placed && out[1].placed);
	/* General counters taken (pfp_unavail_pmcs): the fixed twins. */
	expect(RUN("intel-arch", 0x0f, "cycles", "instructions"), EV_OK, NULL);
	assert_int_equal(out[0].hw, 5);
	assert_int_equal(out[1].hw, 4);
	assert_string_equal(out[0].name, "cycles");
}

static void test_odd_even_constraints_placed_exactly(void **state)
{
	(void)state;
	/* In input order, cycles and instructions would take counters 0
	 * and 1 and leave one odd counter for two odd-only events. */
	expect(RUN("74k", 0, "cycles", "instructions", "branch-misses",
	           "dcache-misses"), EV_OK, NULL);
	assert_int_equal(out[2].hw, 1);
	assert_int_equal(out[3].hw, 3);
	assert_int_equal(out[0].hw, 0);
	assert_int_equal(out[1].hw, 2);
	assert_int_equal(out[2].code, 39);
	assert_int_equal(out[3].code, 24);
}

static void test_same_name_other_code_per_counter(void **state)
{
	(void)state;
	/* R10000 cycles: IRIX 0 on counter 0, IRIX 16 on counter 1. */
	expect(RUN("r10000", 0, "cycles", "cycles"), EV_OK, NULL);
	assert_int_equal(out[0].hw, 0);
	assert_int_equal(out[0].code, 0);
	assert_int_equal(out[1].hw, 1);
	assert_int_equal(out[1].code, 16);
	expect(RUN("r10000", 0, "TLB_MISSES", "cycles"), EV_OK, NULL);
	assert_int_equal(out[0].hw, 1);
	assert_int_equal(out[1].hw, 0);
}

static void test_errors(void **state)
{
	(void)state;
	expect(RUN("24k", 0, "cycles", "instructions", "branches"),
	       EV_ERR_TOOMANY, "3 events, 2 usable counters");
	expect(RUN("74k", 0xe, "cycles", "instructions"), EV_ERR_TOOMANY, NULL);
	expect(RUN("24k", 0, "branches", "dcache-accesses"), EV_ERR_NOASSIGN,
	       "no counter left for");
	expect(RUN("74k", 0xa, "branch-misses"), EV_ERR_NOASSIGN,
	       "'branch-misses' countable on no usable counter");
	expect(RUN("24k", 0, "branches", "branches"), EV_ERR_EVTMANY,
	       "'branches' given more often");
	expect(RUN("r10000", 0, "tlb-misses", "tlb-misses"), EV_ERR_EVTMANY,
	       NULL);
	expect(RUN("24k", 0, "cycles", "no-such-event"), EV_ERR_NOTFOUND,
	       "no event 'no-such-event'");
	expect(RUN("24k", 0, ""), EV_ERR_INVAL, "empty event name");
	expect(run("24k", 0, 0, NULL), EV_ERR_INVAL, NULL);
}

static void test_unit_masks(void **state)
{
	(void)state;
	expect(RUN("amd-legacy", 0, "requests-to-l2"), EV_ERR_UMASK,
	       "needs a unit mask");
	expect(RUN("amd-legacy", 0, "cycles:data"), EV_ERR_UMASK,
	       "takes no unit mask");
	expect(RUN("amd-legacy", 0, "requests-to-l2:bogus"), EV_ERR_UMASK,
	       "unknown unit mask 'bogus'");
	expect(RUN("amd-legacy", 0, "requests-to-l2:"), EV_ERR_UMASK, NULL);
	/* instructions 0x01 | data 0x02 = 0x03, at bits 15:8: 0x037d */
	expect(RUN("amd-legacy", 0, "requests-to-l2:instructions:data"), EV_OK,
	       NULL);
	assert_int_equal(out[0].code, 0x037d);
	/* A named umask replaces the default 0x1f: 0x0142 */
	expect(RUN("amd-legacy", 0, "data-cache-refills"
	           ":system"), EV_OK, NULL);
	assert_int_equal(out[0].code, 0x0142);
	expect(RUN("amd-legacy", 0, "data-cache-refills"),
	       EV_OK, NULL);
	assert_int_equal(out[0].code, 0x1f42);
	/* ic-fill-miss 0x01 | ls-rd-blk-c 0x08 = 0x09: perf's cache-misses */
	expect(RUN("amd-core", 0, "L2_CACHE_REQ_STAT:IC_FILL_MISS:LS_RD_BLK_C",
	           "cache-misses"), EV_OK, NULL);
	assert_int_equal(out[0].code, 0x0964);
	assert_int_equal(out[1].code, 0x0964);
}

/* Every set of dispatch_sets.h gets its answer; one that does not fit still
 * says which events go on together, each on a counter of its own. */
static void test_dispatch_sets_give_their_answers(void **state)
{
	(void)state;
	for (unsigned s = 0; s < N_DISPATCH_SETS; s++) {
		const struct dispatch_set *d = &dispatch_sets[s];
		enum ev_err err = run(d->model, d->unavail, d->n, d->specs);
		bool partial = err == EV_ERR_TOOMANY || err == EV_ERR_NOASSIGN ||
		               err == EV_ERR_EVTMANY;
		unsigned nplaced = 0;

		if (err != d->want)
			fail_msg("set %u (%s %s...): got %s, want %s (%s)", s,
			         d->model, d->specs[0], events_strerror(err),
			         events_strerror(d->want), reason);
		for (unsigned i = 0; (err == EV_OK || partial) && i < d->n; i++) {
			if (err == EV_OK)
				assert_true(out[i].placed);
			if (!out[i].placed)
				continue;
			nplaced++;
			for (unsigned j = 0; j < i; j++)
				assert_false(out[j].placed && out[j].hw == out[i].hw);
		}
		if (partial)
			assert_true(nplaced < d->n);
	}
}

static void test_partial_set_shows_what_waits(void **state)
{
	(void)state;
	/* 24K: branches only on counter 0, so it goes first; of cycles and
	 * instructions (either counter) the first in the list gets the other. */
	expect(RUN("24k", 0, "cycles", "instructions", "branches"),
	       EV_ERR_TOOMANY, NULL);
	assert_true(out[2].placed);
	assert_int_equal(out[2].hw, 0);
	assert_true(out[0].placed);
	assert_int_equal(out[0].hw, 1);
	assert_false(out[1].placed);
}

/* ---- the console command ------------------------------------------------- */

/* The PMU hwperf runs on, as `events` without arguments sees it. */
static const struct pmu_event active_events[] = {
	/* Any counter, as the soft table says: `events` shows the two present. */
	{ "cycles", 0x0, 0xffff, "cycle-counter time" },
	{ "syscalls", 0x1, 0x3, "system calls" },
};
static const struct pmu_event_table active_table = { "soft", active_events, 2 };
static struct pmu_caps active_caps = {
	.name = "soft", .ncounters = 2, .modes = PMU_MODE_U | PMU_MODE_K,
	.ntables = 1, .tables = { &active_table },
};

const struct pmu_caps *hwperf_caps(void)
{
	return &active_caps;
}

static int events_cmd(int argc, const char *const *args)
{
	char *argv[CMD_ARGV_MAX];

	for (int i = 0; i < argc; i++)
		argv[i] = (char *)args[i];
	argv[argc] = NULL;
	cmd_out_len = 0;
	cmd_out[0] = '\0';
	return cmd_events(argc, argv);
}

#define CMD(...) events_cmd((int)NSPECS(__VA_ARGS__), SPECS(__VA_ARGS__))

static void test_events_command(void **state)
{
	(void)state;
	assert_int_equal(CMD("events"), 0);
	assert_string_equal(cmd_out,
		"event cycles code=0x0 counters=0x3 modes=uk pmu=soft cycle-counter time\n"
		"event syscalls code=0x1 counters=0x3 modes=uk pmu=soft system calls\n");
	assert_int_equal(CMD("events", "--models"), 0);
	assert_non_null(strstr(cmd_out, "model r10000 counters=2 slots=16 "));
	assert_non_null(strstr(cmd_out, "model intel-arch counters=7 slots=0 "));
	assert_int_equal(CMD("events", "--model", "R12000"), 0);
	assert_non_null(strstr(cmd_out, "event tlb-misses code=0x17 "
	                       "counters=0x2 TLB refill exceptions\n"));
	assert_int_equal(CMD("events", "--model", "amd-legacy"), 0);
	assert_non_null(strstr(cmd_out, "umask requests-to-l2:tlb-walk "
	                       "bits=0x4 "));
	assert_int_equal(CMD("events", "--model", "74k", "cycles",
	                     "branch-misses"), 0);
	assert_string_equal(cmd_out, "assign 0 cycles hw=0 code=0x0 name=cycles\n"
	                    "assign 1 branch-misses hw=1 code=0x27 "
	                    "name=branch-misses\n");
	assert_int_equal(CMD("events", "--model", "24k", "branches", "branches"),
	                 CMD_ERR_REPORTED);
	assert_string_equal(cmd_out, "error: dispatch EVTMANY: 'branches' given more "
	                    "often than it has counters\n"
	                    "assign 0 branches hw=0 code=0x2 name=branches\n"
	                    "wait 1 branches\n");
	/* On the active PMU, as hwperf will place them. */
	assert_int_equal(CMD("events", "syscalls", "cycles"), 0);
	assert_string_equal(cmd_out, "assign 0 syscalls hw=0 code=0x1 name=syscalls\n"
	                    "assign 1 cycles hw=1 code=0x0 name=cycles\n");
	assert_int_equal(CMD("events", "cycles", "syscalls", "cycles"),
	                 CMD_ERR_REPORTED);
	assert_string_equal(cmd_out, "error: dispatch TOOMANY: 3 events, 2 usable counters\n"
	                    "assign 0 cycles hw=0 code=0x0 name=cycles\n"
	                    "assign 1 syscalls hw=1 code=0x1 name=syscalls\n"
	                    "wait 2 cycles\n");
	assert_int_equal(CMD("events", "bogus"), CMD_ERR_REPORTED);
	assert_string_equal(cmd_out, "error: dispatch NOTFOUND: no event 'bogus' here\n");
	assert_int_equal(CMD("events", "--model", "vax"), CMD_ERR_REPORTED);
	assert_int_equal(CMD("events", "--bogus", "x"), -EINVAL);
	/* A spec resolved on a model, as its driver would encode it. */
	assert_int_equal(CMD("events", "--model", "skylake", "--resolve",
	                     "INST_RETIRED:ANY_P,MEM_LOAD_RETIRED:L1_MISS:k"), 0);
	assert_string_equal(cmd_out, "ok 2\n"
	                    "resolve 0 inst-retired code=0xc0 counters=0xf "
	                    "modes=u\n"
	                    "resolve 1 mem-load-retired code=0x8d1 "
	                    "counters=0xf modes=k\n");
	assert_int_equal(CMD("events", "--model", "skylake", "--resolve",
	                     "MEM_LOAD_RETIRED:L9"), CMD_ERR_REPORTED);
	assert_true(strncmp(cmd_out, "err EINVAL: unit mask 'L9' of "
	                    "MEM_LOAD_RETIRED: unknown; MEM_LOAD_RETIRED has: "
	                    "l1-hit, l2-hit, l3-hit, l1-miss, l2-miss", 119) == 0);
	assert_int_equal(CMD("events", "--model", "skylake", "--resolve"),
	                 -EINVAL);
	assert_int_equal(CMD("events", "--model", "24k", "--resolve",
	                     "cpu/event=0x1/"), CMD_ERR_REPORTED);
	assert_non_null(strstr(cmd_out, "pmu 24k has no event-select numbers"));
}

/* `events` on an active PMU with unit masks lists them after its events. */
static void test_events_lists_active_unit_masks(void **state)
{
	(void)state;
	active_caps.umask_sets = intel_arch_umasks;
	active_caps.numask_sets = intel_arch_numasks;
	assert_int_equal(CMD("events"), 0);
	active_caps.umask_sets = NULL;
	active_caps.numask_sets = 0;
	assert_non_null(strstr(cmd_out, "event syscalls code=0x1 "));
	assert_non_null(strstr(cmd_out, "\numask inst-retired:any-p bits=0x0 "));
	assert_non_null(strstr(cmd_out, "\numask longest-lat-cache:miss "
	                       "bits=0x41 "));
}

/* ---- dispatch against brute force ---------------------------------------- */

#define BF_COUNTERS 5
#define BF_EVENTS 5

static bool brute(const uint32_t *mask, unsigned n, unsigned i, uint32_t used)
{
	if (i == n)
		return true;
	for (unsigned hw = 0; hw < BF_COUNTERS; hw++)
		if ((mask[i] & ~used & (1u << hw)) &&
		    brute(mask, n, i + 1, used | 1u << hw))
			return true;
	return false;
}

/* Every set of distinct events over 5 counters: placed iff placeable. */
static void test_dispatch_agrees_with_brute_force(void **state)
{
	static const char *const names[BF_EVENTS] = { "e0", "e1", "e2", "e3",
	                                               "e4" };
	struct pmu_event ev[BF_EVENTS];
	const struct pmu_event_table tab = { "bf", ev, BF_EVENTS };
	const struct pmu_event_table *tabs[1] = { &tab };
	struct ev_target t = { .ntables = 1, .tables = tabs,
	                       .ncounters = BF_COUNTERS };
	uint32_t mask[BF_EVENTS];
	uint32_t seed = 12345;

	(void)state;
	for (unsigned round = 0; round < 20000; round++) {
		unsigned n = 1 + round % BF_EVENTS;
		enum ev_err err;
		bool ok;

		for (unsigned i = 0; i < BF_EVENTS; i++) {
			seed = seed * 1103515245u + 12345u;
			mask[i] = 1u + (seed >> 16) % 31u;
			ev[i] = (struct pmu_event){ names[i], i, mask[i], "x" };
		}
		ok = brute(mask, n, 0, 0);
		err = events_dispatch(&t, names, n, out, reason, sizeof(reason));
		assert_int_equal(err, ok ? EV_OK : EV_ERR_NOASSIGN);
		for (unsigned i = 0; ok && i < n; i++) {
			assert_true(mask[i] & (1u << out[i].hw));
			for (unsigned j = 0; j < i; j++)
				assert_int_not_equal(out[i].hw, out[j].hw);
		}
	}
}

/* Every unit mask fits its model's field; no name twice in one set. */
static void test_umask_tables_fit_and_are_unique(void **state)
{
	(void)state;
	for (unsigned i = 0; i < events_model_count(); i++) {
		const struct ev_model *m = events_model_at(i);

		for (unsigned k = 0; k < m->numask_sets; k++) {
			const struct ev_umask_set *set = &m->umask_sets[k];

			for (unsigned u = 0; u < set->count; u++) {
				uint32_t b = set->umasks[u].bits << m->umask_shift;

				if (b & ~m->umask_field)
					fail_msg("%s %s:%s bits 0x%x outside 0x%x",
					         m->name, set->event,
					         set->umasks[u].name,
					         (unsigned)set->umasks[u].bits,
					         (unsigned)m->umask_field);
				for (unsigned v = 0; v < u; v++)
					if (events_name_eq(set->umasks[u].name,
					                   set->umasks[v].name))
						fail_msg("%s %s:%s twice", m->name,
						         set->event,
						         set->umasks[u].name);
			}
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry),
		cmocka_unit_test(test_tables_well_formed_with_aliases),
		cmocka_unit_test(test_r10k_tables_follow_irix_numbering),
		cmocka_unit_test(test_intel_arch_bind),
		cmocka_unit_test(test_fixed_counter_most_constrained_first),
		cmocka_unit_test(test_odd_even_constraints_placed_exactly),
		cmocka_unit_test(test_same_name_other_code_per_counter),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_dispatch_sets_give_their_answers),
		cmocka_unit_test(test_partial_set_shows_what_waits),
		cmocka_unit_test(test_unit_masks),
		cmocka_unit_test(test_dispatch_agrees_with_brute_force),
		cmocka_unit_test(test_events_command),
		cmocka_unit_test(test_umask_tables_fit_and_are_unique),
		cmocka_unit_test(test_events_lists_active_unit_masks),
	};
	return cmocka_run_group_tests_name("events_dispatch", tests, NULL, NULL);
}
