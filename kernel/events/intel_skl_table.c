/*
 * intel_skl_table.c - the model-specific core events of Intel's Skylake-era
 * cores: Skylake, Kaby Lake, Coffee Lake and Comet Lake client parts and
 * Skylake-SP (Cascade Lake shares its model number 55H).
 *
 * Checked against: Intel SDM vol. 3B, chapter "Performance Monitoring
 * Events", section "Performance Monitoring Events for 6th Generation,
 * 7th Generation and 8th Generation Intel Core Processors ..." (the
 * Skylake microarchitecture event table, event number / umask value
 * pairs), and libpfm4's lib/events/intel_skl_events.h (PMU "skl", as in
 * PAPI's copy of libpfm4 at commit 35297cb4), which tabulates the same
 * SDM/JSON event list: every code and unit mask below matches both;
 * the names are libpfm4's, lower case with '-'.  The CPUID model
 * numbers (DisplayFamily 06H, DisplayModel 4EH, 5EH, 55H, 8EH, 9EH, A5H,
 * A6H) are the SDM vol. 4 table "CPUID Signature Values of
 * DisplayFamily_DisplayModel" and libpfm4's pfmlib_intel_skl.c list.
 *
 * What is left out, and why:
 *  - unit masks whose libpfm4 encoding also sets a counter mask, invert
 *    or edge bit (CYCLE_ACTIVITY:*, MACHINE_CLEARS:COUNT,
 *    UOPS_*:STALL_CYCLES, ARITH:DIVIDER_ACTIVE): a Tally unit mask is
 *    unit-mask bits only.  They are events of their own here, under
 *    the SDM's dotted names ("cycle-activity.stalls-total") with the
 *    whole code, or may be written EVENT:UMASK:c=N:i=1 by hand;
 *  - unit masks whose name with the event's is longer than 31
 *    characters (HWPERF_NAME_MAX): DTLB_LOAD_MISSES:MISS_CAUSES_A_WALK,
 *    :WALK_COMPLETED_4K/_2M_4M/_1G, DTLB_STORE_MISSES:WALK_COMPLETED*,
 *    MEM_INST_RETIRED:STLB_MISS_LOADS/STORES, ITLB_MISSES:WALK_COMPLETED_
 *    2M_4M, CPU_CLK_UNHALTED:ONE_THREAD_ACTIVE, DSB2MITE_SWITCHES:
 *    PENALTY_CYCLES (the event's default here), UOPS_ISSUED:VECTOR_WIDTH_
 *    MISMATCH, MEM_LOAD_L3_HIT_RETIRED:*
 *    and MEM_LOAD_L3_MISS_RETIRED:*: give them as cpu/event=0x08,umask=0x1/;
 *  - per-unit-mask counter constraints finer than the event's
 *    (INST_RETIRED:PREC_DIST on counter 1; L1D_PEND_MISS:PENDING on
 *    counter 2): PREC_DIST is left out, and L1D_PEND_MISS is tied to
 *    counter 2 whole;
 *  - PEBS, offcore response, LBR and TSX events: Tally programs none of
 *    the MSRs they need.
 *
 * Counter masks count general counters (bit i = IA32_PMCi), four with
 * Hyper-Threading on, eight with it off; the driver binds them to the
 * counters it probed.  The events the SDM limits to counters 0-3 say so.
 */
#include <stddef.h>

#include "events.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define GP_ANY 0xffu            /* any general counter */
#define GP_0_3 0x0fu            /* IA32_PMC0..3 only */
#define GP_2 0x04u              /* IA32_PMC2 only */

/* A code with counter mask, invert and edge, as IA32_PERFEVTSELx has them. */
#define CMASK(n) ((uint32_t)(n) << INTEL_EVTSEL_CMASK_SHIFT)
#define INV INTEL_EVTSEL_INV
#define EDGE INTEL_EVTSEL_EDGE
#define EV(event, umask) ((uint32_t)(event) | (uint32_t)(umask) << 8)

