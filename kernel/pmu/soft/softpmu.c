/*
 * softpmu.c - the software PMU driver (see softpmu.h).
 *
 * Each CPU has a bank of counters that behave like registers: a value
 * masked to the width, a control word, an overflow status bit.  Adding n
 * events walks the counter wrap by wrap; at each wrap of an interrupt-mode
 * counter the "interrupt" (pmu_interrupt) runs before the rest is added,
 * exactly as a precise hardware PMU would deliver it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "pmu_kevent.h"
#include "soft_regs.h"

#define ANY_COUNTER 0xffffu

_Static_assert(SOFTPMU_COUNTERS_MAX == PMU_MAX_COUNTERS,
	       "softpmu.h's limit is the driver interface's");

/*
 * The enabled counters that count cycles, by the mode they count them
 * in: one 16-bit mask per PMU_MODE_* bit (X, K, S, U; mode_slot), so a
 * cycle credit goes straight to its counters instead of testing every
 * enabled counter's control.  check() finds it per control, a global
 * register (SOFTPMU_GLOBAL_CYCLES) that resume() copies whole.
 */
union soft_cycles {
	uint64_t all;
	uint16_t in[4];
};
_Static_assert(sizeof(union soft_cycles) == sizeof(uint64_t), "one global register");
_Static_assert(PMU_MAX_COUNTERS <= 16, "a counter mask fits 16 bits");
_Static_assert(SOFTPMU_MODES <= 0xfu, "every soft mode has its mask");

/* The mask of mode, one PMU_MODE_* bit (the mode the CPU is or was in:
 * every caller's): X 1, K 2, S 4, U 8 give 0, 1, 2, 3 (4 - 1).  No
 * count of trailing zeroes, which MIPS32 makes from clz in four steps.
 * Kept in range whatever it is given. */
_Static_assert(PMU_MODE_X == 1u && PMU_MODE_K == 2u && PMU_MODE_S == 4u &&
               PMU_MODE_U == 8u, "mode_slot's arithmetic");
static inline unsigned mode_slot(uint32_t mode)
{
	return ((mode >> 1) - (mode >> 3)) & 3u;
}

struct soft_ctr {
	uint64_t value;
	uint32_t sel;           /* SOFTPMU_SEL_* */
};

struct soft_bank {
	struct soft_ctr ctr[PMU_MAX_COUNTERS];
	uint32_t ovf;           /* overflow status, bit = hw counter */
	uint32_t mode;          /* PMU_MODE_* the CPU is in */
	uint64_t since;         /* cycles credited up to here */
	uint32_t kinds;         /* pmu_kevent kinds its enabled counters count */
	uint32_t on;            /* bit = hw counter with SOFTPMU_SEL_ENABLE */
	union soft_cycles cycles; /* counters counting cycles, by mode */
};

static uint64_t no_clock(void)
{
	return 0;
}

static unsigned cpu_zero(void)
{
	return 0;
}

static struct softpmu_config cfg = {
	.ncounters = SOFTPMU_COUNTERS_DEFAULT,
	.width = SOFTPMU_WIDTH_DEFAULT,
	.clock = no_clock,
	.this_cpu = cpu_zero,
};
static struct soft_bank banks[SOFTPMU_MAX_CPUS];
/* Banks with kinds != 0: what tell_wanted has to look at. */
static uint32_t banks_counting;
/* pmu_width_mask(cfg.width), kept with cfg: every event added needs it. */
static uint64_t wmask = 0xffffffffu;
_Static_assert(SOFTPMU_WIDTH_DEFAULT == 32, "wmask starts as the default width's");

static const struct pmu_event soft_events[] = {
	{ "cycles", SOFTPMU_CYCLES, ANY_COUNTER,
	  "cycle-counter time in the counted modes" },
	{ "syscalls", SOFTPMU_SYSCALLS, ANY_COUNTER, "system calls" },
	{ "csw", SOFTPMU_CSW, ANY_COUNTER, "context switches" },
	{ "csw-vol", SOFTPMU_CSW_VOL, ANY_COUNTER,
	  "voluntary context switches" },
	{ "csw-invol", SOFTPMU_CSW_INVOL, ANY_COUNTER,
	  "involuntary context switches (preemption)" },
	{ "faults", SOFTPMU_FAULTS, ANY_COUNTER, "page faults" },
	{ "tlb-refills", SOFTPMU_TLB_REFILLS, ANY_COUNTER,
	  "TLB refill exceptions" },
	{ "irqs", SOFTPMU_IRQS, ANY_COUNTER, "device interrupts" },
	{ "ticks", SOFTPMU_TICKS, ANY_COUNTER, "timer ticks" },
	{ "signals", SOFTPMU_SIGNALS, ANY_COUNTER, "signals delivered" },
};

const struct pmu_event_table softpmu_table = {
	.name = "soft",
	.events = soft_events,
	.count = sizeof(soft_events) / sizeof(soft_events[0]),
};

