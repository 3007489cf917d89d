/*
 * r10k_table.c - the 32 events of the R10000 and R12000, as the IRIX manual
 * r10k_evcntrs(5) numbers them: events 0-15 on counter 0, 16-31 on
 * counter 1.  The code is that IRIX number; the driver turns it into the
 * control register's Event field.  Names are the manual's descriptions,
 * shortened, in lower case, within 31 characters (HWPERF_NAME_MAX: the
 * "external-" and "exclusive-" names are "ext-" and "excl-" for that).
 *
 * Checked: only events 0, 1, 16 and 17 (cycles on both counters,
 * instructions issued on counter 0, graduated on counter 1) against the
 * MIPS R10000 Microprocessor User's Manual v2.0, section 14.20
 * "Performance Counter Registers"; the other R10000 entries and the whole
 * R12000 table are as r10k_evcntrs(5) was remembered, unchecked.
 *
 * R10000 events 6 and 14 changed meaning between chip revisions 2.x and
 * 3.x (decoded vs resolved branches; virtual coherency conditions vs
 * ALU/FPU completion cycles): the names say both.
 */
#include "events.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define C0 EV_CTR(0)
#define C1 EV_CTR(1)

static const struct pmu_event r10000_events[] = {
	{ "cycles", 0, C0, "clock cycles" },
	{ "issued-instructions", 1, C0, "instructions issued to ALU, FPU or LSU" },
	{ "issued-loads", 2, C0, "loads, prefetches and syncs issued" },
	{ "issued-stores", 3, C0, "stores issued" },
	{ "issued-store-conditionals", 4, C0, "store conditionals issued" },
	{ "failed-store-conditionals", 5, C0, "store conditionals that failed" },
	{ "decoded-branches", 6, C0,
	  "branches decoded (rev 2.x) or resolved (rev 3.x)" },
	{ "branches", 6, C0, "alias of decoded-branches" },
	{ "scache-writeback-quadwords", 7, C0,
	  "quadwords written back from secondary cache" },
	{ "scache-data-ecc-corrected", 8, C0,
	  "correctable secondary cache data ECC errors" },
	{ "picache-misses", 9, C0, "primary instruction cache misses" },
	{ "sicache-misses", 10, C0, "secondary instruction cache misses" },
	{ "sicache-way-mispredictions", 11, C0,
	  "instruction mispredicted by the secondary cache way table" },
	{ "external-interventions", 12, C0, "external interventions" },
	{ "external-invalidations", 13, C0, "external invalidations" },
	{ "vcc-or-fu-completion-cycles", 14, C0,
	  "virtual coherency (rev 2.x) or ALU/FPU completion cycles (3.x)" },
	{ "graduated-instructions", 15, C0, "instructions graduated" },
	{ "instructions", 15, C0, "alias of graduated-instructions" },
	{ "cycles", 16, C1, "clock cycles" },
	{ "graduated-instructions", 17, C1, "instructions graduated" },
	{ "instructions", 17, C1, "alias of graduated-instructions" },
	{ "graduated-loads", 18, C1, "loads, prefetches and syncs graduated" },
	{ "graduated-stores", 19, C1, "stores graduated" },
	{ "graduated-store-conditionals", 20, C1,
	  "store conditionals graduated" },
	{ "graduated-fp-instructions", 21, C1,
	  "floating-point instructions graduated" },
	{ "pdcache-writeback-quadwords", 22, C1,
	  "quadwords written back from primary data cache" },
	{ "tlb-misses", 23, C1, "TLB refill exceptions" },
	{ "mispredicted-branches", 24, C1, "branches mispredicted" },
	{ "branch-misses", 24, C1, "alias of mispredicted-branches" },
	{ "pdcache-misses", 25, C1, "primary data cache misses" },
	{ "cache-misses", 25, C1, "alias of pdcache-misses" },
	{ "sdcache-misses", 26, C1, "secondary data cache misses" },
	{ "sdcache-way-mispredictions", 27, C1,
	  "data mispredicted by the secondary cache way table" },
	{ "ext-intervention-scache-hits", 28, C1,
	  "external intervention hits in secondary cache" },
	{ "ext-invalidation-scache-hits", 29, C1,
	  "external invalidation hits in secondary cache" },
	{ "excl-to-clean-scache-block", 30, C1,
	  "store/fetch exclusive to clean block in secondary cache" },
	{ "excl-to-shared-scache-block", 31, C1,
	  "store/fetch exclusive to shared block in secondary cache" },
};

