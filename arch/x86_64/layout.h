/*
 * layout.h - where things are in the x86_64 kernel's address space.
 * boot/x86_64/layout.inc states the same numbers for the boot code.
 *
 *   0x0000000000000000 .. 0x00007fffffffffff  lower half: user space, one
 *                        address space per task (vm.h, vm.c); the boot
 *                        identity map is removed before kmain
 *   0xffff800000000000 .. + RAM               direct map, 2 MiB pages
 *   0xffffffff80000000 .. + 1 GiB             kernel image (-mcmodel=kernel)
 */
#ifndef TALLY_X86_64_LAYOUT_H
#define TALLY_X86_64_LAYOUT_H

#include <stdint.h>

#define KERNEL_VMA       0xffffffff80000000ull
#define KERNEL_WINDOW    (1ull << 30)          /* what boot maps there */
#define DIRECT_MAP_BASE  0xffff800000000000ull
/* PML4 slots 256..383: physical addresses below 64 TiB are mapped. */
#define DIRECT_MAP_LIMIT (1ull << 46)

/* Real-mode IVT, BIOS data, EBDA, option ROMs: never handed out. */
#define LOW_MEMORY_END   0x100000ull
/* The boot page tables map this much; every loader pointer lies below. */
#define BOOT_MAP_END     (4ull << 30)

/* linker.ld */
extern char __kernel_phys_start[], __kernel_phys_end[];
extern char __text_start[], __text_end[];

/* boot/x86_64/entry32.asm */
extern char boot_stack_bottom[], boot_stack_top[];

#endif
