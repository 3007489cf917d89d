/*
 * mips_pmu_irq.c - the counters' share of an interrupt line (see
 * mips_pmu.h).
 */
#include <stddef.h>

#include "mips_pmu.h"

static bool wired;
static bool (*source)(void);

void mips_pmu_irq_wire(bool on)
{
	wired = on;
}

bool mips_pmu_irq_ready(void)
{
	return wired;
}

void mips_pmu_irq_source(bool (*pending)(void))
{
	source = pending;
}

bool mips_pmu_irq(uintptr_t pc, uint32_t mode)
{
	if (!source || !source())
		return false;
	pmu_interrupt(pc, mode);
	return true;
}
