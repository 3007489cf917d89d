/*
 * pmu.h - the driver interface between hwperf and one kind of PMU.
 *
 * One `struct pmu_ops` per PMU kind (Intel architectural, AMD, MIPS32
 * cores, R10000/R12000, the software PMU), chosen by probing at boot.
 * hwperf owns tasks, modes, multiplexing and 64-bit virtual counts; a
 * driver owns registers and nothing else.  The model is perfctr's:
 *
 *   - a *control set* (struct pmu_control) lists the hardware counters to
 *     use, the event and mode bits for each, and whether each counter
 *     interrupts on overflow ("i-mode") or just accumulates ("a-mode");
 *     check() validates it and computes every register value once, so
 *     context switches only copy precomputed values;
 *   - a *state* (struct pmu_state) carries a control set plus, per
 *     counter, `start` (the hardware value when counting last resumed) and
 *     `sum` (events folded in so far).  suspend() adds
 *     (now - start) masked to the counter's width into sum, so a counter
 *     that wrapped any number of times less than once per period still
 *     yields the right delta (R14);
 *   - i-mode counters start each period from `ireset`, a value the driver
 *     derives from the requested period so that the counter overflows
 *     after exactly `period` events, whatever the hardware's overflow
 *     convention (carry out of the top bit on x86, bit 31 set on MIPS).
 *
 * Counters are numbered 0..ncounters-1 in the driver's own order; a fixed
 * counter (one that counts only one event) is just a counter whose
 * allowed-event set is a single table entry.
 *
 * All ops except probe() and check() run on the CPU whose counters they
 * touch, with interrupts disabled.  None of them allocates or sleeps.
 */
#ifndef TALLY_PMU_H
#define TALLY_PMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "set.h"

/* Hardware counters one PMU may expose (Intel: up to 8 general + fixed). */
#define PMU_MAX_COUNTERS 16
/* Driver-defined global control registers (e.g. fixed-counter control). */
#define PMU_GLOBAL_REGS 4
/* Event tables one PMU may offer (e.g. architectural + model-specific). */
#define PMU_MAX_TABLES 4
#define PMU_NAME_MAX 32
#define PMU_STATUS_MAX 96
/* Size for the reason buffers filled by check() and by hwperf. */
#define PMU_REASON_MAX 128

/*
 * Mode bits: where an event is counted.  Values are the R10000 control
 * register's low bits (EXL=0, K=1, S=2, U=3) so MIPS drivers shift them
 * straight in; other drivers translate.
 */
#define PMU_MODE_X 0x1u /* EXL: exception level, transient kernel */
#define PMU_MODE_K 0x2u /* kernel */
#define PMU_MODE_S 0x4u /* supervisor (MIPS only; unused by Tally) */
#define PMU_MODE_U 0x8u /* user */
#define PMU_MODE_ALL (PMU_MODE_X | PMU_MODE_K | PMU_MODE_S | PMU_MODE_U)
/* Modes only root may ask for (R4). */
#define PMU_MODE_PRIV (PMU_MODE_X | PMU_MODE_K | PMU_MODE_S)

/* ---- event tables ------------------------------------------------------- */

/*
 * One countable event.  `code` is the driver's encoding, opaque to hwperf
 * (Intel: event select | umask << 8; MIPS: event number; R10000: the
 * IRIX number 0..31, i.e. counter * 16 + event).  `counters` has bit i set
 * when hardware counter i can count it.  One name may appear in several
 * entries with different codes and counter masks (R10000 "cycles" is event
 * 0 on counter 0 and on counter 1); resolvers take the entry whose mask
 * holds the counter being placed.
 */
struct pmu_event {
	const char *name;       /* lower case, '-' separated: "cycles" */
	uint32_t code;
	uint32_t counters;
	const char *desc;       /* one line, for `hwperf events` */
};

struct ev_umask_set;             /* kernel/events/events.h */

struct pmu_event_table {
	const char *name;       /* "intel-arch", "r10000", "soft" */
	const struct pmu_event *events;
	unsigned count;
};

/* ---- capabilities, filled by probe() ------------------------------------ */

struct pmu_counter_caps {
	uint8_t width;          /* bits that count: 8..64 */
	bool fixed;             /* counts one event only; not for raw codes */
	/* Longest i-mode period in events; 0 if the counter cannot interrupt. */
	uint64_t max_period;
	/*
	 * Whether user mode can read this counter itself, and how it names
	 * it: the value x86 rdpmc takes in ECX (Intel general counter i: i;
	 * fixed counter j: bit 30 | j; AMD counter i: i).  false
	 * (what a zeroed caps says) when only the kernel can read it, as for
	 * MIPS PerfCnt, which is CP0: the read page then refuses this PMU.
	 */
	bool user_read;
	uint32_t user_index;
};

