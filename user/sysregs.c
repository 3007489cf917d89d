/*
 * sysregs: a system call hands back every register but its result (and,
 * on x86-64, the RCX and R11 that SYSCALL itself takes; on MIPS, at, v1,
 * t0-t9, hi and lo, which the contract clobbers and which must come back
 * zero, docs/tasks.md), whichever way the kernel returns: getppid leaves
 * by the fast way (SYSRET on x86-64), and a kill of itself whose handler
 * runs on the way out leaves through the signal frame and sigreturn
 * (IRETQ).  Each register is loaded with a pattern of its own (the
 * call's arguments with their values) before the call and compared
 * after it.  On MIPS the kill is made once more
 * with a handler that returns with s0-s7 changed, which sigreturn must
 * undo, and two calls are made in branch delay slots, where the
 * resumption is decoded from s0 and s1.  Then a fork: the child starts with every register of the
 * parent's call as it went (but the result, 0), which on MIPS, whose
 * system calls keep s0-s7 and fp in their registers rather than in the
 * frame (arch/mips/vectors.S), checks that fork completes the frame its
 * child copies; the child exits with 0 or 1 for its own mask, the
 * parent checks its own and the child's status.  Prints "sysregs ok",
 * exits 0; else names the path and the mask of registers that changed,
 * exits 1.
 */
#include <stdint.h>
#include <stdio.h>

#include "tally.h"

/*
 * Added to every pattern (MIPS), different for each call, so that no
 * call can pass on words an earlier one left in its frame: the kernel
 * stores a system call's s0-s7 and fp only on the ways that need them
 * (arch/mips/vectors.S), and a way that forgot to would find the last
 * call's otherwise.
 */
#define SALT_GETPPID      0x00
#define SALT_FORK         0x20
#define SALT_KILL         0x40
#define SALT_KILL_CLOBBER 0x60

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

static uint64_t changed_regs(long nr, long a0, long a1, long *result, long salt)
{
	uint64_t bad;

	(void)salt;                     /* the patterns are fixed here */

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
	*result = nr;                   /* rax: the call's result */
	return bad;
}
#else
/*
 * O32 under Tally's system call contract (docs/tasks.md): a call hands
 * back s0-s7, a0-a3, gp, fp and ra as they went, and at, v1, t0-t9, hi
 * and lo as zero, whatever they held before (never what the kernel left
 * in them).  Each is loaded with a pattern of its own first, the
 * clobbered ones too, so that a kernel that handed those back untouched
 * fails as well.  Bits of the mask, set for a register that came back
 * wrong: 0-7 s0-s7, 8 a0, 9 a1, 10 a2, 11 a3, 12 t0, 13 t1, 14 at, 15
 * v1, 16-21 t2-t7, 22 gp, 23 fp, 24 ra, 25 hi, 26 lo, 27 t8, 28 t9:
 * every register but v0 (the result), sp (without which nothing would
 * come back), k0 and k1 (the kernel's).  Registers are named by number:
 * at $1, v1 $3, a0-a3 $4-$7, t0-t7 $8-$15, s0-s7 $16-$23, t8 $24, t9
 * $25, gp $28, fp $30, ra $31.  The stack keeps gp and fp (the frame
 * pointer, perhaps) around it all, the call's result, the salt (which
 * t9 brings in and each pattern adds) and the arguments as given.  After
 * the call v0 collects the mask; the zero checks come first, and the
 * registers they cleared are the scratch of the rest.  The mask comes
 * back in v0, the result in v1.
 */
#define SR_GP     0
#define SR_FP     4
#define SR_RESULT 8
#define SR_SALT   12
#define SR_A0     16
#define SR_A1     20
#define SR_SIZE   24
#define STR_(x) #x
#define STR(x) STR_(x)

/* A preserved register: its pattern plus the salt, or its bit. */
#define CHECK(reg, bit, pattern)					\
	"lw $25, " STR(SR_SALT) "($sp)\n\t"				\
	"subu $" #reg ", $" #reg ", $25\n\t"				\
	"li $25, " #pattern "\n\t"					\
	"beq $25, $" #reg ", 1f\n\t"					\
	"nop\n\t"							\
	"lui $25, " #bit " >> 16\n\t"					\
	"ori $25, $25, " #bit " & 0xffff\n\t"				\
	"or $2, $2, $25\n"						\
	"1:\n\t"
/* A clobbered register: zero, or its bit (at is free once checked). */
#define CHECK_ZERO(reg, bit)						\
	"beq $" #reg ", $0, 1f\n\t"					\
	"nop\n\t"							\
	"lui $1, " #bit " >> 16\n\t"					\
	"ori $1, $1, " #bit " & 0xffff\n\t"				\
	"or $2, $2, $1\n"						\
	"1:\n\t"
