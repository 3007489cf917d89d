/*
 * decode.h - what the witness plugin needs to know about one guest
 * instruction, from its bytes and address alone (host code, no QEMU).
 */
#ifndef WITNESS_DECODE_H
#define WITNESS_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum witness_isa {
	WITNESS_ISA_X86_64,
	WITNESS_ISA_MIPS_LE,
	WITNESS_ISA_MIPS_BE,
};

/* Flags of one instruction. */
#define WITNESS_INSN_USER     0x1u      /* at a user-mode address */
#define WITNESS_INSN_SYSCALL  0x2u      /* the system-call instruction */
#define WITNESS_INSN_BEGIN    0x4u      /* a begin mark (witness_abi.h) */
#define WITNESS_INSN_END      0x8u      /* an end mark */

/* Below these addresses a PC is user mode: x86-64's lower canonical half,
 * MIPS kuseg. */
#define WITNESS_X86_USER_TOP  0x800000000000ull
#define WITNESS_MIPS_USER_TOP 0x80000000ull

/* "x86_64", "mips", "mipsel" (QEMU's target names); false if unknown. */
bool witness_isa_of(const char *target, enum witness_isa *isa);

/* Flags of the instruction of size bytes at vaddr whose bytes are data,
 * in guest memory order. */
unsigned witness_classify(enum witness_isa isa, uint64_t vaddr,
			  const uint8_t *data, size_t size);

#endif
