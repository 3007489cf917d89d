/*
 * fault KIND: make one kind of fault in user mode.  The kernel must kill
 * only this task, with the signal the kind calls for:
 *
 *   null       store through a null pointer             SIGSEGV
 *   kernel     store into kernel memory                 SIGSEGV
 *   priv       privileged instruction (wrmsr / mtc0)    SIGSEGV on x86 (#GP),
 *                                                        SIGILL on MIPS (CpU)
 *   divzero    integer division by zero                 SIGFPE
 *   unaligned  unaligned load (MIPS only)               SIGBUS
 *   stack      unbounded recursion past the stack limit SIGSEGV
 *   badptr     bad pointers to system calls: not a fault; each call must
 *              return EFAULT and the program exits 0
 *
 * A kind that does not fault on this machine exits EXIT_NOT_HERE; a task
 * that survives its fault exits EXIT_SURVIVED.
 */
#include <stdio.h>
#include <string.h>

#include "tally.h"
#include "user_machdep.h"

#define EXIT_SURVIVED 1
#define EXIT_USAGE 2
#define EXIT_NOT_HERE 3
#define STACK_PAD 256
#define BAD_LEN 16

#define KERNEL_ADDR ((uintptr_t)USER_MACHDEP_KERNEL_ADDR)  /* kernel text */

/* Through volatile so the compiler cannot prove the faults away. */
static volatile uintptr_t null_addr = 0;
static volatile uintptr_t kernel_addr = KERNEL_ADDR;
static volatile int zero = 0;
/* A depth never reached: the recursion must end in a fault. */
static volatile int depth_never = -1;

static int do_null(void)
{
	*(volatile int *)null_addr = 1;
	return EXIT_SURVIVED;
}

static int do_kernel(void)
{
	*(volatile int *)kernel_addr = 1;
	return EXIT_SURVIVED;
}

static int do_priv(void)
{
	user_privileged_insn();
	return EXIT_SURVIVED;
}

static int do_divzero(void)
{
	user_divide((unsigned)zero);
	return EXIT_SURVIVED;
}

static int do_unaligned(void)
{
	static volatile uint32_t words[2];

	if (!USER_MACHDEP_UNALIGNED_FAULTS) {
		printf("fault unaligned: not a fault on this machine\n");
		return EXIT_NOT_HERE;
	}
	volatile uint32_t *odd = (volatile uint32_t *)((uintptr_t)words + 1);
	volatile uint32_t v = *odd;
	(void)v;
	return EXIT_SURVIVED;
}

static int recurse(int depth)
{
	volatile char pad[STACK_PAD];

	pad[0] = (char)depth;
	if (depth == depth_never)
		return 0;
	/* Using pad after the call keeps this from becoming a loop. */
	return recurse(depth + 1) + pad[0];
}

static int do_stack(void)
{
	recurse(0);
	return EXIT_SURVIVED;
}

static int expect_efault(const char *what, long r)
{
	printf("fault badptr: %s -> %s\n", what, r < 0 ? errno_name((int)r) : "ok");
	return r == -EFAULT ? 0 : 1;
}

static int do_badptr(void)
{
	int bad = 0;

	bad |= expect_efault("write(null)", write(1, (const void *)null_addr, BAD_LEN));
	bad |= expect_efault("write(kernel)", write(1, (const void *)kernel_addr, BAD_LEN));
	bad |= expect_efault("getrusage(kernel)",
			     getrusage(RUSAGE_SELF, (struct tally_rusage *)kernel_addr));
	bad |= expect_efault("waitpid(status=kernel)",
			     waitpid(WAIT_ANY, (int *)kernel_addr, 0));
	bad |= expect_efault("spawn(name=null)", spawn((const char *)null_addr, NULL));
	printf("fault badptr: %s\n", bad ? "FAILED" : "ok");
	return bad;
}

struct kind {
	const char *name;
	int (*fn)(void);
};

static const struct kind kinds[] = {
	{ "null", do_null },
	{ "kernel", do_kernel },
	{ "priv", do_priv },
	{ "divzero", do_divzero },
	{ "unaligned", do_unaligned },
	{ "stack", do_stack },
	{ "badptr", do_badptr },
};

int main(int argc, char **argv)
{
	if (argc == 2) {
		for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
			if (strcmp(argv[1], kinds[i].name) == 0) {
				int r = kinds[i].fn();
				if (r == EXIT_SURVIVED)
					printf("fault %s: survived\n", argv[1]);
				return r;
			}
		}
	}
	printf("usage: fault null|kernel|priv|divzero|unaligned|stack|badptr\n");
	return EXIT_USAGE;
}