static const struct pmu_event skl_events[] = {
	/* front end */
	{ "icache-16b", EV(0x80, 0x04), GP_ANY,
	  "fetch stall cycles on an L1I miss (ifdata-stall)" },
	{ "icache-64b", EV(0x83, 0x00), GP_ANY,
	  "L1I tag lookups, 64-byte lines (a unit mask is required)" },
	{ "itlb-misses", EV(0x85, 0x00), GP_ANY,
	  "ITLB misses (a unit mask is required)" },
	{ "itlb", EV(0xae, 0x01), GP_ANY, "ITLB flushes (itlb-flush)" },
	{ "idq", EV(0x79, 0x00), GP_ANY,
	  "uops delivered to the decode queue (a unit mask is required)" },
	{ "idq-uops-not-delivered", EV(0x9c, 0x01), GP_0_3,
	  "uops not delivered while the back end was not stalled (core)" },
	{ "ild-stall", EV(0x87, 0x01), GP_ANY,
	  "length-changing prefix stalls (lcp)" },
	{ "dsb2mite-switches", EV(0xab, 0x02), GP_ANY,
	  "DSB to MITE switch penalty cycles (penalty-cycles)" },
	{ "lsd", EV(0xa8, 0x01), GP_ANY, "uops from the loop stream detector" },
	{ "baclears", EV(0xe6, 0x01), GP_ANY, "front-end re-steers (any)" },
	/* allocation, execution, retirement */
	{ "uops-issued", EV(0x0e, 0x01), GP_ANY, "uops issued (any)" },
	{ "uops-issued.stall-cycles", EV(0x0e, 0x01) | CMASK(1) | INV, GP_0_3,
	  "cycles no uop was issued (any, c=1, inv)" },
	{ "uops-executed", EV(0xb1, 0x01), GP_ANY, "uops executed (thread)" },
	{ "uops-executed.stall-cycles", EV(0xb1, 0x01) | CMASK(1) | INV, GP_ANY,
	  "cycles no uop executed on this thread (thread, c=1, inv)" },
	{ "uops-dispatched-port", EV(0xa1, 0x00), GP_ANY,
	  "uops dispatched per port (a unit mask is required)" },
	{ "uops-retired", EV(0xc2, 0x01), GP_ANY, "uops retired (all)" },
	{ "uops-retired.stall-cycles", EV(0xc2, 0x01) | CMASK(1) | INV, GP_ANY,
	  "cycles no uop retired (all, c=1, inv)" },
	{ "uops-retired.total-cycles", EV(0xc2, 0x01) | CMASK(10) | INV, GP_ANY,
	  "every cycle (all, c=10, inv)" },
	{ "resource-stalls", EV(0xa2, 0x01), GP_ANY,
	  "allocation stalls on a resource (any)" },
	{ "rs-events", EV(0x5e, 0x01), GP_0_3,
	  "cycles the reservation station is empty (empty-cycles)" },
	{ "int-misc", EV(0x0d, 0x00), GP_ANY,
	  "recovery and re-steer cycles (a unit mask is required)" },
	{ "machine-clears", EV(0xc3, 0x00), GP_ANY,
	  "machine clears by cause (a unit mask is required)" },
	{ "machine-clears.count", EV(0xc3, 0x01) | CMASK(1) | EDGE, GP_ANY,
	  "machine clears of any kind (c=1, edge)" },
	{ "other-assists", EV(0xc1, 0x3f), GP_ANY,
	  "microcode assists other than FP (any)" },
	{ "arith.divider-active", EV(0x14, 0x01) | CMASK(1), GP_ANY,
	  "cycles the divider is busy (c=1)" },
	{ "cycle-activity.cycles-l1d-miss", EV(0xa3, 0x08) | CMASK(8), GP_0_3,
	  "cycles with an L1D demand load miss pending" },
	{ "cycle-activity.cycles-l2-miss", EV(0xa3, 0x01) | CMASK(1), GP_0_3,
	  "cycles with an L2 demand load miss pending" },
	{ "cycle-activity.cycles-l3-miss", EV(0xa3, 0x02) | CMASK(2), GP_0_3,
	  "cycles with an L3 demand load miss pending" },
	{ "cycle-activity.cycles-mem-any", EV(0xa3, 0x10) | CMASK(0x10), GP_0_3,
	  "cycles with any demand load pending" },
	{ "cycle-activity.stalls-total", EV(0xa3, 0x04) | CMASK(4), GP_0_3,
	  "execution stall cycles" },
	{ "cycle-activity.stalls-l1d-miss", EV(0xa3, 0x0c) | CMASK(0x0c), GP_2,
	  "stall cycles with an L1D demand load miss pending" },
	{ "cycle-activity.stalls-l2-miss", EV(0xa3, 0x05) | CMASK(5), GP_0_3,
	  "stall cycles with an L2 demand load miss pending" },
	{ "cycle-activity.stalls-l3-miss", EV(0xa3, 0x06) | CMASK(6), GP_0_3,
	  "stall cycles with an L3 demand load miss pending" },
	{ "cycle-activity.stalls-mem-any", EV(0xa3, 0x14) | CMASK(0x14), GP_0_3,
	  "stall cycles with any demand load pending" },
	/* memory */
	{ "mem-inst-retired", EV(0xd0, 0x00), GP_0_3,
	  "memory instructions retired (a unit mask is required)" },
	{ "mem-load-retired", EV(0xd1, 0x00), GP_0_3,
	  "retired loads by data source (a unit mask is required)" },
	{ "l1d", EV(0x51, 0x01), GP_ANY, "L1D lines replaced (replacement)" },
	{ "l1d-pend-miss", EV(0x48, 0x01), GP_2,
	  "L1D misses outstanding, per cycle (pending)" },
	{ "l2-rqsts", EV(0x24, 0xff), GP_ANY, "L2 requests (references)" },
	{ "l2-lines-in", EV(0xf1, 0x1f), GP_ANY, "lines filling the L2 (all)" },
	{ "l2-lines-out", EV(0xf2, 0x00), GP_ANY,
	  "lines evicted from the L2 (a unit mask is required)" },
	{ "l2-trans", EV(0xf0, 0x40), GP_ANY, "L2 writebacks (l2-wb)" },
	{ "offcore-requests", EV(0xb0, 0x00), GP_ANY,
	  "requests sent to the uncore (a unit mask is required)" },
	{ "ld-blocks", EV(0x03, 0x00), GP_ANY,
	  "blocked loads (a unit mask is required)" },
	{ "ld-blocks-partial", EV(0x07, 0x01), GP_ANY,
	  "false dependencies on partial addresses (address-alias)" },
	{ "dtlb-load-misses", EV(0x08, 0x00), GP_ANY,
	  "load DTLB misses (a unit mask is required)" },
	{ "dtlb-store-misses", EV(0x49, 0x00), GP_ANY,
	  "store DTLB misses (a unit mask is required)" },
	{ "tlb-flush", EV(0xbd, 0x00), GP_ANY,
	  "TLB flushes (a unit mask is required)" },
};

