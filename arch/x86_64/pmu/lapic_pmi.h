/*
 * lapic_pmi.h - the local APIC's performance-counter interrupt (LVT PC).
 *
 * x86 PMUs interrupt through the local APIC's "Performance Monitoring
 * Counters" LVT entry (Intel SDM vol. 3A, "Local Vector Table"; AMD APM
 * vol. 2, "Local Vector Table").  This piece owns only that entry and the
 * EOI: it programs the vector, and after each interrupt calls
 * pmu_interrupt() and unmasks the entry again, because the processor
 * masks it when it delivers a counter interrupt.
 *
 * Register access goes through struct lapic_regs, so the same code drives
 * an xAPIC (memory-mapped page) or an x2APIC (MSRs) and a host double.
 */
#ifndef TALLY_X86_LAPIC_PMI_H
#define TALLY_X86_LAPIC_PMI_H

#include <stdbool.h>
#include <stdint.h>

/* xAPIC register offsets in the 4 KiB APIC page (SDM vol. 3A, 10.4.1,
 * Table 10-1 "Local APIC Register Address Map"). */
#define LAPIC_REG_EOI 0x0b0u
#define LAPIC_REG_ICR_LOW 0x300u
#define LAPIC_REG_LVT_PMC 0x340u
/* x2APIC MSR of an xAPIC offset: 800H + offset / 16 (SDM vol. 3A,
 * "x2APIC Register Address Space"): EOI 80BH, LVT PMC 834H. */
#define X2APIC_MSR_BASE 0x800u
#define X2APIC_MSR_OF(off) (X2APIC_MSR_BASE + ((off) >> 4))

/* LVT entry layout. */
#define LVT_VECTOR_MASK 0x000000ffu
#define LVT_DELIVERY_SHIFT 8
#define LVT_DELIVERY_MASK 0x00000700u
#define LVT_DELIVERY_FIXED 0x0u
#define LVT_DELIVERY_NMI 0x4u
#define LVT_DELIVERY_PENDING 0x00001000u
#define LVT_MASKED 0x00010000u
/* Vectors 0..31 are exceptions; the APIC refuses 0..15 outright. */
#define LAPIC_VECTOR_MIN 32u

/* Interrupt command register, low half (SDM vol. 3A, 10.6.1, Figure
 * 10-12): vector 7:0, delivery mode 10:8 (000 fixed), delivery status 12
 * (xAPIC only: 1 while the last IPI is still being sent), level 14 (1 for
 * every mode but INIT de-assert), destination shorthand 19:18 (01 self,
 * which takes fixed delivery only and ignores the destination field). */
#define ICR_DELIVERY_PENDING 0x00001000u
#define ICR_LEVEL_ASSERT 0x00004000u
#define ICR_SHORTHAND_SELF 0x00040000u
/* Reads of a send-pending ICR before the self-IPI gives up (the APIC
 * takes a few bus cycles; a stuck bit means a broken APIC). */
#define ICR_IDLE_POLLS 100000u

struct lapic_regs {
	uint32_t (*read)(uint32_t off);
	void (*write)(uint32_t off, uint32_t value);
};

/* x2APIC: through x86_pmu_io's RDMSR/WRMSR. */
extern const struct lapic_regs lapic_x2apic_regs;
/* xAPIC: base is the mapped APIC page (IA32_APIC_BASE, default
 * FEE00000H), uncached.  Returns the accessor set for it. */
const struct lapic_regs *lapic_xapic_regs(volatile uint32_t *base);

/* The LVT PC value for vector: fixed delivery, unmasked. */
uint32_t lapic_pmi_lvt(uint8_t vector);

/* Program LVT PC with vector (>= 32).  -EINVAL otherwise. */
int lapic_pmi_init(const struct lapic_regs *regs, uint8_t vector);
/* Mask the entry (no more counter interrupts). */
void lapic_pmi_disable(void);
/* An application processor, at bring-up: its own LVT PC gets the entry
 * CPU 0's lapic_pmi_init() chose (each CPU's APIC has its own; one page
 * address or MSR serves, the APIC decodes it per CPU).  -ENODEV when CPU 0
 * has none (no LVT PC, or not yet initialised): the AP then takes no PMI. */
int lapic_pmi_init_cpu(void);
/* True once lapic_pmi_init() succeeded: drivers offer i-mode then. */
bool lapic_pmi_ready(void);

/* The vector lapic_pmi_init() programmed; 0 before. */
uint8_t lapic_pmi_vector(void);
/* For the drivers' probe lines: "pmi 0x3e" when the entry is programmed,
 * "no pmi" otherwise. */
const char *lapic_pmi_describe(void);

/*
 * The interrupt: the IDT entry of the vector calls this with the
 * interrupted RIP and PMU_MODE_K or PMU_MODE_U (from CS.RPL).  Counts it,
 * calls pmu_interrupt() -- which reads and clears the driver's overflow
 * status (IA32_PERF_GLOBAL_STATUS on Intel v2+, the counters' values on
 * AMD and Intel v1) -- and counts it spurious when no counter overflowed.
 * Then it unmasks LVT PC again, because Intel processors set its mask bit
 * when they deliver a counter interrupt (SDM vol. 3A, 10.5.1, note to
 * Figure 10-8), and signals EOI.  Unmasking after hwperf, never before,
 * or the overflow not yet cleared would interrupt again at once.
 */
void lapic_pmi_interrupt(uintptr_t pc, uint32_t mode);

/* Interrupts taken on the vector, and how many of them found no
 * overflowed counter. */
unsigned long lapic_pmi_count(void);
unsigned long lapic_pmi_spurious(void);

/*
 * Send this CPU a fixed IPI on the PMI vector (ICR, shorthand self), the
 * way to prove the vector's path where no counter overflows (QEMU).
 * -ENODEV before lapic_pmi_init(), -EBUSY if the APIC never reported the
 * previous IPI sent.  The interrupt arrives once interrupts are enabled.
 */
int lapic_pmi_self_ipi(void);

#endif
