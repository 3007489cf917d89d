/*
 * intr.c - the CPU's interrupt lines and the global interrupt enable.
 *
 * Malta wires the PIIX4's 8259 pair to IP2; the core's own Count/Compare
 * timer raises the line IntCtl.IPTI names (IP7).  The 8259 is not a vector
 * source here: the CPU only learns "something on IP2" and asks the 8259
 * which line, by polling, until nothing is pending.
 */
#include "arch.h"
#include "cp0.h"
#include "i8259.h"
#include "mips.h"

#include <stdio.h>

/* Each 8259 line can be pending at most once per poll round. */
#define I8259_POLL_MAX I8259_IRQS

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
void intr_init(void)
{
	i8259_init(0);
	cp0_write_status(cp0_read_status() | ST_IM(IP_I8259));
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

void intr_dispatch(uint32_t pending)
{
	uint32_t timer = CAUSE_IP(timer_ip());
	uint32_t i8259 = CAUSE_IP(IP_I8259);
	uint32_t stray = pending & ~(timer | i8259);

	if (pending & timer)
		timer_interrupt();
	if (pending & i8259)
		i8259_service();
	if (stray) {
		/* A line nobody drives: mask it rather than loop on it forever. */
		cp0_write_status(cp0_read_status() & ~stray);
		if (stray_lines++ == 0)
			printf("mips: unexpected interrupt on Cause.IP 0x%02x, masked\n",
			       (unsigned)(stray >> CAUSE_IP_SHIFT));
	}
}