/* The kernel-event kind each soft event counts (pmu_kevent.h). */
static uint32_t kinds_of(uint32_t ev)
{
	switch (ev) {
	case SOFTPMU_CYCLES: return PMU_KEV_BIT(PMU_KEV_CYCLES);
	case SOFTPMU_SYSCALLS: return PMU_KEV_BIT(PMU_KEV_SYSCALLS);
	case SOFTPMU_CSW:
		return PMU_KEV_BIT(PMU_KEV_CSW_VOL) | PMU_KEV_BIT(PMU_KEV_CSW_INVOL);
	case SOFTPMU_CSW_VOL: return PMU_KEV_BIT(PMU_KEV_CSW_VOL);
	case SOFTPMU_CSW_INVOL: return PMU_KEV_BIT(PMU_KEV_CSW_INVOL);
	case SOFTPMU_FAULTS: return PMU_KEV_BIT(PMU_KEV_FAULTS);
	case SOFTPMU_TLB_REFILLS: return PMU_KEV_BIT(PMU_KEV_TLB_REFILLS);
	case SOFTPMU_IRQS: return PMU_KEV_BIT(PMU_KEV_IRQS);
	case SOFTPMU_TICKS: return PMU_KEV_BIT(PMU_KEV_TICKS);
	case SOFTPMU_SIGNALS: return PMU_KEV_BIT(PMU_KEV_SIGNALS);
	default: return 0;
	}
}

/* The soft event a kernel-event kind is (the reverse of kinds_of). */
static const uint8_t event_of_kind[PMU_KEV_COUNT] = {
	[PMU_KEV_CYCLES] = SOFTPMU_CYCLES,
	[PMU_KEV_SYSCALLS] = SOFTPMU_SYSCALLS,
	[PMU_KEV_CSW_VOL] = SOFTPMU_CSW_VOL,
	[PMU_KEV_CSW_INVOL] = SOFTPMU_CSW_INVOL,
	[PMU_KEV_FAULTS] = SOFTPMU_FAULTS,
	[PMU_KEV_TLB_REFILLS] = SOFTPMU_TLB_REFILLS,
	[PMU_KEV_IRQS] = SOFTPMU_IRQS,
	[PMU_KEV_TICKS] = SOFTPMU_TICKS,
	[PMU_KEV_SIGNALS] = SOFTPMU_SIGNALS,
};

/* What the enabled counters of every bank count, for the kernel's
 * hooks: told whenever a bank's counters are loaded or unloaded (each
 * bank keeps its own kinds, so this is one word per CPU). */
static void tell_wanted(void)
{
	uint32_t kinds = 0;

	for (uint32_t m = banks_counting; m; m &= m - 1)
		kinds |= banks[__builtin_ctz(m)].kinds;
	pmu_kevents_want(kinds);
}

/* The kinds of bank i changed: out of line, the rare case. */
static __attribute__((noinline)) void bank_kinds_changed(unsigned i, uint32_t kinds)
{
	uint32_t bit = 1u << i;

	banks[i].kinds = kinds;
	banks_counting = kinds ? banks_counting | bit : banks_counting & ~bit;
	tell_wanted();
}

/* The kinds of bank i (every resume and suspend).  A switch or a
 * rotation between sets counting the same kinds (two tasks counting
 * cycles) leaves every bank's kinds and so the union as they were:
 * nothing to tell, and no call (inline). */
static inline void bank_kinds(unsigned i, uint32_t kinds)
{
	if (banks[i].kinds != kinds)
		bank_kinds_changed(i, kinds);
}

static bool config_valid(unsigned ncounters, unsigned width)
{
	return ncounters >= SOFTPMU_COUNTERS_MIN &&
	       ncounters <= SOFTPMU_COUNTERS_MAX &&
	       width >= SOFTPMU_WIDTH_MIN && width <= SOFTPMU_WIDTH_MAX;
}

int softpmu_configure(const struct softpmu_config *c)
{
	if (!config_valid(c->ncounters, c->width))
		return -EINVAL;
	cfg = *c;
	wmask = pmu_width_mask(cfg.width);
	if (!cfg.clock)
		cfg.clock = no_clock;
	if (!cfg.this_cpu)
		cfg.this_cpu = cpu_zero;
	memset(banks, 0, sizeof(banks));
	banks_counting = 0;
	for (unsigned i = 0; i < SOFTPMU_MAX_CPUS; i++) {
		banks[i].mode = PMU_MODE_K;
		banks[i].since = cfg.clock();
	}
	tell_wanted();
	return 0;
}

void softpmu_get_config(struct softpmu_config *out)
{
	*out = cfg;
}

/* Registers go back to power-on state; the mode each CPU is in and the
 * cycles credited so far are facts about the CPU, not the counters. */
int softpmu_reconfigure(unsigned ncounters, unsigned width)
{
	if (!config_valid(ncounters, width))
		return -EINVAL;
	cfg.ncounters = ncounters;
	cfg.width = width;
	wmask = pmu_width_mask(width);
	for (unsigned i = 0; i < SOFTPMU_MAX_CPUS; i++) {
		memset(banks[i].ctr, 0, sizeof(banks[i].ctr));
		banks[i].ovf = 0;
		banks[i].kinds = 0;
		banks[i].on = 0;
		banks[i].cycles.all = 0;
	}
	banks_counting = 0;
	tell_wanted();
	return 0;
}

static uint64_t mask(void)
{
	return wmask;
}

static struct soft_bank *this_bank(void)
{
	return &banks[cfg.this_cpu() % SOFTPMU_MAX_CPUS];
}

uint64_t softpmu_peek(unsigned cpu, unsigned hw)
{
	return banks[cpu % SOFTPMU_MAX_CPUS].ctr[hw % PMU_MAX_COUNTERS].value;
}

