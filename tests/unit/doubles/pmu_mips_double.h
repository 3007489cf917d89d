/*
 * pmu_mips_double.h - a recording stand-in for mips_pmu_io in host tests.
 *
 * Plays a core's PRId, Config1, Config3, IntCtl and EBase, and PerfCtl /
 * PerfCnt pairs that behave as the manuals say: PerfCtl.M set on every
 * counter but the last, PerfCtl.W on 64-bit counters, the control's
 * writable bits kept, counters wrapping at their width, Cause.PCI set
 * while an IE counter has its top bit set (Release 2 cores only).  QEMU
 * mode is what QEMU 7.2 does (platforms.md): select 0 keeps the low 11
 * bits written, selects 1..7 read 0xffffffff and drop writes.  Every
 * access is logged.
 */
#ifndef TALLY_PMU_MIPS_DOUBLE_H
#define TALLY_PMU_MIPS_DOUBLE_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/mips/pmu/mips_pmu_io.h"

#define MD_MAX_CTRS 4
#define MD_LOG_MAX 4096

struct md_core {
	uint32_t prid, config1, config3, intctl, ebase;
	unsigned ncounters;
	bool wide;              /* PerfCtl.W: 64-bit counters */
	bool io64;              /* the kernel has DMFC0/DMTC0 */
	bool qemu;
	bool r10k;              /* no M/W bits, no Cause.PCI */
	uint32_t ctl_writable;  /* PerfCtl bits that keep a write */
};

struct md_log {
	char op;                /* 'R' or 'W' */
	unsigned reg, sel;
	uint64_t value;
};

void md_reset(const struct md_core *core);
void md_spin_rate(uint64_t per_iteration);
void md_count(unsigned hw, uint64_t n);
void md_set_counter(unsigned hw, uint64_t v);
uint64_t md_counter(unsigned hw);
uint32_t md_control(unsigned hw);

void md_log_clear(void);
unsigned md_log_len(void);
const struct md_log *md_log_at(unsigned i);
unsigned md_writes_to(unsigned reg, unsigned sel);

#endif
