/*
 * intel_arch_table.c - Intel's architectural performance events.
 *
 * From the Intel SDM vol. 3B, chapter "Performance Monitoring", section
 * "Architectural Performance Monitoring" and its table "UMask and Event
 * Select Encodings for Pre-Defined Architectural Performance Events":
 * CPUID.0AH:EBX bit i set means event i is NOT available; EAX[31:24] is
 * the length of that bit vector (events past it are not available either).
 * Codes are event select | umask << 8, as in IA32_PERFEVTSELx bits 15:0.
 * Checked against that SDM table; the unit-mask names and values also
 * agree with libpfm4's lib/events/intel_skl_events.h (CPU_CLK_UNHALTED
 * THREAD_P 00H / REF_XCLK 01H, INST_RETIRED ANY_P 00H, LONGEST_LAT_CACHE
 * REFERENCE 4FH / MISS 41H, BR_*_RETIRED ALL_BRANCHES 00H).
 *
 * The fixed counters (section "Fixed-function Performance Counters") count
 * one event each: IA32_FIXED_CTR0 INST_RETIRED.ANY, 1 CPU_CLK_UNHALTED.
 * THREAD (= CORE), 2 CPU_CLK_UNHALTED.REF_TSC, 3 TOPDOWN.SLOTS.  Fixed 0
 * and 1 count the same thing as architectural events 1 and 0, so they take
 * the same codes; reference cycles at TSC rate and slots have no
 * general-counter twin with the same meaning, so they take pseudo-codes
 * (0x0300, 0x0400) that a general counter refuses.
 *
 * Counter layout (the driver's): general counters 0..ngp-1, then the fixed
 * counters.  The table therefore depends on ngp, and is built per CPU by
 * intel_arch_bind(); the model "intel-arch" shows the layout of the common
 * part (4 general counters with Hyper-Threading on, 3 fixed: Sandy Bridge
 * through Skylake), all events available.
 */
#include "events.h"

#define NO_FIXED 0xffu

struct arch_event {
	uint8_t ebx_bit;        /* CPUID.0AH:EBX bit; NO_FIXED: fixed-only */
	uint8_t fixed;          /* fixed counter that counts it, or NO_FIXED */
	const char *name;
	uint32_t code;
	const char *desc;
};

/* Each name on its own line: one meaning may go by several names. */
#define ARCH_EVENTS(X) \
	X(0, 1, "unhalted-core-cycles", 0x003c, "core cycles while not halted") \
	X(0, 1, "cycles", 0x003c, "alias of unhalted-core-cycles") \
	X(0, 1, "cpu-cycles", 0x003c, "alias of unhalted-core-cycles (perf)") \
	X(1, 0, "instruction-retired", 0x00c0, "instructions retired") \
	X(1, 0, "instructions", 0x00c0, "alias of instruction-retired") \
	X(2, NO_FIXED, "unhalted-reference-cycles", 0x013c, \
	  "reference cycles while not halted (bus clock)") \
	X(2, NO_FIXED, "bus-cycles", 0x013c, \
	  "alias of unhalted-reference-cycles (perf)") \
	X(3, NO_FIXED, "llc-references", 0x4f2e, "last-level cache references") \
	X(3, NO_FIXED, "cache-references", 0x4f2e, "alias of llc-references") \
	X(4, NO_FIXED, "llc-misses", 0x412e, "last-level cache misses") \
	X(4, NO_FIXED, "cache-misses", 0x412e, "alias of llc-misses") \
	X(5, NO_FIXED, "branch-instructions-retired", 0x00c4, \
	  "branch instructions retired") \
	X(5, NO_FIXED, "branches", 0x00c4, \
	  "alias of branch-instructions-retired") \
	X(5, NO_FIXED, "branch-instructions", 0x00c4, \
	  "alias of branch-instructions-retired (perf)") \
	X(6, NO_FIXED, "mispredicted-branch-retired", 0x00c5, \
	  "mispredicted branches retired") \
	X(6, NO_FIXED, "branch-misses", 0x00c5, \
	  "alias of mispredicted-branch-retired") \
	X(7, 3, "topdown-slots", 0x01a4, "issue slots (version 5)") \
	X(0, NO_FIXED, "cpu-clk-unhalted", 0x003c, \
	  "unhalted cycles (unit masks: thread-p, ref-xclk)") \
	X(1, NO_FIXED, "inst-retired", 0x00c0, \
	  "instructions retired (unit mask: any-p)") \
	X(3, NO_FIXED, "longest-lat-cache", 0x4f2e, \
	  "last-level cache (unit masks: reference, miss)") \
	X(5, NO_FIXED, "br-inst-retired", 0x00c4, \
	  "branches retired (unit mask: all-branches)") \
	X(6, NO_FIXED, "br-misp-retired", 0x00c5, \
	  "mispredicted branches retired (unit mask: all-branches)")

