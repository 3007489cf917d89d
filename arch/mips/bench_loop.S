/*
 * bench_loop.S - arch_bench_loop: a kernel-mode loop of known shape whose
 * cycle-counter cost is read inside the routine (see kernel/arch.h).
 *
 * One iteration is six instructions: a load of *cell, an add, a store
 * back, a decrement of the count, the branch back and its delay slot.
 *
 * Under qemu -icount shift=0 CP0 Count advances once per 6 instructions
 * (QEMU 7.2 rounds Malta's count clock to a 6 ns period), so Count read at
 * instruction number i is floor((i + c) / 6) for some phase c that nobody
 * controls.  Two reads d instructions apart differ by d / 6 exactly,
 * whatever c is, if and only if d is a multiple of 6.  So the routine is
 * laid out to make d a multiple of 6 for every n:
 *
 *	read 1                              instruction 0
 *	beqz, its delay slot                1, 2
 *	n iterations (n >= 1 only)          6n
 *	three nops                          3 more
 *	read 2                              instruction 6 + 6n
 *
 * With n = 0 the taken beqz skips straight to the nops, so read 2 is
 * instruction 6.  The reads differ by n + 1 ticks, the run at 0 by 1, and
 * the benchmark's difference is n: exact and repeatable, with no need to
 * start on a Count edge.  Without icount Count runs at half the CPU clock
 * and none of this holds; the benchmark's exact check then SKIPs.
 *
 * The same shape, in user mode, is user/loop.c's; arch_loop_shape below
 * describes both.
 */
#include "cp0.h"

#define INSNS_PER_ITER    6     /* lw, addiu, sw, addiu, bnez, delay-slot nop */
#define LOADS_PER_ITER    1
#define STORES_PER_ITER   1
#define BRANCHES_PER_ITER 1
#define INSNS_PER_TICK    6     /* Count at cpi=1 (see above) */

	.set	noreorder
	.text

/* uint32_t arch_bench_loop(uint32_t n, uint32_t *cell): a0 = n, a1 = cell;
 * returns the Count difference (mod 2^32). */
	.globl	arch_bench_loop
	.ent	arch_bench_loop
arch_bench_loop:
	mfc0	$t1, C0(CP0_COUNT)
	beqz	$a0, 2f
	nop
1:	lw	$t0, 0($a1)
	addiu	$t0, $t0, 1
	sw	$t0, 0($a1)
	addiu	$a0, $a0, -1
	bnez	$a0, 1b
	nop
2:	nop                             /* pad read-to-read distance to 6 + 6n */
	nop
	nop
	mfc0	$t2, C0(CP0_COUNT)
	jr	$ra
	subu	$v0, $t2, $t1
	.end	arch_bench_loop

/* struct arch_loop_shape (kernel/arch.h): five uint32_t, in this order. */
	.section .rodata
	.align	2
	.globl	arch_loop_shape
arch_loop_shape:
	.word	INSNS_PER_ITER
	.word	LOADS_PER_ITER
	.word	STORES_PER_ITER
	.word	BRANCHES_PER_ITER
	.word	INSNS_PER_TICK
