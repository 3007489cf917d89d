/*
 * copy64.c - arch_copy_fill_u64 (kernel/arch.h) on MIPS32: through the
 * FPU's 64-bit loads and stores where every CPU has an FPU (copy64_fpu.S),
 * else a word at a time.
 */
#include <stdint.h>

#include "arch.h"
#include "cp0.h"
#include "mips.h"

/* Cleared for good by the first CPU found without an FPU (Config1.FP):
 * a 34K may give the FPU to some VPEs only, and a task reads on
 * whichever CPU it runs. */
static bool every_cpu_has_fpu = true;

void mips_copy64_cpu_init(void)
{
	if (!(cp0_read_config1() & CONFIG1_FP))
		__atomic_store_n(&every_cpu_has_fpu, false, __ATOMIC_RELAXED);
}

void arch_copy_fill_u64(uint64_t *dst, const uint64_t *src, uint64_t fill,
			unsigned n)
{
	if (__atomic_load_n(&every_cpu_has_fpu, __ATOMIC_RELAXED) &&
	    !(((uintptr_t)dst | (uintptr_t)src) & 7u) && n == 32) {
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
	for (; i < n; i++) {
		dst[i] = src[i];
		dst[n + i] = fill;
		dst[2 * n + i] = src[2 * n + i];
	}
}