static const struct pmu_event_table skl_table = {
	.name = "skl",
	.events = skl_events,
	.count = N(skl_events),
};

/* ---- unit masks: the 8-bit UMask field's values -------------------------- */

/* The architectural events, with the model's further unit masks. */
static const struct ev_umask clk_um[] = {
	{ "thread-p", 0x00, "core cycles while not halted" },
	{ "ref-xclk", 0x01, "reference (100 MHz) cycles while not halted" },
	{ "ref-p", 0x01, "alias of ref-xclk" },
};
static const struct ev_umask inst_um[] = {
	{ "any-p", 0x00, "instructions retired, any general counter" },
};
static const struct ev_umask llc_um[] = {
	{ "reference", 0x4f, "last-level cache references" },
	{ "miss", 0x41, "last-level cache misses" },
};
static const struct ev_umask br_inst_um[] = {
	{ "all-branches", 0x00, "all branches" },
	{ "conditional", 0x01, "conditional branches" },
	{ "cond", 0x01, "alias of conditional" },
	{ "near-call", 0x02, "near calls" },
	{ "near-return", 0x08, "near returns" },
	{ "not-taken", 0x10, "not-taken branches" },
	{ "near-taken", 0x20, "taken near branches" },
	{ "far-branch", 0x40, "far branches" },
};
static const struct ev_umask br_misp_um[] = {
	{ "all-branches", 0x00, "all mispredicted branches" },
	{ "conditional", 0x01, "mispredicted conditional branches" },
	{ "cond", 0x01, "alias of conditional" },
	{ "near-call", 0x02, "mispredicted near calls" },
	{ "near-taken", 0x20, "mispredicted taken near branches" },
};
/* The model's own events. */
static const struct ev_umask icache16_um[] = {
	{ "ifdata-stall", 0x04, "fetch stalled on an L1I miss" },
};
static const struct ev_umask icache64_um[] = {
	{ "iftag-hit", 0x01, "tag lookups hitting the L1I" },
	{ "iftag-miss", 0x02, "tag lookups missing the L1I" },
	{ "iftag-stall", 0x04, "cycles fetch stalled on a tag miss" },
};
static const struct ev_umask itlb_misses_um[] = {
	{ "miss-causes-a-walk", 0x01, "misses that cause a page walk" },
	{ "walk-completed", 0x0e, "completed walks, any page size" },
	{ "walk-completed-4k", 0x02, "completed walks, 4 KB pages" },
	{ "walk-completed-1g", 0x08, "completed walks, 1 GB pages" },
	{ "walk-pending", 0x10, "cycles a walk is busy" },
	{ "stlb-hit", 0x20, "first-level misses hitting the STLB" },
};
static const struct ev_umask itlb_um[] = {
	{ "itlb-flush", 0x01, "ITLB flushes" },
};
static const struct ev_umask idq_um[] = {
	{ "mite-uops", 0x04, "uops from the legacy decoders (MITE)" },
	{ "dsb-uops", 0x08, "uops from the decoded ICache (DSB)" },
	{ "ms-dsb-uops", 0x10, "DSB-initiated uops while MS busy" },
	{ "ms-mite-uops", 0x20, "MITE-initiated uops while MS busy" },
	{ "ms-uops", 0x30, "uops from the microcode sequencer" },
};
static const struct ev_umask idq_nd_um[] = {
	{ "core", 0x01, "uops not delivered, back end not stalled" },
};
static const struct ev_umask ild_um[] = {
	{ "lcp", 0x01, "length-changing prefix stalls" },
};
static const struct ev_umask lsd_um[] = {
	{ "uops", 0x01, "uops delivered by the LSD" },
};
static const struct ev_umask baclears_um[] = {
	{ "any", 0x01, "front-end re-steers" },
};
static const struct ev_umask uops_issued_um[] = {
	{ "any", 0x01, "uops issued to the reservation station" },
	{ "all", 0x01, "alias of any" },
	{ "flags-merge", 0x10, "flags-merge uops" },
	{ "slow-lea", 0x20, "slow LEA uops" },
	{ "single-mul", 0x40, "single-precision multiply uops" },
};
static const struct ev_umask uops_executed_um[] = {
	{ "thread", 0x01, "uops executed by this thread" },
	{ "core", 0x02, "uops executed by either thread" },
	{ "x87", 0x10, "x87 uops executed" },
};
static const struct ev_umask uops_port_um[] = {
	{ "port-0", 0x01, "uops on port 0" },
	{ "port-1", 0x02, "uops on port 1" },
	{ "port-2", 0x04, "uops on port 2" },
	{ "port-3", 0x08, "uops on port 3" },
	{ "port-4", 0x10, "uops on port 4" },
	{ "port-5", 0x20, "uops on port 5" },
	{ "port-6", 0x40, "uops on port 6" },
	{ "port-7", 0x80, "uops on port 7" },
};
static const struct ev_umask uops_retired_um[] = {
	{ "all", 0x01, "uops retired" },
	{ "any", 0x01, "alias of all" },
	{ "retire-slots", 0x02, "retirement slots used" },
};
static const struct ev_umask resource_um[] = {
	{ "any", 0x01, "stalls on any resource" },
	{ "all", 0x01, "alias of any" },
	{ "rs", 0x04, "reservation station full" },
	{ "sb", 0x08, "store buffer full" },
	{ "rob", 0x10, "reorder buffer full" },
};
static const struct ev_umask rs_um[] = {
	{ "empty-cycles", 0x01, "cycles the RS is empty" },
};
static const struct ev_umask int_misc_um[] = {
	{ "recovery-cycles", 0x01, "cycles recovering after a clear" },
	{ "clear-resteer-cycles", 0x80, "cycles waiting for a re-steer" },
};
static const struct ev_umask clears_um[] = {
	{ "memory-ordering", 0x02, "memory-ordering machine clears" },
	{ "smc", 0x04, "self-modifying-code machine clears" },
};
static const struct ev_umask assists_um[] = {
	{ "any", 0x3f, "assists other than FP" },
};
static const struct ev_umask mem_inst_um[] = {
	{ "lock-loads", 0x21, "locked loads" },
	{ "split-loads", 0x41, "cache-line-split loads" },
	{ "split-stores", 0x42, "cache-line-split stores" },
	{ "all-loads", 0x81, "all loads" },
	{ "all-stores", 0x82, "all stores" },
};
static const struct ev_umask mem_load_um[] = {
	{ "l1-hit", 0x01, "loads hitting the L1D" },
	{ "l2-hit", 0x02, "loads hitting the L2" },
	{ "l3-hit", 0x04, "loads hitting the L3" },
	{ "l1-miss", 0x08, "loads missing the L1D" },
	{ "l2-miss", 0x10, "loads missing the L2" },
	{ "l3-miss", 0x20, "loads missing the L3" },
	{ "hit-lfb", 0x40, "L1D misses hitting a fill buffer" },
	{ "fb-hit", 0x40, "alias of hit-lfb" },
};
static const struct ev_umask l1d_um[] = {
	{ "replacement", 0x01, "L1D lines replaced" },
};
static const struct ev_umask l1d_pend_um[] = {
	{ "pending", 0x01, "L1D misses outstanding, per cycle" },
};
static const struct ev_umask l2_rqsts_um[] = {
	{ "demand-data-rd-miss", 0x21, "demand data reads missing" },
	{ "demand-data-rd-hit", 0xc1, "demand data reads hitting" },
	{ "demand-rfo-miss", 0x22, "RFOs missing" },
	{ "rfo-miss", 0x22, "alias of demand-rfo-miss" },
	{ "demand-rfo-hit", 0xc2, "RFOs hitting" },
	{ "code-rd-miss", 0x24, "code reads missing" },
	{ "code-rd-hit", 0xc4, "code reads hitting" },
	{ "all-demand-miss", 0x27, "demand requests missing" },
	{ "all-demand-data-rd", 0xe1, "demand data reads" },
	{ "all-rfo", 0xe2, "RFOs" },
	{ "all-code-rd", 0xe4, "code reads" },
	{ "all-demand-references", 0xe7, "demand requests" },
	{ "pf-miss", 0x38, "prefetches missing" },
	{ "pf-hit", 0xd8, "prefetches hitting" },
	{ "all-pf", 0xf8, "prefetches" },
	{ "miss", 0x3f, "all requests missing" },
	{ "references", 0xff, "all requests" },
};
static const struct ev_umask l2_in_um[] = {
	{ "all", 0x1f, "lines filling the L2" },
	{ "any", 0x1f, "alias of all" },
};
static const struct ev_umask l2_out_um[] = {
	{ "silent", 0x01, "clean lines dropped silently" },
	{ "non-silent", 0x02, "lines evicted by a fill" },
	{ "useless-hwpf", 0x04, "prefetched lines evicted unused" },
};
static const struct ev_umask l2_trans_um[] = {
	{ "l2-wb", 0x40, "L2 writebacks" },
};
static const struct ev_umask offcore_um[] = {
	{ "demand-data-rd", 0x01, "demand data reads" },
	{ "demand-code-rd", 0x02, "demand code reads" },
	{ "demand-rfo", 0x04, "demand RFOs" },
	{ "all-data-rd", 0x08, "data reads" },
	{ "all-requests", 0x80, "all requests reaching the super queue" },
};
static const struct ev_umask ld_blocks_um[] = {
	{ "store-forward", 0x02, "loads blocked by a store not forwarded" },
	{ "no-sr", 0x08, "split loads blocked, no split register" },
};
static const struct ev_umask ld_partial_um[] = {
	{ "address-alias", 0x01, "false dependencies (4K aliasing)" },
};
static const struct ev_umask dtlb_load_um[] = {
	{ "walk-completed", 0x0e, "completed walks, any page size" },
	{ "walk-pending", 0x10, "cycles a walk is busy" },
	{ "stlb-hit", 0x20, "first-level misses hitting the STLB" },
};
static const struct ev_umask dtlb_store_um[] = {
	{ "walk-pending", 0x10, "cycles a walk is busy" },
	{ "stlb-hit", 0x20, "first-level misses hitting the STLB" },
};
static const struct ev_umask tlb_flush_um[] = {
	{ "dtlb-thread", 0x01, "DTLB flushes of thread entries" },
	{ "stlb-any", 0x20, "STLB flushes" },
};

