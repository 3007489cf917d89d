/*
 * witness_abi.h - the marks Tally leaves for the outside witness
 * (tests/witness/witness.c, a QEMU TCG plugin), shared by the kernel and
 * the plugin.
 *
 * A mark is one instruction that does nothing on the CPU but carries a
 * 16-bit code the plugin recognises when QEMU translates it:
 *   x86-64  nopl imm32(%rax,%rax,1)  = 0F 1F 84 00 imm32 (little-endian),
 *           imm32 = WITNESS_X86_TAG << 16 | code
 *   MIPS    ori $zero,$zero,code      = 0x34000000 | code (a write to $zero)
 * Compilers emit neither: their multi-byte NOPs have displacement 0, and
 * they never write $zero with ori.
 *
 * Marks carry no interval id (an immediate is fixed at build time): both
 * sides number the begin marks they see, from 1 at boot, and the kernel
 * prints the number it gave (witness.h).
 */
#ifndef TALLY_WITNESS_ABI_H
#define TALLY_WITNESS_ABI_H

#define WITNESS_MAGIC      0xA5u        /* the code's high byte */
#define WITNESS_KIND_BEGIN 0x01u        /* an interval opens */
#define WITNESS_KIND_END   0x02u        /* the innermost open interval closes */
#define WITNESS_CODE(kind) ((WITNESS_MAGIC << 8) | (kind))
#define WITNESS_CODE_BEGIN WITNESS_CODE(WITNESS_KIND_BEGIN)
#define WITNESS_CODE_END   WITNESS_CODE(WITNESS_KIND_END)

#define WITNESS_X86_TAG    0x7A11u      /* upper half of the x86 imm32 */
#define WITNESS_X86_IMM(code) ((WITNESS_X86_TAG << 16) | (code))
#define WITNESS_MIPS_ORI_ZERO 0x34000000u       /* ori $zero,$zero,0 */
#define WITNESS_MIPS_WORD(code) (WITNESS_MIPS_ORI_ZERO | (code))

#endif
