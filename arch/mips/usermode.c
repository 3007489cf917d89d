/*
 * usermode.c - user contexts in a struct trapframe: building one, the
 * system call ABI, and reading it back (arch_tf_* of arch_task.h).
 *
 * A user context is the same frame every exception saves (trapframe.h);
 * entering user mode the first time is "returning" through a frame whose
 * Status says KSU = user (arch_return_to_user in vectors.S).
 *
 * System call ABI (fixed, shared with arch/mips/user/syscall.S): number
 * in v0, arguments a0 a1 a2 a3 t0 t1, result in v0 (negative errno);
 * at, v1, t0-t9, hi and lo come back zero, every other register as it
 * was (trapframe.h TF_SYSCALL_CLOBBERED, docs/tasks.md).
 */
#include <string.h>

#include "arch.h"
#include "arch_task.h"
#include "branch.h"
#include "cp0.h"
#include "mips.h"
#include "syscall_nr.h"
#include "trapframe.h"
#include "user_status.h"

#define INSN_BYTES 4u


size_t arch_trapframe_size(void)
{
	return sizeof(struct trapframe);
}

void arch_tf_init_user(struct trapframe *tf, uintptr_t pc, uintptr_t sp,
		       uintptr_t arg0, uintptr_t arg1)
{
	memset(tf, 0, sizeof(*tf));
	tf->epc = (uint32_t)pc;
	tf->regs[REG_SP] = (uint32_t)sp;
	tf->regs[REG_A0] = (uint32_t)arg0;
	tf->regs[REG_A1] = (uint32_t)arg1;
	/* What a call through a register leaves in t9, for code that wants it. */
	tf->regs[REG_T9] = (uint32_t)pc;
	tf->status = mips_user_status(cp0_read_status());
}

uintptr_t arch_tf_pc(const struct trapframe *tf)
{
	return tf->epc;
}

uintptr_t arch_tf_sp(const struct trapframe *tf)
{
	return tf->regs[REG_SP];
}

/* 0, no frame pointer, while a system call's frame still lacks it
 * (trapframe.h TF_CAUSE_FULL): the user's fp lives on in a register
 * then.  (The MIPS user unwinder reads pc, sp and ra only.) */
uintptr_t arch_tf_fp(const struct trapframe *tf)
{
	return tf_callee_saved(tf) ? tf->regs[REG_FP] : 0;
}

uintptr_t arch_tf_ra(const struct trapframe *tf)
{
	return tf->regs[REG_RA];
}

uintptr_t arch_tf_syscall_nr(const struct trapframe *tf)
{
	return tf->regs[REG_V0];
}

/* Six words that a copy would only move (12 instructions a call). */
_Static_assert(REG_T0 == REG_A3 + 1 && REG_T1 == REG_T0 + 1 && REG_A3 == REG_A0 + 3,
	       "the argument registers lie in order in regs[]");
_Static_assert(sizeof(uintptr_t) == sizeof(uint32_t), "a register is a uintptr_t");

const syscall_arg_t *arch_tf_syscall_args(const struct trapframe *tf, uintptr_t buf[6])
{
	(void)buf;
	return (const syscall_arg_t *)&tf->regs[REG_A0];
}

/*
 * Where a syscall taken in a branch delay slot resumes (outside a slot it
 * is simply the next instruction).  EPC is the branch, which is decoded
 * from user memory with the registers as the syscall found them (the
 * frame is whole here: vectors.S sends a call in a slot this way with
 * s0-s7 and fp stored).  The branch ran a moment ago, so it is
 * readable; if it somehow is not, the task resumes after the slot,
 * which is what a branch not taken would do.
 */
static uint32_t resume_after_slot(const struct trapframe *tf)
{
	uint32_t insn, resume;

	if (mips_user_read_word(tf->epc, &insn) == 0 &&
	    mips_branch_resume(insn, tf->epc, tf->regs, &resume) == 0)
		return resume;
	return tf->epc + 2 * INSN_BYTES;
}

/*
 * Before the call and its cut, interrupts still off: the decode only
 * walks the page table (uaccess.c) to a page the branch just ran from,
 * and whatever runs before the cut is charged as the call's own.
 */
syscall_fn mips_syscall_slot(struct trapframe *tf)
{
	tf->epc = resume_after_slot(tf);
	/* EPC is now an instruction boundary of its own. */
	tf->cause &= ~CAUSE_BD;
	/* The frame holds the branch's registers, the clobbered ones too;
	 * fork's child copies it, so it gets the contract's zeros there as
	 * the entry's fork way makes them (fork reads no t0/t1 argument).
	 * Any other call's frame has them zeroed on the return work way,
	 * the only other way that reads the frame whole. */
	if (tf->regs[REG_V0] == SYS_fork)
		tf_zero_clobbered(tf);
	return mips_syscall(tf->regs[REG_V0]);
}

/*
 * Only the result: a system call's frame holds the address it resumes
 * at from the entry on (vectors.S, mips_syscall_slot), as a fork's
 * child's copy of it does.
 */
void arch_tf_set_return(struct trapframe *tf, intptr_t value)
{
	tf->regs[REG_V0] = (uint32_t)value;
}

void arch_tf_dump(const struct trapframe *tf)
{
	mips_dump_frame(tf);
}
