/*
 * amd_table.c - AMD core performance events.
 *
 * Family 10h from the BKDG for AMD Family 10h Processors, section "Core
 * Performance Event Select"; family 17h from the PPR for Family 17h
 * Model 01h, section "Core Performance Monitor Counters"; family 19h
 * from the PPR for Family 19h Model 01h (Zen 3), same section.  All
 * counters are alike on these families (no per-counter constraints), so
 * every event says EV_ANY.
 *
 * Checked against libpfm4 (PAPI's copy, src/libpfm4/lib/events/):
 * amd64_events_fam10h.h for 10h, amd64_events_fam17h_zen1.h for 17h and
 * amd64_events_fam19h_zen3.h for 19h -- event numbers and unit-mask bits
 * agree entry by entry (fam10h.h cites BKDG 31116 rev. 3.20).  The perf
 * generic encodings (10h cache-references 0x077d, cache-misses 0x077e,
 * stalled-cycles 0xd0/0xd1; 17h/19h 0xff60, 0x0964, 0x0287/0x0187) are
 * Linux perf's choices, not the manuals'; they were not checked against
 * perf's source.  Fixed on checking: the 17h L2 status unit mask 0x80 is
 * ls-rd-blk-c-s (was "ls-rd-blk-cs"); 10h event 0x42 is libpfm4's
 * data-cache-refills (was "data-cache-refills-from-l2-or-northbridge",
 * 41 characters, which no control could hold).  Zen 4 (family 19h
 * models 10h and later) is given the Zen 3 table; its own PPR and
 * libpfm4's amd64_events_fam19h_zen4.h have not been compared.
 *
 * 17h/19h names are the PPR mnemonics as Linux perf spells them
 * (ex_ret_instr, ls_dispatch), lower case with '-', which fit the
 * 31-character limit where libpfm4's long names
 * (RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED) do not.  Unit masks whose
 * name with the event's passes 31 characters are left out: the L1 DTLB
 * reload kinds, the fill sources past int-cache, L2 status 0x40 and
 * 0x20, IC fetch stall 0x02 and 0x01 (perf's stalled-cycles-frontend
 * and -backend are those two).  Give them as cpu/event=0x45,umask=0x10/.
 * Sums of checked unit masks that perf names are events of their own
 * under perf's dotted names (l2-cache-req-stat.dc-hit-in-l2,
 * ls-l1-d-tlb-miss.all).
 *
 * Codes use Tally's AMD layout (AMD_CODE_* in events.h): PerfEvtSel bits
 * 7:0 and 15:8 as they are, EventSelect[11:8] (PerfEvtSel 35:32) moved to
 * code bits 19:16, edge to 20, invert at 23 and count mask at 31:24.
 */
#include "events.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ---- family 10h (and K8: the same encodings for these events) ----------- */

