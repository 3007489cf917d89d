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

/* Malta runs one CPU (arch/mips/smp.c says why). */
static inline unsigned machdep_cpu_id(void)
{
	return 0;
}

static inline void *machdep_cpu_local(void *cpu0)
{
	return cpu0;
}

#endif
