/*
 * timer.c - the TSC as the cycle counter and the i8254 as the tick.
 *
 * The TSC rate is measured, not read from CPUID: leaf 0x15 is absent on
 * most CPUs QEMU offers and without -icount the rate follows the host.
 */
#include "arch.h"
#include "cpu.h"
#include "i8254.h"
#include "irq.h"

#define TSC_MEASURE_MS 50

static uint64_t tsc_hz;

uint64_t arch_cycles(void)
{
	return rdtsc();
}

uint64_t arch_cycles_hz(void)
{
	return tsc_hz;
}

static void tick(void *arg)
{
	(void)arg;
	clock_tick();
}

void arch_timer_start(unsigned hz)
{
	irqflags_t f = arch_irq_save();
	tsc_hz = i8254_measure(arch_cycles, TSC_MEASURE_MS);
	arch_irq_restore(f);

	i8254_periodic(hz);
	int err = irq_register(I8254_IRQ, tick, NULL);
	if (err)
		panic("x86_64: timer IRQ %d: error %d", I8254_IRQ, err);
}
