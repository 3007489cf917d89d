/*
 * spec.h - the one event-specification syntax, for the console and the
 * user library alike.
 *
 *	spec   := item { "," item }
 *	item   := "sig=" N                       overflow signal, 0..32
 *	        | [ "@" I "=" ] event { ":" opt }
 *	event  := [ PMU "::" ] NAME { ":" opt }  libpfm4: INST_RETIRED:ANY_P:u
 *	        | "r" HEX { ":" opt }            raw driver code, e.g. r1c0
 *	        | PMU "/" term { "," term } "/" [ [":"] opt { ":" opt } ]
 *	                                         perf: cpu/event=0xc0,umask=0/u
 *	term   := "event=" N | "umask=" N | "cmask=" N | "inv" | "edge"
 *	          ("inv=0|1", "edge=0|1" too)
 *	opt    := MODES                          letters u k s x, default u
 *	        | UMASK                          a unit mask of the event
 *	        | "thresh=" N                    act every N events, N >= 0
 *	        | "c=" N | "cmask=" N            counter mask 0..255
 *	        | "i=" 0|1 | "inv" | "e=" 0|1 | "edge"
 *
 * PMU is "cpu" or the active PMU's name (in the libpfm form also a name
 * of one of its tables).  A part of mode letters only is a mode group,
 * unless the event has a unit mask of exactly that name; unit masks come
 * before the modes.  Unit-mask names travel to the kernel inside the
 * event's name ("inst-retired:any-p"); perf's terms in its fields.  The
 * PMU decides what it has: the software PMU and the MIPS counters have
 * no unit mask, counter mask, invert or edge (pmu_caps.fields).
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

/* An event looked up in a PMU's tables, with its unit masks. */
struct hwperf_lookup {
	uint8_t table;          /* caps->tables[] index */
	uint16_t entry;         /* first entry of the name */
	uint32_t hwmask;        /* counters that may count it */
	uint32_t umask;         /* the named unit masks' bits, ORed */
	bool has_umask;         /* a unit mask was named */
};

/*
 * ev (a name with its unit masks, or a raw code) against caps' tables and
 * fields.  0, or -EINVAL with a reason naming the part and listing what
 * the PMU has.  Used by the parser and by the kernel's resolve alike.
 */
int hwperf_lookup(const struct pmu_caps *caps, const struct hwperf_event *ev,
                  struct hwperf_lookup *out, struct hwperf_reason *why);
/* Whether event (a bare name) has a unit mask called name in caps. */
bool hwperf_has_umask(const struct pmu_caps *caps, const char *event,
                      const char *name);

/* "uk" for PMU_MODE_U | PMU_MODE_K; buf needs 5 bytes. */
void hwperf_modes_str(uint32_t modes, char *buf, size_t len);

/* ctl back in spec syntax ("@0=cycles:u,sig=0"); returns the length the
 * full text has, like snprintf. */
int hwperf_spec_format(const struct hwperf_control *ctl, char *buf, size_t len);

#endif
