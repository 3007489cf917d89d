/*
 * ucounters.S - the counter reads user mode may make itself (the hwperf
 * read page, kernel/hwperf/abi.h): RDHWR $2, CP0 Count (32 bits), allowed
 * only in a task that mapped its read page (HWREna.CC), else a reserved
 * instruction exception.
 */
#define HWR_CC 2

	.set	noreorder
	.set	mips32r2
	.text

	/* unsigned long hwp_ucycles(void): the cycle counter, 32 bits. */
	.globl	hwp_ucycles
	.ent	hwp_ucycles
hwp_ucycles:
	rdhwr	$v0, $HWR_CC
	jr	$ra
	nop
	.end	hwp_ucycles

	/* unsigned long hwp_uguarded(void): the read only a mapped task may
	 * make -- here the same RDHWR. */
	.globl	hwp_uguarded
	.ent	hwp_uguarded
hwp_uguarded:
	rdhwr	$v0, $HWR_CC
	jr	$ra
	nop
	.end	hwp_uguarded

	/* unsigned long hwp_urdpmc(uint32_t index): MIPS has no user-mode
	 * read of a performance counter (PerfCnt is CP0), so the kernel never
	 * tells a reader to make one; this only completes the user library's
	 * interface (tally_hwperf.h) and answers 0. */
	.globl	hwp_urdpmc
	.ent	hwp_urdpmc
hwp_urdpmc:
	jr	$ra
	move	$v0, $zero
	.end	hwp_urdpmc
