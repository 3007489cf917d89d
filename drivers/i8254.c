/*
 * i8254.c - interval timer: periodic tick source and the fixed-rate
 * reference for measuring the cycle counter.
 */
#include "arch.h"
#include "time/cycle_rate.h"
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

static uint32_t ticks_between(uint16_t prev, uint16_t now)
{
	return prev >= now ? (uint32_t)(prev - now) : (uint32_t)prev + PIT_FULL_PERIOD - now;
}

/*
 * Channel 0 free-runs down from 65536 in mode 2; summing the decrements
 * between reads gives elapsed PIT ticks without needing the channel-2 gate
 * (port 0x61), which Malta's PIIX4 does not wire the same way as a PC.
 * Reads come far more often than the 55 ms period, so one wrap at most
 * happens between two of them.
 *
 * Both ends of the window are i8254 edges: the cycle counter is read
 * just after the chip's count is seen to change, so each end lags its
 * edge by at most the poll that saw it, and those two polls' lengths are
 * the window's slack (a stall anywhere in between does not matter).
 */
void i8254_window(uint64_t (*read_cycles)(void), unsigned pit_ticks,
		  struct cycle_window *w)
{
	uint64_t elapsed = 0, poll = 0;

	load_ch0(0);
	uint16_t prev = read_ch0();
	uint64_t last = read_cycles();
	uint16_t now;

	do {    /* to the first edge */
		now = read_ch0();
		uint64_t c = read_cycles();
		poll = c - last;
		last = c;
	} while (now == prev);
	uint64_t c0 = last, slack = poll;

	prev = now;
	while (elapsed < pit_ticks) {
		now = read_ch0();
		uint64_t c = read_cycles();
		poll = c - last;
		last = c;
		elapsed += ticks_between(prev, now);
		prev = now;
	}
	w->cycles = last - c0;
	w->ref_ticks = elapsed;
	w->slack = slack + poll;
}
