/*
 * user_machdep.h - machine constants and the system-call instruction for
 * user programs, so that user/ holds no #if on the architecture.
 */
#ifndef TALLY_USER_MACHDEP_H
#define TALLY_USER_MACHDEP_H

/* An address in the kernel's half, where the kernel image lives (-2 GiB
 * + 1 MiB): a system call given it must answer EFAULT. */
#define USER_MACHDEP_KERNEL_ADDR 0xffffffff80100000ul

/*
 * System calls of up to three arguments, inline: the wrapper is then the
 * instruction and its register moves, not two calls through
 * __syscall6 (arch/x86_64/user/syscall.asm, kept for wider calls).  The
 * kernel hands back every register but rax, and SYSCALL itself takes
 * rcx (return address) and r11 (flags).
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

#endif