/* Events only a fixed counter counts. */
#define FIXED_ONLY_EVENTS(X) \
	X(NO_FIXED, 2, "cpu-clk-unhalted-ref-tsc", INTEL_FIXED_REF_CYCLES_CODE, \
	  "reference cycles at TSC rate (fixed counter 2)") \
	X(NO_FIXED, 2, "ref-cycles", INTEL_FIXED_REF_CYCLES_CODE, \
	  "alias of cpu-clk-unhalted-ref-tsc (perf)") \
	X(NO_FIXED, 3, "slots", INTEL_FIXED_SLOTS_CODE, \
	  "issue slots, TOPDOWN.SLOTS (fixed counter 3)")

/* Extra names the fixed counters go by in the SDM and libpfm4. */
#define FIXED_NAMES(X) \
	X(NO_FIXED, 0, "inst-retired-any", 0x00c0, \
	  "instructions retired (fixed counter 0)") \
	X(NO_FIXED, 1, "cpu-clk-unhalted-thread", 0x003c, \
	  "core cycles while not halted (fixed counter 1)")

/*
 * The same events by the names libpfm4 and the SDM's event lists give
 * them, with the unit mask of each architectural event as a named unit
 * mask (SDM vol. 3B, table "UMask and Event Select Encodings for
 * Pre-Defined Architectural Performance Events": 3CH/00H core cycles,
 * 3CH/01H reference cycles, C0H/00H instructions, 2EH/4FH LLC
 * reference, 2EH/41H LLC misses, C4H/00H branches, C5H/00H branch
 * misses).  Bits are the unit-mask field's, 15:8 of the code.
 */
static const struct ev_umask clk_umasks[] = {
	{ "thread-p", 0x00, "core cycles while not halted" },
	{ "ref-xclk", 0x01, "reference cycles while not halted" },
};
static const struct ev_umask inst_umasks[] = {
	{ "any-p", 0x00, "instructions retired, any general counter" },
};
static const struct ev_umask llc_umasks[] = {
	{ "reference", 0x4f, "last-level cache references" },
	{ "miss", 0x41, "last-level cache misses" },
};
static const struct ev_umask allbr_umasks[] = {
	{ "all-branches", 0x00, "all branch instructions" },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))
const struct ev_umask_set intel_arch_umasks[] = {
	{ "cpu-clk-unhalted", clk_umasks, N(clk_umasks), false },
	{ "inst-retired", inst_umasks, N(inst_umasks), false },
	{ "longest-lat-cache", llc_umasks, N(llc_umasks), false },
	{ "br-inst-retired", allbr_umasks, N(allbr_umasks), false },
	{ "br-misp-retired", allbr_umasks, N(allbr_umasks), false },
};
const unsigned intel_arch_numasks = N(intel_arch_umasks);

#define AE(bit, fx, nm, cd, ds) { (bit), (fx), (nm), (cd), (ds) },
static const struct arch_event arch_events[] = {
	ARCH_EVENTS(AE)
};
static const struct arch_event fixed_events[] = {
	FIXED_ONLY_EVENTS(AE)
	FIXED_NAMES(AE)
};
#undef AE