static const struct pmu_event fam10h_events[] = {
	{ "cpu-clk-unhalted", 0x0076, EV_ANY, "cycles while not halted" },
	{ "cycles", 0x0076, EV_ANY, "alias of cpu-clk-unhalted" },
	{ "retired-instructions", 0x00c0, EV_ANY, "instructions retired" },
	{ "instructions", 0x00c0, EV_ANY, "alias of retired-instructions" },
	{ "retired-uops", 0x00c1, EV_ANY, "micro-ops retired" },
	{ "retired-branch-instructions", 0x00c2, EV_ANY,
	  "branch instructions retired" },
	{ "branches", 0x00c2, EV_ANY, "alias of retired-branch-instructions" },
	{ "retired-mispredicted-branch-instructions", 0x00c3, EV_ANY,
	  "mispredicted branches retired" },
	{ "branch-misses", 0x00c3, EV_ANY,
	  "alias of retired-mispredicted-branch-instructions" },
	{ "retired-taken-branch-instructions", 0x00c4, EV_ANY,
	  "taken branches retired" },
	{ "retired-taken-branch-instructions-mispredicted", 0x00c5, EV_ANY,
	  "mispredicted taken branches retired" },
	{ "retired-far-control-transfers", 0x00c6, EV_ANY,
	  "far control transfers retired" },
	{ "interrupts-taken", 0x00cf, EV_ANY, "interrupts taken" },
	{ "data-cache-accesses", 0x0040, EV_ANY, "L1 data cache accesses" },
	{ "data-cache-misses", 0x0041, EV_ANY, "L1 data cache misses" },
	{ "data-cache-refills", 0x1f42, EV_ANY,
	  "L1 data cache refills (unit masks: source and state)" },
	{ "instruction-cache-fetches", 0x0080, EV_ANY,
	  "instruction cache fetches" },
	{ "instruction-cache-misses", 0x0081, EV_ANY,
	  "instruction cache misses" },
	{ "requests-to-l2", 0x007d, EV_ANY,
	  "requests to the L2 cache (a unit mask is required)" },
	{ "cache-references", 0x077d, EV_ANY,
	  "L2 requests: instructions, data, TLB walks (perf)" },
	{ "l2-cache-miss", 0x007e, EV_ANY,
	  "L2 cache misses (a unit mask is required)" },
	{ "cache-misses", 0x077e, EV_ANY,
	  "L2 misses: instructions, data, TLB walks (perf)" },
	{ "decoder-empty", 0x00d0, EV_ANY, "cycles the decoder is empty" },
	{ "stalled-cycles-frontend", 0x00d0, EV_ANY,
	  "alias of decoder-empty (perf)" },
	{ "dispatch-stalls", 0x00d1, EV_ANY, "dispatch stall cycles" },
	{ "stalled-cycles-backend", 0x00d1, EV_ANY,
	  "alias of dispatch-stalls (perf)" },
};

const struct pmu_event_table amd_fam10h_table = {
	.name = "amd-fam10h",
	.events = fam10h_events,
	.count = N(fam10h_events),
};

static const struct ev_umask refill_umasks[] = {
	{ "system", 0x01, "refill from the northbridge" },
	{ "l2-shared", 0x02, "shared-state line from L2" },
	{ "l2-exclusive", 0x04, "exclusive-state line from L2" },
	{ "l2-owned", 0x08, "owned-state line from L2" },
	{ "l2-modified", 0x10, "modified-state line from L2" },
};

static const struct ev_umask l2req_umasks[] = {
	{ "instructions", 0x01, "instruction cache fills" },
	{ "data", 0x02, "data cache fills" },
	{ "tlb-walk", 0x04, "TLB page table walks" },
	{ "snoop", 0x08, "snoops" },
	{ "cancelled", 0x10, "cancelled requests" },
	{ "hw-prefetch-from-dc", 0x20, "hardware prefetches from the data cache" },
};

static const struct ev_umask l2miss_umasks[] = {
	{ "instructions", 0x01, "instruction cache fills" },
	{ "data", 0x02, "data cache fills" },
	{ "tlb-walk", 0x04, "TLB page table walks" },
	{ "hw-prefetch-from-dc", 0x08, "hardware prefetches from the data cache" },
};

const struct ev_umask_set amd_fam10h_umasks[] = {
	{ "data-cache-refills", refill_umasks,
	  N(refill_umasks), false },
	{ "requests-to-l2", l2req_umasks, N(l2req_umasks), true },
	{ "l2-cache-miss", l2miss_umasks, N(l2miss_umasks), true },
};
const unsigned amd_fam10h_numasks = N(amd_fam10h_umasks);

/* ---- family 17h (Zen) ---------------------------------------------------- */

