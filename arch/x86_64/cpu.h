/*
 * cpu.h - x86-64 control registers, MSRs, CPUID and the TSC.
 * Bit positions are from the Intel SDM vol. 3 (2.5 and 2.2.1).
 */
#ifndef TALLY_X86_64_CPU_H
#define TALLY_X86_64_CPU_H

#include <stdint.h>

#define RFLAGS_CF        (1ul << 0)
#define RFLAGS_FIXED     (1ul << 1)     /* reads as 1, always */
#define RFLAGS_PF        (1ul << 2)
#define RFLAGS_AF        (1ul << 4)
#define RFLAGS_ZF        (1ul << 6)
#define RFLAGS_SF        (1ul << 7)
#define RFLAGS_TF        (1ul << 8)
#define RFLAGS_IF        (1ul << 9)
#define RFLAGS_DF        (1ul << 10)
#define RFLAGS_OF        (1ul << 11)
#define RFLAGS_IOPL      (3ul << 12)
#define RFLAGS_NT        (1ul << 14)
#define RFLAGS_RF        (1ul << 16)
#define RFLAGS_VM        (1ul << 17)
#define RFLAGS_AC        (1ul << 18)
#define RFLAGS_VIF       (1ul << 19)
#define RFLAGS_VIP       (1ul << 20)
#define RFLAGS_ID        (1ul << 21)

#define CR0_MP           (1ul << 1)
#define CR0_EM           (1ul << 2)     /* x87/MMX/SSE raise #NM or #UD */
#define CR0_TS           (1ul << 3)

/* Model-specific registers (SDM vol. 4, table 2-2). */
#define MSR_SYSENTER_CS  0x00000174u    /* 0: SYSENTER raises #GP */
#define MSR_EFER         0xc0000080u
#define MSR_STAR         0xc0000081u    /* SYSCALL/SYSRET selectors */
#define MSR_LSTAR        0xc0000082u    /* 64-bit SYSCALL entry point */
#define MSR_CSTAR        0xc0000083u    /* compatibility-mode SYSCALL (AMD) */
#define MSR_SFMASK       0xc0000084u    /* RFLAGS bits SYSCALL clears */
#define MSR_GS_BASE      0xc0000101u
#define MSR_KERNEL_GS_BASE 0xc0000102u  /* what SWAPGS exchanges with */

#define EFER_SCE         (1ull << 0)    /* SYSCALL/SYSRET enabled */
#define EFER_LME         (1ull << 8)
#define EFER_NXE         (1ull << 11)   /* page-table bit 63 means no-execute */

#define STAR_SYSCALL_CS_SHIFT 32        /* SYSCALL: CS, and SS = CS + 8 */
#define STAR_SYSRET_CS_SHIFT  48        /* SYSRET: CS = this + 16, SS = + 8 */

/* CPUID leaves used by cpu.c, vm.c. */
#define CPUID_VENDOR          0x00000000u
#define CPUID_SIGNATURE       0x00000001u
#define CPUID_EXT_MAX         0x80000000u
#define CPUID_EXT_FEATURES    0x80000001u
#define CPUID_BRAND_FIRST     0x80000002u
#define CPUID_BRAND_LAST      0x80000004u
#define CPUID_EXT_EDX_NX      (1u << 20)

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

static inline void write_cr0(uint64_t v)
{
	__asm__ volatile("mov %0, %%cr0" : : "r"(v) : "memory");
}

static inline void write_cr4(uint64_t v)
{
	__asm__ volatile("mov %0, %%cr4" : : "r"(v) : "memory");
}

static inline void invlpg(uintptr_t va)
{
	__asm__ volatile("invlpg (%0)" : : "r"(va) : "memory");
}

static inline uint64_t read_rflags(void)
{
	uint64_t v;
	__asm__ volatile("pushfq; popq %0" : "=r"(v));
	return v;
}

/* The operand of LGDT and LIDT. */
struct desc_ptr {
	uint16_t limit;                 /* size - 1 */
	uint64_t base;
} __attribute__((packed));

static inline void lgdt(const struct desc_ptr *p)
{
	__asm__ volatile("lgdt %0" : : "m"(*p) : "memory");
}

static inline void lidt(const struct desc_ptr *p)
{
	__asm__ volatile("lidt %0" : : "m"(*p) : "memory");
}

static inline void cli(void)
{
	__asm__ volatile("cli" : : : "memory");
}

static inline void sti(void)
{
	__asm__ volatile("sti" : : : "memory");
}

/*
 * Called at the end of CPU 0's tick.  QEMU 7.2 under -icount runs the
 * vCPUs in turn on one host thread, CPU 0 first, each until the next
 * deadline of the virtual clock, so the vCPU after the one that reached
 * it starts with nothing left to run: CPU 0 in a user loop kept the APs
 * off (-smp 2: `bench run stress -n 1` did not end in 600 s, CPU 1 stood
 * at one RIP for seconds; docs/design/platforms.md).  TCG ends a vCPU's
 * turn at PAUSE, so CPU 0's tick hands the rest of the period to the
 * next vCPU.  Not the APs' ticks: a tick pending when an AP's turn starts
 * would end that turn at once (measured: a spinner on CPU 1 beside one on
 * CPU 0 then did not finish in 300 s).  On hardware it is a spin-wait
 * hint, HZ times a second.
 */
static inline void tick_yield_vcpu(void)
{
	__asm__ volatile("pause");
}

#endif
