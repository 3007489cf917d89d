/*
 * Host tests of the model tables against the spec syntax: the Skylake
 * model (kernel/events/intel_skl_table.c) and the AMD 17h/19h models resolved
 * with hwperf's own parser and lookup and encoded with the drivers'
 * encoders (events_resolve), as `events --model NAME --resolve SPEC`
 * does; refusals naming the part; and the rules every table keeps
 * (names and name:umask within HWPERF_NAME_MAX, unit-mask sets naming
 * events that exist).  Expected codes are typed from the SDM's and the
 * PPRs' event number / umask pairs, not read back from the tables.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "events/events.h"
#include "hwperf/abi.h"

static struct ev_resolved res[HWPERF_NVCTR];
static unsigned nres;
static char reason[PMU_REASON_MAX];

static int resolve(const char *model, const char *spec)
{
	const struct ev_model *m = events_model_find(model);

	assert_non_null(m);
	reason[0] = '\0';
	return events_resolve(m, spec, res, HWPERF_NVCTR, &nres, reason,
	                      sizeof(reason));
}

/* spec resolves on model to one event with this code, name and counters. */
static void expect_one(const char *model, const char *spec, uint32_t code,
                       const char *name, uint32_t counters)
{
	if (resolve(model, spec) != 0)
		fail_msg("%s on %s: %s", spec, model, reason);
	assert_int_equal(nres, 1);
	if (res[0].code != code)
		fail_msg("%s on %s: code 0x%x, want 0x%x", spec, model,
		         (unsigned)res[0].code, (unsigned)code);
	assert_string_equal(res[0].name, name);
	if (counters && res[0].counters != counters)
		fail_msg("%s on %s: counters 0x%x, want 0x%x", spec, model,
		         (unsigned)res[0].counters, (unsigned)counters);
}

static void expect_refused(const char *model, const char *spec,
                           const char *why)
{
	if (resolve(model, spec) == 0)
		fail_msg("%s on %s resolved (code 0x%x)", spec, model,
		         nres ? (unsigned)res[0].code : 0u);
	if (!strstr(reason, why))
		fail_msg("%s on %s: reason '%s' lacks '%s'", spec, model, reason,
		         why);
}

/* Skylake: 4 general counters (0xf), then fixed 4, 5, 6. */
#define GP 0xfu

static void test_skylake_libpfm_names_with_unit_masks(void **state)
{
	(void)state;
	/* SDM: INST_RETIRED.ANY_P C0H/00H, the general-counter form. */
	expect_one("skylake", "INST_RETIRED:ANY_P", 0x00c0, "inst-retired", GP);
	expect_one("skylake", "inst_retired:any_p:u", 0x00c0, "inst-retired", GP);
	/* MEM_LOAD_RETIRED.L1_MISS D1H/08H, counters 0-3. */
	expect_one("skylake", "MEM_LOAD_RETIRED:L1_MISS", 0x08d1,
	           "mem-load-retired", GP);
	expect_one("skylake", "MEM_LOAD_RETIRED:L3_MISS", 0x20d1,
	           "mem-load-retired", GP);
	expect_one("skylake", "MEM_INST_RETIRED:ALL_LOADS", 0x81d0,
	           "mem-inst-retired", GP);
	expect_one("skylake", "MEM_INST_RETIRED:ALL_STORES", 0x82d0,
	           "mem-inst-retired", GP);
	expect_one("skylake", "CPU_CLK_UNHALTED:REF_XCLK", 0x013c,
	           "cpu-clk-unhalted", GP);
	expect_one("skylake", "BR_INST_RETIRED:NEAR_TAKEN", 0x20c4,
	           "br-inst-retired", GP);
	expect_one("skylake", "BR_MISP_RETIRED:CONDITIONAL", 0x01c5,
	           "br-misp-retired", GP);
	expect_one("skylake", "UOPS_ISSUED:ANY", 0x010e, "uops-issued", GP);
	expect_one("skylake", "UOPS_RETIRED:RETIRE_SLOTS", 0x02c2,
	           "uops-retired", GP);
	expect_one("skylake", "L2_RQSTS:MISS", 0x3f24, "l2-rqsts", GP);
	expect_one("skylake", "L2_RQSTS:DEMAND_DATA_RD_HIT", 0xc124, "l2-rqsts",
	           GP);
	expect_one("skylake", "LONGEST_LAT_CACHE:MISS", 0x412e,
	           "longest-lat-cache", GP);
	expect_one("skylake", "DTLB_LOAD_MISSES:STLB_HIT", 0x2008,
	           "dtlb-load-misses", GP);
	expect_one("skylake", "ITLB_MISSES:MISS_CAUSES_A_WALK", 0x0185,
	           "itlb-misses", GP);
	expect_one("skylake", "ICACHE_64B:IFTAG_MISS", 0x0283, "icache-64b", GP);
	expect_one("skylake", "RESOURCE_STALLS:SB", 0x08a2, "resource-stalls",
	           GP);
	expect_one("skylake", "MACHINE_CLEARS:MEMORY_ORDERING", 0x02c3,
	           "machine-clears", GP);
	/* Unit masks OR together, as libpfm4's combinable ones do. */
	expect_one("skylake", "L2_LINES_OUT:SILENT:NON_SILENT", 0x03f2,
	           "l2-lines-out", GP);
	expect_one("skylake", "UOPS_DISPATCHED_PORT:PORT_6", 0x40a1,
	           "uops-dispatched-port", GP);
	/* The table's default unit mask when none is named. */
	expect_one("skylake", "L2_RQSTS", 0xff24, "l2-rqsts", GP);
	expect_one("skylake", "RESOURCE_STALLS", 0x01a2, "resource-stalls", GP);
	/* The PMU prefix may name the model's table (libpfm4's "skl"). */
	expect_one("skylake", "skl::UOPS_RETIRED:ALL", 0x01c2, "uops-retired",
	           GP);
}

