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
	/* Those counting them outside U: cycles's other masks as one word,
	 * one test where the masked 64-bit test of cycles took three
	 * (x86_64) to seven (Malta, big endian) at every switch. */
	uint32_t cycles_not_u;
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
/* pmu_width_mask(cfg.width), kept with cfg: every event added needs it. */
static uint64_t wmask = 0xffffffffu;
_Static_assert(SOFTPMU_WIDTH_DEFAULT == 32, "wmask starts as the default width's");
_Static_assert(SOFTPMU_MAX_CPUS == PMU_HOLD_CPUS, "a bank's index is its CPU's hold's");

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

/* The kinds of bank i changed: told to the kernel's hooks on CPU i,
 * which a bank's counters are (pmu_kevent.h: each CPU tests its own
 * word, so counters on one CPU cost the others nothing).  Out of line,
 * the rare case. */
static __attribute__((noinline)) void bank_kinds_changed(unsigned i, uint32_t kinds)
{
	banks[i].kinds = kinds;
	pmu_kevents_want(i, kinds);
}

/* Every bank's kinds told again, after a reshape cleared them. */
static void tell_every_bank(void)
{
	for (unsigned i = 0; i < SOFTPMU_MAX_CPUS; i++)
		pmu_kevents_want(i, banks[i].kinds);
}

/* The kinds of bank i (every resume and suspend).  A switch or a
 * rotation between sets counting the same kinds (two tasks counting
 * cycles) leaves the bank's kinds and so its CPU's word as they were:
 * nothing to tell, and no call (inline). */
static inline void bank_kinds(unsigned i, uint32_t kinds)
{
	if (banks[i].kinds != kinds)
		bank_kinds_changed(i, kinds);
}

/* Every CPU's held user cycles dropped with the counters they were
 * held for, and nothing held until a set is loaded (pmu_kevent.h). */
static void hold_nothing(void)
{
	for (unsigned i = 0; i < SOFTPMU_MAX_CPUS; i++) {
		(void)pmu_user_hold_take(i);
		pmu_user_hold_room(i, 0);
	}
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
	hold_nothing();
	for (unsigned i = 0; i < SOFTPMU_MAX_CPUS; i++) {
		banks[i].mode = PMU_MODE_K;
		banks[i].since = cfg.clock();
	}
	tell_every_bank();
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
		banks[i].cycles_not_u = 0;
	}
	hold_nothing();
	tell_every_bank();
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

/* The register as it stands, the user cycles the kernel still holds for
 * it included (they never take it past its wrap: hold_room). */
