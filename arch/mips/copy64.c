/*
 * copy64.c - arch_copy_fill_u64 (kernel/arch.h) on MIPS32: through the
 * FPU's 64-bit loads and stores where every CPU has an FPU (copy64_fpu.S),
 * else a word at a time.
 */
#include <stdint.h>

#include "arch.h"
#include "cp0.h"
#include "mips.h"

/* What dst's address must not have set for the FPU's copy: its low
 * three bits (ldc1/sdc1 take 8-aligned addresses) while every CPU has an
 * FPU, and every bit, so that no dst passes, once the first CPU without
 * one (Config1.FP) was found: a 34K may give the FPU to some VPEs only,
 * and a task reads on whichever CPU it runs.  One test for both. */
static uintptr_t fpu_copy_refused = 7;

void mips_copy64_cpu_init(void)
{
	if (!(cp0_read_config1() & CONFIG1_FP))
		__atomic_store_n(&fpu_copy_refused, ~(uintptr_t)0, __ATOMIC_RELAXED);
}

/* Always inline (LTO): the FPU's copy is then the read's only call.
 * src is a uint64_t array, which the O32 ABI aligns to 8; dst may be a
 * user's buffer at any address. */
__attribute__((always_inline)) inline void arch_copy_fill_u64(uint64_t *dst, const uint64_t *src,
                                                              uint64_t fill, unsigned n)
{
	if (!((uintptr_t)dst & __atomic_load_n(&fpu_copy_refused, __ATOMIC_RELAXED)) &&
	    n == 32) {
		mips_copy_fill_fpu32(dst, src, &fill);
		return;
	}
	/* Eight words a turn: the three arrays share one loop's overhead
	 * and no call.  The compiler's 64-bit copies are word pairs. */
	unsigned i = 0;

	for (; i + 8u <= n; i += 8) {
		for (unsigned k = i; k < i + 8; k++)
			dst[k] = src[k];
		for (unsigned k = i; k < i + 8; k++)
			dst[n + k] = fill;
		for (unsigned k = i; k < i + 8; k++)
			dst[2 * n + k] = src[2 * n + k];
	}
	copy_fill_u64_words(dst, src, fill, i, n);
}
