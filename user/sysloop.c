/*
 * sysloop N: N null system calls (getppid) in a loop of known shape, for
 * the ucut benchmark (kernel/bench/ucut_bench.c): how many kernel
 * instructions each round trip into the kernel charges to user time.
 *
 * One iteration is the system call and the loop around it, nothing else:
 * load the call number, the trap, decrement, branch back -- 4 user-mode
 * instructions on x86_64 (mov, syscall, dec, jnz), 5 on MIPS (li,
 * syscall, addiu, bnez and its delay-slot nop).  So the run at N executes
 * exactly that many user instructions times N more than the run at 0, and
 * N more kernel round trips; whatever cycles:u shows beyond the user
 * instructions is kernel work charged to the user.  N is parsed from a
 * fixed-width argument, as loop's is, so parsing costs the same for any N.
 * Exit status 0; 2 (usage) if N does not fit 32 bits (arg_count32).
 */
#include <stdint.h>

#include "tally.h"

static void sys_loop(uint32_t n)
{
#if defined(ARCH_X86_64)
	/* SYSCALL takes RCX and R11 for the return; RAX is the result. */
	__asm__ volatile(
		"test %0, %0\n\t"
		"jz 2f\n"
		"1:\n\t"
		"movl %1, %%eax\n\t"
		"syscall\n\t"
		"decl %0\n\t"
		"jnz 1b\n"
		"2:"
		: "+r"(n) : "i"(SYS_getppid) : "rax", "rcx", "r11", "cc", "memory");
#else
	/* The kernel returns v0 and v1 and the error flag in a3. */
	__asm__ volatile(
		".set push\n\t"
		".set noreorder\n\t"
		"beqz %0, 2f\n\t"
		"nop\n"
		"1:\n\t"
		"li $v0, %1\n\t"
		"syscall\n\t"
		"addiu %0, %0, -1\n\t"
		"bnez %0, 1b\n\t"
		"nop\n"
		"2:\n\t"
		".set pop"
		: "+r"(n) : "i"(SYS_getppid) : "$2", "$3", "$7", "memory");
#endif
}

int main(int argc, char **argv)
{
	sys_loop(arg_count32(argc, argv, 1, "sysloop N"));
	return 0;
}