static void test_skylake_dotted_events_carry_cmask_inv_edge(void **state)
{
	(void)state;
	/* CYCLE_ACTIVITY.STALLS_TOTAL A3H/04H CMASK=4, counters 0-3. */
	expect_one("skylake", "CYCLE_ACTIVITY.STALLS_TOTAL", 0x040004a3,
	           "cycle-activity.stalls-total", GP);
	/* STALLS_L1D_MISS A3H/0CH CMASK=12, counter 2 only. */
	expect_one("skylake", "cycle-activity.stalls-l1d-miss", 0x0c000ca3,
	           "cycle-activity.stalls-l1d-miss", 0x4);
	/* MACHINE_CLEARS.COUNT C3H/01H CMASK=1 EDGE (bit 18). */
	expect_one("skylake", "machine-clears.count", 0x010401c3,
	           "machine-clears.count", GP);
	/* UOPS_ISSUED.STALL_CYCLES 0EH/01H CMASK=1 INV (bit 23). */
	expect_one("skylake", "uops-issued.stall-cycles", 0x0180010e,
	           "uops-issued.stall-cycles", GP);
	/* The same by hand: unit mask, c= and i= on the plain event. */
	expect_one("skylake", "UOPS_ISSUED:ANY:c=1:i=1", 0x0180010e,
	           "uops-issued", GP);
}

static void test_skylake_perf_terms_and_raw(void **state)
{
	(void)state;
	expect_one("skylake", "cpu/event=0xc0,umask=0x0/", 0x00c0, "raw", GP);
	expect_one("skylake", "cpu/event=0xd1,umask=0x8/uk", 0x08d1, "raw", GP);
	expect_one("skylake", "cpu/event=0x3c,umask=0x0,cmask=1,inv,edge/",
	           0x0184003c, "raw", GP);
	expect_one("skylake", "r08d1", 0x08d1, "raw", GP);
	/* A named event's unit mask overridden by a perf-style term. */
	expect_one("skylake", "INST_RETIRED:cmask=1:inv", 0x018000c0,
	           "inst-retired", GP);
}

static void test_skylake_generic_names_keep_fixed_counters(void **state)
{
	(void)state;
	/* Architectural events, generic names: general counters and their
	 * fixed twin (instructions: fixed 0 = counter 4). */
	expect_one("skylake", "instructions", 0x00c0, "instructions",
	           GP | 0x10);
	expect_one("skylake", "cycles", 0x003c, "cycles", GP | 0x20);
	expect_one("skylake", "ref-cycles", 0x0300, "ref-cycles", 0x40);
	/* A unit mask takes the event off the fixed counter. */
	expect_one("skylake", "INST_RETIRED:ANY_P", 0x00c0, "inst-retired", GP);
	assert_int_equal(resolve("skylake", "cycles:k,MEM_LOAD_RETIRED:L2_HIT"),
	                 0);
	assert_int_equal(nres, 2);
	assert_int_equal(res[0].modes, PMU_MODE_K);
	assert_int_equal(res[1].code, 0x02d1);
}

