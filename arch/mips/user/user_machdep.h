/*
 * user_machdep.h - machine constants and the system-call instruction for
 * user programs, so that user/ holds no #if on the architecture.
 */
#ifndef TALLY_USER_MACHDEP_H
#define TALLY_USER_MACHDEP_H

/* An address in kseg0, where the kernel image lives: a system call given
 * it must answer EFAULT. */
#define USER_MACHDEP_KERNEL_ADDR 0x80100000ul
/* Edges a fuzzer aims at: the first kernel address (kseg0), kseg2, the
 * top user page, and a range between the heap's limit and the stack. */
#define USER_MACHDEP_KERNEL_LOW     0x80000000ul
#define USER_MACHDEP_NONCANONICAL   0xc0000000ul
#define USER_MACHDEP_USER_TOP       0x7fff0000ul
#define USER_MACHDEP_UNMAPPED       0x20400000ul

/* An unaligned word load takes an address error. */
#define USER_MACHDEP_UNALIGNED_FAULTS 1

/* An instruction only the kernel may run: CP0 Status needs CU0. */
static inline void user_privileged_insn(void)
{
	__asm__ volatile("mtc0 $zero, $12");
}

/*
 * 1 / divisor, in assembly: a compiler may fold a known-zero divide away.
 * MIPS division never traps by itself; the convention (which compilers
 * follow when they check) is a trap instruction with code 7 after it.
 */
static inline void user_divide(unsigned divisor)
{
	__asm__ volatile("divu $zero, %0, %1\n\tteq %1, $zero, 7"
			 : : "r"(1u), "r"(divisor) : "hi", "lo");
}

/*
 * System calls of up to four arguments, inline: the wrapper is then the
 * instruction and its register moves, not two calls through __syscall6
 * (arch/mips/user/syscall.S, kept for wider calls).  O32 as Tally uses
 * it: number in v0, arguments in a0..a3, result in v0.  The call
 * clobbers at, v1, t0-t9, hi and lo (they come back zero: docs/tasks.md,
 * "The system call contract"), as Linux's does, so the compiler must
 * keep nothing there across it; every other register comes back as it
 * went.
 */
#define USER_SYSCALL_CLOBBERS						\
	"$1", "$3", "$8", "$9", "$10", "$11", "$12", "$13", "$14", "$15",	\
	"$24", "$25", "hi", "lo", "memory"
static inline long user_syscall0(long nr)
{
	register long v0 __asm__("$2") = nr;

	__asm__ volatile("syscall" : "+r"(v0) : : USER_SYSCALL_CLOBBERS);
	return v0;
}

static inline long user_syscall1(long nr, long a)
{
	register long v0 __asm__("$2") = nr;
	register long a0 __asm__("$4") = a;

	__asm__ volatile("syscall" : "+r"(v0) : "r"(a0) : USER_SYSCALL_CLOBBERS);
	return v0;
}

static inline long user_syscall2(long nr, long a, long b)
{
	register long v0 __asm__("$2") = nr;
	register long a0 __asm__("$4") = a;
	register long a1 __asm__("$5") = b;

	__asm__ volatile("syscall" : "+r"(v0) : "r"(a0), "r"(a1) : USER_SYSCALL_CLOBBERS);
	return v0;
}

static inline long user_syscall3(long nr, long a, long b, long c)
{
	register long v0 __asm__("$2") = nr;
	register long a0 __asm__("$4") = a;
	register long a1 __asm__("$5") = b;
	register long a2 __asm__("$6") = c;

	__asm__ volatile("syscall" : "+r"(v0) : "r"(a0), "r"(a1), "r"(a2)
			 : USER_SYSCALL_CLOBBERS);
	return v0;
}

/* Four arguments, a0..a3: SYS_hwperf's (op, id, arg, arg2), whose read
 * is a benchmark row: one instruction and its moves, where __syscall6
 * took a frame and a second call (user mode 37 a read, 16 after). */
static inline long user_syscall4(long nr, long a, long b, long c, long d)
{
	register long v0 __asm__("$2") = nr;
	register long a0 __asm__("$4") = a;
	register long a1 __asm__("$5") = b;
	register long a2 __asm__("$6") = c;
	register long a3 __asm__("$7") = d;

	__asm__ volatile("syscall" : "+r"(v0) : "r"(a0), "r"(a1), "r"(a2), "r"(a3)
			 : USER_SYSCALL_CLOBBERS);
	return v0;
}

#endif