/* Does a counter programmed with sel count event ev reported in mode?
 * Tested in place, without shifting sel: the mode against the mode
 * field, then enable and event as one masked compare (a cycle credit
 * per counter: two tests where there were three, and no shift). */
static bool counts(uint32_t sel, enum softpmu_event ev, uint32_t mode)
{
	uint32_t key = sel & (SOFTPMU_SEL_ENABLE | SOFTPMU_SEL_EVENT_MASK);

	if (!(sel & (mode << SOFTPMU_SEL_MODE_SHIFT)))
		return false;
	return key == (SOFTPMU_SEL_ENABLE | (uint32_t)ev) ||
	       (key == (SOFTPMU_SEL_ENABLE | SOFTPMU_CSW) &&
	        (ev == SOFTPMU_CSW_VOL || ev == SOFTPMU_CSW_INVOL));
}

/*
 * Add n events to counter hw, wrap by wrap.  The interrupt may reprogram
 * the counter (new value, even a different event), so it is looked at
 * afresh after every wrap.
 */
static void add_events(struct soft_bank *b, unsigned hw, enum softpmu_event ev,
                       uint32_t mode, uint64_t n, uintptr_t pc)
{
	while (n) {
		struct soft_ctr *c = &b->ctr[hw];
		uint64_t room = mask() - c->value;

		if (!counts(c->sel, ev, mode))
			return;
		if (n <= room) {
			c->value += n;
			return;
		}
		n -= room + 1;
		c->value = 0;
		b->ovf |= 1u << hw;
		if (c->sel & SOFTPMU_SEL_INT)
			pmu_interrupt(pc, mode);
	}
}

/*
 * Counter by counter upwards, the enabled ones only.  An interrupt may
 * load another set midway: the enabled mask is read again before each
 * counter, so a counter it enables above this one still gets the events,
 * as a scan of every counter would give it.
 */
static __attribute__((noinline)) void broadcast_from(struct soft_bank *b, unsigned first,
                                                     enum softpmu_event ev, uint32_t mode,
                                                     uint64_t n, uintptr_t pc)
{
	uint32_t above = ~((1u << first) - 1u);
	uint32_t m;

	while ((m = b->on & above) != 0) {
		unsigned hw = (unsigned)__builtin_ctz(m);

		above = ~((2u << hw) - 1u);
		add_events(b, hw, ev, mode, n, pc);
	}
}

/*
 * The usual case first: no counter wraps, so no interrupt can change the
 * enabled mask midway, and one snapshot of it gives what re-reading it
 * before each counter would.  The first counter that would wrap hands
 * the rest, itself included, to the careful walk above (a system call's
 * cycle credit: 96 -> 68 instructions on x86_64 with two counters, no
 * stack frame or call per counter).
 */
static void broadcast_on(struct soft_bank *b, enum softpmu_event ev,
                         uint32_t mode, uint64_t n, uintptr_t pc)
{
	uint64_t wm = mask();

	for (uint32_t m = b->on; m; m &= m - 1u) {
		unsigned hw = (unsigned)__builtin_ctz(m);
		struct soft_ctr *c = &b->ctr[hw];

		if (!counts(c->sel, ev, mode))
			continue;
		if (n > wm - c->value) {
			broadcast_from(b, hw, ev, mode, n, pc);
			return;
		}
		c->value += n;
	}
}

/*
 * Cycles, to the counters m (those counting cycles in mode): broadcast_on
 * without the test of each enabled counter, which the mask made once per
 * control (union soft_cycles).  The first counter that would wrap hands
 * the rest, itself included, to the careful walk, as broadcast_on does.
 */
static void credit_cycles(struct soft_bank *b, uint32_t m, uint32_t mode,
                          uint64_t n, uintptr_t pc)
{
	uint64_t wm = mask();

	/*
	 * On a 32-bit machine, counters of 32 bits or fewer (the default
	 * width) and a span of fewer than 2^32 cycles: every value is masked
	 * to the width (each writer masks it or adds no more than its room),
	 * so the room and the sum are the low 32 bits' (a 64-bit compare and
	 * add are carry sequences there; Malta ctxsw_2 -15).  A span wider
	 * than the counter is more than every room, so the first counter
	 * hands it whole to the careful walk, as the 64-bit loop would: the
	 * span's own test is its high half's (one word, not a 64-bit
	 * compare with the width).  Not on a 64-bit machine, where the test
	 * and the second loop only cost (x86_64 +14 per switch, the entry's
	 * credit no longer inline).
	 */
	if (sizeof(uintptr_t) < sizeof(uint64_t) && wm <= UINT32_MAX && (n >> 32) == 0) {
		uint32_t w = (uint32_t)wm, n32 = (uint32_t)n;

		for (; m; m &= m - 1u) {
			unsigned hw = (unsigned)__builtin_ctz(m);
			struct soft_ctr *c = &b->ctr[hw];
			uint32_t v = (uint32_t)c->value;

			if (n32 > w - v) {
				broadcast_from(b, hw, SOFTPMU_CYCLES, mode, n, pc);
				return;
			}
			c->value = v + n32;
		}
		return;
	}
	for (; m; m &= m - 1u) {
		unsigned hw = (unsigned)__builtin_ctz(m);
		struct soft_ctr *c = &b->ctr[hw];

		if (n > wm - c->value) {
			broadcast_from(b, hw, SOFTPMU_CYCLES, mode, n, pc);
			return;
		}
		c->value += n;
	}
}

