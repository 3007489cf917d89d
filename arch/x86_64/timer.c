/*
 * timer.c - the TSC as the cycle counter and the i8254 as the tick.
 *
 * The TSC rate comes from CPUID leaf 0x15 (or 0x16) where the CPU gives
 * it; QEMU's TCG CPUs do not (leaf 0x15 reads as zeros even on -cpu max),
 * so there it is calibrated against the i8254 (kernel/cycle_rate.c).
 */
#include "arch.h"
#include "cpu.h"
#include "cycle_rate.h"
#include "i8254.h"
#include "irq.h"

static uint64_t tsc_hz;

uint64_t arch_cycles(void)
{
	return rdtsc();
}

uint64_t arch_cycles_hz(void)
{
	return tsc_hz;
}

/* The CPU's own statement of the TSC rate, if it makes one. */
static int tsc_rate_from_cpu(struct cycle_rate *r)
{
	uint32_t max_leaf = cpuid(0, 0).eax;
	uint32_t l15[3] = { 0, 0, 0 }, l16 = 0;

	if (max_leaf >= 0x15) {
		struct cpuid_regs c = cpuid(0x15, 0);
		l15[0] = c.eax;
		l15[1] = c.ebx;
		l15[2] = c.ecx;
	}
	if (max_leaf >= 0x16)
		l16 = cpuid(0x16, 0).eax;
	return cycle_rate_from_cpuid(max_leaf, l15, l16, r);
}

static void tick(void *arg)
{
	(void)arg;
	clock_tick();
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
}
