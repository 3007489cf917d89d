/*
 * x86_pmu_io.h - how the x86 PMU drivers reach the hardware.
 *
 * Every CPUID, RDMSR, WRMSR and TSC read of intel_arch.c, amd.c and
 * lapic_pmi.c goes through x86_pmu_io, so the same driver source runs in
 * the kernel (x86_pmu_native.c: the instructions themselves) and in host
 * unit tests (a double that records every access and plays back the
 * CPUID values of a real CPU).  Nothing here knows a register's meaning.
 */
#ifndef TALLY_X86_PMU_IO_H
#define TALLY_X86_PMU_IO_H

#include <stdint.h>

struct x86_cpuid {
	uint32_t eax, ebx, ecx, edx;
};

struct x86_pmu_io {
	struct x86_cpuid (*cpuid)(uint32_t leaf, uint32_t subleaf);
	uint64_t (*rdmsr)(uint32_t msr);
	void (*wrmsr)(uint32_t msr, uint64_t value);
	uint64_t (*rdtsc)(void);
	/* Run a loop of `iterations` simple steps the compiler cannot drop;
	 * the liveness probe counts it. */
	void (*spin)(uint32_t iterations);
};

/* Set by x86_pmu_native.c in the kernel, by the double in host tests. */
extern const struct x86_pmu_io *x86_pmu_io;

/* ---- CPUID leaves and bits both vendors' probes use ---------------------- */

#define CPUID_LEAF_VENDOR 0x00000000u
#define CPUID_LEAF_FEATURES 0x00000001u
#define CPUID_LEAF_ARCH_PERF 0x0000000au
#define CPUID_LEAF_EXT_MAX 0x80000000u
#define CPUID_LEAF_EXT_FEATURES 0x80000001u

/* Vendor strings in EBX, EDX, ECX order, as CPUID leaf 0 returns them. */
#define CPUID_VENDOR_INTEL_EBX 0x756e6547u      /* "Genu" */
#define CPUID_VENDOR_INTEL_EDX 0x49656e69u      /* "ineI" */
#define CPUID_VENDOR_INTEL_ECX 0x6c65746eu      /* "ntel" */
#define CPUID_VENDOR_AMD_EBX 0x68747541u        /* "Auth" */
#define CPUID_VENDOR_AMD_EDX 0x69746e65u        /* "enti" */
#define CPUID_VENDOR_AMD_ECX 0x444d4163u        /* "cAMD" */

/* CPUID.01H:EAX, the processor signature (SDM vol. 2A, CPUID). */
#define CPUID_SIG_FAMILY_SHIFT 8
#define CPUID_SIG_FAMILY_MASK 0xfu
#define CPUID_SIG_EXT_FAMILY_SHIFT 20
#define CPUID_SIG_EXT_FAMILY_MASK 0xffu
#define CPUID_SIG_FAMILY_EXTENDED 0xfu  /* base family that adds ext */

#define CPUID_SIG_MODEL_SHIFT 4
#define CPUID_SIG_MODEL_MASK 0xfu
#define CPUID_SIG_EXT_MODEL_SHIFT 16
#define CPUID_SIG_EXT_MODEL_MASK 0xfu
#define CPUID_SIG_FAMILY_P6 0x6u        /* Intel: family 6 also adds ext model */

/* The family as both vendors define it: base + extended when base is 0xF. */
static inline unsigned x86_cpu_family(uint32_t sig_eax)
{
	unsigned base = (sig_eax >> CPUID_SIG_FAMILY_SHIFT) & CPUID_SIG_FAMILY_MASK;

	if (base == CPUID_SIG_FAMILY_EXTENDED)
		base += (sig_eax >> CPUID_SIG_EXT_FAMILY_SHIFT) &
		        CPUID_SIG_EXT_FAMILY_MASK;
	return base;
}

/* DisplayModel: the extended model on top for families 6 and 0xF. */
static inline unsigned x86_cpu_model(uint32_t sig_eax)
{
	unsigned base = (sig_eax >> CPUID_SIG_FAMILY_SHIFT) & CPUID_SIG_FAMILY_MASK;
	unsigned model = (sig_eax >> CPUID_SIG_MODEL_SHIFT) & CPUID_SIG_MODEL_MASK;

	if (base == CPUID_SIG_FAMILY_P6 || base == CPUID_SIG_FAMILY_EXTENDED)
		model |= ((sig_eax >> CPUID_SIG_EXT_MODEL_SHIFT) &
		          CPUID_SIG_EXT_MODEL_MASK) << 4;
	return model;
}

#endif
