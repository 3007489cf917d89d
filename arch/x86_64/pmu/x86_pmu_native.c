/*
 * x86_pmu_native.c - x86_pmu_io on the real machine: the instructions
 * themselves (kernel only; host tests link a recording double instead).
 */
#include "cpu.h"
#include "x86_pmu_io.h"

static struct x86_cpuid native_cpuid(uint32_t leaf, uint32_t subleaf)
{
	struct cpuid_regs r = cpuid(leaf, subleaf);
	struct x86_cpuid out = { r.eax, r.ebx, r.ecx, r.edx };

	return out;
}

static uint64_t native_rdmsr(uint32_t msr)
{
	return rdmsr(msr);
}

static void native_wrmsr(uint32_t msr, uint64_t value)
{
	wrmsr(msr, value);
}

static uint64_t native_rdtsc(void)
{
	return rdtsc();
}

/* The empty asm with the counter as operand keeps every iteration. */
static void native_spin(uint32_t iterations)
{
	for (uint32_t i = 0; i < iterations; i++)
		__asm__ volatile("" : "+r"(i));
}

static const struct x86_pmu_io native_io = {
	.cpuid = native_cpuid,
	.rdmsr = native_rdmsr,
	.wrmsr = native_wrmsr,
	.rdtsc = native_rdtsc,
	.spin = native_spin,
};

const struct x86_pmu_io *x86_pmu_io = &native_io;
