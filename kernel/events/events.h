/*
 * events.h - event tables by PMU model, and placing events on counters.
 *
 * Portable: compiled on both machines, so any model's table can be listed
 * and any set of events dispatched anywhere (`events --model 74k`).  The
 * drivers put these same tables into pmu_caps; hwperf resolves names
 * through them.
 *
 * Names follow what people already type: the libpfm4 / vendor names in
 * lower case with '-' ("instruction-retired", "dcache-misses"), Linux
 * perf's ("instructions", "branch-misses"), and on every model the generic
 * aliases cycles, instructions, branches, branch-misses, cache-references
 * and cache-misses where the model has such an event.  Lookups ignore case
 * and treat '_' as '-', so "INSTRUCTION_RETIRED" finds the same entry.
 *
 * Dispatch follows libpfm's pfm_dispatch_events(3): a list of event specs
 * ("name[:umask[:umask...]]") becomes one hardware counter and one code per
 * event, or a named error (EV_ERR_*).  The counters come from place.h, the
 * engine hwperf places its events with, so a set that fits is placed
 * exactly as hwperf will, and a set that does not shows which events
 * hwperf puts on first and which wait their turn.
 */
#ifndef TALLY_EVENTS_H
#define TALLY_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmu.h"

/* Counter masks for the tables; dispatch clips them to the counters present. */
#define EV_ANY 0xffffu          /* any counter of the PMU */
#define EV_EVEN 0x5555u         /* MIPS: counters 0, 2, ... */
#define EV_ODD 0xaaaau          /* MIPS: counters 1, 3, ... */
#define EV_CTR(n) (1u << (n))

/* One unit mask: bits ORed into the event's unit-mask field. */
struct ev_umask {
	const char *name;
	uint32_t bits;
	const char *desc;
};

/*
 * The unit masks one event takes.  An event listed here takes its umask
 * field from the spec when the spec names any; otherwise from the table
 * code (the default), unless `required`, when a spec must name one.
 */
struct ev_umask_set {
	const char *event;
	const struct ev_umask *umasks;
	unsigned count;
	bool required;
};

struct ev_model {
	const char *name;               /* "74k", "intel-arch", "r10000" */
	const char *desc;
	unsigned ncounters;             /* counters of the usual part */
	uint32_t fixed;                 /* counters tied to one event */
	unsigned slots_per_counter;     /* as pmu_caps (R10000: 16) */
	unsigned umask_shift;           /* where unit masks go in a code */
	uint32_t umask_field;           /* that field, in code bits */
	unsigned ntables;
	const struct pmu_event_table *tables[PMU_MAX_TABLES];
	const struct ev_umask_set *umask_sets;
	unsigned numask_sets;
	/* What its driver builds codes from (PMU_FIELD_*), the largest
	 * counter mask, and the driver's encoder itself (encode.c): the
	 * same function the driver's pmu_ops.encode is, so a model resolves
	 * a spec as its hardware would without the hardware.  0 / NULL: the
	 * PMU takes names and raw codes only (MIPS, R10000). */
	uint32_t fields;
	uint32_t cmask_max;
	int (*encode)(const struct pmu_encoding *enc, uint32_t *code,
	              char *reason, size_t reason_len);
};

/* ---- the registry (models.c) ------------------------------------------- */

const struct ev_model *events_model_find(const char *name);
unsigned events_model_count(void);
const struct ev_model *events_model_at(unsigned i);

/*
 * The pmu_caps a model would probe as: its name, tables, unit masks,
 * counters (fixed ones marked), u and k modes, and its fields.  What
 * `events --model NAME --resolve SPEC` parses a spec against.
 */
void events_caps_of_model(const struct ev_model *m, struct pmu_caps *caps);

/* Name comparison the tables use: case-blind, '_' equal to '-'. */
bool events_name_eq(const char *a, const char *b);

/* ---- dispatch (dispatch.c) ----------------------------------------------- */

/* The errors of pfm_dispatch_events(3) that apply here, by the same names. */
enum ev_err {
	EV_OK = 0,
	EV_ERR_INVAL,           /* bad argument: no events, empty name, ... */
	EV_ERR_NOTFOUND,        /* no event of that name on this model */
	EV_ERR_UMASK,           /* unknown, missing or unwanted unit mask */
	EV_ERR_TOOMANY,         /* more events than usable counters */
	EV_ERR_NOASSIGN,        /* counter constraints cannot all be met */
	EV_ERR_EVTMANY,         /* one event given more often than it fits */
};

/* "TOOMANY", "NOASSIGN", ... */
const char *events_strerror(enum ev_err err);

/* What to place events on: a model's tables, or a probed PMU's. */
struct ev_target {
	unsigned ntables;
	const struct pmu_event_table *const *tables;
	const struct ev_umask_set *umask_sets;
	unsigned numask_sets;
	unsigned umask_shift;
	uint32_t umask_field;
	unsigned ncounters;
	uint32_t fixed;                 /* counters tied to one event */
	uint32_t unavail;               /* counters not to use (pfp_unavail_pmcs) */
};

