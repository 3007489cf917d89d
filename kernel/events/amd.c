/*
 * amd.c - AMD core performance events.
 *
 * Family 10h from the BKDG for AMD Family 10h Processors, section "Core
 * Performance Event Select"; family 17h from the PPR for Family 17h
 * Model 01h, section "Core Performance Monitor Counters".  All counters
 * are alike on these families (no per-counter constraints), so every event
 * says EV_ANY.  Names are libpfm4's (amd64_fam10h, amd64_fam17h) in lower
 * case, plus perf's generic names with the encodings perf uses for them.
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
	{ "data-cache-refills-from-l2-or-northbridge", 0x1f42, EV_ANY,
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
	{ "data-cache-refills-from-l2-or-northbridge", refill_umasks,
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
	{ "ls-rd-blk-cs", 0x80, "data cache shared read hits" },
	{ "ls-rd-blk-l-hit-x", 0x40, "data cache read hits, modifiable" },
	{ "ls-rd-blk-l-hit-s", 0x20, "data cache read hits, shared" },
	{ "ls-rd-blk-x", 0x10, "data cache store or state-change hits" },
	{ "ls-rd-blk-c", 0x08, "data cache request misses" },
	{ "ic-fill-hit-x", 0x04, "instruction fill hits, modifiable" },
	{ "ic-fill-hit-s", 0x02, "instruction fill hits, shared" },
	{ "ic-fill-miss", 0x01, "instruction fill misses" },
};

static const struct ev_umask stall_umasks[] = {
	{ "ic-stall-any", 0x04, "any reason" },
	{ "ic-stall-dq-empty", 0x02, "decode queue empty" },
	{ "ic-stall-back-pressure", 0x01, "back pressure from the decoder" },
};

const struct ev_umask_set amd_fam17h_umasks[] = {
	{ "l2-request-g1", l2g1_umasks, N(l2g1_umasks), true },
	{ "l2-cache-req-stat", l2stat_umasks, N(l2stat_umasks), true },
	{ "ic-fetch-stall", stall_umasks, N(stall_umasks), false },
};
const unsigned amd_fam17h_numasks = N(amd_fam17h_umasks);

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
};
