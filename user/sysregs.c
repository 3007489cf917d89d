/*
 * sysregs: a system call hands back every register but its result (and,
 * on x86-64, the RCX and R11 that SYSCALL itself takes), whichever way
 * the kernel returns: getppid leaves by the fast way (SYSRET on x86-64),
 * and a kill of itself whose handler runs on the way out leaves through
 * the signal frame and sigreturn (IRETQ).  Each register is loaded with
 * a pattern of its own (the call's arguments with their values) before
 * the call and compared after it.  On MIPS the kill is made once more
 * with a handler that returns with s0-s7 changed, which sigreturn must
 * undo.  Prints "sysregs ok", exits 0; else
 * names the path and the mask of registers that changed, exits 1.
 */
#include <stdint.h>
#include <stdio.h>

#include "tally.h"

/* Not static: the MIPS handler below counts in it from assembly. */
volatile int sysregs_handled;
#define handled sysregs_handled

static void on_usr1(int sig)
{
	(void)sig;
	handled++;
}

#if defined(__x86_64__)
/*
 * Bits of the returned mask: 0 rbx, 1 rbp, 2 rdx, 3 r8, 4 r9, 5 r10,
 * 6 r12, 7 r13, 8 r14, 9 r15, 10 rdi, 11 rsi.  RBP is saved by hand (it
 * may be the frame pointer), below the red zone the compiler may use.
 */
#define CHECK(reg, bit, pattern)					\
	"movabs $" #pattern ", %%r11\n\t"				\
	"cmp %%r11, %%" #reg "\n\t"					\
	"je 1f\n\t"							\
	"or $" #bit ", %%ecx\n"						\
	"1:\n\t"

static uint64_t changed_regs(long nr, long a0, long a1)
{
	uint64_t bad;

	__asm__ volatile(
		"sub $128, %%rsp\n\t"
		"push %%rbp\n\t"
		"push %%rdi\n\t"
		"push %%rsi\n\t"
		"movabs $0x0101010101010101, %%rbx\n\t"
		"movabs $0x0202020202020202, %%rbp\n\t"
		"movabs $0x0303030303030303, %%rdx\n\t"
		"movabs $0x0404040404040404, %%r8\n\t"
		"movabs $0x0505050505050505, %%r9\n\t"
		"movabs $0x0606060606060606, %%r10\n\t"
		"movabs $0x0707070707070707, %%r12\n\t"
		"movabs $0x0808080808080808, %%r13\n\t"
		"movabs $0x0909090909090909, %%r14\n\t"
		"movabs $0x0a0a0a0a0a0a0a0a, %%r15\n\t"
		"syscall\n\t"
		"xor %%ecx, %%ecx\n\t"
		CHECK(rbx, 0x1, 0x0101010101010101)
		CHECK(rbp, 0x2, 0x0202020202020202)
		CHECK(rdx, 0x4, 0x0303030303030303)
		CHECK(r8, 0x8, 0x0404040404040404)
		CHECK(r9, 0x10, 0x0505050505050505)
		CHECK(r10, 0x20, 0x0606060606060606)
		CHECK(r12, 0x40, 0x0707070707070707)
		CHECK(r13, 0x80, 0x0808080808080808)
		CHECK(r14, 0x100, 0x0909090909090909)
		CHECK(r15, 0x200, 0x0a0a0a0a0a0a0a0a)
		"cmp 8(%%rsp), %%rdi\n\t"
		"je 1f\n\t"
		"or $0x400, %%ecx\n"
		"1:\n\t"
		"cmp 0(%%rsp), %%rsi\n\t"
		"je 1f\n\t"
		"or $0x800, %%ecx\n"
		"1:\n\t"
		"add $16, %%rsp\n\t"
		"pop %%rbp\n\t"
		"add $128, %%rsp\n\t"
		: "=c"(bad), "+a"(nr), "+D"(a0), "+S"(a1)
		:
		: "rbx", "rdx", "r8", "r9", "r10", "r11", "r12", "r13", "r14",
		  "r15", "memory", "cc");
	return bad;
}
#else
/*
 * O32: bits 0-7 s0-s7, 8 a0, 9 a1, 10 a2, 11 a3, 12 t0, 13 t1.  The
 * registers are named by number: s0-s7 are $16-$23, a0-a3 $4-$7, t0 and
 * t1 $8 and $9; $10 holds each pattern for the compare.
 */
#define CHECK(reg, bit, pattern)					\
	"li $10, " #pattern "\n\t"					\
	"beq $10, $" #reg ", 1f\n\t"					\
	"nop\n\t"							\
	"ori %0, %0, " #bit "\n"					\
	"1:\n\t"

