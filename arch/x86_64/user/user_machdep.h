/*
 * user_machdep.h - machine constants and the system-call instruction for
 * user programs, so that user/ holds no #if on the architecture.
 */
#ifndef TALLY_USER_MACHDEP_H
#define TALLY_USER_MACHDEP_H

/* An address in the kernel's half, where the kernel image lives (-2 GiB
 * + 1 MiB): a system call given it must answer EFAULT. */
#define USER_MACHDEP_KERNEL_ADDR 0xffffffff80100000ul
/* Edges a fuzzer aims at: the first kernel-half address, the first
 * non-canonical one, the top user page, and a user range nothing maps. */
#define USER_MACHDEP_KERNEL_LOW     0xffff800000000000ul
#define USER_MACHDEP_NONCANONICAL   0x0000800000000000ul
#define USER_MACHDEP_USER_TOP       0x00007ffffffff000ul
#define USER_MACHDEP_UNMAPPED       0x0000500000000000ul

/* The CPU traps unaligned loads only when it cannot do them. */
#define USER_MACHDEP_UNALIGNED_FAULTS 0
#define USER_MACHDEP_MSR_TSC 0x10u      /* any MSR: wrmsr itself is privileged */

/* An instruction only the kernel may run. */
static inline void user_privileged_insn(void)
{
	__asm__ volatile("wrmsr" : : "c"(USER_MACHDEP_MSR_TSC), "a"(0u), "d"(0u));
}

/* 1 / divisor, in assembly: a compiler may fold a known-zero divide away. */
static inline void user_divide(unsigned divisor)
{
	__asm__ volatile("div %2" : : "a"(1u), "d"(0u), "r"(divisor) : "cc");
}

/*
 * System calls of up to three arguments, inline: the wrapper is then the
 * instruction and its register moves, not two calls through
 * __syscall6 (arch/x86_64/user/syscall.asm, kept for wider calls).  The
 * kernel hands back every register but rax, and SYSCALL itself takes
 * rcx (return address) and r11 (flags): nothing is promised about what
 * those two hold after a call (after SYSRET the return address and the
 * flags; in a child forked by the call, older values of its parent's).
 */
static inline long user_syscall0(long nr)
{
	long r;

	__asm__ volatile("syscall" : "=a"(r) : "a"(nr) : "rcx", "r11", "memory");
	return r;
}

static inline long user_syscall1(long nr, long a)
{
	long r;

	__asm__ volatile("syscall" : "=a"(r) : "a"(nr), "D"(a) : "rcx", "r11", "memory");
	return r;
}

static inline long user_syscall2(long nr, long a, long b)
{
	long r;

	__asm__ volatile("syscall" : "=a"(r) : "a"(nr), "D"(a), "S"(b)
			 : "rcx", "r11", "memory");
	return r;
}

static inline long user_syscall3(long nr, long a, long b, long c)
{
	long r;

	__asm__ volatile("syscall" : "=a"(r) : "a"(nr), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
	return r;
}
/* Four arguments, the fourth in r10 (syscall.asm): SYS_hwperf's. */
static inline long user_syscall4(long nr, long a, long b, long c, long d)
{
	register long r10 __asm__("r10") = d;
	long r;

	__asm__ volatile("syscall" : "=a"(r) : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10)
			 : "rcx", "r11", "memory");
	return r;
}

#endif
