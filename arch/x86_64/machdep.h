/*
 * machdep.h - the few machine constants portable code takes from the arch,
 * so that kernel/ holds no #if on the architecture.
 */
#ifndef TALLY_MACHDEP_H
#define TALLY_MACHDEP_H

/* ELF e_machine of the programs Tally runs (EM_X86_64). */
#define MACHDEP_ELF_MACHINE 62
/* How a user call chain is walked (kernel/hwperf/sample.h): the frame
 * pointer chain of x86-64's rbp, two 64-bit words per frame. */
#define MACHDEP_USER_UNWIND HWPERF_UNWIND_FP64
/* Whether TLB refills are exceptions the kernel counts (x86 walks page tables in hardware: no refill exception to count). */
#define MACHDEP_SOFT_TLB_REFILL 0
/* Whether a fast system call defers its accounting to 32-bit sums
 * (kernel/proc/acct.h acct_cut_syscall_short): a 64-bit add is one instruction
 * here, so no. */
#define MACHDEP_ACCT_DEFERRED 0

#include <stdbool.h>
#include <stdint.h>

#include "percpu.h"

/* The running CPU's number: one load through GS (percpu.h). */
static inline unsigned machdep_cpu_id(void)
{
	unsigned v;

	__asm__ volatile("movl %%gs:%c1, %0" : "=r"(v) : "i"(PERCPU_ID));
	return v;
}

/*
 * Whether the running CPU's kernel-event word (kernel/pmu_kevent.h,
 * percpu.h kevents) has any of bits: one test of the word in place, GS
 * relative, and the flag as the result, so a gate is a test and a branch
 * as it was with a shared word.  Volatile: never merged with a test
 * across a switch, which changes GS.
 */
static inline bool machdep_kevents_any(uint32_t bits)
{
	bool any;

	__asm__ volatile("testl %1, %%gs:%c2" : "=@ccnz"(any) : "ri"(bits), "i"(PERCPU_KEVENTS));
	return any;
}

/* The running CPU's struct cpu (kernel/proc/task.h this_cpu): one load
 * through GS; cpu0 is for machines that run one CPU. */
static inline void *machdep_cpu_local(void *cpu0)
{
	void *p;

	(void)cpu0;
	__asm__ volatile("movq %%gs:%c1, %0" : "=r"(p) : "i"(PERCPU_LOCAL));
	return p;
}

#endif