/* Cycles are credited at every entry and exit, in both modes, and mostly
 * only user cycles are counted: none of this mode, or no counter on,
 * and nothing is done, inline in the caller (no call, no stack frame:
 * two of a system call's three credits end here). */
static inline void broadcast(struct soft_bank *b, enum softpmu_event ev,
                             uint32_t mode, uint64_t n, uintptr_t pc)
{
	if (n == 0 || !b->on)
		return;
	if (ev == SOFTPMU_CYCLES) {
		uint32_t m = b->cycles.in[mode_slot(mode)];

		if (m)
			credit_cycles(b, m, mode, n, pc);
		return;
	}
	broadcast_on(b, ev, mode, n, pc);
}

void softpmu_event(enum softpmu_event ev, uint32_t mode, uint64_t n,
                   uintptr_t pc)
{
	if ((unsigned)ev >= SOFTPMU_NEVENTS || ev == SOFTPMU_CYCLES)
		return;
	broadcast(this_bank(), ev, mode, n, pc);
}

void softpmu_mode_switch(uint32_t new_mode, uint64_t now, uintptr_t pc)
{
	struct soft_bank *b = this_bank();
	uint32_t old = b->mode;
	uint64_t elapsed = now - b->since;

	/* Advance first: an interrupt below suspends, and must not see these
	 * cycles as still owed. */
	b->since = now;
	b->mode = new_mode;
	broadcast(b, SOFTPMU_CYCLES, old, elapsed, pc);
}

/* Both spans of softpmu_user_span credited, the kernel's first: out of
 * line, so that the usual entry (no cycles counted in the mode the bank
 * was in) holds nothing across a call and ends in broadcast's tail call. */
static __attribute__((noinline)) void credit_both(struct soft_bank *b, uint32_t old,
                                                  uint64_t kernel, uint64_t user,
                                                  uintptr_t pc)
{
	credit_cycles(b, b->cycles.in[mode_slot(old)], old, kernel, 0);
	broadcast(b, SOFTPMU_CYCLES, PMU_MODE_U, user, pc);
}

/* The bank's cycles masks but U's: where the mode the bank was in (K,
 * as the kernel runs it; tests play X and U too) may count cycles.
 * A constant: the union's U slot, whichever end it sits at. */
static inline uint64_t cycles_not_user(void)
{
	union soft_cycles u = { .all = 0 };

	u.in[mode_slot(PMU_MODE_U)] = 0xffffu;
	return ~u.all;
}

/* softpmu_user_span when some counter counts cycles outside U: the bank
 * is already at back in K; the spans are guarded, as acct_cut_time is
 * (no C code runs after the exit stamp, so left is never before the
 * bank's last credit, nor back before left). */
static __attribute__((noinline)) void user_span_not_only_user(struct soft_bank *b,
                                                              uint32_t old, uint64_t since,
                                                              uint64_t left, uint64_t back,
                                                              uintptr_t pc)
{
	uint64_t kernel = left > since ? left - since : 0;
	uint64_t user = back > left ? back - left : 0;

	/* broadcast's own test for the kernel span, which then goes first. */
	if (kernel != 0 && b->cycles.in[mode_slot(old)]) {
		credit_both(b, old, kernel, user, pc);
		return;
	}
	broadcast(b, SOFTPMU_CYCLES, PMU_MODE_U, user, pc);
}

/*
 * The common entry in straight line: the bank from the CPU the caller
 * names (no lookup through cfg.this_cpu, an indirect call that made
 * every entry save its arguments around it: nine registers on Malta),
 * one test that only user cycles are counted (no mode arithmetic), and
 * no call unless a counter wraps.  The bank's cycles masks are a subset
 * of its enabled counters (start_counters sets both from check()'s
 * registers, stop_counters clears both), so a U mask that is not empty
 * says what broadcast's test of b->on would.
 */
void softpmu_user_span(uint64_t left, uint64_t back, uintptr_t pc, unsigned cpu)
{
	struct soft_bank *b = &banks[cpu % SOFTPMU_MAX_CPUS];
	uint32_t old = b->mode;
	uint64_t since = b->since;
	uint32_t m;

	b->since = back;
	b->mode = PMU_MODE_K;
	if (__builtin_expect((b->cycles.all & cycles_not_user()) != 0, 0)) {
		user_span_not_only_user(b, old, since, left, back, pc);
		return;
	}
	m = b->cycles.in[mode_slot(PMU_MODE_U)];
	if (!m)
		return;
	/*
	 * On a 32-bit machine the usual span is under 2^32 cycles, whose
	 * difference has a high half of 0, and that test alone, with the
	 * low half's test for 0, replaces the 64-bit compare of back with
	 * left (the difference is then known to fit credit_cycles' 32-bit
	 * way, whose own test it makes redundant).  A back before left
	 * (by less than 2^64 - 2^32, as any two readings of one 64-bit
	 * clock are) leaves a high half that is not 0: the rest's to refuse
	 * (Malta: the two 64-bit compares of each entry).
	 */
	if (sizeof(uintptr_t) < sizeof(uint64_t)) {
		uint64_t d = back - left;

		if ((d >> 32) == 0) {
			if ((uint32_t)d != 0)
				credit_cycles(b, m, PMU_MODE_U, d, pc);
			return;
		}
	}
	if (back > left)                /* guarded as user_span_not_only_user */
		credit_cycles(b, m, PMU_MODE_U, back - left, pc);
}

