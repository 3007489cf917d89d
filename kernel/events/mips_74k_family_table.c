/*
 * mips_74k_family_table.c - events of the out-of-order cores: 74K and P5600.
 *
 * From the "Performance Counter Event Codes" tables of the MIPS32 74K and
 * P5600 Software User's Manuals.  Their numbering differs from the 24K's
 * (branches are event 39 = 0x27, even counters counting predictions and
 * odd ones mispredictions).  The code is the PerfCtl Event field value.
 * The P5600 table holds only the events whose numbers it shares with the
 * 74K family; the rest are reachable as raw codes.
 *
 * 74K checked entry by entry against libpfm4's lib/events/mips_74k_events.h
 * (PAPI's copy; it cites the "MIPS32 74K Processor Core Family Software
 * Users' Manual", MD00519 rev. 01.05, and codes odd-counter events as
 * 0x80 | N), and against "Programming the MIPS32 74K Core Family"
 * rev. 02.14, table 8.8 "Performance Counter Event Codes" (events 0-29).
 * Changed on checking: l2-cache-misses, event 29, was on any counter.
 * The sources disagree on odd 29 -- L2 miss cycles in the SUM rev. 01.05
 * (libpfm4), L2 misses in the rev. 02.14 table and Linux's cache map --
 * while all agree on even 29, so the event is tied to the even counters,
 * right on every revision.
 * P5600 checked against Linux's perf_event_mipsxx.c only (the P5600 uses
 * its 74K/proAptiv generic map: 0 and 1 on both parities, 0x27 even and
 * odd for branches and mispredictions), not against the P5600 SUM.
 */
#include "events.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct pmu_event m74k_events[] = {
	{ "cycles", 0, EV_ANY, "cycles" },
	{ "instructions", 1, EV_ANY, "instructions graduated" },
	{ "itlb-accesses", 4, EV_EVEN, "instruction TLB accesses" },
	{ "itlb-misses", 4, EV_ODD, "instruction TLB misses" },
	{ "icache-accesses", 6, EV_EVEN, "instruction cache accesses" },
	{ "icache-misses", 6, EV_ODD, "instruction cache misses" },
	{ "dcache-accesses", 23, EV_ODD, "data cache loads and stores" },
	{ "cache-references", 23, EV_ODD, "alias of dcache-accesses" },
	{ "dcache-misses", 24, EV_ODD, "data cache misses" },
	{ "cache-misses", 24, EV_ODD, "alias of dcache-misses" },
	{ "l2-cache-accesses", 28, EV_ODD, "L2 accesses" },
	{ "l2-cache-misses", 29, EV_EVEN, "L2 misses" },
	{ "branch-insns", 39, EV_EVEN, "conditional branches graduated" },
	{ "branches", 39, EV_EVEN, "alias of branch-insns" },
	{ "mispredicted-branch-insns", 39, EV_ODD, "branches mispredicted" },
	{ "branch-misses", 39, EV_ODD, "alias of mispredicted-branch-insns" },
};

static const struct pmu_event p5600_events[] = {
	{ "cycles", 0, EV_ANY, "cycles" },
	{ "instructions", 1, EV_ANY, "instructions graduated" },
	{ "branch-insns", 39, EV_EVEN, "conditional branches graduated" },
	{ "branches", 39, EV_EVEN, "alias of branch-insns" },
	{ "mispredicted-branch-insns", 39, EV_ODD, "branches mispredicted" },
	{ "branch-misses", 39, EV_ODD, "alias of mispredicted-branch-insns" },
};

const struct pmu_event_table mips_74k_table = {
	"mips-74k", m74k_events, N(m74k_events) };
const struct pmu_event_table mips_p5600_table = {
	"mips-p5600", p5600_events, N(p5600_events) };

const struct ev_model ev_model_mips_74k = {
	.name = "74k",
	.desc = "MIPS32 74K (PRId imp 0x97): 4 counters",
	.ncounters = 4,
	.ntables = 1,
	.tables = { &mips_74k_table },
};

const struct ev_model ev_model_mips_p5600 = {
	.name = "p5600",
	.desc = "MIPS32 P5600 (PRId imp 0xa8): 2 counters",
	.ncounters = 2,
	.ntables = 1,
	.tables = { &mips_p5600_table },
};
