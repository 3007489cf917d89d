/*
 * flash.h - the Malta boot-flash stub's memory plan, shared by reset.S and
 * flash.c.
 *
 * The stub runs from the boot flash (KSEG1 0xbfc00000, physical
 * 0x1fc00000).  It keeps everything it writes in the first megabyte of
 * RAM, the area YAMON and QEMU's loader use too and the kernel leaves
 * alone (MALTA_BOOT_AREA_END): its stack just below the kernel's load
 * address, and the argument block the kernel parses at 0x2000.
 */
#ifndef TALLY_MIPS_FLASH_H
#define TALLY_MIPS_FLASH_H

#define FLASH_STACK_TOP     0x800ffff0   /* KSEG0, below the kernel at 0x80100000 */
#define FLASH_ARGS_KSEG0    0x80002000   /* argv, envp and their strings */
#define FLASH_ARGS_SIZE     0x2000

/* UHI semihosting: `sdbbp 1`, operation in $25 (t9), result in $2 (v0). */
#define UHI_OP_EXIT         1
#define UHI_OP_ARGC         9
/* a0 at kernel entry when semihosting is there (boot/mips/start.S). */
#define UHI_BOOT_A0         0xffffffff

#ifndef __ASSEMBLY__
#include <stdint.h>

void flash_main(uint32_t semihosting);
void flash_fault(uint32_t vector, uint32_t cause, uint32_t epc, uint32_t badvaddr);
/* Jump to the kernel at entry with a0..a3; never returns. */
void flash_enter(uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3)
	__attribute__((noreturn));
void flash_halt(void) __attribute__((noreturn));
void flash_semihost_exit(int code);

extern const char flash_cmdline[];
extern const uint8_t flash_kernel_start[], flash_kernel_end[];
#endif

#endif