/* The kernel's events, as pmu_kevent.h delivers them. */
static void soft_kernel_event(unsigned kind, uint32_t mode, uint64_t n, uintptr_t pc)
{
	if (kind < PMU_KEV_COUNT && kind != PMU_KEV_CYCLES)
		broadcast(this_bank(), (enum softpmu_event)event_of_kind[kind], mode, n, pc);
}

/* ---- the driver operations ----------------------------------------------- */

static int soft_probe(struct pmu_caps *caps)
{
	memset(caps, 0, sizeof(*caps));
	snprintf(caps->name, sizeof(caps->name), "soft");
	snprintf(caps->status, sizeof(caps->status),
	         "soft: %u counters x %u bits counting kernel-seen events",
	         cfg.ncounters, cfg.width);
	caps->ncounters = cfg.ncounters;
	for (unsigned k = 0; k < cfg.ncounters; k++) {
		caps->counter[k].width = (uint8_t)cfg.width;
		caps->counter[k].max_period = mask();
	}
	caps->modes = SOFTPMU_MODES;
	caps->counts = true;
	caps->overflow_irq = true;
	caps->in_memory = true;         /* and cpu_events false: kernel-seen only */
	caps->ntables = 1;
	caps->tables[0] = &softpmu_table;
	caps->clock_event = &soft_events[SOFTPMU_CYCLES];
	return 0;
}

static int check_one(const struct pmu_counter_ctl *c, uint32_t *seen,
                     char *reason, size_t len)
{
	if (c->hw >= cfg.ncounters || (*seen & (1u << c->hw))) {
		snprintf(reason, len, "soft counter %u missing or used twice",
		         (unsigned)c->hw);
		return -EINVAL;
	}
	*seen |= 1u << c->hw;
	if (c->event >= SOFTPMU_NEVENTS) {
		snprintf(reason, len, "soft event code 0x%x is reserved",
		         (unsigned)c->event);
		return -EINVAL;
	}
	if (!c->modes || (c->modes & ~SOFTPMU_MODES)) {
		snprintf(reason, len, "soft counters filter u, k and x only");
		return -EINVAL;
	}
	if ((c->flags & PMU_CTR_IMODE) && (c->period == 0 || c->period > mask())) {
		snprintf(reason, len, "period %llu does not fit %u bits",
		         (unsigned long long)c->period, cfg.width);
		return -EINVAL;
	}
	return 0;
}

static int soft_check(struct pmu_control *ctl, bool global, char *reason,
                      size_t len)
{
	uint32_t seen = 0, kinds = 0;
	/* Each mode's cycle counters, gathered in words and put in the
	 * union once (soft PMU modes are U, K and X: check_one). */
	uint32_t cyc_u = 0, cyc_k = 0, cyc_x = 0;
	union soft_cycles cycles;

	(void)global;
	if (ctl->n > cfg.ncounters) {
		snprintf(reason, len, "%u counters asked, soft has %u", ctl->n,
		         cfg.ncounters);
		return -EINVAL;
	}
	for (unsigned k = 0; k < ctl->n; k++) {
		struct pmu_counter_ctl *c = &ctl->ctr[k];
		int err = check_one(c, &seen, reason, len);

		if (err < 0)
			return err;
		c->evtsel = c->event | c->modes << SOFTPMU_SEL_MODE_SHIFT |
		            SOFTPMU_SEL_ENABLE;
		if (c->flags & PMU_CTR_IMODE) {
			c->evtsel |= SOFTPMU_SEL_INT;
			c->ireset = pmu_ireset_wrap(c->period, cfg.width);
		}
		if (c->event == SOFTPMU_CYCLES) {
			uint32_t bit = 1u << c->hw;

			cyc_u |= c->modes & PMU_MODE_U ? bit : 0;
			cyc_k |= c->modes & PMU_MODE_K ? bit : 0;
			cyc_x |= c->modes & PMU_MODE_X ? bit : 0;
		}
		kinds |= kinds_of(c->event);
	}
	/* Stores, not memset: this runs at every placement of a crowded set.
	 * Every counter checked is enabled (evtsel above), so the enabled
	 * mask is seen's. */
	_Static_assert(PMU_GLOBAL_REGS == 4, "every global register written below");
	ctl->global[SOFTPMU_GLOBAL_ON] = seen;
	cycles.in[mode_slot(PMU_MODE_X)] = (uint16_t)cyc_x;
	cycles.in[mode_slot(PMU_MODE_K)] = (uint16_t)cyc_k;
	cycles.in[mode_slot(PMU_MODE_S)] = 0;
	cycles.in[mode_slot(PMU_MODE_U)] = (uint16_t)cyc_u;
	ctl->global[SOFTPMU_GLOBAL_CYCLES] = cycles.all;
	ctl->global[SOFTPMU_GLOBAL_KINDS] = kinds;
	ctl->global[3] = 0;
	return 0;
}

static unsigned bank_index(const struct pmu_state *st)
{
	return st->cpu % SOFTPMU_MAX_CPUS;
}

static struct soft_bank *bank_of(const struct pmu_state *st)
{
	return &banks[bank_index(st)];
}

/* While no counter counted cycles the kernel did not report mode changes
 * (pmu_kevent.h); every resume runs in the kernel. */
