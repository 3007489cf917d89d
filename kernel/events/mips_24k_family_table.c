/*
 * mips_24k_family_table.c - events of the 24K-pipeline cores: 24K, 34K, 1004K
 * and interAptiv.
 *
 * Written from the "Performance Counter Event Codes" tables of the MIPS32
 * 24K, 34K, 1004K and interAptiv Software User's Manuals.  Each event
 * number means one thing on the even counters (PerfCnt0, 2) and another
 * on the odd ones (PerfCnt1, 3); cycles, instructions and data cache
 * misses are the same on both.  The code is the PerfCtl Event field value.
 *
 * Checked against (no SUM was at hand; these follow the SUMs): Linux's
 * arch/mips/kernel/perf_event_mipsxx.c -- its "both counters" lists for
 * the 24K, 34K and 1004K (events 0, 1, 11), its 24K/34K "unsupported"
 * raw-event lists (from before 2012), and its shared 24K/34K/1004K
 * generic and cache maps: events 0, 1 (both), 2 (branches / misses),
 * 5 (ITLB), 6 (DTLB), 9 (icache), 10 even (dcache accesses), 11 (dcache
 * misses), 20 even (prefetch), 21 odd (L2 accesses) and 22 even (L2
 * misses) agree.  Fixed on checking: the 24K table listed odd event 24
 * ("refetched-insns") and events 26 and 27 (the DSP ASE counts), which
 * Linux's 24K list marks unsupported on the 24K; they are gone (a 24KE,
 * PRId 0x96, has them: give raw codes).
 * The even-counter events 2-10, 13-23, 25 and 26 also agree with
 * OProfile's 1004K event list (oprofile.sourceforge.io/docs/
 * mips-1004K-events.php, from "Programming the MIPS32 1004K Core
 * Family"); the 34K/1004K/interAptiv table lacks its even 24 (cache
 * fixup cycles), which is reachable as raw code r18.
 * Unchecked still (as the SUM tables were remembered): the odd-counter
 * events 3, 4, 7, 8, 10, 13-19, 20, 22, 23, 25, 26 and 27 on all four
 * cores, the 24K's even events other than those the 1004K list shares,
 * and every interAptiv entry beyond its sharing the 34K table.
 *
 * The generic cache-references / cache-misses are the L1 data cache's
 * here (these cores have no shared last-level counter of their own).
 * Only events common to the cores' manuals are tabulated; the rest are
 * reachable as raw codes ("r17" = event 23) on the counter parity the
 * manual gives.
 */
