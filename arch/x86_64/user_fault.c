/*
 * user_fault.c - which signal a CPU exception in ring 3 becomes.
 *
 * As on other Unix-like systems on x86: arithmetic faults are SIGFPE,
 * undefined or unavailable instructions SIGILL, breakpoints and debug
 * traps SIGTRAP, alignment checks SIGBUS, and every protection fault
 * SIGSEGV.  A privileged instruction (wrmsr, hlt, cli, in/out) in ring 3
 * raises #GP, not #UD, so it is SIGSEGV here as on Linux; so is a load
 * through a non-canonical address (#GP, or #SS for the stack).  x87 and
 * SSE are switched off for user programs (usermode.c), so trying them is
 * SIGILL.  Page faults do not come here: kernel/entry.c decides those.
 */
#include "trap.h"
#include "uabi.h"

int user_fault_signal(uint64_t vector)
{
	switch (vector) {
	case VEC_DIVIDE:
	case VEC_FPU_ERROR:
	case VEC_SIMD:
		return SIGFPE;
	case VEC_DEBUG:
	case VEC_BREAKPOINT:
		return SIGTRAP;
	case VEC_INVALID_OP:
	case VEC_NO_FPU:
		return SIGILL;
	case VEC_ALIGNMENT:
		return SIGBUS;
	default:
		return SIGSEGV;
	}
}
