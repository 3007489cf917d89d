/*
 * witness_mark.h (MIPS) - emit one witness mark: ori $zero,$zero,code
 * (kernel/witness_abi.h), a write to $zero, which the CPU discards.
 * Emitted as a raw word so the assembler neither warns about nor
 * reorders it.
 */
#ifndef TALLY_ARCH_WITNESS_MARK_H
#define TALLY_ARCH_WITNESS_MARK_H

#include "witness_abi.h"

/* "memory": the compiler must not move loads or stores across a mark. */
#define arch_witness_mark(code) \
	__asm__ volatile(".word %0" : : "i"(WITNESS_MIPS_WORD(code)) : "memory")

#endif
