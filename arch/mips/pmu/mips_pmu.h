/*
 * mips_pmu.h - the MIPS PMU drivers, their overflow interrupt and the
 * overflow convention they share.
 *
 * MIPS counters (MIPS32 PRA vol. III "Performance Counter Register"; the
 * R10000 alike, IRIX r10k_evcntrs(5)) interrupt while the top bit of a
 * counter whose control has IE is set; counting goes on.  So an i-mode
 * period starts at 2^(w-1) - period, and the counter overflowed iff its
 * top bit is set when it is read.  The interrupt stays asserted until the
 * counter is rewritten or IE cleared: suspend() clears the control, and
 * resume() writes the reset value back.
 */
#ifndef TALLY_MIPS_PMU_H
#define TALLY_MIPS_PMU_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu.h"

extern const struct pmu_ops mips32_pmu_ops;
extern const struct pmu_ops r10k_pmu_ops;

static inline uint64_t mips_pmu_top_bit(unsigned width)
{
	return (uint64_t)1 << (width - 1);
}

/* Longest period: from 0 to the top bit. */
static inline uint64_t mips_pmu_max_period(unsigned width)
{
	return mips_pmu_top_bit(width);
}

static inline uint64_t mips_pmu_ireset(uint64_t period, unsigned width)
{
	return mips_pmu_top_bit(width) - period;
}

static inline bool mips_pmu_overflowed(uint64_t value, unsigned width)
{
	return (value & mips_pmu_top_bit(width)) != 0;
}

/* ---- the interrupt (mips_pmu_irq.c) ------------------------------------- */

/*
 * Integration calls this with true, before the PMU drivers are probed,
 * once the IP line the counters raise is routed to mips_pmu_irq()
 * (IntCtl.IPPCI on Release 2 cores; IP7 with the timer on the R10000).
 * Until then drivers do not offer i-mode (max_period 0): an enabled
 * counter interrupt nobody clears would hold the line, the timer's too.
 */
void mips_pmu_irq_wire(bool wired);
bool mips_pmu_irq_ready(void);

/* Drivers name how to tell that their counters are interrupting. */
void mips_pmu_irq_source(bool (*pending)(void));

/*
 * Called by intr.c when the counters' IP line is pending with Cause.PCI
 * set (arch/mips/intr_route.h decides; on a line shared with the timer
 * both handlers run), with the interrupted PC and PMU_MODE_* the CPU was
 * in.  Returns true if the driver's source said its counters were
 * interrupting and pmu_interrupt() found one overflowed; every call is
 * counted, and the others are counted spurious too.
 */
bool mips_pmu_irq(uintptr_t pc, uint32_t mode);
unsigned long mips_pmu_irq_count(void);
unsigned long mips_pmu_irq_spurious(void);

#endif
