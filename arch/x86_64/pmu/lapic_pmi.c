/*
 * lapic_pmi.c - the local APIC's performance-counter LVT entry (see
 * lapic_pmi.h).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>

#include "lapic_pmi.h"
#include "pmu.h"
#include "x86_pmu_io.h"

static const struct lapic_regs *regs;
static uint32_t lvt_value;
static bool ready;
static unsigned long taken, spurious;

static uint32_t x2apic_read(uint32_t off)
{
	return (uint32_t)x86_pmu_io->rdmsr(X2APIC_MSR_OF(off));
}

static void x2apic_write(uint32_t off, uint32_t value)
{
	x86_pmu_io->wrmsr(X2APIC_MSR_OF(off), value);
}

const struct lapic_regs lapic_x2apic_regs = {
	.read = x2apic_read,
	.write = x2apic_write,
};

/* One xAPIC per CPU, all at the same physical address: one base serves. */
static volatile uint32_t *xapic_base;

static uint32_t xapic_read(uint32_t off)
{
	return xapic_base[off / sizeof(uint32_t)];
}

static void xapic_write(uint32_t off, uint32_t value)
{
	xapic_base[off / sizeof(uint32_t)] = value;
}

static const struct lapic_regs xapic_regs = {
	.read = xapic_read,
	.write = xapic_write,
};

const struct lapic_regs *lapic_xapic_regs(volatile uint32_t *base)
{
	xapic_base = base;
	return &xapic_regs;
}

uint32_t lapic_pmi_lvt(uint8_t vector)
{
	return (uint32_t)vector |
	       LVT_DELIVERY_FIXED << LVT_DELIVERY_SHIFT;
}

int lapic_pmi_init(const struct lapic_regs *r, uint8_t vector)
{
	if (!r || vector < LAPIC_VECTOR_MIN)
		return -EINVAL;
	regs = r;
	lvt_value = lapic_pmi_lvt(vector);
	regs->write(LAPIC_REG_LVT_PMC, lvt_value);
	ready = true;
	return 0;
}

int lapic_pmi_init_cpu(void)
{
	if (!ready)
		return -ENODEV;
	regs->write(LAPIC_REG_LVT_PMC, lvt_value);
	return 0;
}

void lapic_pmi_disable(void)
{
	if (!regs)
		return;
	regs->write(LAPIC_REG_LVT_PMC, lvt_value | LVT_MASKED);
	ready = false;
}

bool lapic_pmi_ready(void)
{
	return ready;
}

uint8_t lapic_pmi_vector(void)
{
	return (uint8_t)(lvt_value & LVT_VECTOR_MASK);
}

const char *lapic_pmi_describe(void)
{
	static char buf[sizeof("pmi 0xff")];

	if (!ready)
		return "no pmi";
	snprintf(buf, sizeof(buf), "pmi %#x", lapic_pmi_vector());
	return buf;
}

/* A disabled entry stays masked: the interrupt may have been in flight. */
void lapic_pmi_interrupt(uintptr_t pc, uint32_t mode)
{
	taken++;
	if (!pmu_interrupt(pc, mode))
		spurious++;
	if (!regs)
		return;
	if (ready)
		regs->write(LAPIC_REG_LVT_PMC, lvt_value);
	regs->write(LAPIC_REG_EOI, 0);
}

unsigned long lapic_pmi_count(void)
{
	return taken;
}

unsigned long lapic_pmi_spurious(void)
{
	return spurious;
}

int lapic_pmi_self_ipi(void)
{
	unsigned polls = 0;

	if (!ready)
		return -ENODEV;
	/* x2APIC has no delivery status: the bit reads 0 there. */
	while (regs->read(LAPIC_REG_ICR_LOW) & ICR_DELIVERY_PENDING)
		if (++polls >= ICR_IDLE_POLLS)
			return -EBUSY;
	regs->write(LAPIC_REG_ICR_LOW, (uint32_t)lapic_pmi_vector() |
	            LVT_DELIVERY_FIXED << LVT_DELIVERY_SHIFT |
	            ICR_LEVEL_ASSERT | ICR_SHORTHAND_SELF);
	return 0;
}
