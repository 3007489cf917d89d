/*
 * i8254.c - interval timer: periodic tick source and the fixed-rate
 * reference for measuring the cycle counter.
 */
#include "arch.h"
#include "i8254.h"

#define PIT_CH0   0x40
#define PIT_MODE  0x43

#define MODE_CH0        0x00
#define MODE_LATCH      0x00    /* with a channel: latch its count */
#define MODE_LOHI       0x30    /* access low byte then high byte */
#define MODE_RATE_GEN   0x04    /* mode 2: periodic, reloads itself */
#define PIT_FULL_PERIOD 65536u  /* reload value 0 means 65536 */

static void load_ch0(uint16_t reload)
{
	arch_io_out8(PIT_MODE, MODE_CH0 | MODE_LOHI | MODE_RATE_GEN);
	arch_io_out8(PIT_CH0, (uint8_t)(reload & 0xff));
	arch_io_out8(PIT_CH0, (uint8_t)(reload >> 8));
}

void i8254_periodic(unsigned hz)
{
	uint32_t div = (I8254_HZ + hz / 2) / hz;

	if (div > 0xffff)
		div = 0;        /* slowest rate the chip has */
	load_ch0((uint16_t)div);
}

static uint16_t read_ch0(void)
{
	arch_io_out8(PIT_MODE, MODE_CH0 | MODE_LATCH);
	uint8_t lo = arch_io_in8(PIT_CH0);
	uint8_t hi = arch_io_in8(PIT_CH0);
	return (uint16_t)(lo | (hi << 8));
}

/*
 * Channel 0 free-runs down from 65536 in mode 2; summing the decrements
 * between reads gives elapsed PIT ticks without needing the channel-2 gate
 * (port 0x61), which Malta's PIIX4 does not wire the same way as a PC.
 * Reads come far more often than the 55 ms period, so one wrap at most
 * happens between two of them.
 */
uint64_t i8254_measure(uint64_t (*read_cycles)(void), unsigned ms)
{
	uint64_t target = (uint64_t)I8254_HZ * ms / 1000u;
	uint64_t elapsed = 0;

	load_ch0(0);
	uint16_t prev = read_ch0();
	uint64_t c0 = read_cycles();
	while (elapsed < target) {
		uint16_t now = read_ch0();
		uint32_t d = (prev >= now) ? (uint32_t)(prev - now)
					   : (uint32_t)prev + PIT_FULL_PERIOD - now;
		elapsed += d;
		prev = now;
	}
	uint64_t c1 = read_cycles();
	return (c1 - c0) * I8254_HZ / elapsed;
}