#define SET(ev, um, req) { (ev), (um), N(um), (req) }
static const struct ev_umask_set skl_umasks[] = {
	SET("cpu-clk-unhalted", clk_um, false),
	SET("inst-retired", inst_um, false),
	SET("longest-lat-cache", llc_um, false),
	SET("br-inst-retired", br_inst_um, false),
	SET("br-misp-retired", br_misp_um, false),
	SET("icache-16b", icache16_um, false),
	SET("icache-64b", icache64_um, true),
	SET("itlb-misses", itlb_misses_um, true),
	SET("itlb", itlb_um, false),
	SET("idq", idq_um, true),
	SET("idq-uops-not-delivered", idq_nd_um, false),
	SET("ild-stall", ild_um, false),
	SET("lsd", lsd_um, false),
	SET("baclears", baclears_um, false),
	SET("uops-issued", uops_issued_um, false),
	SET("uops-executed", uops_executed_um, false),
	SET("uops-dispatched-port", uops_port_um, true),
	SET("uops-retired", uops_retired_um, false),
	SET("resource-stalls", resource_um, false),
	SET("rs-events", rs_um, false),
	SET("int-misc", int_misc_um, true),
	SET("machine-clears", clears_um, true),
	SET("other-assists", assists_um, false),
	SET("mem-inst-retired", mem_inst_um, true),
	SET("mem-load-retired", mem_load_um, true),
	SET("l1d", l1d_um, false),
	SET("l1d-pend-miss", l1d_pend_um, false),
	SET("l2-rqsts", l2_rqsts_um, false),
	SET("l2-lines-in", l2_in_um, false),
	SET("l2-lines-out", l2_out_um, true),
	SET("l2-trans", l2_trans_um, false),
	SET("offcore-requests", offcore_um, true),
	SET("ld-blocks", ld_blocks_um, true),
	SET("ld-blocks-partial", ld_partial_um, false),
	SET("dtlb-load-misses", dtlb_load_um, true),
	SET("dtlb-store-misses", dtlb_store_um, true),
	SET("tlb-flush", tlb_flush_um, true),
};
#undef SET

