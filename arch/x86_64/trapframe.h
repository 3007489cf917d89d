/*
 * trapframe.h - the registers saved on every trap, in stack order.
 *
 * arch/x86_64/trapentry.asm builds it: the CPU pushes ss..rip (and an
 * error code for some exceptions), the stub pushes a 0 error code where
 * the CPU does not plus the vector, and the common code pushes all
 * general-purpose registers.  syscall_entry.asm builds the same frame
 * for SYSCALL (vector TRAP_SYSCALL), so a trap from ring 3 of either kind
 * leaves it at the same place, the top of the task's kernel stack, and
 * the user context is always this struct.  A field added in front of rax
 * is pushed last by trap_common and syscall_entry and popped first by
 * trap_return; the asserts below keep the files in step.
 */
#ifndef TALLY_X86_64_TRAPFRAME_H
#define TALLY_X86_64_TRAPFRAME_H

#include <stddef.h>
#include <stdint.h>

struct trapframe {
	/* pushed by trap_common, last pushed first */
	uint64_t rax, rbx, rcx, rdx, rsi, rdi, rbp;
	uint64_t r8, r9, r10, r11, r12, r13, r14, r15;
	/* pushed by the per-vector stub */
	uint64_t vector;
	uint64_t error;
	/* pushed by the CPU */
	uint64_t rip, cs, rflags, rsp, ss;
};

/* trapentry.asm hard-codes these. */
_Static_assert(offsetof(struct trapframe, vector) == 15 * 8, "GPR block");
_Static_assert(offsetof(struct trapframe, rip) == 17 * 8, "stub block");
_Static_assert(sizeof(struct trapframe) % 16 == 0, "keeps RSP 16-aligned for C");

#endif