static const struct pmu_event fam17h_events[] = {
	{ "ls-not-halted-cyc", 0x0076, EV_ANY, "cycles while not halted" },
	{ "cycles", 0x0076, EV_ANY, "alias of ls-not-halted-cyc" },
	{ "cpu-cycles", 0x0076, EV_ANY, "alias of ls-not-halted-cyc (perf)" },
	{ "ex-ret-instr", 0x00c0, EV_ANY, "instructions retired" },
	{ "retired-instructions", 0x00c0, EV_ANY, "alias of ex-ret-instr" },
	{ "instructions", 0x00c0, EV_ANY, "alias of ex-ret-instr" },
	{ "ex-ret-cops", 0x00c1, EV_ANY, "macro-ops retired" },
	{ "ex-ret-brn", 0x00c2, EV_ANY, "branch instructions retired" },
	{ "branches", 0x00c2, EV_ANY, "alias of ex-ret-brn" },
	{ "ex-ret-brn-misp", 0x00c3, EV_ANY, "mispredicted branches retired" },
	{ "branch-misses", 0x00c3, EV_ANY, "alias of ex-ret-brn-misp" },
	{ "ex-ret-brn-tkn", 0x00c4, EV_ANY, "taken branches retired" },
	{ "ex-ret-brn-tkn-misp", 0x00c5, EV_ANY,
	  "mispredicted taken branches retired" },
	{ "ex-ret-brn-far", 0x00c6, EV_ANY, "far control transfers retired" },
	{ "ls-dc-accesses", 0x0040, EV_ANY, "L1 data cache accesses" },
	{ "ic-fw32", 0x0080, EV_ANY, "32-byte instruction cache fetches" },
	{ "ic-fw32-miss", 0x0081, EV_ANY, "32-byte fetches missing the IC" },
	{ "l2-request-g1", 0x0060, EV_ANY,
	  "L2 requests, group 1 (a unit mask is required)" },
	{ "cache-references", 0xff60, EV_ANY, "all L2 requests of group 1 (perf)" },
	{ "l2-cache-req-stat", 0x0064, EV_ANY,
	  "L2 request outcomes (a unit mask is required)" },
	{ "cache-misses", 0x0964, EV_ANY,
	  "L2 misses of data reads and instruction fills (perf)" },
	{ "l2-cache-req-stat.dc-hit-in-l2", 0xf064, EV_ANY,
	  "data cache requests hitting the L2 (0x80|0x40|0x20|0x10)" },
	{ "l2-cache-req-stat.ic-hit-in-l2", 0x0664, EV_ANY,
	  "instruction fills hitting the L2 (0x04|0x02)" },
	{ "ex-ret-near-ret", 0x00c8, EV_ANY, "near returns retired" },
	{ "ex-ret-near-ret-mispred", 0x00c9, EV_ANY,
	  "near returns retired mispredicted" },
	{ "ex-ret-cond", 0x00d1, EV_ANY, "conditional branches retired" },
	{ "ls-dispatch", 0x0029, EV_ANY,
	  "ops dispatched to load/store (a unit mask is required)" },
	{ "ls-stlf", 0x0035, EV_ANY, "store-to-load forwards" },
	{ "ls-l1-d-tlb-miss.all", 0xff45, EV_ANY, "L1 DTLB misses, all kinds" },
	{ "ls-l1-d-tlb-miss.all-l2-miss", 0xf045, EV_ANY,
	  "L1 DTLB misses that also miss the L2 TLB" },
	{ "ic-cache-fill-l2", 0x0082, EV_ANY, "IC lines filled from the L2" },
	{ "ic-cache-fill-sys", 0x0083, EV_ANY,
	  "IC lines filled from beyond the L2" },
	{ "ic-fetch-stall", 0x0787, EV_ANY, "instruction fetch stall cycles" },
	{ "stalled-cycles-frontend", 0x0287, EV_ANY,
	  "fetch stalled, decode queue empty (perf)" },
	{ "stalled-cycles-backend", 0x0187, EV_ANY,
	  "fetch stalled by back pressure (perf)" },
};

const struct pmu_event_table amd_fam17h_table = {
	.name = "amd-fam17h",
	.events = fam17h_events,
	.count = N(fam17h_events),
};

