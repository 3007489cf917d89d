/*
 * apic.h - the local APIC, enabled for the PMU's overflow interrupt (see
 * apic.c).
 */
#ifndef TALLY_X86_64_APIC_H
#define TALLY_X86_64_APIC_H

#include <stdbool.h>

#include "trapframe.h"

/* Map and software-enable the APIC and program LVT PC with VEC_APIC_PMI.
 * In arch_init, after the IDT and before the PMU drivers probe; what
 * stops it is kept for `irqs`. */
void apic_init(void);
/* trap() for vectors APIC_VECTOR_BASE .. APIC_VECTOR_END - 1. */
void apic_interrupt(const struct trapframe *tf, bool user);

#endif
