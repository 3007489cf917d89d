/* boot.h - the C side of boot/x86_64/entry64.asm. */
#ifndef TALLY_X86_64_BOOT_H
#define TALLY_X86_64_BOOT_H

#include <stdint.h>

/*
 * Called on the boot stack in the higher half, interrupts off, with the
 * loader's EAX and EBX.  Sets up descriptors, reads the loader's
 * information, finishes the page tables and calls kmain.
 */
void x86_64_boot(uint32_t magic, uint32_t info_pa) __attribute__((noreturn));

#endif
