/*
 * malta_display.c - the Malta FPGA's ASCII display and LED bar.
 *
 * Every FPGA register is a 32-bit word, so each character is written as a
 * whole word (the low byte is the character); that keeps the access the
 * same in both endiannesses.  The eight character positions are separate
 * registers 8 bytes apart.
 */
#include "malta_display.h"

#include <stdint.h>

#define MALTA_FPGA_KSEG1   0xbf000000u   /* physical 0x1f000000, uncached */
#define MALTA_LEDBAR       (MALTA_FPGA_KSEG1 + 0x408u)
#define MALTA_ASCIIWORD    (MALTA_FPGA_KSEG1 + 0x410u)  /* 32-bit value as hex */
#define MALTA_ASCIIPOS0    (MALTA_FPGA_KSEG1 + 0x418u)
#define MALTA_ASCIIPOS_STRIDE 8u

static void fpga_write(uint32_t addr, uint32_t v)
{
	*(volatile uint32_t *)(uintptr_t)addr = v;
}

void malta_display_puts(const char *s)
{
	for (unsigned i = 0; i < MALTA_DISPLAY_CHARS; i++) {
		char c = ' ';

		if (*s != '\0')
			c = *s++;
		fpga_write(MALTA_ASCIIPOS0 + i * MALTA_ASCIIPOS_STRIDE, (uint8_t)c);
	}
}

void malta_display_hex(uint32_t v)
{
	fpga_write(MALTA_ASCIIWORD, v);
}

void malta_ledbar_set(uint8_t leds)
{
	fpga_write(MALTA_LEDBAR, leds);
}