struct pmu_caps {
	char name[PMU_NAME_MAX];        /* "intel-arch", "mips-24k", "soft" */
	/* One line, always set, also on failure:
	 * "intel-arch: not present (CPUID.0AH version 0)". */
	char status[PMU_STATUS_MAX];
	unsigned ncounters;
	struct pmu_counter_caps counter[PMU_MAX_COUNTERS];
	uint32_t modes;                 /* PMU_MODE_* the hardware can filter */
	/*
	 * Nonzero on PMUs shaped like the R10000: virtual counter i may only be
	 * placed on hardware counter i / slots_per_counter (16 there), as in
	 * the IRIX slot layout.  0: any counter the event's mask allows.
	 */
	unsigned slots_per_counter;
	bool counts;                    /* liveness-probed: events really count */
	bool overflow_irq;              /* i-mode works (an interrupt arrives) */
	/* Counts the CPU's own events (instructions, branches, caches), not
	 * only what the kernel sees: the hardware-event benchmarks need it. */
	bool cpu_events;
	/* The counters are kernel memory (ops->peek reads them), so user mode
	 * reads them through the read page alone; the clock event, being the
	 * cycle counter, it can extend from there itself. */
	bool in_memory;
	unsigned ntables;
	const struct pmu_event_table *tables[PMU_MAX_TABLES];
	/* The table entry whose event counts the cycle counter itself, the
	 * clock of time-enabled and time-running, so that its count can never
	 * exceed the time it ran; NULL if none does (hardware cycles tick at
	 * the core's rate, not the cycle counter's). */
	const struct pmu_event *clock_event;
	/* PMU_FIELD_* the driver's encode() can set in a code; 0 (and encode
	 * NULL) when the PMU has no such fields, as the software PMU and the
	 * MIPS counters. */
	uint32_t fields;
	uint32_t cmask_max;             /* largest counter mask, with the field */
	/* The unit masks the tables' events take, for names such as
	 * "inst-retired:any-p" (kernel/events/events.h); NULL: none. */
	const struct ev_umask_set *umask_sets;
	unsigned numask_sets;
};

/* Parts of an event a spec may give beside its name (perf's terms). */
#define PMU_FIELD_EVSEL 0x01u   /* a bare event-select number */
#define PMU_FIELD_UMASK 0x02u   /* unit mask */
#define PMU_FIELD_CMASK 0x04u   /* counter mask: count cycles with >= N */
#define PMU_FIELD_INV 0x08u     /* invert the counter-mask comparison */
#define PMU_FIELD_EDGE 0x10u    /* count rising edges only */

/* What encode() is asked to build: code with the given fields replaced. */
struct pmu_encoding {
	uint32_t code;          /* a table or raw code; 0 with PMU_FIELD_EVSEL */
	uint32_t fields;        /* PMU_FIELD_*: which of the below are given */
	uint32_t evsel;
	uint32_t umask;
	uint32_t cmask;         /* INV and EDGE carry no value */
};

/* ---- control sets --------------------------------------------------------- */

#define PMU_CTR_IMODE 0x1u      /* interrupt after `period` events */

/* One programmed counter.  hwperf fills the inputs; check() the outputs. */
struct pmu_counter_ctl {
	/* inputs */
	uint32_t hw;            /* hardware counter index (perfctr's pmc_map) */
	uint32_t event;         /* struct pmu_event.code, or a raw code */
	uint32_t modes;         /* PMU_MODE_*, at least one */
	uint32_t flags;         /* PMU_CTR_* */
	uint64_t period;        /* i-mode: events to overflow, 1..max_period */
	/* outputs of check(), refreshed by ireload() */
	uint64_t evtsel;        /* value of this counter's control register */
	uint64_t ireset;        /* i-mode: counter value that starts a period */
};

struct pmu_control {
	unsigned n;                     /* slots 0..n-1 are in use */
	struct pmu_counter_ctl ctr[PMU_MAX_COUNTERS];
	uint64_t global[PMU_GLOBAL_REGS]; /* check() output, driver-defined */
};

/* Per-slot running state; index = slot in pmu_control, not hw counter. */
struct pmu_counter_state {
	uint64_t start;         /* hardware value at resume, masked to width */
	uint64_t sum;           /* events folded in by suspend() */
};