void events_target_of_model(const struct ev_model *m, struct ev_target *t);
/* The PMU a driver probed, as hwperf sees it, with its unit masks. */
void events_target_of_caps(const struct pmu_caps *caps, struct ev_target *t);

struct ev_assign {
	bool placed;                    /* false: waits (hwperf multiplexes it) */
	unsigned hw;                    /* hardware counter, when placed */
	uint32_t code;                  /* pmu_event.code with unit masks */
	const char *name;               /* the table entry's name */
};

/* At most this many events in one set (hwperf's virtual counters). */
#define EV_DISPATCH_MAX 32

/*
 * Place n events (specs) on counters with the engine of place.h (rank 0
 * for all: most constrained first, then input order), exactly: a set is
 * refused with NOASSIGN only if no placement exists.  out[i] is event
 * i's placement.  When every spec resolves but the set does not fit
 * (TOOMANY, NOASSIGN, EVTMANY), out[] still holds the events that go on
 * together -- what hwperf counts first when it multiplexes the set -- and
 * the rest have placed false.  On error, reason names the event and what
 * is wrong.
 */
enum ev_err events_dispatch(const struct ev_target *t,
                            const char *const *specs, unsigned n,
                            struct ev_assign *out, char *reason,
                            size_t reason_len);

/* ---- resolving a spec on a model (resolve.c) ---------------------------- */

struct ev_resolved {
	unsigned vi;                    /* virtual counter the spec gave it */
	uint32_t code;                  /* what the driver would program */
	uint32_t counters;              /* hardware counters that count it */
	uint32_t modes;                 /* PMU_MODE_* */
	const char *name;               /* table entry, or "raw" */
};

/*
 * spec (hwperf's syntax: libpfm4, perf terms, raw codes, modes) against
 * model m as if it were the active PMU: hwperf's parser and lookup, then
 * m->encode for unit masks and fields.  0 and out[0..*n-1], or -EINVAL
 * with reason ("EINVAL: unit mask 'x' of ...") naming the part.
 */
int events_resolve(const struct ev_model *m, const char *spec,
                   struct ev_resolved *out, unsigned max, unsigned *n,
                   char *reason, size_t reason_len);

/* ---- tables (one file per model family) ---------------------------------- */

/* intel_arch.c: the architectural events and fixed counters, SDM vol. 3. */
#define INTEL_ARCH_NEVENTS 12
#define INTEL_ARCH_NFIXED_MAX 4
/* Pseudo-codes of the fixed-only events (not valid on general counters). */
#define INTEL_FIXED_REF_CYCLES_CODE 0x0300u
#define INTEL_FIXED_SLOTS_CODE 0x0400u
/*
 * Build the event table for a probed CPU: general counters 0..ngp-1,
 * fixed counters ngp..ngp+nfixed-1; events whose CPUID.0AH:EBX bit says
 * "not available" (or past the EBX length) are left out.  out needs
 * INTEL_ARCH_TABLE_MAX entries.  Returns the number of entries.
 */
#define INTEL_ARCH_TABLE_MAX 40
/* The unit masks of the SDM's architectural events, by their libpfm4
 * names (inst-retired:any-p, longest-lat-cache:miss, ...). */
extern const struct ev_umask_set intel_arch_umasks[];
extern const unsigned intel_arch_numasks;
unsigned intel_arch_bind(struct pmu_event *out, unsigned ngp, unsigned nfixed,
                         uint32_t fixed_present, uint32_t ebx_unavail,
                         unsigned ebx_len);
/* Code counted by fixed counter i (0..3), e.g. 0xc0 for fixed 0. */
uint32_t intel_fixed_code(unsigned i);
/* Fill the "intel-arch" model's table (the registry calls it). */
void intel_arch_model_prepare(void);

extern const struct ev_model ev_model_intel_arch;
/* The "intel-arch" model's table, bound by intel_arch_model_prepare(). */
extern struct pmu_event_table intel_arch_canon_table;

/* encode.c: the drivers' encoders, portable so models can use them. */
int events_intel_encode(const struct pmu_encoding *enc, uint32_t *code,
                        char *reason, size_t reason_len);
int events_amd_encode(const struct pmu_encoding *enc, uint32_t *code,
                      char *reason, size_t reason_len);
/* IA32_PERFEVTSELx fields a code carries (SDM vol. 3B, "Architectural
 * Performance Monitoring Version 1"). */