#include "events.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* The events the four cores share, in the manuals' event-number order. */
#define CORE_EVENTS \
	{ "cycles", 0, EV_ANY, "cycles" }, \
	{ "instructions", 1, EV_ANY, "instructions completed" }, \
	{ "branch-insns", 2, EV_EVEN, "branch instructions completed" }, \
	{ "branches", 2, EV_EVEN, "alias of branch-insns" }, \
	{ "mispredicted-branch-insns", 2, EV_ODD, "branch mispredictions" }, \
	{ "branch-misses", 2, EV_ODD, "alias of mispredicted-branch-insns" }, \
	{ "jr-31-insns", 3, EV_EVEN, "JR $31 (return) instructions" }, \
	{ "jr-31-mispredictions", 3, EV_ODD, "JR $31 mispredicted" }, \
	{ "jr-non-31-insns", 4, EV_EVEN, "JR $x (x != 31) instructions" }, \
	{ "jr-31-no-predictions", 4, EV_ODD, "JR $31 not predicted" }, \
	{ "itlb-accesses", 5, EV_EVEN, "instruction micro-TLB accesses" }, \
	{ "itlb-misses", 5, EV_ODD, "instruction micro-TLB misses" }, \
	{ "dtlb-accesses", 6, EV_EVEN, "data micro-TLB accesses" }, \
	{ "dtlb-misses", 6, EV_ODD, "data micro-TLB misses" }, \
	{ "jtlb-insn-accesses", 7, EV_EVEN, "joint TLB instruction accesses" }, \
	{ "jtlb-insn-misses", 7, EV_ODD, "joint TLB instruction misses" }, \
	{ "jtlb-data-accesses", 8, EV_EVEN, "joint TLB data accesses" }, \
	{ "jtlb-data-misses", 8, EV_ODD, "joint TLB data misses" }, \
	{ "icache-accesses", 9, EV_EVEN, "instruction cache accesses" }, \
	{ "icache-misses", 9, EV_ODD, "instruction cache misses" }, \
	{ "dcache-accesses", 10, EV_EVEN, "data cache accesses" }, \
	{ "cache-references", 10, EV_EVEN, "alias of dcache-accesses" }, \
	{ "dcache-writebacks", 10, EV_ODD, "data cache lines written back" }, \
	{ "dcache-misses", 11, EV_ANY, "data cache misses" }, \
	{ "cache-misses", 11, EV_ANY, "alias of dcache-misses" }, \
	{ "store-miss-insns", 13, EV_EVEN, "cacheable stores missing" }, \
	{ "load-miss-insns", 13, EV_ODD, "cacheable loads missing" }, \
	{ "integer-insns", 14, EV_EVEN, "integer instructions completed" }, \
	{ "fpu-insns", 14, EV_ODD, "FPU instructions completed" }, \
	{ "load-insns", 15, EV_EVEN, "loads completed" }, \
	{ "store-insns", 15, EV_ODD, "stores completed" }, \
	{ "j-jal-insns", 16, EV_EVEN, "J and JAL completed" }, \
	{ "mips16-insns", 16, EV_ODD, "MIPS16 instructions completed" }, \
	{ "no-ops-insns", 17, EV_EVEN, "no-ops completed" }, \
	{ "int-mul-div-insns", 17, EV_ODD, "integer multiply/divide completed" }, \
	{ "all-stalls", 18, EV_EVEN, "stall cycles" }, \
	{ "replayed-insns", 18, EV_ODD, "replayed instructions" }, \
	{ "sc-insns", 19, EV_EVEN, "SC instructions completed" }, \
	{ "sc-insns-failed", 19, EV_ODD, "SC instructions that failed" }, \
	{ "prefetch-insns", 20, EV_EVEN, "PREF instructions completed" }, \
	{ "cache-hit-prefetch-insns", 20, EV_ODD, "PREF hitting the cache" }, \
	{ "l2-cache-writebacks", 21, EV_EVEN, "L2 lines written back" }, \
	{ "l2-cache-accesses", 21, EV_ODD, "L2 accesses" }, \
	{ "l2-cache-misses", 22, EV_EVEN, "L2 misses" }, \
	{ "l2-cache-single-bit-errors", 22, EV_ODD, \
	  "L2 single-bit errors corrected" }, \
	{ "exceptions-taken", 23, EV_EVEN, "exceptions taken" }

static const struct pmu_event m24k_events[] = {
	CORE_EVENTS,
	{ "cache-fixup-cycles", 24, EV_EVEN, "cache fixup cycles" },
	{ "ifu-stalls", 25, EV_EVEN, "instruction fetch stall cycles" },
	{ "alu-stalls", 25, EV_ODD, "ALU stall cycles" },
};

/* The multithreaded cores (MT ASE) share the core list. */
static const struct pmu_event m34k_events[] = {
	CORE_EVENTS,
	{ "ifu-stalls", 25, EV_EVEN, "instruction fetch stall cycles" },
	{ "alu-stalls", 25, EV_ODD, "ALU stall cycles" },
	{ "dsp-insns", 26, EV_EVEN, "DSP instructions completed" },
	{ "alu-dsp-saturation-insns", 26, EV_ODD, "ALU-DSP saturations" },
	{ "mdu-dsp-saturation-insns", 27, EV_ODD, "MDU-DSP saturations" },
};

const struct pmu_event_table mips_24k_table = {
	"mips-24k", m24k_events, N(m24k_events) };
const struct pmu_event_table mips_34k_table = {
	"mips-34k", m34k_events, N(m34k_events) };
const struct pmu_event_table mips_1004k_table = {
	"mips-1004k", m34k_events, N(m34k_events) };
const struct pmu_event_table mips_interaptiv_table = {
	"mips-interaptiv", m34k_events, N(m34k_events) };

#define MIPS_MODEL(nm, ds, nc, tab) { .name = (nm), .desc = (ds), \
	.ncounters = (nc), .ntables = 1, .tables = { &(tab) } }

const struct ev_model ev_model_mips_24k = MIPS_MODEL("24k",
	"MIPS32 24K (PRId imp 0x93, 24KE 0x96): 2 counters", 2, mips_24k_table);
const struct ev_model ev_model_mips_34k = MIPS_MODEL("34k",
	"MIPS32 34K (PRId imp 0x95): 2 counters per VPE, MT filter", 2,
	mips_34k_table);
const struct ev_model ev_model_mips_1004k = MIPS_MODEL("1004k",
	"MIPS32 1004K (PRId imp 0x99): 2 counters per VPE, MT filter", 2,
	mips_1004k_table);
const struct ev_model ev_model_mips_interaptiv = MIPS_MODEL("interaptiv",
	"MIPS32 interAptiv (PRId imp 0xa0, 0xa1): 2 counters per VPE", 2,
	mips_interaptiv_table);