uint64_t softpmu_peek(unsigned cpu, unsigned hw)
{
	unsigned i = cpu % SOFTPMU_MAX_CPUS;
	const struct soft_bank *b = &banks[i];
	uint64_t v = b->ctr[hw % PMU_MAX_COUNTERS].value;

	if (b->cycles.in[mode_slot(PMU_MODE_U)] & (1u << (hw % PMU_MAX_COUNTERS)))
		v += pmu_user_hold[i].held;
	return v;
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

/*
 * User cycles the kernel holds back (pmu_kevent.h).  The room of bank i:
 * below every U-cycles counter's distance to its wrap, so that adding
 * what is held wraps none (held stays below the room), and 0 when some
 * counter counts cycles outside U or the bank is not in K (tests play U
 * and X): those spans are split and credited as they end.  Made with
 * nothing held: after held_in, whenever a value, a mask or the mode
 * changed.
 */
static void hold_room(const struct soft_bank *b, unsigned i)
{
	uint32_t m = b->cycles.in[mode_slot(PMU_MODE_U)];
	uint64_t wm = mask(), room = PMU_HOLD_ROOM_MAX;

	if (m == 0 || b->cycles_not_u != 0 || b->mode != PMU_MODE_K) {
		pmu_user_hold_room(i, 0);
		return;
	}
	for (; m; m &= m - 1u) {
		uint64_t r = wm - b->ctr[__builtin_ctz(m)].value;

		room = r < room ? r : room;
	}
	pmu_user_hold_room(i, (uint32_t)room);
}

/* What the kernel holds for bank i, added to its U-cycles counters
 * before anything looks at or changes them: the cycles the entries would
 * have credited, in the same counters, none of them wrapping (hold_room),
 * so no interrupt is owed.  Their room shrinks by as much. */
static inline void held_in(struct soft_bank *b, unsigned i)
{
	uint32_t held;

	if (__builtin_expect(pmu_user_hold[i].held == 0, 1))
		return;
	held = pmu_user_hold_take(i);
	for (uint32_t m = b->cycles.in[mode_slot(PMU_MODE_U)]; m; m &= m - 1u)
		b->ctr[__builtin_ctz(m)].value += held;
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
	unsigned i = cfg.this_cpu() % SOFTPMU_MAX_CPUS;
	struct soft_bank *b = &banks[i];
	uint32_t old = b->mode;
	uint64_t elapsed = now - b->since;

	/* K to K (the kernel's own entries) credits no U-cycles counter and
	 * keeps the room; a change of mode (tests) takes what is held first,
	 * the earlier cycles, and the room follows the mode. */
	if (new_mode != old)
		held_in(b, i);
	/* Advance first: an interrupt below suspends, and must not see these
	 * cycles as still owed. */
	b->since = now;
	b->mode = new_mode;
	broadcast(b, SOFTPMU_CYCLES, old, elapsed, pc);
	if (new_mode != old)
		hold_room(b, i);
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
 * An entry the kernel could not hold (pmu_kevent.h): its span and the
 * spans held before it, credited together.  Only the entry that would
 * take a counter to its wrap, or one on a bank that holds nothing, comes
 * here, so the held cycles and this span reach the counters at the entry
 * where each credit would have wrapped one, with this entry's pc.  The
 * bank from the CPU the caller names (no lookup through cfg.this_cpu, an
 * indirect call that made every entry save its arguments around it), and
 * one test that only user cycles are counted.  The bank's cycles masks
 * are a subset of its enabled counters (start_counters sets both from
 * check()'s registers, stop_counters clears both), so a U mask that is
 * not empty says what broadcast's test of b->on would.
 */
void softpmu_user_span(uint64_t left, uint64_t back, uintptr_t pc, unsigned cpu)
{
	unsigned i = cpu % SOFTPMU_MAX_CPUS;
	struct soft_bank *b = &banks[i];
	uint32_t old = b->mode;
	uint64_t since = b->since;
	/* Nothing is held where cycles count outside U (hold_room): the
	 * split below needs no held part. */
	uint64_t held = pmu_user_hold_take(i);
	uint32_t m;

	b->since = back;
	b->mode = PMU_MODE_K;
	if (__builtin_expect(b->cycles_not_u != 0, 0)) {
		user_span_not_only_user(b, old, since, left, back, pc);
		return;
	}
	m = b->cycles.in[mode_slot(PMU_MODE_U)];
	if (m) {
		/* Guarded as user_span_not_only_user: a back before left
		 * credits nothing of its own. */
		uint64_t n = (back > left ? back - left : 0) + held;

		if (n != 0)
			credit_cycles(b, m, PMU_MODE_U, n, pc);
	}
	hold_room(b, i);
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
			c->evtsel |= c->modes & PMU_MODE_U ? SOFTPMU_SEL_UCYCLES : 0;
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
	ctl->global[SOFTPMU_GLOBAL_NOT_U] = cyc_k | cyc_x;
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

/* While none of the bank's counters counted cycles its CPU's kernel did
 * not report mode changes (pmu_kevent.h); every resume runs in the
 * kernel.  The bank's kinds are its CPU's word, and a bank is loaded on
 * its own CPU (cfg.mode is that CPU's): the word's one test, where the
 * bank's field took its address again (x86_64: two instructions more at
 * every switch). */
static void mode_if_untracked(struct soft_bank *b)
{
	if (!pmu_kevents_any(PMU_KEV_BIT(PMU_KEV_CYCLES)))
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
	b->cycles_not_u = (uint32_t)st->ctl.global[SOFTPMU_GLOBAL_NOT_U];
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

	held_in(b, bank_index(st));
	mode_if_untracked(b);
	/* Cycles before this moment belong to whoever counted them before.
	 * One reading for both the count's start and time-enabled's: two
	 * readings let every resume count the gap between them as cycles
	 * the set was never enabled for. */
	b->since = now;
	start_counters(b, st, now);
	hold_room(b, bank_index(st));
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
	b->cycles_not_u = 0;
	st->cycles_sum += now - st->cycles_start;
	st->cycles_start = now;
}

static void soft_suspend(struct pmu_state *st)
{
	struct soft_bank *b = bank_of(st);
	uint64_t now = cfg.clock();
	uint64_t owed = now - b->since;

	held_in(b, bank_index(st));
	b->since = now;
	stop_counters(b, st, now, owed);
	pmu_user_hold_room(bank_index(st), 0);  /* no counter left (hold_room) */
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
	hold_room(b, bank_index(in));
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

/* The low half of a slot's start, the same way.  Of a counter 32 bits
 * wide or less, only those bits are ever read: every reader masks the
 * start to the width (stop_counters, soft_sync, start_counters, the
 * hand-overs, pmu_delta for the read page). */
static inline soft_word_t *start_low(struct pmu_counter_state *c)
{
	return (soft_word_t *)&c->start + (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
}

/*
 * hand_over for counters of 32 bits or fewer (the default width), with
 * held_in and hold_room in the same pass.  Every bit of a difference
 * masked to the width, and of a value masked to it, is in the low 32
 * bits, so those alone are subtracted and masked (a 64-bit subtraction
 * and mask are a borrow sequence and two masks on a 32-bit machine).  A
 * counter's value is always masked to the width (every writer masks it
 * or adds no more than its room; a reshape clears it), so its high half
 * is 0 and stays so: only the low half is loaded and stored (Malta: the
 * high half's load, store, and the mask's load and store, per slot).
 *
 * The user cycles the kernel held (pmu_kevent.h; hold is the bank's)
 * go to out's U-cycles counters first, as held_in would add them (none
 * wraps), and the room is made from the values in leaves in the bank, as
 * hold_room would make it: the two sets count alike, so the bank's masks
 * and mode are the same before and after.  A slot that counts something
 * else gets no held cycles and leaves the room alone; which slots count
 * U cycles, the control word says (SOFTPMU_SEL_UCYCLES), with no mask to
 * look up per slot.  The values stored are those of held_in, hand_over
 * and hold_room in turn.
 */
static inline void hand_over_narrow(struct soft_bank *b, struct pmu_state *out,
                                    struct pmu_state *in, uint32_t wm,
                                    struct pmu_user_hold *hold)
{
	/* Read once: the half-word stores may alias anything 32-bit. */
	unsigned n = in->ctl.n;
	/* pmu_user_hold_take without its room's update: the room is made
	 * anew below. */
	uint32_t held = hold->held;
	uint32_t room = PMU_HOLD_ROOM_MAX;

	hold->held = 0;

	for (unsigned k = 0; k < n; k++) {
		const struct pmu_counter_ctl *c = &in->ctl.ctr[k];
		struct soft_ctr *h = &b->ctr[c->hw];
		struct pmu_counter_state *o = &out->ctr[k], *i = &in->ctr[k];
		bool ucycles = (c->evtsel & SOFTPMU_SEL_UCYCLES) != 0;
		uint32_t v = *value_low(h);

		if (ucycles)
			v += held;
		o->sum += (v - *start_low(o)) & wm;
		*start_low(o) = v;
		if (c->flags & PMU_CTR_IMODE)
			v = *start_low(i) & wm;
		else
			*start_low(i) = v;
		*value_low(h) = v;
		if (ucycles && wm - v < room)
			room = wm - v;
	}
	/* hold_room's other tests: the masks are the same as out's, which
	 * may_owe found counting cycles in U alone, and the bank in K.  With
	 * no U-cycles counter no slot lowered the room: spans held then go
	 * to no counter, as told they would (softpmu_user_span, held_in). */
	hold->room = room;
}

/*
 * At a switch, may cycles be owed to the counters going out (owing() not
 * 0)?  Only if some counter counts them outside U, or the bank is in U
 * (tests play it; the kernel switches in K): two tests, where owing()
 * finds the mode's mask by arithmetic (x86_64: 12 instructions).  A yes where owing() would say 0 takes switch_apart,
 * which is exact for every pair: so any mode but K says yes (X as well,
 * which tests play), and the hand-over may hold user cycles
 * (hand_over_narrow) without a test of the mode of its own.
 */
static inline bool may_owe(const struct soft_bank *b)
{
	return b->cycles_not_u != 0 || b->mode != PMU_MODE_K;
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
	/* The bank's index once, before the clock's call: the bank's and
	 * the hold's addresses both come from it. */
	unsigned i = bank_index(in);
	struct soft_bank *b = &banks[i];
	uint64_t now = cfg.clock();
	uint64_t owed = now - b->since;
	uint64_t wm;

	b->since = now;
	if (in->drv_cache != out->drv_cache || in->drv_cache == 0 ||
	    may_owe(b)) {
		held_in(b, i);
		switch_apart(b, out, in, now, owed);
		return;
	}
	/* The sets' time first, which the hand-over reads nothing of: so
	 * now is not kept across its loop. */
	out->cycles_sum += now - out->cycles_start;
	out->cycles_start = now;
	in->cycles_start = now;
	wm = mask();
	if (wm <= UINT32_MAX) {
		hand_over_narrow(b, out, in, (uint32_t)wm, &pmu_user_hold[i]);
	} else {
		held_in(b, i);
		hand_over(b, out, in, wm);
		/* in's i-mode counters are back where it left them. */
		hold_room(b, i);
	}
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

	held_in(b, bank_index(st));
	b->since = now;
	stop_counters(b, st, now, owed);
	err = replace(st, arg);
	if (err != 0) {
		pmu_user_hold_room(bank_index(st), 0);
		bank_kinds(bank_index(st), 0);
		return err;
	}
	mode_if_untracked(b);
	start_counters(b, st, now);
	hold_room(b, bank_index(st));
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

	held_in(b, bank_index(st));
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

