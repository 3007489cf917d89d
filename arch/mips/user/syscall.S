/*
 * syscall.S - the MIPS system call trap for user programs.
 *
 * Tally's ABI: number in v0, arguments a0 a1 a2 a3 t0 t1, result in v0
 * (negative errno on failure); at, v1, t0-t9, hi and lo come back zero
 * (docs/tasks.md, "The system call contract"), which a called function
 * may clobber anyway under O32.  O32 passes __syscall6's first four
 * arguments in a0..a3 and the rest at 16(sp), 20(sp), 24(sp).
 */
#include "kernel/syscall_nr.h"

#define O32_STACK_ARG(n) (16 + 4 * (n))

	.set	noreorder
	.text

	/* long __syscall6(long nr, long a0, long a1, long a2, long a3, long a4, long a5) */
	.globl	__syscall6
	.ent	__syscall6
__syscall6:
	move	$v0, $a0
	move	$a0, $a1
	move	$a1, $a2
	move	$a2, $a3
	lw	$a3, O32_STACK_ARG(0)($sp)
	lw	$t0, O32_STACK_ARG(1)($sp)
	lw	$t1, O32_STACK_ARG(2)($sp)
	syscall
	jr	$ra
	nop
	.end	__syscall6

	/*
	 * A signal handler returns here; the kernel's saved context sits at
	 * sp, so this must not touch the stack.
	 */
	.globl	__sigreturn_trampoline
	.ent	__sigreturn_trampoline
__sigreturn_trampoline:
	li	$v0, SYS_sigreturn
	syscall
	break			/* sigreturn does not return here */
	.end	__sigreturn_trampoline
