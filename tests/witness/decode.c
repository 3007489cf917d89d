/*
 * decode.c - classify one guest instruction for the witness plugin: its
 * mode from its address, the system-call instruction, Tally's marks.
 */
#include <string.h>

#include "decode.h"
#include "kernel/witness_abi.h"

#define X86_MARK_LEN 8                  /* 0F 1F 84 00 imm32 */
static const uint8_t x86_mark_opcode[4] = { 0x0f, 0x1f, 0x84, 0x00 };
static const uint8_t x86_syscall[2] = { 0x0f, 0x05 };

#define MIPS_INSN_LEN 4
/* SPECIAL (opcode 0) with function 0x0c is `syscall code`; bits 25..6
 * hold a code the CPU ignores. */
#define MIPS_OPCODE_FUNCT_MASK 0xfc00003fu
#define MIPS_SYSCALL           0x0000000cu
#define CODE_MASK              0xffffu     /* a mark's 16-bit code */
#define MIPS_ABOVE_IMM16_MASK  0xffff0000u

bool witness_isa_of(const char *target, enum witness_isa *isa)
{
	if (strcmp(target, "x86_64") == 0)
		*isa = WITNESS_ISA_X86_64;
	else if (strcmp(target, "mipsel") == 0)
		*isa = WITNESS_ISA_MIPS_LE;
	else if (strcmp(target, "mips") == 0)
		*isa = WITNESS_ISA_MIPS_BE;
	else
		return false;
	return true;
}

static unsigned mark_flags(uint32_t code)
{
	if (code == WITNESS_CODE_BEGIN)
		return WITNESS_INSN_BEGIN;
	if (code == WITNESS_CODE_END)
		return WITNESS_INSN_END;
	return 0;
}

static unsigned x86_flags(const uint8_t *d, size_t size)
{
	if (size == sizeof(x86_syscall) && memcmp(d, x86_syscall, size) == 0)
		return WITNESS_INSN_SYSCALL;
	if (size == X86_MARK_LEN && memcmp(d, x86_mark_opcode, sizeof(x86_mark_opcode)) == 0) {
		uint32_t imm = (uint32_t)d[4] | (uint32_t)d[5] << 8 |
			       (uint32_t)d[6] << 16 | (uint32_t)d[7] << 24;
		if (imm >> 16 == WITNESS_X86_TAG)
			return mark_flags(imm & CODE_MASK);
	}
	return 0;
}

static unsigned mips_flags(const uint8_t *d, size_t size, bool big)
{
	if (size != MIPS_INSN_LEN)
		return 0;
	uint32_t w = big ? (uint32_t)d[0] << 24 | (uint32_t)d[1] << 16 |
			   (uint32_t)d[2] << 8 | d[3]
			 : (uint32_t)d[3] << 24 | (uint32_t)d[2] << 16 |
			   (uint32_t)d[1] << 8 | d[0];

	if ((w & MIPS_OPCODE_FUNCT_MASK) == MIPS_SYSCALL)
		return WITNESS_INSN_SYSCALL;
	if ((w & MIPS_ABOVE_IMM16_MASK) == WITNESS_MIPS_ORI_ZERO)
		return mark_flags(w & CODE_MASK);
	return 0;
}

unsigned witness_classify(enum witness_isa isa, uint64_t vaddr,
			  const uint8_t *data, size_t size)
{
	if (isa == WITNESS_ISA_X86_64)
		return (vaddr < WITNESS_X86_USER_TOP ? WITNESS_INSN_USER : 0) |
		       x86_flags(data, size);
	/* A 32-bit MIPS address, whether or not QEMU sign-extended it. */
	return ((uint32_t)vaddr < WITNESS_MIPS_USER_TOP ? WITNESS_INSN_USER : 0) |
	       mips_flags(data, size, isa == WITNESS_ISA_MIPS_BE);
}
