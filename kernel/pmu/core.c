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

uint32_t pmu_kevents_wanted;
struct pmu_user_hold pmu_user_hold[PMU_HOLD_CPUS];

static const struct pmu_ops *active;
static bool (*overflow_handler)(uintptr_t pc, uint32_t mode);

void pmu_set_active(const struct pmu_ops *ops)
{
	active = ops;
	pmu_kevents_wanted = 0;
}

void pmu_kevents_want(uint32_t kinds)
{
	pmu_kevents_wanted = kinds;
	arch_kevents_changed(kinds);
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
