/*
 * trapframe.h - the registers saved on every exception or interrupt.
 *
 * The frame holds the whole user-visible state (all GPRs, HI, LO) plus the
 * CP0 registers that describe the exception, so the same frame serves a
 * kernel fault dump today and a user task's saved context later: a system
 * call reads its arguments from regs[REG_A0..] and writes results to
 * regs[REG_V0], a context switch returns through mips_trap_return with
 * another task's frame, and entering user mode for the first time is
 * building a frame whose status has KSU = user and "returning" through it.
 *
 * The assembler offsets below must match the struct; trap.c checks them at
 * compile time.
 */
#ifndef TALLY_MIPS_TRAPFRAME_H
#define TALLY_MIPS_TRAPFRAME_H

/* GPR numbers, as indices into regs[] (the O32 names). */
#define REG_ZERO 0
#define REG_AT   1
#define REG_V0   2
#define REG_V1   3
#define REG_A0   4
#define REG_A1   5
#define REG_A2   6
#define REG_A3   7
#define REG_T0   8
#define REG_T1   9
#define REG_T7   15
#define REG_S0   16
#define REG_S7   23
#define REG_T8   24
#define REG_T9   25
#define REG_K0   26
#define REG_K1   27
#define REG_GP   28
#define REG_SP   29
#define REG_FP   30
#define REG_RA   31
#define REG_COUNT 32

#define TF_WORD      4
#define TF_REG(n)    ((n) * TF_WORD)
#define TF_HI        (REG_COUNT * TF_WORD)
#define TF_LO        (TF_HI + TF_WORD)
#define TF_EPC       (TF_LO + TF_WORD)
#define TF_STATUS    (TF_EPC + TF_WORD)
#define TF_CAUSE     (TF_STATUS + TF_WORD)
#define TF_BADVADDR  (TF_CAUSE + TF_WORD)
/* Two spare words keep the frame a multiple of 8 (the O32 stack alignment). */
#define TF_SIZE      (TF_BADVADDR + 3 * TF_WORD)

/*
 * The system call contract (docs/tasks.md, "The system call contract"):
 * a system call hands back every register but v0 (its result) and
 * these, which it clobbers as the O32 system call convention of Linux
 * and glibc does: at, v1, t0-t9, hi and lo.  The kernel sets them to
 * zero on the way back, never leaving a kernel value in them, so the
 * entry (vectors.S) need not save them and the return need not reload
 * them.  t0 and t1 still carry a call's fifth and sixth arguments in.
 * A bit for each register number; hi and lo go with them.
 */
#define TF_SYSCALL_CLOBBERED ((1u << REG_AT) | (1u << REG_V1) |			\
			      (((1u << (REG_T7 - REG_T0 + 1)) - 1) << REG_T0) |	\
			      (1u << REG_T8) | (1u << REG_T9))

/*
 * A system call's frame may lack s0-s7 and fp, and holds no copy of
 * the clobbered registers above but t0 and t1: the entry (vectors.S)
 * leaves s0-s7 and fp live in their registers, where C code keeps
 * them, and stores them, with the clobbered words as the contract
 * leaves them (zero), only on the ways that need the whole frame: fork
 * (its child copies the frame), return work (a signal frame is built
 * from the frame, sigreturn rewrites it) and the way back through
 * mips_trap_return.  A frame so completed, or rewritten whole
 * (sigreturn's), has this bit set in its Cause word, where the
 * hardware's bits 0-1 always read zero; a system call's entry stores a
 * fresh Cause, clearing it.  Any other frame (an interrupt's, an
 * exception's, a new task's) is whole anyway.  tf_callee_saved tells
 * the two apart.
 */
#define TF_CAUSE_FULL 0x1

/*
 * kernel/syscall.h SYSCALL_FRAME_REPLACED as the system call's return
 * (vectors.S) builds it: one lui, its low half being zero (trap.c
 * checks the two agree).
 */
#define TF_SYSCALL_REPLACED_HI 0xc000

/*
 * The exception entry reserves the O32 argument save area below the frame,
 * since it calls C with the frame as the first argument.
 */
#define TF_ARGSAVE   16
#define TF_STACK     (TF_ARGSAVE + TF_SIZE)

#ifndef __ASSEMBLY__

#include <stdbool.h>
#include <stdint.h>

#include "cp0.h"
#include "syscall.h"

struct trapframe {
	uint32_t regs[REG_COUNT];  /* regs[0] is stored as 0; k0/k1 are not kept */
	uint32_t hi;
	uint32_t lo;
	uint32_t epc;              /* where eret resumes */
	uint32_t status;           /* at the exception: EXL set, KSU and IE as before */
	uint32_t cause;
	uint32_t badvaddr;
	uint32_t spare[2];
};

/* Called by the exception entry in vectors.S, with interrupts off. */
void mips_trap(struct trapframe *tf);
/* The same for a system call from user mode (trap.c): the cut, and the
 * handler to call, which the entry calls (kernel/syscall.h syscall_fn:
 * the arguments in the frame, and the frame); interrupts are on for it,
 * or the handler turns them on itself.  nr is the call's number. */
syscall_fn mips_syscall(uintptr_t nr);
/* The same for a call in a branch delay slot (usermode.c), the frame
 * whole: EPC moved to where the branch resumes first. */
syscall_fn mips_syscall_slot(struct trapframe *tf);
/* A call whose handler replaced the frame (sigreturn), interrupts off:
 * the return work's checks, and the frame back whole.  Never returns. */
void mips_syscall_replaced(struct trapframe *tf) __attribute__((noreturn));

/* Whether the frame's s0-s7 and fp words are the context's (see
 * TF_CAUSE_FULL): always, but for a system call's until completed. */
_Static_assert((TF_CAUSE_FULL & (CAUSE_EXC_MASK | CAUSE_IP_MASK | CAUSE_IV | CAUSE_PCI |
				  CAUSE_DC | CAUSE_CE_MASK | CAUSE_TI | CAUSE_BD)) == 0,
	       "TF_CAUSE_FULL is a bit the hardware never sets");

static inline bool tf_callee_saved(const struct trapframe *tf)
{
	return ((tf->cause & CAUSE_EXC_MASK) >> CAUSE_EXC_SHIFT) != EXC_SYS ||
	       (tf->cause & TF_CAUSE_FULL) != 0;
}

/* The registers a system call clobbers, in the frame, as the contract
 * leaves them: zero (the C twin of vectors.S ZERO_CLOBBERED_WORDS). */
static inline void tf_zero_clobbered(struct trapframe *tf)
{
	for (unsigned r = 0; r < REG_COUNT; r++)
		if (TF_SYSCALL_CLOBBERED & (1u << r))
			tf->regs[r] = 0;
	tf->hi = 0;
	tf->lo = 0;
}

/*
 * The stack an exception from user mode (Status.UM set) switches to is
 * the running task's kernel stack, set by arch_set_kernel_stack at every
 * switch to a user task: the CPU's kframe word (pcpu.h) is its top less
 * TF_STACK, so the frame sits at its very top, where kernel/proc/proc.c
 * builds a new task's first one.
 */

#endif /* !__ASSEMBLY__ */
#endif
