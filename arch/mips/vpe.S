/*
 * vpe.S - where a 34K VPE other than VPE 0 starts, and its exceptions.
 *
 * smp.c points the VPE's TC at mips_vpe_entry (TCRestart) before it lets
 * the VPE run, so it never passes through the loader's reset code.  It
 * comes in with the reset state of its own CP0 (Status.BEV and ERL set,
 * interrupts off, KSEG0), takes the stack smp.c left for its VPE number
 * (EBase.CPUNum) and calls mips_vpe_main(cpu).
 *
 * Booted with vpetasks, it joins the scheduler: that stack becomes its
 * idle task's, and its exceptions take CPU 0's vectors and entry
 * (vectors.S), which find this CPU's words through DESAVE (pcpu.h).
 *
 * Otherwise it runs no task (smp.c says why that is still the default):
 * every exception it takes arrives in kernel mode, on the stack it is
 * running on.  Its EBase names its own vector page, whose stubs jump to
 * mips_vpe_exc, which keeps a whole struct trapframe, so that a fault
 * can be dumped like any other, and calls mips_vpe_trap(tf).
 */
#include "cp0.h"
#include "trapframe.h"

#define WORD_SHIFT 2

	.set	noreorder
	.set	noat
	.text

	.globl	mips_vpe_entry
	.ent	mips_vpe_entry
mips_vpe_entry:
	li	$t0, ST_BEV
	mtc0	$t0, C0(CP0_STATUS)
	mtc0	$zero, C0(CP0_CAUSE)
	ehb
	mfc0	$a0, C0(CP0_PRID), CP0_SEL_EBASE
	andi	$a0, $a0, EBASE_CPUNUM_MASK
	/* A number past the table (CPU_MAX, smp.c) has no stack either. */
	la	$t0, mips_vpe_max
	lw	$t0, 0($t0)
	sltu	$t0, $a0, $t0
	beqz	$t0, 2f
	nop
	la	$t0, mips_vpe_stack_top
	sll	$t1, $a0, WORD_SHIFT
	addu	$t0, $t0, $t1
	lw	$sp, 0($t0)
	/* No stack for this number: smp.c did not start this VPE. */
	beqz	$sp, 2f
	nop
	move	$fp, $zero
	jal	mips_vpe_main
	move	$ra, $zero
2:
	wait
	b	2b
	nop
	.end	mips_vpe_entry
	/* Copied to the VPE's vector page (smp.c); works wherever it lands. */
	.globl	mips_vpe_vec_stub
	.globl	mips_vpe_vec_stub_end
mips_vpe_vec_stub:
	lui	$k0, %hi(mips_vpe_exc)
	addiu	$k0, $k0, %lo(mips_vpe_exc)
	jr	$k0
	nop
mips_vpe_vec_stub_end:

	.ent	mips_vpe_exc
mips_vpe_exc:
	move	$k1, $sp
	addiu	$sp, $sp, -TF_STACK
	sw	$k1, TF_ARGSAVE + TF_REG(REG_SP)($sp)
	sw	$zero, TF_ARGSAVE + TF_REG(REG_ZERO)($sp)
	sw	$zero, TF_ARGSAVE + TF_REG(REG_K0)($sp)
	sw	$zero, TF_ARGSAVE + TF_REG(REG_K1)($sp)
	.irp	r, 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,28,30,31
	sw	$\r, TF_ARGSAVE + TF_REG(\r)($sp)
	.endr
	mfhi	$t0
	mflo	$t1
	sw	$t0, TF_ARGSAVE + TF_HI($sp)
	sw	$t1, TF_ARGSAVE + TF_LO($sp)
	mfc0	$t0, C0(CP0_EPC)
	mfc0	$t1, C0(CP0_STATUS)
	mfc0	$t2, C0(CP0_CAUSE)
	mfc0	$t3, C0(CP0_BADVADDR)
	sw	$t0, TF_ARGSAVE + TF_EPC($sp)
	sw	$t1, TF_ARGSAVE + TF_STATUS($sp)
	sw	$t2, TF_ARGSAVE + TF_CAUSE($sp)
	sw	$t3, TF_ARGSAVE + TF_BADVADDR($sp)
	/* Off exception level, interrupts still off, for the C handler. */
	li	$t2, ~(ST_EXL | ST_KSU_MASK | ST_IE)
	and	$t1, $t1, $t2
	mtc0	$t1, C0(CP0_STATUS)
	ehb
	jal	mips_vpe_trap
	addiu	$a0, $sp, TF_ARGSAVE

	di
	ehb
	/* Back to the frame's mode and enable, with the current mask. */
	lw	$t0, TF_ARGSAVE + TF_STATUS($sp)
	mfc0	$t1, C0(CP0_STATUS)
	li	$t2, ST_IM_MASK
	and	$t1, $t1, $t2
	nor	$t2, $t2, $zero
	and	$t0, $t0, $t2
	or	$t0, $t0, $t1
	ori	$t0, $t0, ST_EXL
	mtc0	$t0, C0(CP0_STATUS)
	ehb
	lw	$t0, TF_ARGSAVE + TF_EPC($sp)
	mtc0	$t0, C0(CP0_EPC)
	lw	$t0, TF_ARGSAVE + TF_HI($sp)
	lw	$t1, TF_ARGSAVE + TF_LO($sp)
	mthi	$t0
	mtlo	$t1
	.irp	r, 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,28,30,31
	lw	$\r, TF_ARGSAVE + TF_REG(\r)($sp)
	.endr
	lw	$sp, TF_ARGSAVE + TF_REG(REG_SP)($sp)
	eret
	nop
	.end	mips_vpe_exc
