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
 * Measure the rate of read_cycles() against channel 2 (x86) or channel 0
 * read-back (Malta) over about ms milliseconds.  Returns cycles per second.
 * Interrupts must be off.
 */
uint64_t i8254_measure(uint64_t (*read_cycles)(void), unsigned ms);

#endif