static const struct intel_model skylake = {
	.name = "skylake",
	.table = &skl_table,
	.umask_sets = skl_umasks,
	.numask_sets = N(skl_umasks),
};

/* DisplayModel values of family 06H with these events. */
static const uint8_t skl_models[] = {
	0x4e, 0x5e,             /* Skylake mobile, desktop */
	0x55,                   /* Skylake-SP (and Cascade Lake) */
	0x8e, 0x9e,             /* Kaby / Coffee / Whiskey / Amber Lake */
	0xa5, 0xa6,             /* Comet Lake */
};
#define INTEL_FAMILY_P6 6u

const struct intel_model *intel_model_of(unsigned family, unsigned model)
{
	if (family != INTEL_FAMILY_P6)
		return NULL;
	for (size_t i = 0; i < sizeof(skl_models); i++)
		if (skl_models[i] == model)
			return &skylake;
	return NULL;
}

unsigned intel_model_bind(const struct intel_model *m, struct pmu_event *out,
                          unsigned max, unsigned ngp)
{
	uint32_t gp = (uint32_t)pmu_width_mask(ngp);
	unsigned n = 0;

	for (unsigned i = 0; i < m->table->count && n < max; i++) {
		uint32_t mask = m->table->events[i].counters & gp;

		/* An event tied to counters this part lacks is left out. */
		if (!mask)
			continue;
		out[n] = m->table->events[i];
		out[n].counters = mask;
		n++;
	}
	return n;
}