static void mode_if_untracked(struct soft_bank *b)
{
	if (!(pmu_kevents_wanted & PMU_KEV_BIT(PMU_KEV_CYCLES)))
		b->mode = cfg.mode ? cfg.mode() : PMU_MODE_K;
}

/*
 * resume()'s work once the bank's clock stands at now: st's counters
 * programmed and enabled.  One set is loaded on a bank at a time: its
 * counters are the bank's enabled ones, and what the bank does with them
 * check() found once for this control (its global registers).
 */
static inline void start_counters(struct soft_bank *b, struct pmu_state *st,
                                  uint64_t now)
{
	b->on |= (uint32_t)st->ctl.global[SOFTPMU_GLOBAL_ON];
	b->cycles.all = st->ctl.global[SOFTPMU_GLOBAL_CYCLES];
	for (unsigned k = 0; k < st->ctl.n; k++) {
		const struct pmu_counter_ctl *c = &st->ctl.ctr[k];
		struct soft_ctr *h = &b->ctr[c->hw];

		h->sel = (uint32_t)c->evtsel;
		if (c->flags & PMU_CTR_IMODE)
			h->value = st->ctr[k].start & mask();
		else
			st->ctr[k].start = h->value;
	}
	st->cycles_start = now;
	bank_kinds(bank_index(st), (uint32_t)st->ctl.global[SOFTPMU_GLOBAL_KINDS]);
}

static void soft_resume(struct pmu_state *st)
{
	struct soft_bank *b = bank_of(st);
	uint64_t now = cfg.clock();

	mode_if_untracked(b);
	/* Cycles before this moment belong to whoever counted them before.
	 * One reading for both the count's start and time-enabled's: two
	 * readings let every resume count the gap between them as cycles
	 * the set was never enabled for. */
	b->since = now;
	start_counters(b, st, now);
}

/*
 * Cycles still owed to a counter being stopped, after its other events
 * were folded: add them wrap by wrap straight into the sum (no interrupt
 * here, the caller is already handling this state), so no wrap is ever
 * missed however narrow the counter.
 */
static void credit_cycles_folding(struct soft_bank *b, struct pmu_state *st,
                                  unsigned k, struct soft_ctr *h, uint64_t n)
{
	while (n) {
		uint64_t room = mask() - h->value;
		uint64_t step = n <= room ? n : room + 1;

		h->value = (h->value + step) & mask();
		if (step > room)
			b->ovf |= 1u << st->ctl.ctr[k].hw;
		st->ctr[k].sum += step;
		st->ctr[k].start = h->value;
		n -= step;
	}
}

/* The counters owed cycles at a fold: those counting them in the mode
 * the CPU is in.  Not tested against owed: the clock has nearly always
 * moved since the last credit, and a counter credited 0 cycles gets
 * nothing (credit_cycles_folding's loop), so the test only cost its
 * branch. */
static inline uint32_t owing(const struct soft_bank *b, uint64_t owed)
{
	(void)owed;
	return b->cycles.in[mode_slot(b->mode)];
}

/* The owed cycles of a stop or a read's fold, after its events were
 * folded: each slot on a counter in cycling.  Out of line: a switch, a
 * tick or a read folds counters in the kernel, where most count nothing
 * owed, and the events' loop without this holds few enough values to
 * keep them in registers. */
static __attribute__((noinline)) void stop_owed(struct soft_bank *b, struct pmu_state *st,
                                                uint64_t owed, uint32_t cycling)
{
	for (unsigned k = 0; k < st->ctl.n; k++) {
		unsigned hw = st->ctl.ctr[k].hw;

		if (cycling & (1u << hw))
			credit_cycles_folding(b, st, k, &b->ctr[hw], owed);
	}
}

/*
 * suspend()'s work once the bank's clock stands at now, owed cycles
 * after its last credit: each counter's events since resume, the cycles
 * still owed to it, and it stops.  Counters are independent of each
 * other (a credit touches its own counter, sum and the overflow bit
 * only), so a pass for the events and stops and one for the owed cycles
 * give each the order one pass would.  The bank's kinds are the
 * caller's to change.
 */
static inline void stop_counters(struct soft_bank *b, struct pmu_state *st,
                                 uint64_t now, uint64_t owed)
{
	uint32_t cycling = owing(b, owed);
	uint64_t wm = mask();

	for (unsigned k = 0; k < st->ctl.n; k++) {
		struct soft_ctr *h = &b->ctr[st->ctl.ctr[k].hw];
		struct pmu_counter_state *c = &st->ctr[k];

		c->sum += (h->value - c->start) & wm;
		c->start = h->value;
		h->sel = 0;
	}
	if (cycling)
		stop_owed(b, st, owed, cycling);
	b->on &= ~(uint32_t)st->ctl.global[SOFTPMU_GLOBAL_ON];
	b->cycles.all = 0;
	st->cycles_sum += now - st->cycles_start;
	st->cycles_start = now;
}

static void soft_suspend(struct pmu_state *st)
{
	struct soft_bank *b = bank_of(st);
	uint64_t now = cfg.clock();
	uint64_t owed = now - b->since;

	b->since = now;
	stop_counters(b, st, now, owed);
	bank_kinds(bank_index(st), 0);
}

/*
 * Programmings the bank's registers can carry, named: a state's drv_cache
 * is 0 or the number of a programming (its slots' counters, controls and
 * i-modes, and the global registers) that some other state with the same
 * number had too.  hwperf zeroes drv_cache whenever it changes the
 * control (pmu.h), and a number is only ever copied between states found
 * equal, so two states with the same number program the bank alike.
 */