static uint64_t changed_regs(long nr, long a0, long a1)
{
	register long v0 __asm__("$2") = nr;
	register long r4 __asm__("$4") = a0;
	register long r5 __asm__("$5") = a1;
	unsigned long bad = 0;

	__asm__ volatile(
		".set push\n\t"
		".set noreorder\n\t"
		".set noat\n\t"
		"li $16, 0x01010101\n\t"
		"li $17, 0x02020202\n\t"
		"li $18, 0x03030303\n\t"
		"li $19, 0x04040404\n\t"
		"li $20, 0x05050505\n\t"
		"li $21, 0x06060606\n\t"
		"li $22, 0x07070707\n\t"
		"li $23, 0x08080808\n\t"
		"li $6, 0x09090909\n\t"
		"li $7, 0x0a0a0a0a\n\t"
		"li $8, 0x0b0b0b0b\n\t"
		"li $9, 0x0c0c0c0c\n\t"
		"move $24, $4\n\t"              /* t8, t9: the arguments as given */
		"move $25, $5\n\t"
		"syscall\n\t"
		"nop\n\t"
		CHECK(16, 0x1, 0x01010101)
		CHECK(17, 0x2, 0x02020202)
		CHECK(18, 0x4, 0x03030303)
		CHECK(19, 0x8, 0x04040404)
		CHECK(20, 0x10, 0x05050505)
		CHECK(21, 0x20, 0x06060606)
		CHECK(22, 0x40, 0x07070707)
		CHECK(23, 0x80, 0x08080808)
		"beq $4, $24, 1f\n\t"
		"nop\n\t"
		"ori %0, %0, 0x100\n"
		"1:\n\t"
		"beq $5, $25, 1f\n\t"
		"nop\n\t"
		"ori %0, %0, 0x200\n"
		"1:\n\t"
		CHECK(6, 0x400, 0x09090909)
		CHECK(7, 0x800, 0x0a0a0a0a)
		CHECK(8, 0x1000, 0x0b0b0b0b)
		CHECK(9, 0x2000, 0x0c0c0c0c)
		".set pop\n\t"
		: "+r"(bad), "+r"(v0), "+r"(r4), "+r"(r5)
		:
		: "$6", "$7", "$8", "$9", "$10", "$16", "$17", "$18", "$19",
		  "$20", "$21", "$22", "$23", "$24", "$25", "memory");
	return bad;
}

/*
 * A handler that breaks the O32 rule on purpose: it returns with s0-s7
 * changed.  sigreturn must still bring back the interrupted code's, from
 * the signal frame: the kernel's usual way out leaves the callee-saved
 * registers as they are live (arch/mips/vectors.S), so a frame that
 * sigreturn rewrote has to leave by the way that reloads them.
 */
void sysregs_clobber_s(int sig);
__asm__(
	".text\n"
	".globl sysregs_clobber_s\n"
	".ent sysregs_clobber_s\n"
	"sysregs_clobber_s:\n\t"
	".set push\n\t"
	".set noreorder\n\t"
	"li $16, 0x5a5a0010\n\t"
	"li $17, 0x5a5a0011\n\t"
	"li $18, 0x5a5a0012\n\t"
	"li $19, 0x5a5a0013\n\t"
	"li $20, 0x5a5a0014\n\t"
	"li $21, 0x5a5a0015\n\t"
	"li $22, 0x5a5a0016\n\t"
	"li $23, 0x5a5a0017\n\t"
	"lui $8, %hi(sysregs_handled)\n\t"
	"lw $9, %lo(sysregs_handled)($8)\n\t"
	"addiu $9, $9, 1\n\t"
	"sw $9, %lo(sysregs_handled)($8)\n\t"
	"jr $ra\n\t"
	"nop\n\t"
	".set pop\n"
	".end sysregs_clobber_s\n");
#endif

/*
 * kill() to itself with handler h installed: the handler must have run
 * (handled reaches times) and every register must come back as it went.
 * Non-zero, with the reason printed, when either fails.
 */
static int kill_through(void (*h)(int), int times, const char *what)
{
	uint64_t bad;

	if (signal(SIGUSR1, h) < 0) {
		printf("sysregs: signal failed\n");
		return 1;
	}
	bad = changed_regs(SYS_kill, getpid(), SIGUSR1);
	if (handled != times) {
		printf("sysregs: with %s, handlers ran %d times in all, not %d\n",
		       what, handled, times);
		return 1;
	}
	if (bad) {
		printf("sysregs: kill with %s changed registers, mask %#llx\n",
		       what, (unsigned long long)bad);
		return 1;
	}
	return 0;
}

int main(void)
{
	uint64_t bad = changed_regs(SYS_getppid, 0x1234, 0x5678);

	if (bad) {
		printf("sysregs: getppid changed registers, mask %#llx\n",
		       (unsigned long long)bad);
		return 1;
	}
	if (kill_through(on_usr1, 1, "a handler"))
		return 1;
#if !defined(__x86_64__)
	if (kill_through(sysregs_clobber_s, 2, "an s-clobbering handler"))
		return 1;
#endif
	printf("sysregs ok\n");
	return 0;
}
