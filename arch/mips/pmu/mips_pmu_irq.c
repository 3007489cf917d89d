/*
 * mips_pmu_irq.c - the counters' share of an interrupt line (see
 * mips_pmu.h).
 */
#include <stddef.h>

#include "mips_pmu.h"

static bool wired;
static bool (*source)(void);
static unsigned long taken, spurious;

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

/*
 * Counted whatever follows: the line and Cause.PCI said the counters
 * asked.  Spurious when no driver claims the interrupt, when the driver
 * sees no counter interrupting, or when hwperf finds none overflowed.
 */
bool mips_pmu_irq(uintptr_t pc, uint32_t mode)
{
	taken++;
	if (!source || !source() || !pmu_interrupt(pc, mode)) {
		spurious++;
		return false;
	}
	return true;
}

unsigned long mips_pmu_irq_count(void)
{
	return taken;
}

unsigned long mips_pmu_irq_spurious(void)
{
	return spurious;
}
