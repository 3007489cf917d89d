/*
 * intr_route.c - the interrupt routing decision (see intr_route.h).
 */
#include "arch/mips/cp0.h"
#include "intr_route.h"

static unsigned field(uint32_t v, uint32_t mask, unsigned shift)
{
	return (unsigned)((v & mask) >> shift);
}

void intr_route_init(struct intr_route *r, uint32_t config, uint32_t config1,
                     uint32_t intctl)
{
	unsigned ipti = field(intctl, INTCTL_IPTI_MASK, INTCTL_IPTI_SHIFT);
	unsigned ippci = field(intctl, INTCTL_IPPCI_MASK, INTCTL_IPPCI_SHIFT);

	r->timer_ip = IP_TIMER_DEFAULT;
	r->pci_ip = 0;
	if (field(config, CONFIG_AR_MASK, CONFIG_AR_SHIFT) < CONFIG_AR_R2) {
		r->why = "Release 1 core: no IntCtl, no Cause.PCI";
		return;
	}
	if (ipti >= IP_FIRST_HW)
		r->timer_ip = ipti;
	if (!(config1 & CONFIG1_PC)) {
		r->why = "Config1.PC = 0: no performance counters";
		return;
	}
	if (ippci < IP_FIRST_HW) {
		r->why = "IntCtl.IPPCI names no hardware line";
		return;
	}
	r->pci_ip = ippci;
	r->why = "";
}

uint32_t intr_route_decide(const struct intr_route *r, uint32_t cause,
                           uint32_t pending)
{
	uint32_t timer = CAUSE_IP(r->timer_ip), i8259 = CAUSE_IP(IP_I8259);
	uint32_t pci = r->pci_ip ? CAUSE_IP(r->pci_ip) : 0;
	uint32_t run = 0;

	pending &= CAUSE_IP_MASK;
	if (pending & timer)
		run |= INTR_RUN_TIMER;
	if (pending & i8259)
		run |= INTR_RUN_I8259;
	/* The line alone may be the timer's or the 8259's: only PCI says
	 * the counters asked.  Their own line up without PCI is someone
	 * else's, hence stray. */
	if (!(cause & CAUSE_PCI))
		pci = 0;
	if (pending & pci)
		run |= INTR_RUN_PMU;
	return run | (pending & ~(timer | i8259 | pci));
}