struct pmu_state {
	struct pmu_control ctl;
	struct pmu_counter_state ctr[PMU_MAX_COUNTERS];
	uint64_t cycles_start;  /* read_cycles() at resume */
	uint64_t cycles_sum;    /* cycles while resumed */
	/* Set by hwperf before resume(): the CPU this state runs on.  Drivers
	 * of per-CPU hardware ignore it; the software PMU picks its bank. */
	unsigned cpu;
	/* Driver-private (e.g. to skip rewriting unchanged control registers);
	 * hwperf zeroes it whenever it changes ctl. */
	uint32_t drv_cache;
};

/* ---- the operations ------------------------------------------------------- */

struct pmu_ops {
	const char *name;

	/*
	 * Detect the PMU and fill caps (all fields, status always).  Returns 0
	 * when this kind of PMU is present -- even if it does not count, which
	 * caps->counts reports honestly -- or -ENODEV.
	 */
	int (*probe)(struct pmu_caps *caps);

	/*
	 * Validate a control set and compute evtsel, ireset and global[].
	 * global is true for system-wide (SYSTEM mode) sets.  Refuses with
	 * -EINVAL and a one-line reason: reserved bits in a code, an event not
	 * countable on its hw counter, a hw counter used twice or out of range,
	 * no mode bits or modes the PMU cannot filter, a bad period.
	 */
	int (*check)(struct pmu_control *ctl, bool global,
	             char *reason, size_t reason_len);

	/*
	 * Start counting: write control registers; write each i-mode counter
	 * with its start value, so an interrupted period continues where
	 * suspend() left it (after identify_overflow() or ireload(), start is
	 * ireset); read each a-mode counter into start; set cycles_start.
	 */
	void (*resume)(struct pmu_state *st);

	/*
	 * Stop counting: disable the counters, then for each slot add
	 * (now - start) masked to the width into sum, and record now as start;
	 * add the elapsed cycles into cycles_sum.
	 */
	void (*suspend)(struct pmu_state *st);

	/*
	 * Optional (NULL: hwperf suspends and resumes instead).  Fold without
	 * stopping: for each slot add (now - start) masked to the width into
	 * sum and record now as start; add the elapsed cycles into
	 * cycles_sum and set cycles_start; the counters count on, their
	 * periods untouched.  hwperf samples a set without thresholds this
	 * way (every period its counter's longest, so there is no period to
	 * restart): the sums are those suspend() would give.
	 */
	void (*sync)(struct pmu_state *st);

	/*
	 * Optional (NULL: hwperf calls suspend(out), then resume(in)).  A
	 * context switch on this CPU: suspend(out) and resume(in) as one, the
	 * sums of out and the starts of in exactly those the two calls would
	 * give, without undoing what in programs again (both states' cpu is
	 * this CPU's).
	 */
	void (*switch_sets)(struct pmu_state *out, struct pmu_state *in);

	/*
	 * Optional (NULL: hwperf calls suspend(st), then replace(st, arg),
	 * then resume(st) when replace returned 0).  A rotation on this CPU
	 * (R13): st stops, replace folds its sums and writes st's next
	 * control (placed, checked, reloaded), and st starts again, the sums
	 * replace finds and the starts after exactly those of the three
	 * steps, without undoing what starts again.  When replace returns
	 * nonzero st stays stopped, as suspend() leaves it.  replace touches
	 * no counter and reports no kernel event.
	 */
	int (*rotate)(struct pmu_state *st,
	              int (*replace)(struct pmu_state *st, void *arg), void *arg);

	/*
	 * After suspend(), in the overflow interrupt: return a mask of slots
	 * (bit = slot index) whose i-mode counter overflowed, set their start
	 * to ireset, and clear the hardware's overflow status so the interrupt
	 * does not fire again.  Events past the overflow (skid) are already in
	 * sum; hwperf accounts for them when it picks the next period.  May be
	 * called with ctl.n == 0 (nothing of hwperf's is counting): then it
	 * only clears the overflow status of a spurious interrupt.
	 */
	uint32_t (*identify_overflow)(struct pmu_state *st);

	/*
	 * hwperf changed ctl.ctr[].period of i-mode slots (it does so to keep
	 * thresholds exact across skid and across periods longer than the
	 * counter): recompute ireset for every i-mode slot and set its
	 * start = ireset, so the next resume() begins a fresh period.  Called
	 * only between suspend() and resume(), and after every check().
	 */
	void (*ireload)(struct pmu_state *st);

	/* The free-running cycle counter (TSC, CP0 Count to 64 bits). */
	uint64_t (*read_cycles)(void);

