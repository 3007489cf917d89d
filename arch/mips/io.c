/*
 * io.c - ISA ports and physical memory as the kernel sees them on Malta.
 *
 * The PIIX4's ISA I/O space appears in physical memory at 0x18000000 and
 * is reached uncached through KSEG1.  Byte accesses need no lane swapping
 * in either endianness.  RAM is reached through KSEG0, which covers the
 * first 512 MiB of physical space; on Malta only the first 256 MiB of that
 * is RAM (the rest is the board's I/O), so the kernel can use at most
 * 256 MiB of RAM until it maps the rest through the TLB.
 */
#include "arch.h"
#include "addrspace.h"
#include "malta.h"

uint8_t arch_io_in8(uint16_t port)
{
	return *(volatile uint8_t *)KSEG1(MALTA_ISA_IO_PHYS + port);
}

void arch_io_out8(uint16_t port, uint8_t val)
{
	*(volatile uint8_t *)KSEG1(MALTA_ISA_IO_PHYS + port) = val;
}

void *arch_phys_to_virt(uint64_t pa)
{
	if (pa >= KSEG_SIZE)
		panic("arch_phys_to_virt: 0x%llx is beyond KSEG0's 512 MiB",
		      (unsigned long long)pa);
	return (void *)KSEG0(pa);
}

uint64_t arch_virt_to_phys(const void *va)
{
	uintptr_t v = (uintptr_t)va;

	if (v < KSEG0_BASE || v >= KSEG2_BASE)
		panic("arch_virt_to_phys: %p is not in KSEG0 or KSEG1", va);
	return v & KSEG_PHYS_MASK;
}
