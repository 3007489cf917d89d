/* io.h - x86 port I/O. */
#ifndef TALLY_X86_64_IO_H
#define TALLY_X86_64_IO_H

#include <stdint.h>

static inline uint8_t inb(uint16_t port)
{
	uint8_t v;
	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline void outb(uint16_t port, uint8_t v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

#endif