/* ---- the model: intel-arch's 4 general + 3 fixed, then these ------------ */

#define SKL_GP 4u
#define SKL_FIXED_PRESENT 0x7u

static struct pmu_event skl_bound[INTEL_MODEL_TABLE_MAX];
static struct pmu_event_table skl_bound_table = {
	.name = "skl",
	.events = skl_bound,
	.count = 0,
};

/* Idempotent, like intel_arch_model_prepare(). */
void intel_skl_model_prepare(void)
{
	skl_bound_table.count = intel_model_bind(&skylake, skl_bound,
	                                         INTEL_MODEL_TABLE_MAX, SKL_GP);
}

const struct ev_model ev_model_intel_skylake = {
	.name = "skylake",
	.desc = "Intel Skylake-era cores (family 6 models 4e 5e 55 8e 9e a5 "
	        "a6): intel-arch + skl events, 4 general + 3 fixed",
	.ncounters = SKL_GP + 3,
	.fixed = SKL_FIXED_PRESENT << SKL_GP,
	.umask_shift = INTEL_EVTSEL_UMASK_SHIFT,
	.umask_field = INTEL_EVTSEL_UMASK,
	.ntables = 2,
	/* The architectural events first, as the driver lists them. */
	.tables = { &intel_arch_canon_table, &skl_bound_table },
	.umask_sets = skl_umasks,
	.numask_sets = N(skl_umasks),
	.fields = INTEL_FIELDS,
	.cmask_max = INTEL_EVTSEL_CMASK >> INTEL_EVTSEL_CMASK_SHIFT,
	.encode = events_intel_encode,
};