static void test_skylake_refusals_name_the_part(void **state)
{
	(void)state;
	expect_refused("skylake", "MEM_LOAD_RETIRED",
	               "event MEM_LOAD_RETIRED needs a unit mask; it has: "
	               "l1-hit, l2-hit");
	expect_refused("skylake", "MEM_LOAD_RETIRED:L4_HIT",
	               "unit mask 'L4_HIT' of MEM_LOAD_RETIRED: unknown; "
	               "MEM_LOAD_RETIRED has: l1-hit");
	expect_refused("skylake", "INST_RETIRED:ANY_Q",
	               "unit mask 'ANY_Q' of INST_RETIRED: unknown; "
	               "INST_RETIRED has: any-p");
	expect_refused("skylake", "L1D_NO_SUCH",
	               "unknown event 'L1D_NO_SUCH' (pmu skylake); skylake "
	               "has: ");
	expect_refused("skylake", "ITLB:ITLB_FLUSH:BOGUS",
	               "unit mask 'BOGUS' of ITLB: unknown");
	expect_refused("skylake", "UOPS_ISSUED:ANY:c=256", "c=256");
	expect_refused("skylake", "cpu/event=0x1c0/", "event=0x1c0");
	expect_refused("skylake", "cpu/event=0xc0,umask=0x100/", "umask");
	expect_refused("skylake", "amd-core::INST_RETIRED:ANY_P",
	               "pmu 'amd-core'");
}

static void test_models_without_fields_refuse_parts(void **state)
{
	(void)state;
	/* A model whose PMU has no event selects: the soft PMU's answer. */
	expect_refused("24k", "cpu/event=0xc0,umask=0x0/",
	               "event= of cpu/../: pmu 24k has no event-select numbers");
	expect_refused("24k", "INST_RETIRED:ANY_P",
	               "unknown event 'INST_RETIRED' (pmu 24k); 24k has: cycles");
	expect_refused("r10000", "cycles:c=1",
	               "cmask= of cycles: pmu r10000 has no counter mask");
	expect_one("24k", "dcache-misses", 11, "dcache-misses", 0x3);
}

