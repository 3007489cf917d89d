/*
 * user_fault.h - which signal an exception from user mode means, for the
 * exceptions that are not system calls, interrupts or TLB faults.
 *
 *   AdEL/AdES on a kuseg address   SIGBUS   (misaligned access or fetch)
 *   AdEL/AdES on a KSEG address    SIGSEGV  (user mode may not go there)
 *   IBE/DBE                        SIGBUS
 *   RI, CpU and other unusable     SIGILL   (CpU: e.g. mtc0, or the FPU of
 *     units (MDMX, MSA, DSP)                  a -msoft-float world)
 *   Bp                             SIGTRAP
 *   Tr, Ov, FPE, MSAFPE            SIGFPE   (teq ..., 7 is divide by zero)
 *   TLBRI/TLBXI                    SIGSEGV  (RI/XI are not enabled; kept
 *                                             for cores that force them)
 *   WATCH                          SIGTRAP
 *   MCheck, CacheErr               none: a machine problem, not the task's
 *
 * Pure; host tested.
 */
#ifndef TALLY_MIPS_USER_FAULT_H
#define TALLY_MIPS_USER_FAULT_H

#include <stdbool.h>
#include <stdint.h>

struct user_fault {
	int signo;              /* 0: not the task's fault; the kernel panics */
	const char *what;       /* for the fault report */
	uintptr_t addr;         /* the address the report names */
};

/* code: Cause.ExcCode; epc, bd: where it happened (bd: Cause.BD). */
struct user_fault mips_user_fault(unsigned code, uint32_t badvaddr, uint32_t epc,
				  bool bd);

#endif
