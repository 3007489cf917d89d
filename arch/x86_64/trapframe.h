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
 *
 * The general-purpose registers lie with the system call's arguments
 * first and in the ABI's order (rdi, rsi, rdx, r10, r8, r9, after the
 * number in rax), so the kernel reads them in place as an array
 * (usermode.c arch_tf_syscall_args) instead of copying them out.
 */
#ifndef TALLY_X86_64_TRAPFRAME_H
#define TALLY_X86_64_TRAPFRAME_H

#include <stddef.h>
#include <stdint.h>

struct trapframe {
	/* pushed by trap_common, last pushed first */
	uint64_t rax;
	uint64_t rdi, rsi, rdx, r10, r8, r9;    /* the system call's arguments */
	uint64_t rbx, rbp, r12, r13, r14, r15;
	/* Next to vector and error: syscall_entry.asm skips the four
	 * (syscall_frame.h). */
	uint64_t rcx, r11;
	/* pushed by the per-vector stub */
	uint64_t vector;
	uint64_t error;
	/* pushed by the CPU */
	uint64_t rip, cs, rflags, rsp, ss;
};

/* trapentry.asm and syscall_entry.asm hard-code these. */
_Static_assert(offsetof(struct trapframe, rdi) == 1 * 8 && offsetof(struct trapframe, r9) == 6 * 8,
	       "arguments in ABI order right above rax");
_Static_assert(offsetof(struct trapframe, rdx) == 3 * 8 && offsetof(struct trapframe, rcx) == 13 * 8 &&
	       offsetof(struct trapframe, r11) == 14 * 8, "syscall_entry.asm's TF_ offsets");
_Static_assert(offsetof(struct trapframe, vector) == offsetof(struct trapframe, r11) + 8 &&
	       offsetof(struct trapframe, error) + 8 == offsetof(struct trapframe, rip),
	       "rcx, r11, vector and error lie together, right below rip");
_Static_assert(offsetof(struct trapframe, vector) == 15 * 8, "GPR block");
_Static_assert(offsetof(struct trapframe, rip) == 17 * 8, "stub block");
_Static_assert(sizeof(struct trapframe) % 16 == 0, "keeps RSP 16-aligned for C");

#endif