#define INTEL_EVTSEL_EVENT 0x000000ffu
#define INTEL_EVTSEL_UMASK 0x0000ff00u
#define INTEL_EVTSEL_UMASK_SHIFT 8
#define INTEL_EVTSEL_EDGE 0x00040000u
#define INTEL_EVTSEL_INV 0x00800000u
#define INTEL_EVTSEL_CMASK 0xff000000u
#define INTEL_EVTSEL_CMASK_SHIFT 24
#define INTEL_FIELDS (PMU_FIELD_EVSEL | PMU_FIELD_UMASK | PMU_FIELD_CMASK | \
                      PMU_FIELD_INV | PMU_FIELD_EDGE)

/*
 * intel_skl.c: the model-specific core events of the Skylake-era cores
 * (Skylake, Kaby Lake, Coffee Lake, Comet Lake client; Skylake-SP),
 * which the intel-arch driver adds to the architectural table when
 * CPUID says family 6 and one of their model numbers.
 */
struct intel_model {
	const char *name;               /* "skylake" */
	const struct pmu_event_table *table;    /* counters: general ones,
	                                         * bit i = general counter i */
	const struct ev_umask_set *umask_sets;  /* the architectural events'
	                                         * unit masks included */
	unsigned numask_sets;
};
/* The model of a CPUID family/model (DisplayFamily, DisplayModel), or NULL. */
const struct intel_model *intel_model_of(unsigned family, unsigned model);
#define INTEL_MODEL_TABLE_MAX 128
/* out[] gets the model's events on general counters 0..ngp-1 only (fixed
 * counters follow the general ones in the driver's numbering).  Returns
 * the count. */
unsigned intel_model_bind(const struct intel_model *m, struct pmu_event *out,
                          unsigned max, unsigned ngp);
extern const struct ev_model ev_model_intel_skylake;
void intel_skl_model_prepare(void);
/*
 * amd.c: AMD codes.  PerfEvtSel (APM vol. 2, "Performance Event-Select
 * Registers") has EventSelect[11:8] at bits 35:32, out of reach of a 32-bit
 * code, so Tally's AMD code moves it to bits 19:16, where PerfEvtSel has
 * the driver-owned USR, OS, Edge and reserved bits; edge goes to bit 20.
 */
#define AMD_CODE_EVENT_LO_MASK 0x000000ffu
#define AMD_CODE_UMASK_SHIFT 8
#define AMD_CODE_UMASK_MASK 0x0000ff00u
#define AMD_CODE_EVENT_HI_SHIFT 16
#define AMD_CODE_EVENT_HI_MASK 0x000f0000u
#define AMD_CODE_EDGE 0x00100000u
#define AMD_CODE_INV 0x00800000u
#define AMD_CODE_CMASK_MASK 0xff000000u
#define AMD_CODE_CMASK_SHIFT 24
/* EventSelect is 12 bits; bits 11:8 go to AMD_CODE_EVENT_HI. */
#define AMD_EVSEL_MAX 0xfffu
#define AMD_EVSEL_HI_SHIFT 8
#define AMD_FIELD8_MAX 0xffu
#define AMD_CODE_VALID (AMD_CODE_EVENT_LO_MASK | AMD_CODE_UMASK_MASK | \
                        AMD_CODE_EVENT_HI_MASK | AMD_CODE_EDGE | \
                        AMD_CODE_INV | AMD_CODE_CMASK_MASK)

extern const struct ev_model ev_model_amd_legacy;
extern const struct ev_model ev_model_amd_core;
extern const struct ev_model ev_model_amd_fam19h;
extern const struct pmu_event_table amd_fam10h_table;
extern const struct pmu_event_table amd_fam17h_table;
extern const struct pmu_event_table amd_fam19h_table;
extern const struct ev_umask_set amd_fam10h_umasks[];
extern const unsigned amd_fam10h_numasks;
extern const struct ev_umask_set amd_fam17h_umasks[];
extern const unsigned amd_fam17h_numasks;
extern const struct ev_umask_set amd_fam19h_umasks[];
extern const unsigned amd_fam19h_numasks;
/* The table model of an AMD family: 10h and before amd-legacy's, 17h
 * amd-core's (Zen, Zen 2), 19h and later amd-fam19h's (Zen 3, Zen 4). */
const struct ev_model *amd_model_of_family(unsigned family);

extern const struct ev_model ev_model_mips_24k;
extern const struct ev_model ev_model_mips_34k;
extern const struct ev_model ev_model_mips_74k;
extern const struct ev_model ev_model_mips_1004k;
extern const struct ev_model ev_model_mips_interaptiv;
extern const struct ev_model ev_model_mips_p5600;
extern const struct pmu_event_table mips_24k_table;
extern const struct pmu_event_table mips_34k_table;
extern const struct pmu_event_table mips_74k_table;
extern const struct pmu_event_table mips_1004k_table;
extern const struct pmu_event_table mips_interaptiv_table;
extern const struct pmu_event_table mips_p5600_table;

extern const struct ev_model ev_model_r10000;
extern const struct ev_model ev_model_r12000;
extern const struct pmu_event_table r10000_table;
extern const struct pmu_event_table r12000_table;

#endif