static void test_amd_fam17h_and_fam19h(void **state)
{
	(void)state;
	/* PPR 17h: PMCx076, PMCx0C0, PMCx029 with LdDispatch (bit 0). */
	/* BKDG 10h: DataCacheRefills 0x42 with its L2 state unit masks. */
	expect_one("amd-legacy", "DATA_CACHE_REFILLS:L2_OWNED", 0x0842,
	           "data-cache-refills", 0xf);
	expect_one("amd-legacy", "L2_CACHE_MISS:DATA", 0x027e, "l2-cache-miss",
	           0xf);
	expect_one("amd-core", "cycles", 0x0076, "cycles", 0x3f);
	expect_one("amd-core", "ls-not-halted-cyc", 0x0076, "ls-not-halted-cyc",
	           0x3f);
	expect_one("amd-core", "LS_DISPATCH:LD_DISPATCH", 0x0129, "ls-dispatch",
	           0x3f);
	expect_one("amd-core", "l2-cache-req-stat:ls-rd-blk-c-s", 0x8064,
	           "l2-cache-req-stat", 0x3f);
	expect_one("amd-core", "l2-cache-req-stat.dc-hit-in-l2", 0xf064,
	           "l2-cache-req-stat.dc-hit-in-l2", 0x3f);
	expect_one("amd-core", "ls-l1-d-tlb-miss.all", 0xff45,
	           "ls-l1-d-tlb-miss.all", 0x3f);
	/* PPR 19h: retired ops, branches, and events past 0xff, whose
	 * EventSelect[11:8] Tally's code keeps at bits 19:16. */
	expect_one("amd-fam19h", "ex_ret_instr", 0x00c0, "ex-ret-instr", 0x3f);
	expect_one("amd-fam19h", "EX_RET_OPS", 0x00c1, "ex-ret-ops", 0x3f);
	expect_one("amd-fam19h", "branch-misses", 0x00c3, "branch-misses",
	           0x3f);
	expect_one("amd-fam19h", "ls_dispatch:ld_st_dispatch", 0x0429,
	           "ls-dispatch", 0x3f);
	expect_one("amd-fam19h", "ls-misal-loads:ma64:ma4k", 0x0347,
	           "ls-misal-loads", 0x3f);
	expect_one("amd-fam19h", "ex-ret-mmx-fp-instr:sse-instr", 0x04cb,
	           "ex-ret-mmx-fp-instr", 0x3f);
	expect_one("amd-fam19h", "ls-any-fills-from-sys:int-cache", 0x0244,
	           "ls-any-fills-from-sys", 0x3f);
	expect_one("amd-fam19h", "IC_TAG_HIT_MISS:IC_MISS", 0x1188e,
	           "ic-tag-hit-miss", 0x3f);
	expect_one("amd-fam19h", "op-cache-hit-miss:oc-miss", 0x2048f,
	           "op-cache-hit-miss", 0x3f);
	expect_one("amd-fam19h", "cpu/event=0x18e,umask=0x18/", 0x1188e, "raw",
	           0x3f);
	expect_one("amd-fam19h", "cpu/event=0xc0,cmask=2,inv,edge/", 0x029000c0,
	           "raw", 0x3f);
	expect_refused("amd-fam19h", "ls-dispatch",
	               "event ls-dispatch needs a unit mask; it has: "
	               "ld-dispatch, store-dispatch, ld-st-dispatch");
	expect_refused("amd-fam19h", "l2-request-g1:other-requests",
	               "unit mask 'other-requests' of l2-request-g1: unknown");
	expect_refused("amd-fam19h", "cpu/event=0x1000/", "event=0x1000: amd");
	/* The driver's choice of table by family. */
	assert_ptr_equal(amd_model_of_family(0x10), &ev_model_amd_legacy);
	assert_ptr_equal(amd_model_of_family(0x15), &ev_model_amd_legacy);
	assert_ptr_equal(amd_model_of_family(0x17), &ev_model_amd_core);
	assert_ptr_equal(amd_model_of_family(0x19), &ev_model_amd_fam19h);
}

/* The MIPS entries as checked (libpfm4's 74K table, Linux's maps). */
static void test_mips_tables_as_checked(void **state)
{
	(void)state;
	/* 74K: even event 29 is L2 misses; odd 29 is miss cycles. */
	expect_one("74k", "l2-cache-misses", 29, "l2-cache-misses", 0x5);
	expect_one("74k", "l2-cache-accesses", 28, "l2-cache-accesses", 0xa);
	expect_one("74k", "dcache-misses", 24, "dcache-misses", 0xa);
	expect_one("74k", "branch-misses", 39, "branch-misses", 0xa);
	/* 24K family: 11 on both parities, 21 odd, 22 even. */
	expect_one("24k", "dcache-misses", 11, "dcache-misses", 0x3);
	expect_one("34k", "l2-cache-accesses", 21, "l2-cache-accesses", 0x2);
	expect_one("1004k", "l2-cache-misses", 22, "l2-cache-misses", 0x1);
	/* Not 24K events (Linux's 24K list): gone from its table. */
	expect_refused("24k", "refetched-insns", "unknown event");
	expect_refused("24k", "dsp-insns", "unknown event");
	expect_one("34k", "dsp-insns", 26, "dsp-insns", 0x1);
	expect_one("p5600", "branches", 39, "branches", 0x1);
}

static void test_intel_model_numbers(void **state)
{
	static const unsigned skl[] = { 0x4e, 0x5e, 0x55, 0x8e, 0x9e, 0xa5,
	                                0xa6 };
	const struct intel_model *m;

	(void)state;
	for (size_t i = 0; i < sizeof(skl) / sizeof(skl[0]); i++) {
		m = intel_model_of(6, skl[i]);
		assert_non_null(m);
		assert_string_equal(m->name, "skylake");
	}
	assert_null(intel_model_of(6, 0x0f));   /* Conroe */
	assert_null(intel_model_of(6, 0x3c));   /* Haswell */
	assert_null(intel_model_of(6, 0x7e));   /* Ice Lake */
	assert_null(intel_model_of(0xf, 0x5e)); /* not family 6 */
}

