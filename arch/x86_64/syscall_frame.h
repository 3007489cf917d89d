/*
 * syscall_frame.h - the words of a SYSCALL frame the entry stub leaves
 * unwritten (syscall_entry.asm), and filling them.
 *
 * The stub skips four words, which trapframe.h keeps together right
 * below RIP: the vector and error code, which only an interrupt's own
 * frame is dispatched by, and RCX and R11, which SYSCALL overwrote with
 * RIP and RFLAGS and the ABI does not keep (user_machdep.h).  Until
 * filled they hold the same task's older user values (an interrupt's,
 * an earlier call's, or what fork copied or spawn zeroed), never
 * anything of the kernel's.  SYSRET reads none of them; every other way
 * out of a system call fills them first (syscall_entry.c).  A child
 * forked meanwhile starts with its parent's older RCX and R11, which the
 * ABI leaves undefined after a call.
 */
#ifndef TALLY_X86_64_SYSCALL_FRAME_H
#define TALLY_X86_64_SYSCALL_FRAME_H

#include "trap.h"
#include "trapframe.h"

/* After sigreturn replaced the frame: RCX and R11 are the context's. */
static inline void syscall_frame_mark(struct trapframe *tf)
{
	tf->vector = TRAP_SYSCALL;
	tf->error = 0;
}

/* Before return work: RCX and R11 as SYSRET would leave them, so a
 * signal's saved context shows them so, and SYSRET still fits after. */
static inline void syscall_frame_complete(struct trapframe *tf)
{
	syscall_frame_mark(tf);
	tf->rcx = tf->rip;
	tf->r11 = tf->rflags;
}

#endif
