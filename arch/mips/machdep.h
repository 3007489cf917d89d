/*
 * machdep.h - the few machine constants portable code takes from the arch,
 * so that kernel/ holds no #if on the architecture.
 */
#ifndef TALLY_MACHDEP_H
#define TALLY_MACHDEP_H

/* ELF e_machine of the programs Tally runs (EM_MIPS). */
#define MACHDEP_ELF_MACHINE 8
/* How a user call chain is walked (kernel/hwperf/sample.h): MIPS32's
 * frames are found from each function's prologue, not from $fp alone. */
#define MACHDEP_USER_UNWIND HWPERF_UNWIND_MIPS32
/* Whether TLB refills are exceptions the kernel counts (the MIPS TLB refill exception is software (arch/mips/tlbrefill.S)). */
#define MACHDEP_SOFT_TLB_REFILL 1
/* Whether a fast system call defers its accounting to 32-bit sums
 * (kernel/proc/acct.h acct_cut_syscall_short): each 64-bit sum costs a 32-bit
 * CPU seven instructions a call, a 32-bit one three. */
#define MACHDEP_ACCT_DEFERRED 1

#include <stdbool.h>
#include <stdint.h>

#include "pcpu.h"

/*
 * The running CPU's number is in Context.PTEBase (bits 31:23) and its
 * struct cpu (kernel/proc/task.h this_cpu) in ErrorEPC: smp.c writes
 * both, and both are per VPE on the 34K.  ErrorEPC is read only by an
 * eret with Status.ERL set, which Tally never does past start.S (a cache
 * error or NMI would end the kernel anyway), so it is a free word that
 * one mfc0 reads: this_cpu() costs what the constant &cpus_[0] did (lui),
 * where a table indexed by the number cost a one-CPU Malta 23 cycles a
 * null syscall (docs/costs.md).  Volatile, so that a read after a switch
 * is never merged with one before it.
 */
#define MACHDEP_CONTEXT_CPU_SHIFT 23
/* CP0 register numbers (cp0.h, checked in smp.c), as asm text. */
#define MACHDEP_CP0_CONTEXT  "4"
#define MACHDEP_CP0_ERROREPC "30"

static inline unsigned machdep_cpu_id(void)
{
	unsigned ctx;

	__asm__ volatile("mfc0 %0, $" MACHDEP_CP0_CONTEXT ", 0" : "=r"(ctx));
	return ctx >> MACHDEP_CONTEXT_CPU_SHIFT;
}

static inline void *machdep_cpu_local(void *cpu0)
{
	void *p;

	(void)cpu0;
	__asm__ volatile("mfc0 %0, $" MACHDEP_CP0_ERROREPC ", 0" : "=r"(p));
	return p;
}

/* Whether the running CPU's kernel-event word (kernel/pmu_kevent.h,
 * pcpu.h kevents) has any of bits: an mfc0 of DESAVE and a load, where
 * a shared word took a lui and a load.  pcpu_here is volatile: never
 * merged with a test across a switch. */
static inline bool machdep_kevents_any(uint32_t bits)
{
	return (pcpu_here()->kevents & bits) != 0;
}

#endif
