/*
 * cpu.h - x86-64 control registers, MSRs, CPUID and the TSC.
 * Bit positions are from the Intel SDM vol. 3 (2.5 and 2.2.1).
 */
#ifndef TALLY_X86_64_CPU_H
#define TALLY_X86_64_CPU_H

#include <stdint.h>

#define RFLAGS_IF        (1ul << 9)

/* CPUID leaves used by cpu.c. */
#define CPUID_VENDOR          0x00000000u
#define CPUID_SIGNATURE       0x00000001u
#define CPUID_EXT_MAX         0x80000000u
#define CPUID_BRAND_FIRST     0x80000002u
#define CPUID_BRAND_LAST      0x80000004u

struct cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

static inline struct cpuid_regs cpuid(uint32_t leaf, uint32_t subleaf)
{
	struct cpuid_regs r;
	__asm__ volatile("cpuid"
			 : "=a"(r.eax), "=b"(r.ebx), "=c"(r.ecx), "=d"(r.edx)
			 : "a"(leaf), "c"(subleaf));
	return r;
}

static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;
	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((uint64_t)hi << 32) | lo;
}

static inline void wrmsr(uint32_t msr, uint64_t v)
{
	__asm__ volatile("wrmsr"
			 : : "c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)));
}

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

#define DEFINE_READ_CR(n) \
	static inline uint64_t read_cr##n(void) \
	{ \
		uint64_t v; \
		__asm__ volatile("mov %%cr" #n ", %0" : "=r"(v)); \
		return v; \
	}
DEFINE_READ_CR(0)
DEFINE_READ_CR(2)
DEFINE_READ_CR(3)
DEFINE_READ_CR(4)
#undef DEFINE_READ_CR

/* Rewriting CR3 also flushes every non-global TLB entry. */
static inline void write_cr3(uint64_t v)
{
	__asm__ volatile("mov %0, %%cr3" : : "r"(v) : "memory");
}

static inline uint64_t read_rflags(void)
{
	uint64_t v;
	__asm__ volatile("pushfq; popq %0" : "=r"(v));
	return v;
}

static inline void cli(void)
{
	__asm__ volatile("cli" : : : "memory");
}

static inline void sti(void)
{
	__asm__ volatile("sti" : : : "memory");
}

#endif
