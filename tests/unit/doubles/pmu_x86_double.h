/*
 * pmu_x86_double.h - a recording stand-in for x86_pmu_io in host tests.
 *
 * CPUID answers come from a table of (leaf, subleaf) -> registers, filled
 * with a real CPU's values.  MSRs are a small store, plus counters that
 * behave as the manuals say: a width, writes at the legacy address that
 * sign-extend EAX (Intel IA32_PMCx), a full-width alias (IA32_A_PMCx), an
 * enable test (control MSR bits, IA32_PERF_GLOBAL_CTRL bit) and an
 * overflow status bit set on the wrap.  "Dead" mode is QEMU TCG: every
 * MSR reads 0 and ignores writes.  Every access is logged.
 */
#ifndef TALLY_PMU_X86_DOUBLE_H
#define TALLY_PMU_X86_DOUBLE_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/x86_64/pmu/x86_pmu_io.h"

#define XD_MAX_CTRS 16
#define XD_LOG_MAX 4096

struct xd_ctr {
	uint32_t msr;           /* counter address */
	uint32_t alias;         /* full-width write alias, or 0 */
	unsigned width;
	bool sx32;              /* writes at msr keep EAX sign-extended */
	uint32_t ctl;           /* MSR whose `en` bits enable it */
	uint64_t en;
	int gbit;               /* global ctrl/status bit, or -1 */
	uint64_t value;
};

struct xd_log {
	char op;                /* 'R' rdmsr, 'W' wrmsr */
	uint32_t msr;
	uint64_t value;
	uint64_t tsc;           /* the TSC's last reading at the access */
};

/* Fresh double, installed as x86_pmu_io.  No CPUID, no counters. */
void xd_reset(void);
void xd_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t eax, uint32_t ebx,
              uint32_t ecx, uint32_t edx);
void xd_set_msr(uint32_t msr, uint64_t v);      /* not logged */
uint64_t xd_msr(uint32_t msr);                  /* not logged */
int xd_add_ctr(const struct xd_ctr *c);         /* returns its index */
void xd_global(uint32_t ctrl_msr, uint32_t status_msr, uint32_t ovf_ctrl_msr);
void xd_dead(bool dead);
/* Events spin() adds to each enabled counter per iteration. */
void xd_spin_rate(uint64_t per_iteration);

/* The hardware counts n events on counter i (wraps, sets status). */
void xd_count(int i, uint64_t n);
uint64_t xd_ctr_value(int i);
void xd_set_ctr(int i, uint64_t v);

/* The log. */
void xd_log_clear(void);
unsigned xd_log_len(void);
const struct xd_log *xd_log_at(unsigned i);
/* Value of the last write to msr; false if none since xd_log_clear(). */
bool xd_last_write(uint32_t msr, uint64_t *v);
unsigned xd_writes_to(uint32_t msr);

#endif
