/*
 * user_fault.c - exception codes from user mode to signals (user_fault.h).
 */
#include <stdbool.h>

#include "addrspace.h"
#include "cp0.h"
#include "uabi.h"
#include "user_fault.h"

#define INSN_BYTES 4u

struct user_fault mips_user_fault(unsigned code, uint32_t badvaddr, uint32_t epc,
				  bool bd)
{
	/* With BD set, EPC is the branch and the culprit is in its slot. */
	uint32_t insn = bd ? epc + INSN_BYTES : epc;

	switch (code) {
	case EXC_ADEL:
	case EXC_ADES:
		if (badvaddr >= KSEG0_BASE)
			return (struct user_fault){ SIGSEGV, "access to a kernel address",
						    badvaddr };
		return (struct user_fault){ SIGBUS, "misaligned access", badvaddr };
	case EXC_IBE:
	case EXC_DBE:
		return (struct user_fault){ SIGBUS, "bus error", insn };
	case EXC_RI:
		return (struct user_fault){ SIGILL, "reserved instruction", insn };
	case EXC_CPU:
		return (struct user_fault){ SIGILL, "coprocessor unusable", insn };
	case EXC_MDMX:
	case EXC_MSADIS:
	case EXC_DSPDIS:
	case EXC_C2E:
		return (struct user_fault){ SIGILL, "unit not usable", insn };
	case EXC_BP:
		return (struct user_fault){ SIGTRAP, "breakpoint", insn };
	case EXC_WATCH:
		return (struct user_fault){ SIGTRAP, "watchpoint", badvaddr };
	case EXC_TR:
		return (struct user_fault){ SIGFPE, "trap instruction", insn };
	case EXC_OV:
		return (struct user_fault){ SIGFPE, "arithmetic overflow", insn };
	case EXC_FPE:
	case EXC_MSAFPE:
		return (struct user_fault){ SIGFPE, "floating point", insn };
	case EXC_TLBRI:
	case EXC_TLBXI:
		return (struct user_fault){ SIGSEGV, "page protection", badvaddr };
	case EXC_MCHECK:
	case EXC_CACHEERR:
		return (struct user_fault){ 0, "machine check or cache error", insn };
	}
	return (struct user_fault){ SIGILL, "unexpected exception", insn };
}
