/*
 * smp.c - Malta runs one CPU (kernel/arch.h arch_cpus_online).  Why is
 * measured, not assumed: see docs/design/platforms.md "CPUs".
 */
#include <errno.h>
#include <stdio.h>

#include "arch.h"
#include "clock.h"

unsigned arch_cpus_online(void)
{
	return 1;
}

int arch_cpu_brief(unsigned cpu, char *buf, size_t len)
{
	if (cpu != 0)
		return -ENODEV;
	snprintf(buf, len, "online=1 role=boot timer=cp0-count ticks=%llu",
		 (unsigned long long)clock_ticks());
	return 0;
}
