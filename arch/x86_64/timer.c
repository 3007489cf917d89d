/*
 * timer.c - the TSC as the cycle counter and the i8254 as the tick.
 *
 * The TSC rate comes from CPUID leaf 0x15 (or 0x16) where the CPU gives
 * it; QEMU's TCG CPUs do not (leaf 0x15 reads as zeros even on -cpu max),
 * so there it is calibrated against the i8254 (kernel/time/cycle_rate.c).
 */
#include "arch.h"
#include "cpu.h"
#include "time/cycle_rate.h"
#include "i8254.h"
#include "irq.h"
#include "smp.h"
#include "tsc_rate.h"

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
	tick_yield_vcpu();
}

void arch_timer_start(unsigned hz)
{
	irqflags_t f = arch_irq_save();
	struct cycle_rate cpu;
	tsc_hz = cycle_rate_boot(arch_cycles,
				 tsc_rate_from_cpu(&cpu) == 0 ? &cpu : NULL)->hz;
	arch_irq_restore(f);

	i8254_periodic(hz);
	int err = irq_register(I8254_IRQ, tick, NULL);
	if (err)
		panic("x86_64: timer IRQ %d: error %d", I8254_IRQ, err);
	/* The APs' LAPIC timers are calibrated against the TSC just measured. */
	smp_boot(hz);
}