static const struct ev_umask l2g1_umasks[] = {
	{ "rd-blk-l", 0x80, "data cache reads, including hardware prefetch" },
	{ "rd-blk-x", 0x40, "data cache stores" },
	{ "ls-rd-blk-c-s", 0x20, "data cache shared reads" },
	{ "cacheable-ic-read", 0x10, "instruction cache reads" },
	{ "change-to-x", 0x08, "change-to-writable requests" },
	{ "prefetch-l2", 0x04, "PrefetchL2 instructions" },
	{ "l2-hw-pf", 0x02, "L2 hardware prefetches" },
	{ "other-requests", 0x01, "other requests (group 2)" },
};

static const struct ev_umask l2stat_umasks[] = {
	{ "ls-rd-blk-c-s", 0x80, "data cache shared read hits" },
	/* 0x40 LsRdBlkLHitX and 0x20 LsRdBlkLHitS do not fit 31 characters
	 * with the event: l2-cache-req-stat.dc-hit-in-l2 counts them. */
	{ "ls-rd-blk-x", 0x10, "data cache store or state-change hits" },
	{ "ls-rd-blk-c", 0x08, "data cache request misses" },
	{ "ic-fill-hit-x", 0x04, "instruction fill hits, modifiable" },
	{ "ic-fill-hit-s", 0x02, "instruction fill hits, shared" },
	{ "ic-fill-miss", 0x01, "instruction fill misses" },
};

static const struct ev_umask stall_umasks[] = {
	{ "ic-stall-any", 0x04, "any reason" },
	/* 0x02 IcStallDqEmpty and 0x01 IcStallBackPressure do not fit
	 * with the event's name: stalled-cycles-frontend / -backend. */
};

static const struct ev_umask ls_dispatch_umasks[] = {
	{ "ld-dispatch", 0x01, "loads" },
	{ "store-dispatch", 0x02, "stores" },
	{ "ld-st-dispatch", 0x04, "load-op-stores to one address" },
};

const struct ev_umask_set amd_fam17h_umasks[] = {
	{ "ls-dispatch", ls_dispatch_umasks, N(ls_dispatch_umasks), true },
	{ "l2-request-g1", l2g1_umasks, N(l2g1_umasks), true },
	{ "l2-cache-req-stat", l2stat_umasks, N(l2stat_umasks), true },
	{ "ic-fetch-stall", stall_umasks, N(stall_umasks), false },
};
const unsigned amd_fam17h_numasks = N(amd_fam17h_umasks);

/* ---- family 19h (Zen 3; Zen 4 unchecked) --------------------------------- */

/* EventSelect above 0xff goes to code bits 19:16 (AMD_CODE_EVENT_HI). */
#define AMD_EV(evsel, umask) \
	((uint32_t)((evsel) & AMD_CODE_EVENT_LO_MASK) | \
	 (uint32_t)((evsel) >> AMD_EVSEL_HI_SHIFT) << AMD_CODE_EVENT_HI_SHIFT | \
	 (uint32_t)(umask) << AMD_CODE_UMASK_SHIFT)