static uint32_t programmings;

static bool same_programming(const struct pmu_state *a, const struct pmu_state *b)
{
	if (a->ctl.n != b->ctl.n)
		return false;
	for (unsigned g = 0; g < PMU_GLOBAL_REGS; g++)
		if (a->ctl.global[g] != b->ctl.global[g])
			return false;
	for (unsigned k = 0; k < a->ctl.n; k++) {
		const struct pmu_counter_ctl *x = &a->ctl.ctr[k], *y = &b->ctl.ctr[k];

		if (x->hw != y->hw || x->evtsel != y->evtsel ||
		    ((x->flags ^ y->flags) & PMU_CTR_IMODE))
			return false;
	}
	return true;
}

/* in's programming is out's: in gets out's number, or both a new one. */
static void name_programming(struct pmu_state *out, struct pmu_state *in)
{
	if (in->drv_cache != 0 || !same_programming(out, in))
		return;
	if (out->drv_cache == 0) {
		programmings = programmings + 1 ? programmings + 1 : 1;
		out->drv_cache = programmings;
	}
	in->drv_cache = out->drv_cache;
}

/* soft_switch between two programmings, or with cycles owed to out:
 * suspend(out)'s work, then resume(in)'s.  Out of line, so that the
 * usual switch holds few values across its calls. */
static __attribute__((noinline)) void switch_apart(struct soft_bank *b, struct pmu_state *out,
                                                   struct pmu_state *in, uint64_t now,
                                                   uint64_t owed)
{
	stop_counters(b, out, now, owed);
	mode_if_untracked(b);
	start_counters(b, in, now);
	name_programming(out, in);
}

/*
 * The counters' values from out to in, slot by slot, for two sets
 * programmed alike: out's events since its start into its sum, and in's
 * i-mode counters back to where their stop left them (the others start
 * from the value).
 */
static inline void hand_over(struct soft_bank *b, struct pmu_state *out,
                             struct pmu_state *in, uint64_t wm)
{
	for (unsigned k = 0; k < in->ctl.n; k++) {
		struct soft_ctr *h = &b->ctr[in->ctl.ctr[k].hw];
		struct pmu_counter_state *o = &out->ctr[k], *i = &in->ctr[k];
		uint64_t v = h->value;

		o->sum += (v - o->start) & wm;
		o->start = v;
		if (in->ctl.ctr[k].flags & PMU_CTR_IMODE)
			h->value = i->start & wm;
		else
			i->start = v;
	}
}

/* A counter's value as two 32-bit halves, wherever the byte order puts
 * the low one (may_alias: the value is read and written whole too). */
typedef uint32_t __attribute__((may_alias)) soft_word_t;