/* A register loaded with its pattern plus the salt (in t9). */
#define LOAD(reg, pattern)						\
	"li $" #reg ", " #pattern "\n\t"				\
	"addu $" #reg ", $" #reg ", $25\n\t"

static uint64_t changed_regs(long nr, long a0, long a1, long *result, long salt)
{
	register long v0 __asm__("$2") = nr;
	register long v1 __asm__("$3");
	register long r4 __asm__("$4") = a0;
	register long r5 __asm__("$5") = a1;
	register long t9 __asm__("$25") = salt;

	__asm__ volatile(
		".set push\n\t"
		".set noreorder\n\t"
		".set noat\n\t"
		"addiu $sp, $sp, -" STR(SR_SIZE) "\n\t"
		"sw $28, " STR(SR_GP) "($sp)\n\t"
		"sw $30, " STR(SR_FP) "($sp)\n\t"
		"sw $25, " STR(SR_SALT) "($sp)\n\t"
		"sw $4, " STR(SR_A0) "($sp)\n\t"
		"sw $5, " STR(SR_A1) "($sp)\n\t"
		LOAD(16, 0x01010101)
		LOAD(17, 0x02020202)
		LOAD(18, 0x03030303)
		LOAD(19, 0x04040404)
		LOAD(20, 0x05050505)
		LOAD(21, 0x06060606)
		LOAD(22, 0x07070707)
		LOAD(23, 0x08080808)
		LOAD(6, 0x09090909)
		LOAD(7, 0x0a0a0a0a)
		LOAD(8, 0x0b0b0b0b)
		LOAD(9, 0x0c0c0c0c)
		LOAD(1, 0x0d0d0d0d)
		LOAD(3, 0x0e0e0e0e)
		LOAD(10, 0x0f0f0f0f)
		LOAD(11, 0x10101010)
		LOAD(12, 0x11111111)
		LOAD(13, 0x12121212)
		LOAD(14, 0x13131313)
		LOAD(15, 0x14141414)
		LOAD(28, 0x15151515)
		LOAD(30, 0x16161616)
		LOAD(31, 0x17171717)
		LOAD(24, 0x18181818)
		"mthi $24\n\t"
		LOAD(24, 0x19191919)
		"mtlo $24\n\t"
		LOAD(24, 0x1a1a1a1a)
		LOAD(25, 0x1b1b1b1b)            /* the salt's register last */
		"syscall\n\t"
		"nop\n\t"
		"sw $2, " STR(SR_RESULT) "($sp)\n\t"
		/* at first, into the mask itself: then at is the scratch. */
		"sltu $2, $0, $1\n\t"
		"sll $2, $2, 14\n\t"
		CHECK_ZERO(3, 0x8000)
		CHECK_ZERO(8, 0x1000)
		CHECK_ZERO(9, 0x2000)
		CHECK_ZERO(10, 0x10000)
		CHECK_ZERO(11, 0x20000)
		CHECK_ZERO(12, 0x40000)
		CHECK_ZERO(13, 0x80000)
		CHECK_ZERO(14, 0x100000)
		CHECK_ZERO(15, 0x200000)
		CHECK_ZERO(24, 0x8000000)
		CHECK_ZERO(25, 0x10000000)
		"mfhi $8\n\t"
		CHECK_ZERO(8, 0x2000000)
		"mflo $8\n\t"
		CHECK_ZERO(8, 0x4000000)
		/* a0 and a1 against the arguments as given. */
		"lw $8, " STR(SR_A0) "($sp)\n\t"
		"beq $4, $8, 1f\n\t"
		"nop\n\t"
		"ori $2, $2, 0x100\n"
		"1:\n\t"
		"lw $8, " STR(SR_A1) "($sp)\n\t"
		"beq $5, $8, 1f\n\t"
		"nop\n\t"
		"ori $2, $2, 0x200\n"
		"1:\n\t"
		CHECK(16, 0x1, 0x01010101)
		CHECK(17, 0x2, 0x02020202)
		CHECK(18, 0x4, 0x03030303)
		CHECK(19, 0x8, 0x04040404)
		CHECK(20, 0x10, 0x05050505)
		CHECK(21, 0x20, 0x06060606)
		CHECK(22, 0x40, 0x07070707)
		CHECK(23, 0x80, 0x08080808)
		CHECK(6, 0x400, 0x09090909)
		CHECK(7, 0x800, 0x0a0a0a0a)
		CHECK(28, 0x400000, 0x15151515)
		CHECK(30, 0x800000, 0x16161616)
		CHECK(31, 0x1000000, 0x17171717)
		"lw $3, " STR(SR_RESULT) "($sp)\n\t"
		"lw $28, " STR(SR_GP) "($sp)\n\t"
		"lw $30, " STR(SR_FP) "($sp)\n\t"
		"addiu $sp, $sp, " STR(SR_SIZE) "\n\t"
		".set pop\n\t"
		: "+r"(v0), "=r"(v1), "+r"(r4), "+r"(r5), "+r"(t9)
		:
		: "$1", "$6", "$7", "$8", "$9", "$10", "$11", "$12", "$13",
		  "$14", "$15", "$16", "$17", "$18", "$19", "$20", "$21", "$22",
		  "$23", "$24", "$31", "hi", "lo", "memory");
	*result = v1;
	return (unsigned long)v0;
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

/*
 * A system call in a branch's delay slot resumes where the branch goes,
 * which the kernel decodes with the registers the branch read: here a
 * beq and a bne on s0 and s1, each taken.  Whatever two words the frame
 * held for them before, a kernel that decoded from it rather than from
 * the live registers (a system call keeps them out of the frame,
 * arch/mips/vectors.S) would find one of the two not taken.  Returns the
 * calls that resumed after their slot instead (each adds 1 to s2, which
 * the call keeps; the t registers it clobbers), plus 0x100 if t2, loaded
 * before the second call, did not come back zero from it.
 */
static long slot_calls(void)
{
	register long v0 __asm__("$2");

	__asm__ volatile(
		".set push\n\t"
		".set noreorder\n\t"
		"move $18, $0\n\t"
		"li $16, 0x5151\n\t"
		"li $17, 0x5151\n\t"
		"li $2, %[nr]\n\t"
		"beq $16, $17, 1f\n\t"
		"syscall\n\t"
		"addiu $18, $18, 1\n"
		"1:\n\t"
		"li $17, 0x5152\n\t"
		"li $10, 0x7a7a\n\t"
		"li $2, %[nr]\n\t"
		"bne $16, $17, 2f\n\t"
		"syscall\n\t"
		"addiu $18, $18, 1\n"
		"2:\n\t"
		"sltu $10, $0, $10\n\t"
		"sll $10, $10, 8\n\t"
		"or $2, $18, $10\n\t"
		".set pop\n\t"
		: "=r"(v0)
		: [nr] "i"(SYS_getppid)
		: "$1", "$3", "$8", "$9", "$10", "$11", "$12", "$13", "$14",
		  "$15", "$16", "$17", "$18", "$24", "$25", "hi", "lo", "memory");
	return v0;
}
#endif

/*
 * kill() to itself with handler h installed: the handler must have run
 * (handled reaches times) and every register must come back as it went.
 * Non-zero, with the reason printed, when either fails.
 */
static int kill_through(void (*h)(int), int times, const char *what, long salt)
{
	uint64_t bad;
	long r;

	if (signal(SIGUSR1, h) < 0) {
		printf("sysregs: signal failed\n");
		return 1;
	}
	bad = changed_regs(SYS_kill, getpid(), SIGUSR1, &r, salt);
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

/* fork with every register loaded: both sides must find them all. */
static int fork_through(void)
{
	long pid;
	int status;
	uint64_t bad = changed_regs(SYS_fork, 0x2345, 0x6789, &pid, SALT_FORK);

	if (pid == 0) {
		if (bad)
			printf("sysregs: fork changed the child's registers, mask %#llx\n",
			       (unsigned long long)bad);
		exit(bad ? 1 : 0);
	}
	if (pid < 0) {
		printf("sysregs: fork failed (%ld)\n", pid);
		return 1;
	}
	if (bad) {
		printf("sysregs: fork changed the parent's registers, mask %#llx\n",
		       (unsigned long long)bad);
		return 1;
	}
	if (waitpid((int)pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		printf("sysregs: fork's child ended with status %#x\n", status);
		return 1;
	}
	return 0;
}

int main(void)
{
	long r;
	uint64_t bad = changed_regs(SYS_getppid, 0x1234, 0x5678, &r, SALT_GETPPID);

	if (bad) {
		printf("sysregs: getppid changed registers, mask %#llx\n",
		       (unsigned long long)bad);
		return 1;
	}
	if (fork_through())
		return 1;
	if (kill_through(on_usr1, 1, "a handler", SALT_KILL))
		return 1;
#if !defined(__x86_64__)
	if (kill_through(sysregs_clobber_s, 2, "an s-clobbering handler", SALT_KILL_CLOBBER))
		return 1;
	long wrong = slot_calls();

	if (wrong) {
		printf("sysregs: calls in a delay slot: %ld resumed after it%s\n",
		       wrong & 0xff, (wrong & 0x100) ? ", t2 not zero after one" : "");
		return 1;
	}
#endif
	printf("sysregs ok\n");
	return 0;
}
