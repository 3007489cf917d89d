/*
 * main.c - the portable half of boot: from the arch's hand-off to the shell.
 */
#include <stdio.h>

#include "arch.h"
#include "bootargs.h"
#include "time/clock.h"
#include "console/console.h"
#include "time/cycle_rate.h"
#include "mm/heap.h"
#include "hwperf/hwperf.h"
#include "irq.h"
#include "mm/page.h"
#include "proc/proc.h"
#include "proc/sched.h"
#include "platform.h"
#include "version.h"

static struct boot_info *boot;
static uint64_t entry_cycles, ready_cycles;

const struct boot_info *boot_info_get(void)
{
	return boot;
}

uint64_t boot_kernel_cycles(void)
{
	return ready_cycles - entry_cycles;
}

void kmain(struct boot_info *bi)
{
	entry_cycles = arch_cycles();
	boot = bi;
	console_init();
	arch_boot_progress("CONSOLE");
	printf("\nTally %s (%s) booting via %s\n", tally_build_id, arch_name(), bi->loader);

	bootargs_init(bi->cmdline);
	printf("cmdline: %s\n", bootargs_cmdline());
	bootargs_report_unknown();

	arch_init(bi);
	arch_boot_progress("TRAPS");
	irq_init();
	page_init(bi);
	printf("memory: %llu MiB reported, %zu pages free\n",
	       (unsigned long long)(bi->mem_total >> 20), page_free_count());
	/* From here on this context is the console task (pid 1). */
	sched_set_lifecycle(proc_release, proc_exit);
	sched_init();

	clock_init(clock_hz_from_bootargs());
	cycle_rate_print();
	hwperf_boot();
	platform_console_enable_rx_irq();
	arch_irq_enable();

	ready_cycles = arch_cycles();
	run_boot_hooks();
	arch_boot_progress("READY");
	console_shell();
}