static inline soft_word_t *value_low(struct soft_ctr *h)
{
	return (soft_word_t *)&h->value + (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
}

/*
 * hand_over for counters of 32 bits or fewer (the default width): every
 * bit of a difference masked to the width, and of a value masked to it,
 * is in the low 32 bits, so those alone are subtracted and masked (a
 * 64-bit subtraction and mask are a borrow sequence and two masks on a
 * 32-bit machine).  A counter's value is always masked to the width
 * (every writer masks it or adds no more than its room; a reshape
 * clears it), so its high half is 0 and stays so: only the low half is
 * loaded and stored (Malta: the high half's load, store, and the mask's
 * load and store, per slot).  The values stored are the same as
 * hand_over's.
 */
static inline void hand_over_narrow(struct soft_bank *b, struct pmu_state *out,
                                    struct pmu_state *in, uint32_t wm)
{
	/* Read once: the half-word stores may alias anything 32-bit. */
	unsigned n = in->ctl.n;

	for (unsigned k = 0; k < n; k++) {
		struct soft_ctr *h = &b->ctr[in->ctl.ctr[k].hw];
		struct pmu_counter_state *o = &out->ctr[k], *i = &in->ctr[k];
		uint32_t v = *value_low(h);

		o->sum += (v - (uint32_t)o->start) & wm;
		o->start = v;
		if (in->ctl.ctr[k].flags & PMU_CTR_IMODE)
			*value_low(h) = (uint32_t)i->start & wm;
		else
			i->start = v;
	}
}

/*
 * At a switch, may cycles be owed to the counters going out (owing() not
 * 0)?  Only if some counter counts them outside U, or the bank is in U
 * (tests play it; the kernel switches in K): one masked test and one
 * compare, where owing() finds the mode's mask by arithmetic (x86_64: 12
 * instructions).  A yes where owing() would say 0 takes switch_apart,
 * which is exact for every pair.
 */
static inline bool may_owe(const struct soft_bank *b)
{
	return (b->cycles.all & cycles_not_user()) != 0 || b->mode == PMU_MODE_U;
}

/*
 * A context switch: suspend(out) then resume(in) with one clock reading,
 * so in starts where out stops (no kernel cycles fall between the two
 * for nobody), and the bank's kinds told once, not emptied and filled
 * again; nothing is ever credited between the two, so every sum and start
 * is the pair's.  The mode reset resume() makes when no counter counts
 * cycles is looked at before out's kinds go: when out counted cycles the
 * mode was tracked and is already the kernel's, which the reset would
 * have found.
 *
 * Two sets programmed alike (two tasks counting the same events, the
 * usual switch between counting tasks) leave every control, the enabled
 * and cycles masks and the kinds as they were: the stop would clear what
 * the start writes again.  Then only the counters' values change hands
 * (hand_over).  Unless cycles are owed to out (a counter counting
 * them in the kernel): that credit is the stop's (switch_apart).
 */
static void soft_switch(struct pmu_state *out, struct pmu_state *in)
{
	struct soft_bank *b = bank_of(in);
	uint64_t now = cfg.clock();
	uint64_t owed = now - b->since;
	uint64_t wm;

	b->since = now;
	if (in->drv_cache != out->drv_cache || in->drv_cache == 0 ||
	    may_owe(b)) {
		switch_apart(b, out, in, now, owed);
		return;
	}
	wm = mask();
	if (wm <= UINT32_MAX)
		hand_over_narrow(b, out, in, (uint32_t)wm);
	else
		hand_over(b, out, in, wm);
	out->cycles_sum += now - out->cycles_start;
	out->cycles_start = now;
	in->cycles_start = now;
	mode_if_untracked(b);
}

/*
 * A rotation (R13): suspend(st), replace, resume(st) with one clock
 * reading, as soft_switch does for two sets: st starts again where it
 * stopped, and the bank's kinds, the same before and after when the
 * rotation keeps the events' kinds, are told only if they changed.
 * Nothing is credited while replace runs (the counters are off and it
 * reports no event), so every sum and start is the three steps'.  The
 * mode reset resume() makes when no counter counts cycles is looked at
 * with st's old kinds still told, as soft_switch does.
 */
static int soft_rotate(struct pmu_state *st,
                       int (*replace)(struct pmu_state *st, void *arg), void *arg)
{
	struct soft_bank *b = bank_of(st);
	uint64_t now = cfg.clock();
	uint64_t owed = now - b->since;
	int err;

	b->since = now;
	stop_counters(b, st, now, owed);
	err = replace(st, arg);
	if (err != 0) {
		bank_kinds(bank_index(st), 0);
		return err;
	}
	mode_if_untracked(b);
	start_counters(b, st, now);
	return 0;
}

/*
 * suspend() without the stop: each counter's events since its start and
 * the cycles still owed to it go into the sum, and it counts on from
 * where it is (its control, the bank's enabled mask and kinds as they
 * were).  A read's fold: the resume after a suspend would write every
 * control again and tell the kernel's hooks twice.
 */
static void soft_sync(struct pmu_state *st)
{
	struct soft_bank *b = bank_of(st);
	uint64_t now = cfg.clock();
	uint64_t owed = now - b->since;

	uint32_t cycling = owing(b, owed);
	uint64_t wm = mask();

	b->since = now;
	/* In two passes, as stop_counters does and for its reason: a read
	 * is a system call, in the kernel, where counters of user cycles
	 * are owed none, and the events' loop alone keeps its few values in
	 * registers (one pass with the credit inline saved nine on Malta). */
	for (unsigned k = 0; k < st->ctl.n; k++) {
		struct soft_ctr *h = &b->ctr[st->ctl.ctr[k].hw];
		struct pmu_counter_state *c = &st->ctr[k];

		c->sum += (h->value - c->start) & wm;
		c->start = h->value;
	}
	/* The set's time before the rare credit (it reads neither), so
	 * that nothing is kept across that call. */
	st->cycles_sum += now - st->cycles_start;
	st->cycles_start = now;
	if (cycling)
		stop_owed(b, st, owed, cycling);
}

static uint32_t soft_identify_overflow(struct pmu_state *st)
{
	struct soft_bank *b = bank_of(st);
	uint32_t slots = 0;

	for (unsigned k = 0; k < st->ctl.n; k++) {
		const struct pmu_counter_ctl *c = &st->ctl.ctr[k];

		if ((c->flags & PMU_CTR_IMODE) && (b->ovf & (1u << c->hw))) {
			slots |= 1u << k;
			st->ctr[k].start = c->ireset;
		}
	}
	b->ovf = 0;
	return slots;
}

static void soft_ireload(struct pmu_state *st)
{
	/* Controls change below: the programming's number goes (hwperf
	 * zeroes it too, pmu.h; this keeps the driver's own rule). */
	st->drv_cache = 0;
	for (unsigned k = 0; k < st->ctl.n; k++) {
		struct pmu_counter_ctl *c = &st->ctl.ctr[k];

		if (!(c->flags & PMU_CTR_IMODE))
			continue;
		c->ireset = pmu_ireset_wrap(c->period, cfg.width);
		c->evtsel |= SOFTPMU_SEL_INT;
		st->ctr[k].start = c->ireset;
	}
}

static uint64_t soft_read_cycles(void)
{
	return cfg.clock();
}

const struct pmu_ops softpmu_ops = {
	.name = "soft",
	.probe = soft_probe,
	.check = soft_check,
	.resume = soft_resume,
	.suspend = soft_suspend,
	.sync = soft_sync,
	.switch_sets = soft_switch,
	.rotate = soft_rotate,
	.identify_overflow = soft_identify_overflow,
	.ireload = soft_ireload,
	.read_cycles = soft_read_cycles,
	.peek = softpmu_peek,
	.reshape = softpmu_reconfigure,
	.kernel_event = soft_kernel_event,
	.mode_switch = softpmu_mode_switch,
	.user_span = softpmu_user_span,
};

