/*
 * intr_route.h - which handlers one MIPS interrupt exception runs, decided
 * from CP0 values alone so that host tests can play each core's values.
 *
 * Interrupt compatibility mode (Tally never enables vectored or EIC mode):
 * Cause.IP7..2 are the six hardware lines.  The Count/Compare timer raises
 * the line IntCtl.IPTI names and, on Release 2 cores with performance
 * counters, a counter interrupt sets Cause.PCI (bit 26) and raises the
 * line IntCtl.IPPCI names (MIPS32 PRA vol. III, IntCtl and Cause; 2..7 are
 * IP2..IP7, i.e. HW0..HW5; the core's integrator wires it).  The two may
 * be the same line: then both handlers run for one interrupt, because
 * Cause.IP says only that someone on the line wants service, and neither
 * handler may swallow the other's.  The 8259 of the Malta board is on IP2.
 */
#ifndef TALLY_MIPS_INTR_ROUTE_H
#define TALLY_MIPS_INTR_ROUTE_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/mips/cp0.h"

struct intr_route {
	unsigned timer_ip;              /* IntCtl.IPTI, or IP7 before Release 2 */
	unsigned pci_ip;                /* IntCtl.IPPCI; 0: no counter line */
	const char *why;                /* why pci_ip is 0 (static text) */
};

/* From Config (16, 0), Config1 (16, 1) and IntCtl (12, 1); intctl is
 * ignored before Release 2, where the register does not exist. */
void intr_route_init(struct intr_route *r, uint32_t config, uint32_t config1,
                     uint32_t intctl);

/* The result of intr_route_decide(): handlers, plus in Cause.IP's bit
 * positions (15:8) the pending lines nobody handles. */
#define INTR_RUN_TIMER 0x1u
#define INTR_RUN_I8259 0x2u
#define INTR_RUN_PMU 0x4u
#define INTR_STRAY_MASK 0x0000ff00u

/* pending: Cause.IP & Status.IM; cause: the whole Cause register. */
uint32_t intr_route_decide(const struct intr_route *r, uint32_t cause,
                           uint32_t pending);

/*
 * The tick's shortcut: true when intr_route_decide would say "the timer,
 * nothing else", for the one case every tick is -- the timer's line
 * alone pending and Cause.PCI clear, so no counter can want it even on a
 * shared line.  Anything else (false) goes to intr_route_decide.
 */
static inline bool intr_route_timer_alone(uint32_t timer_bit, uint32_t cause,
                                          uint32_t pending)
{
	return pending == timer_bit && !(cause & CAUSE_PCI);
}

#endif
