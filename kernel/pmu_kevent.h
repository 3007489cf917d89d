/*
 * pmu_kevent.h - how the kernel tells the PMU layer what it sees: system
 * calls, faults, switches, ticks, and the cycles of each mode.  Any driver
 * may count them (the software PMU does); the kernel names no driver.
 *
 * Each hook costs one test and one predictable branch while no counter
 * loaded on the running CPU wants its kind: the active driver keeps each
 * CPU's word up to date (pmu_kevents_want) whenever it loads or unloads a
 * counter there, and the arch keeps the word where its CPU tests it in
 * one instruction or two (machdep.h machdep_kevents_any: x86 a GS-relative
 * test, MIPS a load through DESAVE), as a shared word cost.  So a task
 * counting on one CPU costs the others nothing.  Call the hooks with
 * interrupts off (a counter's read-modify-write must not be split by a
 * tick that folds it), never from inside an hwperf callback.
 *
 * Report an event in the mode the CPU was in when it arose: the
 * interrupted mode for faults, TLB refills, interrupts and ticks; U for a
 * system call from user mode; K for a context switch or a signal.
 */
#ifndef TALLY_PMU_KEVENT_H
#define TALLY_PMU_KEVENT_H

#include <stdbool.h>
#include <stdint.h>

#include "machdep.h"

enum pmu_kevent {
	PMU_KEV_CYCLES,         /* mode time: the mode_switch/user_span hooks */
	PMU_KEV_SYSCALLS,
	PMU_KEV_CSW_VOL,        /* the task blocked or yielded */
	PMU_KEV_CSW_INVOL,      /* preempted */
	PMU_KEV_FAULTS,
	PMU_KEV_TLB_REFILLS,
	PMU_KEV_IRQS,
	PMU_KEV_TICKS,
	PMU_KEV_SIGNALS,
	PMU_KEV_COUNT
};

#define PMU_KEV_BIT(k) (1u << (k))

/* For the active driver: the kinds its counters loaded on cpu count now
 * (any CPU may say it of any, as a reshape with nothing loaded does). */
void pmu_kevents_want(unsigned cpu, uint32_t kinds);
/* CPU cpu's kinds, for a reader anywhere (`hwperf status`): a snapshot. */
uint32_t pmu_kevents_of(unsigned cpu);
/* A kind's name (`hwperf status`), "?" past the last. */
const char *pmu_kevent_name(unsigned kind);

/* Whether a counter loaded on the running CPU wants any of the kinds in
 * bits.  Read with interrupts on, the CPU may change under it: the word
 * is that of the CPU the task ran on when it asked, where its own
 * counters were loaded, and the hook's slow way finds its own CPU's
 * counters itself. */
static inline bool pmu_kevents_any(uint32_t bits)
{
	return machdep_kevents_any(bits);
}

void pmu_kevent_slow(enum pmu_kevent kind, uint32_t mode, uint64_t n, uintptr_t pc);
void pmu_mode_switch_slow(uint32_t new_mode, uint64_t now, uintptr_t pc);
/*
 * An entry from user mode, told after the fact (kernel/arch.h
 * arch_user_span): the CPU left the kernel at `left` and came back at
 * `back`; pc is the user PC it left, cpu the CPU's id (arch_cpu_id, the
 * scheduler's struct cpu id).  No inline gate: the caller tests
 * pmu_kevent_wanted(PMU_KEV_CYCLES) itself, so that it works out the pc
 * only when a counter listens.
 */
void pmu_user_span_slow(uint64_t left, uint64_t back, uintptr_t pc, unsigned cpu);

/*
 * User cycles held back: an entry's user span need not reach the driver
 * at once.  The driver gives each CPU a room (pmu_user_hold_room): while
 * the spans held since it last looked stay below it, the entry only adds
 * its span to `held` (pmu_user_span_hold), and the driver adds what is
 * held to its counters whenever it next looks at them (a switch, a read,
 * a fold, the next span it is told).  The driver's room is below every
 * counter's distance to its wrap, so a held credit never wraps one: the
 * entry that would reach a wrap is told at once and its interrupt comes
 * where it always came.  Room 0: nothing is held (cycles counted in the
 * kernel, whose span must be split as it ends; or nothing loaded).  A
 * CPU's pair is written by that CPU alone, with interrupts off (and by a
 * reshape of the counters, with nothing loaded anywhere).
 */
#define PMU_HOLD_CPUS 16        /* kernel/arch.h CPU_MAX */
#define PMU_HOLD_ROOM_MAX 0x7fffffffu

struct pmu_user_hold {
	uint32_t held;          /* user cycles the driver has not been told */
	uint32_t room;          /* held stays below this; 0: hold nothing */
} __attribute__((aligned(64)));         /* a line a CPU: no sharing */

extern struct pmu_user_hold pmu_user_hold[PMU_HOLD_CPUS];

/* For the driver: the room of cpu, after it took what was held. */
static inline void pmu_user_hold_room(unsigned cpu, uint32_t room)
{
	pmu_user_hold[cpu % PMU_HOLD_CPUS].room = room;
}

/* For the driver: what cpu holds, now the driver's; its room shrinks by
 * as much (the driver adds it to every counter the room was made for). */
static inline uint32_t pmu_user_hold_take(unsigned cpu)
{
	struct pmu_user_hold *h = &pmu_user_hold[cpu % PMU_HOLD_CPUS];
	uint32_t held = h->held;

	h->held = 0;
	h->room -= held;
	return held;
}

/*
 * An entry's user span of `user` cycles: held, or false when the driver
 * must be told now (pmu_user_span_slow, the held cycles with it).  h is
 * the entering CPU's pmu_user_hold[] (the kernel keeps its address with
 * the CPU: no index to scale).  held stays below room (room 0: held 0),
 * so room - held is the span that still fits, and no sum can wrap.
 */
static inline bool pmu_user_span_hold32(struct pmu_user_hold *h, uint32_t user)
{
	if (user >= h->room - h->held)
		return false;
	h->held += user;
	return true;
}

/* The same for a span from `left` to `back`: one 64-bit compare, which
 * stamps out of order (back before left: a difference near 2^64) fail too, to
 * be told (the driver refuses them itself). */
static inline bool pmu_user_span_hold(struct pmu_user_hold *h, uint64_t left,
				      uint64_t back)
{
	uint64_t span = back - left;

	if (span >= (uint64_t)(h->room - h->held))
		return false;
	h->held += (uint32_t)span;
	return true;
}

static inline int pmu_kevent_wanted(enum pmu_kevent kind)
{
	return __builtin_expect(pmu_kevents_any(PMU_KEV_BIT(kind)), 0);
}

/* PMU_MODE_U or PMU_MODE_K: the mode the innermost trap interrupted, for
 * events reported from interrupt handlers (kernel/entry.c keeps it). */
uint32_t trap_current_mode(void);

/* n events of a kind, at pc. */
static inline void pmu_kernel_event(enum pmu_kevent kind, uint32_t mode, uint64_t n,
				    uintptr_t pc)
{
	if (pmu_kevent_wanted(kind))
		pmu_kevent_slow(kind, mode, n, pc);
}

/* The CPU entered the kernel from kernel mode at cycle-counter time now. */
static inline void pmu_mode_switch(uint32_t new_mode, uint64_t now, uintptr_t pc)
{
	if (pmu_kevent_wanted(PMU_KEV_CYCLES))
		pmu_mode_switch_slow(new_mode, now, pc);
}

#endif
