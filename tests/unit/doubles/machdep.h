/*
 * machdep.h for the host tests: what portable code takes from the arch's
 * machdep.h, played by the fake environment (hwperf_fake_env.c).  The
 * running CPU is fake_cpu, and its kernel-event word is the one
 * arch_kevents_set last gave it.
 */
#ifndef TALLY_MACHDEP_H
#define TALLY_MACHDEP_H

#include <stdbool.h>
#include <stdint.h>

bool fake_kevents_any(uint32_t bits);

static inline bool machdep_kevents_any(uint32_t bits)
{
	return fake_kevents_any(bits);
}

#endif
