/*
 * branch.h - where a branch sends execution, for an exception taken in
 * its delay slot.
 *
 * With Cause.BD set, EPC is the branch, not the faulting instruction.
 * Returning to EPC runs the branch again, which is right for a fault
 * that is retried; but a system call in a delay slot has been done, and
 * must resume after the slot: at the branch's target if it is taken, else
 * after the slot.  The registers are those at the exception, which are
 * the ones the branch read (a link register it wrote is not one the
 * architecture lets it read).  Pure; host tested.
 */
#ifndef TALLY_MIPS_BRANCH_H
#define TALLY_MIPS_BRANCH_H

#include <stdint.h>

/*
 * insn at pc is the branch; regs the 32 GPRs.  Sets *resume and returns 0,
 * or returns -1 if insn is not a branch or jump with a delay slot.
 */
int mips_branch_resume(uint32_t insn, uint32_t pc, const uint32_t regs[32],
		       uint32_t *resume);

#endif
