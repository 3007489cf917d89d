/*
 * crash.c - raise CPU exceptions on purpose to prove the trap path
 * (console command `crash KIND`).
 *
 * Each one is an instruction that faults by its definition, in inline
 * assembly so the compiler cannot see undefined behaviour and drop it.
 * "pf" reads the lower half, which is empty once boot removes the
 * identity map: the fault also proves that removal.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "arch.h"

#define UNMAPPED_LOW_ADDR   0xdead0000ul
#define NON_CANONICAL_ADDR  0x8000000000000000ul

static void crash_ud(void)
{
	__asm__ volatile("ud2");
}

static void crash_pf(void)
{
	__asm__ volatile("movq (%0), %%rax" : : "r"(UNMAPPED_LOW_ADDR) : "rax", "memory");
}

static void crash_de(void)
{
	__asm__ volatile("xorl %%ecx, %%ecx; divl %%ecx" : : : "eax", "ecx", "edx");
}

static void crash_gp(void)
{
	__asm__ volatile("movq (%0), %%rax" : : "r"(NON_CANONICAL_ADDR) : "rax", "memory");
}

/* A push to an unmapped stack faults, and so does delivering that #PF. */
static void crash_df(void)
{
	__asm__ volatile("movq %0, %%rsp; pushq $0" : : "r"(UNMAPPED_LOW_ADDR) : "memory");
}

static const struct {
	const char *kind;
	void (*raise)(void);
	const char *what;
} kinds[] = {
	{ "ud", crash_ud, "#UD: execute ud2" },
	{ "pf", crash_pf, "#PF: read unmapped lower-half address 0xdead0000" },
	{ "de", crash_de, "#DE: divide by zero" },
	{ "gp", crash_gp, "#GP: load through non-canonical address" },
	{ "df", crash_df, "#DF: push on an unmapped stack (handled on IST)" },
};

int arch_crash(const char *kind)
{
	size_t n = sizeof(kinds) / sizeof(kinds[0]);

	if (strcmp(kind, "list") == 0) {
		for (size_t i = 0; i < n; i++)
			printf("%s\t%s\n", kinds[i].kind, kinds[i].what);
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		if (strcmp(kind, kinds[i].kind) == 0) {
			kinds[i].raise();
			panic("crash %s: the exception did not happen", kind);
		}
	}
	return -EINVAL;
}