	/*
	 * Build the code of an event given by parts (perf's
	 * cpu/event=..,umask=../, libpfm's EVENT:UMASK:c=N:i=1): the driver
	 * knows where each field lives.  Returns 0 and *code, or -EINVAL with
	 * a reason naming the part that does not fit.  NULL when caps.fields
	 * is 0.  No register is touched.
	 */
	int (*encode)(const struct pmu_encoding *enc, uint32_t *code,
	              char *reason, size_t reason_len);

	/* Optional, NULL when the driver has no such thing: */

	/* The raw value of counter hw on cpu (caps.in_memory drivers). */
	uint64_t (*peek)(unsigned cpu, unsigned hw);
	/* Change the number of counters and their width at run time, with no
	 * set loaded on any CPU (hwperf checks); -EINVAL, changing nothing,
	 * when out of the driver's range.  The caller probes again. */
	int (*reshape)(unsigned ncounters, unsigned width);
	/* The kernel's own events (pmu_kevent.h), for drivers that count them;
	 * called only for kinds the driver said it wants (pmu_kevents_want). */
	void (*kernel_event)(unsigned kind, uint32_t mode, uint64_t n, uintptr_t pc);
	void (*mode_switch)(uint32_t new_mode, uint64_t now, uintptr_t pc);
	/* cpu: the id (arch_cpu_id) of the CPU that entered, which the
	 * kernel's entry has at hand: the driver's common entry then finds
	 * its state without a call of its own.  The user cycles that CPU
	 * held (pmu_kevent.h) belong before this span: the driver takes
	 * them with it. */
	void (*user_span)(uint64_t left, uint64_t back, uintptr_t pc, unsigned cpu);
};

/*
 * Drivers register themselves where they live:
 *
 *	PMU_DRIVER(intel_arch, PMU_RANK_ARCH, &intel_arch_ops);
 *
 * At boot hwperf probes every registered driver and uses the highest-ranked
 * one that is present and counts; if none counts it falls back to the
 * software PMU (rank PMU_RANK_SOFT), and says so on the console.
 */
#define PMU_RANK_SOFT 0
#define PMU_RANK_ARCH 10        /* architectural / generic core PMU */
#define PMU_RANK_MODEL 20       /* model-specific driver beats generic */

struct pmu_driver {
	const char *name;
	int rank;
	const struct pmu_ops *ops;
	/* Once at boot, before probe: read the driver's boot arguments.
	 * NULL for none.  Kept out of ops so host tests use ops alone. */
	void (*boot)(void);
};

#define PMU_DRIVER(dname, drank, dops) \
	static const struct pmu_driver pmu_driver_##dname = { \
		.name = #dname, .rank = (drank), .ops = (dops) }; \
	SET_ADD(pmu_drivers, dname, &pmu_driver_##dname)

#define PMU_DRIVER_BOOT(dname, drank, dops, dboot) \
	static const struct pmu_driver pmu_driver_##dname = { \
		.name = #dname, .rank = (drank), .ops = (dops), .boot = (dboot) }; \
	SET_ADD(pmu_drivers, dname, &pmu_driver_##dname)

SET_DECLARE(pmu_drivers, const struct pmu_driver);

/*
 * The overflow interrupt (kernel/pmu/core.c, handled by hwperf): arch trap code calls it
 * when the PMU interrupts, and the software PMU calls it the moment one of
 * its i-mode counters overflows.  pc is the interrupted PC, mode the
 * PMU_MODE_* bit the CPU was in.  Interrupts are disabled.  Returns false
 * when the active driver found no overflowed counter (a spurious
 * interrupt, which the arch code counts); true when one overflowed, or
 * when hwperf was busy on this CPU and will look once it unlocks.
 */
bool pmu_interrupt(uintptr_t pc, uint32_t mode);
/* Who handles it: hwperf, once at init (NULL: every interrupt spurious). */
void pmu_set_overflow_handler(bool (*handler)(uintptr_t pc, uint32_t mode));
/* The driver in use: its kernel-event hooks get pmu_kevent.h's events. */
void pmu_set_active(const struct pmu_ops *ops);

/* ---- helpers for drivers and hwperf --------------------------------------- */

/* All ones in the low width bits; width 64 is legal. */
static inline uint64_t pmu_width_mask(unsigned width)
{
	return width >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << width) - 1);
}

/* Events between two readings of a width-bit counter (wraps included). */
static inline uint64_t pmu_delta(uint64_t start, uint64_t now, unsigned width)
{
	return (now - start) & pmu_width_mask(width);
}

/*
 * For drivers that overflow on carry out of the top bit: the value from
 * which a width-bit counter wraps after exactly period events.
 */
static inline uint64_t pmu_ireset_wrap(uint64_t period, unsigned width)
{
	return (0 - period) & pmu_width_mask(width);
}

#endif