#define NARCH (sizeof(arch_events) / sizeof(arch_events[0]))
#define NFIXEDEV (sizeof(fixed_events) / sizeof(fixed_events[0]))

uint32_t intel_fixed_code(unsigned i)
{
	static const uint32_t codes[INTEL_ARCH_NFIXED_MAX] = {
		0x00c0, 0x003c, INTEL_FIXED_REF_CYCLES_CODE,
		INTEL_FIXED_SLOTS_CODE,
	};

	return i < INTEL_ARCH_NFIXED_MAX ? codes[i] : 0;
}

static bool available(const struct arch_event *e, uint32_t unavail,
                      unsigned len)
{
	return e->ebx_bit < len && !(unavail & (1u << e->ebx_bit));
}

static bool fixed_ok(const struct arch_event *e, unsigned nfixed,
                     uint32_t present)
{
	return e->fixed != NO_FIXED && e->fixed < nfixed &&
	       (present & (1u << e->fixed));
}

static unsigned put(struct pmu_event *out, unsigned n,
                    const struct arch_event *e, uint32_t mask)
{
	if (n >= INTEL_ARCH_TABLE_MAX)
		return n;
	out[n].name = e->name;
	out[n].code = e->code;
	out[n].counters = mask;
	out[n].desc = e->desc;
	return n + 1;
}

unsigned intel_arch_bind(struct pmu_event *out, unsigned ngp, unsigned nfixed,
                         uint32_t fixed_present, uint32_t ebx_unavail,
                         unsigned ebx_len)
{
	uint32_t gp = (uint32_t)pmu_width_mask(ngp);
	unsigned n = 0;

	/* General counters first, then each event's fixed twin. */
	for (unsigned i = 0; i < NARCH; i++)
		if (ngp && available(&arch_events[i], ebx_unavail, ebx_len))
			n = put(out, n, &arch_events[i], gp);
	for (unsigned i = 0; i < NARCH; i++)
		if (fixed_ok(&arch_events[i], nfixed, fixed_present))
			n = put(out, n, &arch_events[i],
			        EV_CTR(ngp + arch_events[i].fixed));
	for (unsigned i = 0; i < NFIXEDEV; i++)
		if (fixed_ok(&fixed_events[i], nfixed, fixed_present))
			n = put(out, n, &fixed_events[i],
			        EV_CTR(ngp + fixed_events[i].fixed));
	return n;
}

/* ---- the model of the common part: 4 general + 3 fixed ------------------ */

#define CANON_GP 4u
#define CANON_FIXED 3u
#define CANON_FIXED_PRESENT 0x7u
/* Skylake's EBX vector is 7 long: topdown-slots (bit 7) is not there. */
#define CANON_EBX_LEN 7u

static struct pmu_event canon_events[INTEL_ARCH_TABLE_MAX];
struct pmu_event_table intel_arch_canon_table = {
	.name = "intel-arch",
	.events = canon_events,
	.count = 0,
};

/* Idempotent: writes the same values every time, so no lock is needed. */
void intel_arch_model_prepare(void)
{
	intel_arch_canon_table.count = intel_arch_bind(canon_events, CANON_GP,
	                                    CANON_FIXED, CANON_FIXED_PRESENT,
	                                    0, CANON_EBX_LEN);
}

const struct ev_model ev_model_intel_arch = {
	.name = "intel-arch",
	.desc = "Intel architectural PMU (SDM vol. 3B); 4 general + 3 fixed "
	        "shown, the driver binds the probed counts",
	.ncounters = CANON_GP + CANON_FIXED,
	.fixed = CANON_FIXED_PRESENT << CANON_GP,
	.umask_shift = 8,
	.umask_field = 0xff00u,
	.ntables = 1,
	.tables = { &intel_arch_canon_table },
	.umask_sets = intel_arch_umasks,
	.numask_sets = N(intel_arch_umasks),
	.fields = INTEL_FIELDS,
	.cmask_max = INTEL_EVTSEL_CMASK >> INTEL_EVTSEL_CMASK_SHIFT,
	.encode = events_intel_encode,
};