static const struct pmu_event fam19h_events[] = {
	{ "ls-not-halted-cyc", AMD_EV(0x076, 0), EV_ANY,
	  "cycles while not halted" },
	{ "cycles", AMD_EV(0x076, 0), EV_ANY, "alias of ls-not-halted-cyc" },
	{ "cpu-cycles", AMD_EV(0x076, 0), EV_ANY,
	  "alias of ls-not-halted-cyc (perf)" },
	{ "cycles-not-in-halt", AMD_EV(0x076, 0), EV_ANY,
	  "alias of ls-not-halted-cyc (libpfm4)" },
	{ "ex-ret-instr", AMD_EV(0x0c0, 0), EV_ANY, "instructions retired" },
	{ "retired-instructions", AMD_EV(0x0c0, 0), EV_ANY,
	  "alias of ex-ret-instr" },
	{ "instructions", AMD_EV(0x0c0, 0), EV_ANY, "alias of ex-ret-instr" },
	{ "ex-ret-ops", AMD_EV(0x0c1, 0), EV_ANY, "macro-ops retired" },
	{ "retired-ops", AMD_EV(0x0c1, 0), EV_ANY, "alias of ex-ret-ops" },
	{ "ex-ret-brn", AMD_EV(0x0c2, 0), EV_ANY, "branches retired" },
	{ "branches", AMD_EV(0x0c2, 0), EV_ANY, "alias of ex-ret-brn" },
	{ "branch-instructions", AMD_EV(0x0c2, 0), EV_ANY,
	  "alias of ex-ret-brn (perf)" },
	{ "ex-ret-brn-misp", AMD_EV(0x0c3, 0), EV_ANY,
	  "mispredicted branches retired" },
	{ "branch-misses", AMD_EV(0x0c3, 0), EV_ANY, "alias of ex-ret-brn-misp" },
	{ "ex-ret-brn-tkn", AMD_EV(0x0c4, 0), EV_ANY, "taken branches retired" },
	{ "ex-ret-brn-tkn-misp", AMD_EV(0x0c5, 0), EV_ANY,
	  "mispredicted taken branches retired" },
	{ "ex-ret-brn-far", AMD_EV(0x0c6, 0), EV_ANY,
	  "far control transfers retired" },
	{ "ex-ret-near-ret", AMD_EV(0x0c8, 0), EV_ANY, "near returns retired" },
	{ "ex-ret-near-ret-mispred", AMD_EV(0x0c9, 0), EV_ANY,
	  "near returns retired mispredicted" },
	{ "ex-ret-brn-ind-misp", AMD_EV(0x0ca, 0), EV_ANY,
	  "mispredicted indirect branches retired" },
	{ "ex-ret-mmx-fp-instr", AMD_EV(0x0cb, 0), EV_ANY,
	  "x87/MMX/SSE instructions retired (a unit mask is required)" },
	{ "ex-ret-ind-brch-instr", AMD_EV(0x0cc, 0), EV_ANY,
	  "indirect branches retired" },
	{ "ex-ret-cond", AMD_EV(0x0d1, 0), EV_ANY,
	  "conditional branches retired" },
	{ "ex-div-busy", AMD_EV(0x0d3, 0), EV_ANY, "cycles the divider is busy" },
	{ "ex-div-count", AMD_EV(0x0d4, 0), EV_ANY, "divide ops" },
	{ "ls-dispatch", AMD_EV(0x029, 0), EV_ANY,
	  "ops dispatched to load/store (a unit mask is required)" },
	{ "ls-stlf", AMD_EV(0x035, 0), EV_ANY, "store-to-load forwards" },
	{ "ls-dmnd-fills-from-sys", AMD_EV(0x043, 0), EV_ANY,
	  "demand data cache fills by source (a unit mask is required)" },
	{ "ls-any-fills-from-sys", AMD_EV(0x044, 0), EV_ANY,
	  "any data cache fills by source (a unit mask is required)" },
	{ "ls-l1-d-tlb-miss.all", AMD_EV(0x045, 0xff), EV_ANY,
	  "L1 DTLB misses, all kinds" },
	{ "ls-l1-d-tlb-miss.all-l2-miss", AMD_EV(0x045, 0xf0), EV_ANY,
	  "L1 DTLB misses that also miss the L2 TLB" },
	{ "ls-misal-loads", AMD_EV(0x047, 0), EV_ANY,
	  "misaligned loads retired (a unit mask is required)" },
	{ "l2-request-g1", AMD_EV(0x060, 0), EV_ANY,
	  "L2 requests, group 1 (a unit mask is required)" },
	{ "cache-references", AMD_EV(0x060, 0xff), EV_ANY,
	  "all L2 requests of group 1 (perf)" },
	{ "l2-cache-req-stat", AMD_EV(0x064, 0), EV_ANY,
	  "L2 request outcomes (a unit mask is required)" },
	{ "cache-misses", AMD_EV(0x064, 0x09), EV_ANY,
	  "L2 misses of data reads and instruction fills (perf)" },
	{ "l2-cache-req-stat.dc-hit-in-l2", AMD_EV(0x064, 0xf0), EV_ANY,
	  "data cache requests hitting the L2 (0x80|0x40|0x20|0x10)" },
	{ "l2-cache-req-stat.ic-hit-in-l2", AMD_EV(0x064, 0x06), EV_ANY,
	  "instruction fills hitting the L2 (0x04|0x02)" },
	{ "ic-cache-fill-l2", AMD_EV(0x082, 0), EV_ANY,
	  "IC lines filled from the L2" },
	{ "ic-cache-fill-sys", AMD_EV(0x083, 0), EV_ANY,
	  "IC lines filled from beyond the L2" },
	{ "bp-l1-tlb-miss-l2-tlb-hit", AMD_EV(0x084, 0), EV_ANY,
	  "L1 ITLB misses hitting the L2 ITLB" },
	{ "bp-l1-tlb-miss-l2-tlb-miss", AMD_EV(0x085, 0), EV_ANY,
	  "ITLB reloads from the walker (a unit mask is required)" },
	{ "ic-tag-hit-miss", AMD_EV(0x18e, 0), EV_ANY,
	  "IC tag hits and misses (a unit mask is required)" },
	{ "op-cache-hit-miss", AMD_EV(0x28f, 0), EV_ANY,
	  "op cache hits and misses (a unit mask is required)" },
};

