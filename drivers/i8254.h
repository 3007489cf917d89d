/*
 * i8254.h - the programmable interval timer (1.193182 MHz input on both
 * machines).  Tally uses it as the fixed-rate reference that the cycle
 * counter is measured against, and as the tick source on x86.
 */
#ifndef TALLY_I8254_H
#define TALLY_I8254_H

#include <stdint.h>

#define I8254_HZ 1193182u
#define I8254_IRQ 0

/* Channel 0 in rate-generator mode at hz interrupts per second. */
void i8254_periodic(unsigned hz);
/*
 * Count read_cycles() over at least pit_ticks periods of the chip,
 * starting and ending at an edge of its count (cycle_rate.h says how the
 * window becomes a rate).  Interrupts must be off.
 */
struct cycle_window;
void i8254_window(uint64_t (*read_cycles)(void), unsigned pit_ticks,
		  struct cycle_window *w);

#endif
