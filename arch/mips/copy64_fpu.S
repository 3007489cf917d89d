/*
 * copy64_fpu.S - mips_copy_fill_fpu32: arch_copy_fill_u64's (copy64.c) copy
 * through the FPU's 64-bit loads and stores.
 *
 * MIPS32 moves a word an instruction through the integer registers, so
 * hwperf's full-set read (768 bytes: 32 counts, 32 enabled, 32 running)
 * took 320 loads and stores; ldc1/sdc1 move eight bytes, which halves
 * them.  Tally runs soft-float (user mode never gets CU1: user_status.h),
 * so the FPU holds nobody's state: CU1 is set for the copy and Status put
 * back after it, and the registers need no saving.  Only even registers
 * are named, so the copy is the same whether Status.FR pairs them or not.
 *
 *	a0  dst, 8-aligned: dst[0..32) = src[0..32), dst[32..64) = *fill,
 *	    dst[64..96) = src[64..96)
 *	a1  src, 8-aligned
 *	a2  fill, a pointer to one 8-aligned 64-bit value
 *
 * For 32 words a third only, hwperf's one size (HWPERF_NVCTR): unrolled
 * whole, every offset a constant, so no instruction is the loop's.
 *
 * The caller has checked that the CPU has an FPU (copy64.c) and runs
 * with interrupts off or at least without anything that writes Status
 * meanwhile: the Status read here is the one written back.
 */
#include "cp0.h"

	.set	noreorder
	.set	push
	.set	hardfloat
	.text

	.globl	mips_copy_fill_fpu32
	.ent	mips_copy_fill_fpu32
mips_copy_fill_fpu32:
	mfc0	$t0, $12
	lui	$t1, ST_CU1 >> 16
	or	$t1, $t0, $t1
	mtc0	$t1, $12
	ehb
	ldc1	$f0, 0($a2)
	/* Eight words at a time through eight even registers, a third at
	 * a time: counts, the fill, running. */
	.irp	o, 0, 64, 128, 192, 512, 576, 640, 704
	ldc1	$f2, (\o + 0)($a1)
	ldc1	$f4, (\o + 8)($a1)
	ldc1	$f6, (\o + 16)($a1)
	ldc1	$f8, (\o + 24)($a1)
	ldc1	$f10, (\o + 32)($a1)
	ldc1	$f12, (\o + 40)($a1)
	ldc1	$f14, (\o + 48)($a1)
	ldc1	$f16, (\o + 56)($a1)
	sdc1	$f2, (\o + 0)($a0)
	sdc1	$f4, (\o + 8)($a0)
	sdc1	$f6, (\o + 16)($a0)
	sdc1	$f8, (\o + 24)($a0)
	sdc1	$f10, (\o + 32)($a0)
	sdc1	$f12, (\o + 40)($a0)
	sdc1	$f14, (\o + 48)($a0)
	sdc1	$f16, (\o + 56)($a0)
	.endr
	.irp	o, 256, 288, 320, 352, 384, 416, 448, 480
	sdc1	$f0, (\o + 0)($a0)
	sdc1	$f0, (\o + 8)($a0)
	sdc1	$f0, (\o + 16)($a0)
	sdc1	$f0, (\o + 24)($a0)
	.endr
	mtc0	$t0, $12
	jr	$ra
	ehb
	.end	mips_copy_fill_fpu32

	.set	pop
