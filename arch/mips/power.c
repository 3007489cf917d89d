/*
 * power.c - leaving the machine: exit with a status, reset, halt.
 *
 * Only QEMU with -semihosting can carry an exit status out; a real board
 * (or QEMU without it) has no such device, so arch_exit says so and halts
 * rather than pretend.
 */
#include "arch.h"
#include "addrspace.h"
#include "malta.h"
#include "mips.h"

#include <stdio.h>

void arch_halt(void)
{
	(void)arch_irq_save();
	for (;;)
		__asm__ volatile("wait" : : : "memory");
}

void arch_exit(int code)
{
	if (semihost_present())
		semihost_exit(code);
	printf("mips: no exit device (run QEMU with -semihosting to get the status); "
	       "halting with status %d\n", code);
	arch_halt();
}

void arch_reboot(void)
{
	(void)arch_irq_save();
	*(volatile uint32_t *)KSEG1(MALTA_SOFTRES_PHYS) = MALTA_SOFTRES_GORESET;
	printf("mips: board reset did not happen; halting\n");
	arch_halt();
}
