/*
 * pmu_kevent.h - how the kernel tells the PMU layer what it sees: system
 * calls, faults, switches, ticks, and the cycles of each mode.  Any driver
 * may count them (the software PMU does); the kernel names no driver.
 *
 * Each hook costs one load and one predictable branch while no loaded
 * counter wants its kind: the active driver keeps pmu_kevents_wanted up to
 * date (pmu_kevents_want) whenever it loads or unloads a counter.  Call
 * the hooks with interrupts off (a counter's read-modify-write must not
 * be split by a tick that folds it), never from inside an hwperf callback.
 *
 * Report an event in the mode the CPU was in when it arose: the
 * interrupted mode for faults, TLB refills, interrupts and ticks; U for a
 * system call from user mode; K for a context switch or a signal.
 */
#ifndef TALLY_PMU_KEVENT_H
#define TALLY_PMU_KEVENT_H

#include <stdint.h>

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

/* Bit per kind some loaded counter counts (one CPU: one word). */
extern uint32_t pmu_kevents_wanted;
/* For the active driver: the kinds its loaded counters count now. */
void pmu_kevents_want(uint32_t kinds);

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

static inline int pmu_kevent_wanted(enum pmu_kevent kind)
{
	return __builtin_expect((pmu_kevents_wanted & PMU_KEV_BIT(kind)) != 0, 0);
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
