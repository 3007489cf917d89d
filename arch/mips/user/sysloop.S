/*
 * sysloop.S - tally_sysloop(n): n null system calls (getppid) in a loop
 * of known shape, for user/sysloop.c and the ucut benchmark.  One
 * iteration is 5 user-mode instructions: li, syscall, addiu, bnez and its
 * delay-slot nop (arch/mips/user_span.c arch_user_cut.sysloop_insns).
 * The kernel returns the result in v0 and gives back a0 as it went
 * (docs/tasks.md, "The system call contract"), so the count stays there.
 */
#include "kernel/syscall_nr.h"

	.set	noreorder
	.text

	.globl	tally_sysloop
	.ent	tally_sysloop
tally_sysloop:
	beqz	$a0, 2f
	nop
1:
	li	$v0, SYS_getppid
	syscall
	addiu	$a0, $a0, -1
	bnez	$a0, 1b
	nop
2:
	jr	$ra
	nop
	.end	tally_sysloop
