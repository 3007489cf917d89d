/*
 * switch.S - arch_switch, and the first instructions a new kernel stack
 * runs (switch.h has the frame).
 */
#include "cp0.h"
#include "switch.h"

	.set	noreorder
	.text

	/* void arch_switch(uintptr_t *from_sp, uintptr_t to_sp) */
	.globl	arch_switch
	.ent	arch_switch
arch_switch:
	addiu	$sp, $sp, -SW_FRAME
	sw	$s0, SW_REG(0)($sp)
	sw	$s1, SW_REG(1)($sp)
	sw	$s2, SW_REG(2)($sp)
	sw	$s3, SW_REG(3)($sp)
	sw	$s4, SW_REG(4)($sp)
	sw	$s5, SW_REG(5)($sp)
	sw	$s6, SW_REG(6)($sp)
	sw	$s7, SW_REG(7)($sp)
	sw	$fp, SW_FP($sp)
	sw	$ra, SW_RA($sp)
	sw	$sp, 0($a0)
	move	$sp, $a1
	lw	$s0, SW_REG(0)($sp)
	lw	$s1, SW_REG(1)($sp)
	lw	$s2, SW_REG(2)($sp)
	lw	$s3, SW_REG(3)($sp)
	lw	$s4, SW_REG(4)($sp)
	lw	$s5, SW_REG(5)($sp)
	lw	$s6, SW_REG(6)($sp)
	lw	$s7, SW_REG(7)($sp)
	lw	$fp, SW_FP($sp)
	lw	$ra, SW_RA($sp)
	jr	$ra
	addiu	$sp, $sp, SW_FRAME
	.end	arch_switch

	/*
	 * arch_kstack_init left entry in s0 and its argument in s1, and sp
	 * with an argument save area above it.  entry must not return; if
	 * it does, kstack.c says so instead of running off the stack.
	 */
	.globl	mips_kstack_first_entry
	.ent	mips_kstack_first_entry
mips_kstack_first_entry:
	ei
	ehb
	jalr	$s0
	move	$a0, $s1
	jal	mips_kstack_entry_returned
	nop
	.end	mips_kstack_first_entry