/* With 2 general counters the counter-2-only event has none: left out. */
static void test_intel_model_bind_clips_to_general_counters(void **state)
{
	static struct pmu_event ev[INTEL_MODEL_TABLE_MAX];
	const struct intel_model *m = intel_model_of(6, 0x5e);
	unsigned n8 = intel_model_bind(m, ev, INTEL_MODEL_TABLE_MAX, 8);
	unsigned n2 = intel_model_bind(m, ev, INTEL_MODEL_TABLE_MAX, 2);

	(void)state;
	assert_true(n8 > 40);
	assert_true(n2 < n8);
	for (unsigned i = 0; i < n2; i++) {
		assert_true(ev[i].counters != 0);
		assert_true((ev[i].counters & ~0x3u) == 0);
		assert_string_not_equal(ev[i].name,
		                        "cycle-activity.stalls-l1d-miss");
	}
	n8 = intel_model_bind(m, ev, INTEL_MODEL_TABLE_MAX, 8);
	for (unsigned i = 0; i < n8; i++)
		if (strcmp(ev[i].name, "l2-rqsts") == 0)
			assert_int_equal(ev[i].counters, 0xff);
}

static bool in_tables(const struct ev_model *m, const char *name)
{
	for (unsigned t = 0; t < m->ntables; t++)
		for (unsigned e = 0; e < m->tables[t]->count; e++)
			if (events_name_eq(m->tables[t]->events[e].name, name))
				return true;
	return false;
}

/*
 * Every name a user can type must fit a control's name field, unit masks
 * included (HWPERF_NAME_MAX); only the family 10h names docs/hwperf.md lists
 * are longer (they are reached as raw codes).  Every unit-mask set belongs
 * to an event of the model.
 */
static void test_names_fit_and_umask_sets_have_events(void **state)
{
	static const char *const long_ok[] = {
		"retired-mispredicted-branch-instructions",
		"retired-taken-branch-instructions-mispredicted",
		"retired-taken-branch-instructions",
	};

	(void)state;
	for (unsigned i = 0; i < events_model_count(); i++) {
		const struct ev_model *m = events_model_at(i);

		for (unsigned t = 0; t < m->ntables; t++)
			for (unsigned e = 0; e < m->tables[t]->count; e++) {
				const char *nm = m->tables[t]->events[e].name;
				bool ok = strlen(nm) < HWPERF_NAME_MAX;

				for (size_t k = 0; !ok && k < 3; k++)
					ok = strcmp(nm, long_ok[k]) == 0;
				if (!ok)
					fail_msg("%s: '%s' is %zu characters", m->name,
					         nm, strlen(nm));
			}
		for (unsigned s = 0; s < m->numask_sets; s++) {
			const struct ev_umask_set *set = &m->umask_sets[s];

			if (!in_tables(m, set->event))
				fail_msg("%s: unit masks for no event '%s'",
				         m->name, set->event);
			for (unsigned u = 0; u < set->count; u++) {
				const char *um = set->umasks[u].name;

				/* Family 10h's, listed in docs/hwperf.md. */
				if (strcmp(um, "hw-prefetch-from-dc") == 0 &&
				    strcmp(m->name, "amd-legacy") == 0)
					continue;
				if (strlen(set->event) + 1 + strlen(um) >=
				    HWPERF_NAME_MAX)
					fail_msg("%s: %s:%s is too long", m->name,
					         set->event, um);
			}
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_skylake_libpfm_names_with_unit_masks),
		cmocka_unit_test(test_skylake_dotted_events_carry_cmask_inv_edge),
		cmocka_unit_test(test_skylake_perf_terms_and_raw),
		cmocka_unit_test(test_skylake_generic_names_keep_fixed_counters),
		cmocka_unit_test(test_skylake_refusals_name_the_part),
		cmocka_unit_test(test_models_without_fields_refuse_parts),
		cmocka_unit_test(test_amd_fam17h_and_fam19h),
		cmocka_unit_test(test_mips_tables_as_checked),
		cmocka_unit_test(test_intel_model_numbers),
		cmocka_unit_test(test_intel_model_bind_clips_to_general_counters),
		cmocka_unit_test(test_names_fit_and_umask_sets_have_events),
	};
	return cmocka_run_group_tests_name("events_tables", tests, NULL, NULL);
}
