/*
 * hwperf_fakepmu.h - a PMU driver double for the host tests of hwperf.
 *
 * Shape is configurable (counters, width, fixed counters, R10000-style
 * slot binding, overflow on carry out of the top bit or on the top bit
 * becoming set, with or without an overflow interrupt), and the test plays
 * the hardware: fakepmu_count() makes n events of a code happen, and each
 * counter programmed for that code and mode counts them, wrapping at its
 * width and interrupting through pmu_interrupt() exactly at overflow.
 */
#ifndef TALLY_HWPERF_FAKEPMU_H
#define TALLY_HWPERF_FAKEPMU_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu.h"

enum fakepmu_ovf {
	FAKEPMU_OVF_WRAP,       /* x86: overflow = carry out of the top bit */
	FAKEPMU_OVF_MSB,        /* MIPS: overflow = top bit becomes set */
};

struct fakepmu_cfg {
	unsigned ncounters;
	unsigned width;                 /* 8..48, all counters */
	uint32_t fixed_mask;            /* counters tied to one event */
	unsigned slots_per_counter;     /* 16 for the R10000 shape */
	bool irq;
	enum fakepmu_ovf ovf;
	uint32_t modes;
	const struct pmu_event_table *table;
	bool absent;                    /* probe answers -ENODEV */
	unsigned skid;                  /* events between overflow and interrupt */
	bool user_read;                 /* user mode reads counters (rdpmc) */
};

/* User indexes, shaped like Intel's rdpmc ECX: a general counter by its
 * number, a fixed one with this bit set. */
#define FAKEPMU_UINDEX_FIXED 0x40000000u

/* Event codes of the generic table. */
#define FK_CYCLES 0x00u         /* any counter (and the fixed one) */
#define FK_INSNS 0x01u          /* any general counter */
#define FK_LOADS 0x02u          /* counter 0 only */
#define FK_STORES 0x03u         /* counter 1 only */
#define FK_BRANCHES 0x04u       /* any general counter */
#define FK_MISSES 0x05u
#define FK_TLB 0x06u
#define FK_FAULTS 0x07u
#define FK_CODE_MAX 0xffffu     /* wider codes have reserved bits */

/* R10000-shaped table: IRIX numbers, counter = number / 16. */
#define R10K_CYCLES0 0u
#define R10K_ISSUED_LOADS 2u
#define R10K_GRAD_INSNS0 15u
#define R10K_CYCLES1 16u
#define R10K_GRAD_INSNS1 17u
#define R10K_TLB_MISSES 23u

extern const struct pmu_event_table fakepmu_generic_table;
extern const struct pmu_event_table fakepmu_r10k_table;
extern const struct pmu_ops fakepmu_ops;

extern uint64_t fakepmu_clock;          /* the cycle counter */
extern uintptr_t fakepmu_pc;            /* PC the interrupt reports */
extern unsigned fakepmu_interrupts;
/* Resumes and suspends of a CPU's bank made while fake_cpu was another. */
extern unsigned fakepmu_foreign;

/* 2 general 32-bit counters, wrap overflow with interrupt, all modes. */
void fakepmu_default(struct fakepmu_cfg *cfg);
void fakepmu_setup(const struct fakepmu_cfg *cfg);
void fakepmu_count(unsigned cpu, uint32_t code, uint32_t mode, uint64_t n);
uint64_t fakepmu_value(unsigned cpu, unsigned hw);
bool fakepmu_enabled(unsigned cpu, unsigned hw);
uint32_t fakepmu_code(unsigned cpu, unsigned hw);
/* What rdpmc of a user index returns on cpu: the counter, with the bits
 * above its width set (real rdpmc returns more bits than count), so a
 * reader that forgets to mask is wrong.  Aborts on an unknown index. */
uint64_t fakepmu_rdpmc(unsigned cpu, uint32_t index);

#endif