const struct pmu_event_table amd_fam19h_table = {
	.name = "amd-fam19h",
	.events = fam19h_events,
	.count = N(fam19h_events),
};

static const struct ev_umask mmx_fp_umasks[] = {
	{ "x87-instr", 0x01, "x87 instructions" },
	{ "mmx-instr", 0x02, "MMX instructions" },
	{ "sse-instr", 0x04, "SSE and AVX instructions" },
};

/* Only the sources that fit 31 characters with the longer event name. */
static const struct ev_umask dmnd_fill_umasks[] = {
	{ "lcl-l2", 0x01, "from the local L2" },
};
static const struct ev_umask any_fill_umasks[] = {
	{ "lcl-l2", 0x01, "from the local L2" },
	{ "int-cache", 0x02, "from the L3 or another L2 of the CCX" },
};

static const struct ev_umask misal_umasks[] = {
	{ "ma64", 0x01, "64-byte (cache line) crossing loads" },
	{ "ma4k", 0x02, "4-KB (page) crossing loads" },
};

/* Zen 3 has no "other requests" bit in group 1. */
static const struct ev_umask l2g1_19h_umasks[] = {
	{ "rd-blk-l", 0x80, "data cache reads, including prefetch" },
	{ "rd-blk-x", 0x40, "data cache stores" },
	{ "ls-rd-blk-c-s", 0x20, "data cache shared reads" },
	{ "cacheable-ic-read", 0x10, "instruction cache reads" },
	{ "change-to-x", 0x08, "change-to-writable requests" },
	{ "prefetch-l2", 0x04, "PrefetchL2 instructions" },
	{ "l2-hw-pf", 0x02, "L2 hardware prefetches" },
};

static const struct ev_umask itlb_reload_umasks[] = {
	{ "if4k", 0x01, "4-KB pages" },
	{ "if2m", 0x02, "2-MB pages" },
	{ "if1g", 0x04, "1-GB pages" },
};

static const struct ev_umask ic_tag_umasks[] = {
	{ "ic-hit", 0x07, "instruction cache hits" },
	{ "ic-miss", 0x18, "instruction cache misses" },
	{ "all-ic-access", 0x1f, "instruction cache accesses" },
};

static const struct ev_umask op_cache_umasks[] = {
	{ "oc-hit", 0x03, "op cache hits" },
	{ "oc-miss", 0x04, "op cache misses" },
	{ "all-oc-access", 0x07, "op cache accesses" },
};

