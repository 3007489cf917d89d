/*
 * x86_pmu.h - the x86 PMU drivers, for integration code and tests (the
 * kernel finds them through the pmu_drivers linker set).
 */
#ifndef TALLY_X86_PMU_H
#define TALLY_X86_PMU_H

#include "pmu.h"

extern const struct pmu_ops intel_arch_ops;
extern const struct pmu_ops amd_ops;

#endif
