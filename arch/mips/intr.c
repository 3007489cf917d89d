/*
 * intr.c - the CPU's interrupt lines and the global interrupt enable.
 *
 * Malta wires the PIIX4's 8259 pair to IP2; the core's own Count/Compare
 * timer raises the line IntCtl.IPTI names (IP7), and the performance
 * counters, on Release 2 cores that have them, the line IntCtl.IPPCI
 * names, flagging Cause.PCI -- possibly the timer's line
 * (intr_route.h decides who runs).  The 8259 is not a vector source here:
 * the CPU only learns "something on IP2" and asks the 8259 which line, by
 * polling, until nothing is pending.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "arch.h"
#include "cp0.h"
#include "i8259.h"
#include "intr_route.h"
#include "irq.h"
#include "machdep.h"
#include "mips.h"
#include "pcpu.h"
#include "pmu.h"
#include "pmu/mips_pmu.h"

/* Each 8259 line can be pending at most once per poll round. */
#define I8259_POLL_MAX I8259_IRQS

static struct intr_route route;
/* Cause.IP bit of the timer's line, kept for the tick's shortcut, is
 * per CPU (pcpu.h timer_bit): CPU 0's tick takes the shortcut to
 * timer_interrupt, while a VPE's (whose word matches no pending lines)
 * goes the general way, to its own tick (mips_vpe_tick), so that CPU 0's
 * tick pays nothing to tell the two apart. */
#define TIMER_BIT_NONE UINT32_MAX
static unsigned long stray_lines;

irqflags_t arch_irq_save(void)
{
	uint32_t old;

	__asm__ volatile("di %0\n\tehb" : "=r"(old) : : "memory");
	return old & ST_IE;
}

void arch_irq_restore(irqflags_t flags)
{
	if (flags & ST_IE)
		__asm__ volatile("ei\n\tehb" : : : "memory");
	else
		__asm__ volatile("di\n\tehb" : : : "memory");
}

void arch_irq_enable(void)
{
	__asm__ volatile("ei\n\tehb" : : : "memory");
}

/*
 * The 8259's timer line comes up pending, so everything is masked at the
 * 8259 before IP2 is let through; drivers unmask their own lines through
 * irq_register.  The vector base means nothing when the 8259 is polled.
 */
/* A VPE's lines (smp.c): its timer's tick goes the general way. */
void intr_cpu_init(void)
{
	pcpu_here()->timer_bit = TIMER_BIT_NONE;
}

void intr_init(void)
{
	uint32_t config = cp0_read_config();
	uint32_t intctl = cp0_field(config, CONFIG_AR_MASK, CONFIG_AR_SHIFT) >=
	                  CONFIG_AR_R2 ? cp0_read_intctl() : 0;
	uint32_t im = ST_IM(IP_I8259);

	i8259_init(0);
	intr_route_init(&route, config, cp0_read_config1(), intctl);
	pcpu_here()->timer_bit = CAUSE_IP(route.timer_ip);
	/* Before hwperf_boot: drivers offer overflow interrupts only then.
	 * The timer's line is opened by arch_timer_start, when it has a
	 * deadline; a line of the counters' own is opened here. */
	if (route.pci_ip) {
		mips_pmu_irq_wire(true);
		if (route.pci_ip != route.timer_ip)
			im |= ST_IM(route.pci_ip);
	}
	cp0_write_status(cp0_read_status() | im);
}

static void i8259_service(void)
{
	for (unsigned n = 0; n < I8259_POLL_MAX; n++) {
		int irq = i8259_poll();

		if (irq < 0)
			return;
		irq_dispatch((unsigned)irq);
	}
}

/* Every line but the timer's alone: out of line, so that the tick's
 * path inlines into mips_trap without it. */
static __attribute__((noinline)) void intr_dispatch_lines(uint32_t pending, uint32_t cause,
							  uintptr_t pc, bool user)
{
	uint32_t run = intr_route_decide(&route, cause, pending);
	uint32_t stray = run & INTR_STRAY_MASK;

	/* A software line is a ring (smp.c), handled here rather than in
	 * intr_route so that the tick path pays nothing; before the tick,
	 * whose catch-up may take a VPE's whole turn under QEMU's round
	 * robin (smp.c, -icount). */
	if (stray)
		stray = mips_soft_interrupt(stray);
	if (run & INTR_RUN_TIMER) {
		if (machdep_cpu_id() != 0)
			mips_vpe_tick();
		else
			timer_interrupt();
	}
	if (run & INTR_RUN_PMU)
		(void)mips_pmu_irq(pc, user ? PMU_MODE_U : PMU_MODE_K);
	if (run & INTR_RUN_I8259)
		i8259_service();
	if (stray) {
		/* A line nobody drives: mask it rather than loop on it forever. */
		cp0_write_status(cp0_read_status() & ~stray);
		if (stray_lines++ == 0)
			printf("mips: unexpected interrupt on Cause.IP 0x%02x, masked\n",
			       (unsigned)(stray >> CAUSE_IP_SHIFT));
	}
}

void intr_dispatch(uint32_t pending, uint32_t cause, uintptr_t pc, bool user)
{
	/* Every tick: no general decision, no other handler's test (about
	 * 40 instructions a tick, docs/costs.md). */
	if (intr_route_timer_alone(pcpu_here()->timer_bit, cause, pending))
		timer_interrupt();
	else
		intr_dispatch_lines(pending, cause, pc, user);
}

void arch_pmi_info(struct irq_pmi_info *out)
{
	memset(out, 0, sizeof(*out));
	if (route.pci_ip) {
		snprintf(out->line, sizeof(out->line), "ip=%u", route.pci_ip);
		if (route.pci_ip == route.timer_ip)
			snprintf(out->note, sizeof(out->note), "shared with the timer");
	} else {
		snprintf(out->note, sizeof(out->note), "%s", route.why);
	}
	out->count = mips_pmu_irq_count();
	out->spurious = mips_pmu_irq_spurious();
}

/* Cause.PCI is read-only, set by a counter overflow alone: software has
 * no way to raise the counters' interrupt, and QEMU's counters never
 * overflow. */
int arch_pmi_self_test(char *why, size_t len)
{
	snprintf(why, len, "MIPS cannot raise the counter interrupt in "
	         "software (Cause.PCI is read-only)");
	return -ENOTSUP;
}
