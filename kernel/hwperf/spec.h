/*
 * spec.h - the one event-specification syntax, for the console and the
 * user library alike.
 *
 *	spec   := item { "," item }
 *	item   := "sig=" N                       overflow signal, 0..32
 *	        | [ "@" I "=" ] event { ":" opt }
 *	event  := NAME                           from the PMU's event tables
 *	        | "r" HEX                        raw driver code, e.g. r1c0
 *	opt    := MODES                          letters u k s x, default u
 *	        | "thresh=" N                    act every N events, N >= 0
 *
 * Examples: "cycles,syscalls:uk", "ticks:k:thresh=10,sig=16",
 * "@0=cycles,@16=cycles" (the IRIX slot layout: on an R10000 virtual
 * counter i is hardware counter i / 16).  Events without "@I" take the
 * lowest free virtual counter that can count them.  N is decimal or 0x hex.
 */
#ifndef TALLY_HWPERF_SPEC_H
#define TALLY_HWPERF_SPEC_H

#include <stddef.h>

#include "hwperf.h"

/*
 * Parse spec into ctl (zeroed first).  With caps, names are checked
 * against its tables; with caps NULL only the syntax is (the kernel checks
 * names when the control arrives).  Returns 0 or -EINVAL with a reason
 * naming the bad token.
 */
int hwperf_spec_parse(const char *spec, const struct pmu_caps *caps,
                      struct hwperf_control *ctl, struct hwperf_reason *why);

/* "uk" for PMU_MODE_U | PMU_MODE_K; buf needs 5 bytes. */
void hwperf_modes_str(uint32_t modes, char *buf, size_t len);

/* ctl back in spec syntax ("@0=cycles:u,sig=0"); returns the length the
 * full text has, like snprintf. */
int hwperf_spec_format(const struct hwperf_control *ctl, char *buf, size_t len);

#endif
