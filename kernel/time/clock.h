/* clock.h - the periodic tick and time since boot. */
#ifndef TALLY_CLOCK_H
#define TALLY_CLOCK_H

#include <stdint.h>

#define HZ_DEFAULT 100

extern unsigned clock_hz;
uint64_t clock_ticks(void);
/* Spin until the next tick and return the new count: what follows starts
 * on a tick (benchmarks that must fit between two, or count them). */
uint64_t clock_wait_tick(void);
uint64_t clock_uptime_ms(void);     /* from the cycle counter, not ticks */
void clock_init(unsigned hz);       /* starts the arch timer */
unsigned clock_hz_from_bootargs(void);
/* Every CPU's own tick (an AP's LAPIC timer; CPU 0's through clock_tick):
 * its tick event, accounting and preemption, not the wall clock. */
void clock_tick_cpu(void);

#endif
