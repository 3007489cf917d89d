/* ioport.c - the ISA I/O space of the portable contract is port I/O. */
#include "arch.h"
#include "io.h"

uint8_t arch_io_in8(uint16_t port)
{
	return inb(port);
}

void arch_io_out8(uint16_t port, uint8_t val)
{
	outb(port, val);
}
