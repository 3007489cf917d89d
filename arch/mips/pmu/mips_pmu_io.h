/*
 * mips_pmu_io.h - how the MIPS PMU drivers reach coprocessor 0.
 *
 * Every MFC0/MTC0 of mips32.c and r10k.c goes through mips_pmu_io, so the
 * same driver source runs in the kernel (mips_pmu_native.c) and in host
 * unit tests (a double that records every access and plays back the PRId
 * and Config values of real cores).  Registers are named by CP0 number
 * and select, as in the manuals: PerfCtl n is (25, 2n), PerfCnt n is
 * (25, 2n + 1).  The R10000's MTPC/MFPC encode the same two numbers.
 */
#ifndef TALLY_MIPS_PMU_IO_H
#define TALLY_MIPS_PMU_IO_H

#include <stdint.h>

struct mips_pmu_io {
	uint32_t (*read)(unsigned reg, unsigned sel);
	void (*write)(unsigned reg, unsigned sel, uint32_t value);
	/*
	 * Whole 64-bit PerfCnt registers (DMFC0/DMTC0).  NULL where the kernel
	 * cannot reach them: a MIPS32 kernel sees the low 32 bits only.
	 */
	uint64_t (*read64)(unsigned reg, unsigned sel);
	void (*write64)(unsigned reg, unsigned sel, uint64_t value);
	/* The free-running cycle counter, CP0 Count extended to 64 bits. */
	uint64_t (*cycles)(void);
	/* A loop of `iterations` steps the compiler cannot drop. */
	void (*spin)(uint32_t iterations);
};

/* Set by mips_pmu_native.c in the kernel, by the double in host tests. */
extern const struct mips_pmu_io *mips_pmu_io;

#endif
