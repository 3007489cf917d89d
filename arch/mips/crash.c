/*
 * crash.c - raise a chosen exception on purpose, to prove the trap path.
 *
 * Each kind is a single instruction in inline assembly, so the compiler
 * can neither prove it faults nor move it; all of them panic through
 * trap.c's fatal path.
 */
#include "arch.h"
#include "addrspace.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Below KSEG0 and never mapped: tlb.c leaves no entry that can match. */
#define CRASH_KUSEG_ADDR 0x00400000u
/* A word load one byte past an aligned word. */
#define CRASH_MISALIGN   1
/*
 * Primary opcode 0x3b is unassigned from MIPS32 Release 1 to 5 (it is
 * PC-relative addressing only in Release 6, which Tally does not run on).
 */
#define CRASH_RESERVED_INSN 0xec000000u

static uint32_t crash_word;

static void crash_ade(void)
{
	uint32_t v;

	__asm__ volatile("lw %0, %2(%1)"
			 : "=r"(v) : "r"(&crash_word), "i"(CRASH_MISALIGN) : "memory");
	(void)v;
}

static void crash_tlbl(void)
{
	uint32_t v;

	__asm__ volatile("lw %0, 0(%1)" : "=r"(v) : "r"(CRASH_KUSEG_ADDR) : "memory");
	(void)v;
}

static void crash_ri(void)
{
	__asm__ volatile(".word %0" : : "i"(CRASH_RESERVED_INSN) : "memory");
}

static void crash_bp(void)
{
	__asm__ volatile("break" : : : "memory");
}

struct crash_kind {
	const char *name;
	const char *what;
	void (*fn)(void);
};

static const struct crash_kind kinds[] = {
	{ "ade",  "unaligned word load (AdEL)", crash_ade },
	{ "tlbl", "load from an unmapped kuseg address (TLBL)", crash_tlbl },
	{ "ri",   "reserved instruction (RI)", crash_ri },
	{ "bp",   "break instruction (Bp)", crash_bp },
};

int arch_crash(const char *kind)
{
	if (strcmp(kind, "list") == 0) {
		for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
			printf("%-5s %s\n", kinds[i].name, kinds[i].what);
		return 0;
	}
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (strcmp(kind, kinds[i].name) == 0) {
			kinds[i].fn();
			panic("crash %s: the exception did not happen", kind);
		}
	}
	return -EINVAL;
}
