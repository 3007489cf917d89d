/*
 * core.c - what sits between the kernel and whichever PMU driver is in
 * use: the overflow interrupt's entry, and the kernel-event hooks'
 * slow paths (pmu_kevent.h).  Choosing the driver is hwperf's (boot.c,
 * pick.c), which tells this file its choice.
 */
#include <stddef.h>

#include "arch.h"
#include "pmu.h"
#include "pmu_kevent.h"

struct pmu_user_hold pmu_user_hold[PMU_HOLD_CPUS];

static const struct pmu_ops *active;
static bool (*overflow_handler)(uintptr_t pc, uint32_t mode);

void pmu_set_active(const struct pmu_ops *ops)
{
	active = ops;
	for (unsigned cpu = 0; cpu < CPU_MAX; cpu++)
		arch_kevents_set(cpu, 0);
}

void pmu_kevents_want(unsigned cpu, uint32_t kinds)
{
	arch_kevents_set(cpu % CPU_MAX, kinds);
}

uint32_t pmu_kevents_of(unsigned cpu)
{
	return cpu < CPU_MAX ? arch_kevents_of(cpu) : 0;
}

static const char *const kevent_names[PMU_KEV_COUNT] = {
	[PMU_KEV_CYCLES] = "cycles",
	[PMU_KEV_SYSCALLS] = "syscalls",
	[PMU_KEV_CSW_VOL] = "csw-vol",
	[PMU_KEV_CSW_INVOL] = "csw-invol",
	[PMU_KEV_FAULTS] = "faults",
	[PMU_KEV_TLB_REFILLS] = "tlb-refills",
	[PMU_KEV_IRQS] = "irqs",
	[PMU_KEV_TICKS] = "ticks",
	[PMU_KEV_SIGNALS] = "signals",
};

const char *pmu_kevent_name(unsigned kind)
{
	return kind < PMU_KEV_COUNT ? kevent_names[kind] : "?";
}

void pmu_set_overflow_handler(bool (*handler)(uintptr_t pc, uint32_t mode))
{
	overflow_handler = handler;
}

bool pmu_interrupt(uintptr_t pc, uint32_t mode)
{
	return overflow_handler ? overflow_handler(pc, mode) : false;
}

/* Only a driver with the hook sets wanted bits, so active and its hook
 * exist whenever these run; checked all the same, they are cold. */
void pmu_kevent_slow(enum pmu_kevent kind, uint32_t mode, uint64_t n, uintptr_t pc)
{
	if (active && active->kernel_event)
		active->kernel_event(kind, mode, n, pc);
}

void pmu_mode_switch_slow(uint32_t new_mode, uint64_t now, uintptr_t pc)
{
	if (active && active->mode_switch)
		active->mode_switch(new_mode, now, pc);
}

void pmu_user_span_slow(uint64_t left, uint64_t back, uintptr_t pc, unsigned cpu)
{
	if (active && active->user_span)
		active->user_span(left, back, pc, cpu);
}
