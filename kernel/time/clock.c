/*
 * clock.c - the periodic tick and time since boot.
 *
 * Uptime comes from the cycle counter, not from counting ticks, so it
 * stays right even if a tick is lost while interrupts are off.
 */
#include <stdio.h>

#include "arch.h"
#include "bootargs.h"
#include "time/clock.h"
#include "console/cmd.h"
#include "pmu_kevent.h"
#include "proc/sched.h"

#define HZ_MIN 10
#define HZ_MAX 1000

BOOTARG(hz, "timer interrupts per second, 10..1000 (default 100)");

unsigned clock_hz = HZ_DEFAULT;
static volatile uint64_t ticks;
static uint64_t boot_cycles;

void clock_init(unsigned hz)
{
	clock_hz = hz;
	boot_cycles = arch_cycles();
	arch_timer_start(hz);
}

void clock_tick(void)
{
	ticks++;
	clock_tick_cpu();
}

void clock_tick_cpu(void)
{
	pmu_kernel_event(PMU_KEV_TICKS, trap_current_mode(), 1, 0);
	sched_tick();
}

uint64_t clock_ticks(void)
{
	return ticks;
}

uint64_t clock_wait_tick(void)
{
	uint64_t t = clock_ticks();

	while (clock_ticks() == t)
		;
	return clock_ticks();
}

uint64_t clock_uptime_ms(void)
{
	uint64_t hz = arch_cycles_hz();

	if (hz == 0)
		return ticks * 1000u / clock_hz;
	return (arch_cycles() - boot_cycles) / (hz / 1000u);
}

unsigned clock_hz_from_bootargs(void)
{
	return (unsigned)bootarg_u64("hz", HZ_DEFAULT, HZ_MIN, HZ_MAX);
}

static int cmd_uptime(int argc, char **argv)
{
	if (cmd_extra_args(argc, argv))
		return CMD_ERR_REPORTED;
	uint64_t ms = clock_uptime_ms();
	printf("uptime: %llu.%03llu s ticks=%llu hz=%u\n",
	       (unsigned long long)(ms / 1000), (unsigned long long)(ms % 1000),
	       (unsigned long long)clock_ticks(), clock_hz);
	return 0;
}
CONSOLE_CMD(uptime, "time since boot and timer ticks", "uptime", cmd_uptime);
