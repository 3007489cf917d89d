/*
 * boot.c - from start.S to kmain.
 *
 * Exceptions are made survivable before anything else (TLB cleared,
 * vectors installed, BEV off), so that even a fault in early kmain lands
 * in trap.c instead of the boot ROM's vectors.
 */
#include "arch.h"
#include "mips.h"

static struct boot_info boot_info;

/* The loader's registers, kept for anyone debugging a strange boot. */
uint32_t mips_boot_regs[4];

void mips_boot(uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3)
{
	mips_boot_regs[0] = a0;
	mips_boot_regs[1] = a1;
	mips_boot_regs[2] = a2;
	mips_boot_regs[3] = a3;
	arch_boot_progress("start");
	/* Before anything asks arch_cpu_id (smp.c). */
	mips_set_cpu_number(0);
	semihost_detect(a0);
	tlb_init();
	vm_init();
	trap_init();
	bootinfo_parse(&boot_info, a0, a1, a2, a3);
	kmain(&boot_info);
}