static const struct pmu_event r12000_events[] = {
	{ "cycles", 0, C0, "clock cycles" },
	{ "decoded-instructions", 1, C0, "instructions decoded" },
	{ "decoded-loads", 2, C0, "loads decoded" },
	{ "decoded-stores", 3, C0, "stores decoded (store conditionals too)" },
	{ "mht-occupancy", 4, C0, "miss handling table entries, per cycle" },
	{ "failed-store-conditionals", 5, C0, "store conditionals that failed" },
	{ "resolved-conditional-branches", 6, C0, "conditional branches resolved" },
	{ "branches", 6, C0, "alias of resolved-conditional-branches" },
	{ "scache-writeback-quadwords", 7, C0,
	  "quadwords written back from secondary cache" },
	{ "scache-data-ecc-corrected", 8, C0,
	  "correctable secondary cache data ECC errors" },
	{ "picache-misses", 9, C0, "primary instruction cache misses" },
	{ "sicache-misses", 10, C0, "secondary instruction cache misses" },
	{ "sicache-way-mispredictions", 11, C0,
	  "instruction mispredicted by the secondary cache way table" },
	{ "external-interventions", 12, C0, "external interventions" },
	{ "external-invalidations", 13, C0, "external invalidations" },
	{ "alu-fpu-progress-cycles", 14, C0, "cycles an ALU or FPU finishes" },
	{ "graduated-instructions", 15, C0, "instructions graduated" },
	{ "instructions", 15, C0, "alias of graduated-instructions" },
	{ "executed-prefetches", 16, C1, "prefetch instructions executed" },
	{ "prefetch-pdcache-misses", 17, C1,
	  "prefetches missing the primary data cache" },
	{ "graduated-loads", 18, C1, "loads graduated" },
	{ "graduated-stores", 19, C1, "stores graduated" },
	{ "graduated-store-conditionals", 20, C1,
	  "store conditionals graduated" },
	{ "graduated-fp-instructions", 21, C1,
	  "floating-point instructions graduated" },
	{ "pdcache-writeback-quadwords", 22, C1,
	  "quadwords written back from primary data cache" },
	{ "tlb-misses", 23, C1, "TLB refill exceptions" },
	{ "mispredicted-branches", 24, C1, "branches mispredicted" },
	{ "branch-misses", 24, C1, "alias of mispredicted-branches" },
	{ "pdcache-misses", 25, C1, "primary data cache misses" },
	{ "cache-misses", 25, C1, "alias of pdcache-misses" },
	{ "sdcache-misses", 26, C1, "secondary data cache misses" },
	{ "sdcache-way-mispredictions", 27, C1,
	  "data mispredicted by the secondary cache way table" },
	{ "ext-intervention-scache-state", 28, C1,
	  "state of external intervention hits in secondary cache" },
	{ "ext-invalidation-scache-state", 29, C1,
	  "state of external invalidation hits in secondary cache" },
	{ "mht-entries-accessing-memory", 30, C1,
	  "miss handling table entries waiting on memory, per cycle" },
	{ "excl-to-shared-scache-block", 31, C1,
	  "store/prefetch exclusive to shared block in secondary cache" },
};

const struct pmu_event_table r10000_table = {
	"r10000", r10000_events, N(r10000_events) };
const struct pmu_event_table r12000_table = {
	"r12000", r12000_events, N(r12000_events) };

const struct ev_model ev_model_r10000 = {
	.name = "r10000",
	.desc = "MIPS R10000 (PRId imp 0x09): 2 counters x 16 events (IRIX)",
	.ncounters = 2,
	.slots_per_counter = 16,
	.ntables = 1,
	.tables = { &r10000_table },
};

const struct ev_model ev_model_r12000 = {
	.name = "r12000",
	.desc = "MIPS R12000 (PRId imp 0x0e): 2 counters, IRIX numbering",
	.ncounters = 2,
	.slots_per_counter = 16,
	.ntables = 1,
	.tables = { &r12000_table },
};
