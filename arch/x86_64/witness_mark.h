/*
 * witness_mark.h (x86-64) - emit one witness mark: an 8-byte NOP,
 * nopl imm32(%rax,%rax,1), whose displacement carries the mark's code
 * (kernel/witness_abi.h).  It reads nothing and changes no flag.
 */
#ifndef TALLY_ARCH_WITNESS_MARK_H
#define TALLY_ARCH_WITNESS_MARK_H

#include "witness_abi.h"

/* "memory": the compiler must not move loads or stores across a mark. */
#define arch_witness_mark(code) \
	__asm__ volatile(".byte 0x0f, 0x1f, 0x84, 0x00\n\t.long %c0" \
			 : : "i"(WITNESS_X86_IMM(code)) : "memory")

#endif
