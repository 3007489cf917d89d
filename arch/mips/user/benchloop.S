/*
 * benchloop.S - tally_bench_loop(n, cell): n turns of the benchmark loop,
 * for user/loop.c.  One turn is the shape of the kernel's arch_bench_loop:
 * lw, addiu, sw, addiu, bnez and its delay-slot nop -- 6 instructions.
 * t0 is scratch (caller-saved); a0 the count, a1 the cell.
 */
	.set	noreorder
	.text

	.globl	tally_bench_loop
	.ent	tally_bench_loop
tally_bench_loop:
	beqz	$a0, 2f
	nop
1:
	lw	$t0, 0($a1)
	addiu	$t0, $t0, 1
	sw	$t0, 0($a1)
	addiu	$a0, $a0, -1
	bnez	$a0, 1b
	nop
2:
	jr	$ra
	nop
	.end	tally_bench_loop