const struct ev_umask_set amd_fam19h_umasks[] = {
	{ "ex-ret-mmx-fp-instr", mmx_fp_umasks, N(mmx_fp_umasks), true },
	{ "ls-dispatch", ls_dispatch_umasks, N(ls_dispatch_umasks), true },
	{ "ls-dmnd-fills-from-sys", dmnd_fill_umasks, N(dmnd_fill_umasks),
	  true },
	{ "ls-any-fills-from-sys", any_fill_umasks, N(any_fill_umasks), true },
	{ "ls-misal-loads", misal_umasks, N(misal_umasks), true },
	{ "l2-request-g1", l2g1_19h_umasks, N(l2g1_19h_umasks), true },
	{ "l2-cache-req-stat", l2stat_umasks, N(l2stat_umasks), true },
	{ "bp-l1-tlb-miss-l2-tlb-miss", itlb_reload_umasks,
	  N(itlb_reload_umasks), true },
	{ "ic-tag-hit-miss", ic_tag_umasks, N(ic_tag_umasks), true },
	{ "op-cache-hit-miss", op_cache_umasks, N(op_cache_umasks), true },
};
const unsigned amd_fam19h_numasks = N(amd_fam19h_umasks);

/* ---- models -------------------------------------------------------------- */

/* APM vol. 2, "Performance Counters": four legacy counters. */
const struct ev_model ev_model_amd_legacy = {
	.name = "amd-legacy",
	.desc = "AMD K8 / family 10h: 4 counters at C001_0000h (BKDG 10h)",
	.ncounters = 4,
	.umask_shift = AMD_CODE_UMASK_SHIFT,
	.umask_field = AMD_CODE_UMASK_MASK,
	.ntables = 1,
	.tables = { &amd_fam10h_table },
	.umask_sets = amd_fam10h_umasks,
	.numask_sets = N(amd_fam10h_umasks),
	.fields = INTEL_FIELDS,         /* the same five parts */
	.cmask_max = AMD_FIELD8_MAX,
	.encode = events_amd_encode,
};

/* CPUID 8000_0001h:ECX.PerfCtrExtCore: six counters at C001_0200h. */
const struct ev_model ev_model_amd_core = {
	.name = "amd-core",
	.desc = "AMD family 17h (Zen): 6 core counters at C001_0200h (PPR 17h)",
	.ncounters = 6,
	.umask_shift = AMD_CODE_UMASK_SHIFT,
	.umask_field = AMD_CODE_UMASK_MASK,
	.ntables = 1,
	.tables = { &amd_fam17h_table },
	.umask_sets = amd_fam17h_umasks,
	.numask_sets = N(amd_fam17h_umasks),
	.fields = INTEL_FIELDS,
	.cmask_max = AMD_FIELD8_MAX,
	.encode = events_amd_encode,
};

const struct ev_model ev_model_amd_fam19h = {
	.name = "amd-fam19h",
	.desc = "AMD family 19h (Zen 3, Zen 4): 6 core counters at C001_0200h "
	        "(PPR 19h)",
	.ncounters = 6,
	.umask_shift = AMD_CODE_UMASK_SHIFT,
	.umask_field = AMD_CODE_UMASK_MASK,
	.ntables = 1,
	.tables = { &amd_fam19h_table },
	.umask_sets = amd_fam19h_umasks,
	.numask_sets = N(amd_fam19h_umasks),
	.fields = INTEL_FIELDS,
	.cmask_max = AMD_FIELD8_MAX,
	.encode = events_amd_encode,
};

#define AMD_FAMILY_17H 0x17u
#define AMD_FAMILY_19H 0x19u

const struct ev_model *amd_model_of_family(unsigned family)
{
	if (family >= AMD_FAMILY_19H)
		return &ev_model_amd_fam19h;
	if (family >= AMD_FAMILY_17H)
		return &ev_model_amd_core;
	return &ev_model_amd_legacy;
}
