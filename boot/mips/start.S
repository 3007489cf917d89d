/*
 * start.S - first instructions on Malta, straight from YAMON or QEMU's
 * -kernel loader.
 *
 * Entry: a0 = argc (0xffffffff when QEMU runs with -semihosting, meaning
 * "ask UHI"), a1 = argv, a2 = envp, a3 = RAM size; KSEG0, Status.BEV and
 * usually ERL set, interrupts off.  These four registers are the only
 * description of the machine we get, so they are kept in s0..s3 while the
 * BSS (which holds the stack) is cleared, and then handed to C.
 */
#include "cp0.h"

#define BOOT_STACK_SIZE 16384

	.set	noreorder

	.section .text.start, "ax"
	.globl	_start
	.ent	_start
_start:
	/*
	 * A known Status before anything else: kernel mode, interrupts off,
	 * boot vectors until trap.c installs ours.  ERL must go: with ERL set
	 * kuseg is unmapped and eret would return through ErrorEPC.
	 */
	li	$t0, ST_BEV
	mtc0	$t0, C0(CP0_STATUS)
	ehb

	/*
	 * QEMU's loader starts every CPU of -smp N at the kernel entry, and
	 * two CPUs clearing one BSS on one stack corrupt each other.  Only
	 * CPU 0 boots; the others wait with interrupts off until an SMP
	 * bring-up gives them somewhere to go.  CPU numbers are in EBase,
	 * which exists from Release 2 (an R1 core is always alone here).
	 */
	mfc0	$t0, C0(CP0_CONFIG)
	andi	$t0, $t0, CONFIG_AR_MASK
	beqz	$t0, 5f
	nop
	mfc0	$t0, C0(CP0_PRID), CP0_SEL_EBASE
	andi	$t0, $t0, EBASE_CPUNUM_MASK
	bnez	$t0, mips_secondary_park
	nop
5:
	/* Count running, no software interrupts pending, general vector. */
	mtc0	$zero, C0(CP0_CAUSE)
	ehb

	move	$s0, $a0
	move	$s1, $a1
	move	$s2, $a2
	move	$s3, $a3

	/*
	 * Word stores; __bss_end need not be word aligned, and the few bytes
	 * past it are still inside the page-aligned image.
	 */
	la	$t0, __bss_start
	la	$t1, __bss_end
	b	2f
	nop
1:
	sw	$zero, 0($t0)
	addiu	$t0, $t0, 4
2:
	sltu	$t2, $t0, $t1
	bnez	$t2, 1b
	nop
	la	$sp, mips_boot_stack_top
	move	$fp, $zero
	move	$ra, $zero

	move	$a0, $s0
	move	$a1, $s1
	move	$a2, $s2
	jal	mips_boot
	move	$a3, $s3

	/* mips_boot never returns; stop here rather than run off the end. */
3:
	wait
	b	3b
	nop
	.end	_start

	.globl	mips_secondary_park
	.ent	mips_secondary_park
mips_secondary_park:
	wait
	b	mips_secondary_park
	nop
	.end	mips_secondary_park

	.bss
	.balign	16
	.globl	mips_boot_stack
mips_boot_stack:
	.space	BOOT_STACK_SIZE
	.globl	mips_boot_stack_top
mips_boot_stack_top:
