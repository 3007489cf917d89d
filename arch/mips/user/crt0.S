/*
 * crt0.S - where every MIPS user program starts.
 *
 * The kernel enters at _start with argc in a0 and argv in a1 (its
 * arch_tf_init_user puts them there), sp just below argv.  main's return
 * value becomes the exit code.
 */
#define O32_ARG_SAVE 16         /* callee may store a0..a3 here */
#define STACK_ALIGN_MASK (-8)

	.set	noreorder
	.section .text.start, "ax"
	.globl	_start
	.ent	_start
_start:
	li	$t0, STACK_ALIGN_MASK
	and	$sp, $sp, $t0
	addiu	$sp, $sp, -O32_ARG_SAVE
	jal	main
	nop
	jal	exit
	move	$a0, $v0                /* in the delay slot: main's result */
1:	b	1b                      /* exit does not return */
	nop
	.end	_start
