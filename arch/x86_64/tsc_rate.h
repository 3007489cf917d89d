/*
 * tsc_rate.h - what the CPU says of its TSC rate (CPUID leaves 0x15 and
 * 0x16, Intel SDM vol. 2A, CPUID), decoded apart from the reading so the
 * host tests can feed it any CPU's values (tests/unit/kernel/time/test_cycle_rate.c).
 */
#ifndef TALLY_X86_64_TSC_RATE_H
#define TALLY_X86_64_TSC_RATE_H

#include <stdint.h>

#include "time/cycle_rate.h"

/*
 * x86 CPUID: leaf 0x15 (eax = denominator, ebx = numerator, ecx = crystal
 * Hz) gives ecx * ebx / eax exactly; without ecx, leaf 0x16's eax (base
 * MHz, 0 when absent) gives a rate to within 0.5 MHz.  max_leaf is leaf
 * 0's eax.  Returns 0 and fills r, or -1 when the CPU does not say.
 */
int tsc_rate_from_cpuid(uint32_t max_leaf, const uint32_t leaf15[3],
			uint32_t leaf16_eax, struct cycle_rate *r);

/* The running CPU's own statement, read with CPUID: 0 and *r, or -1. */
int tsc_rate_from_cpu(struct cycle_rate *r);

#endif
