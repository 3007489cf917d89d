/*
 * apic.h - the local APIC, enabled for the PMU's overflow interrupt (see
 * apic.c).
 */
#ifndef TALLY_X86_64_APIC_H
#define TALLY_X86_64_APIC_H

#include <stdbool.h>
#include <stdint.h>

#include "trapframe.h"

/* Map and software-enable the APIC and program LVT PC with VEC_APIC_PMI.
 * In arch_init, after the IDT and before the PMU drivers probe; what
 * stops it is kept for `irqs`. */
void apic_init(void);
/* trap() for vectors APIC_VECTOR_BASE .. APIC_VECTOR_END - 1. */
void apic_interrupt(const struct trapframe *tf, bool user);

/* ---- for smp.c ---- */
/* True when apic_init found and enabled the APIC; else *why says why. */
bool apic_usable(const char **why);
/* The running CPU's APIC id (8 bits in xAPIC mode, 32 in x2APIC). */
uint32_t apic_id(void);
/* Send the interrupt command icr_low (vector, delivery mode, level) to
 * the APIC with id dest.  0; -EBUSY when the previous IPI never left;
 * -EINVAL for an id xAPIC cannot address; -ENODEV without an APIC. */
int apic_send_ipi(uint32_t dest, uint32_t icr_low);
/* On an AP: software-enable its APIC, LINT0/LINT1/error masked. */
void apic_ap_init(void);
void apic_eoi(void);
/* The LVT timer, bus clock / 16: free-running one-shot from 2^32 - 1
 * (masked) to measure its rate, its current count, stop, and periodic
 * with VEC_APIC_TIMER every count. */
void apic_timer_free_run(void);
uint32_t apic_timer_count(void);
void apic_timer_stop(void);
void apic_timer_periodic(uint32_t count);

#endif
