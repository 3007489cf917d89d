/*
 * sysinfo.c - `info`, `mem`, `bootargs`, `poweroff`, `reboot`: what the
 * machine is and how to leave it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "bootargs.h"
#include "time/clock.h"
#include "console/cmd.h"
#include "time/cycle_rate.h"
#include "mm/heap.h"
#include "hwperf/hwperf.h"
#include "mm/memstat.h"
#include "mm/page.h"
#include "version.h"

#define PMU_LINES_MAX 16

void run_boot_hooks(void)
{
	const struct boot_hook *const *h;

	SET_FOREACH(h, init)
		(*h)->fn();
}

static int cmd_info(int argc, char **argv)
{
	char cpu[128];
	const struct boot_info *bi = boot_info_get();
	uint64_t ms = clock_uptime_ms();

	if (cmd_extra_args(argc, argv))
		return CMD_ERR_REPORTED;
	arch_cpu_describe(cpu, sizeof(cpu));
	printf("arch: %s\n", arch_name());
	printf("cpu: %s\n", cpu);
	printf("cpus_online: %u\n", arch_cpus_online());
	printf("cycles_hz: %llu\n", (unsigned long long)arch_cycles_hz());
	printf("cycles_hz_err: %llu\n", (unsigned long long)cycle_rate_get()->err_hz);
	cycle_rate_print();
	printf("memory: total=%lluKiB pages_total=%zu pages_free=%zu\n",
	       (unsigned long long)(bi->mem_total >> 10), page_total_count(),
	       page_free_count());
	printf("hz: %u\n", clock_hz);
	printf("uptime_ms: %llu\n", (unsigned long long)ms);
	printf("cmdline: %s\n", bootargs_cmdline());
	printf("loader: %s\n", bi->loader);
	printf("build: %s\n", tally_build_id);
	const char *pmu[PMU_LINES_MAX];
	unsigned n = hwperf_probe_lines(pmu, PMU_LINES_MAX);
	for (unsigned i = 0; i < n; i++)
		printf("pmu: %s\n", pmu[i]);
	return 0;
}
CONSOLE_CMD(info, "machine, CPU, cycle-counter rate, memory, uptime, build", "info", cmd_info);

/* Name, value and meaning of every figure, in `mem`'s order. */
struct mem_row {
	const char *key;
	size_t value;
	const char *what;
};

static unsigned mem_rows(const struct memstat *m, struct mem_row *r)
{
	unsigned n = 0;

	r[n++] = (struct mem_row){ "heap_pages", m->heap_pages,
		"pages carved by the kernel heap, kept for reuse (rises once per new peak)" };
	r[n++] = (struct mem_row){ "page_tables", m->page_tables,
		"user page-table pages, freed with their tasks" };
	r[n++] = (struct mem_row){ "kernel_tables", m->kernel_tables,
		"kernel-half tables, made once by the first address space" };
	r[n++] = (struct mem_row){ "tasks", m->tasks, "task slots in use" };
	r[n++] = (struct mem_row){ "task_max", m->task_max, "task slots in all" };
	r[n++] = (struct mem_row){ "kstacks", m->kstacks, "kernel stacks (one page each)" };
	r[n++] = (struct mem_row){ "hwperf_sets", m->hwperf_sets,
		"tasks holding counters (enabled or lost, not released)" };
	r[n++] = (struct mem_row){ "hwperf_system", m->hwperf_system,
		"1 while the system counter block is held" };
	r[n++] = (struct mem_row){ "hwperf_upages", m->hwperf_upages,
		"mapped counter read pages (one page each)" };
	return n;
}

#define MEM_ROWS_MAX 16
#define MEM_USAGE "mem [--json]"

static int cmd_mem(int argc, char **argv)
{
	bool json = argc == 2 && strcmp(argv[1], "--json") == 0;
	struct memstat m;
	struct mem_row rows[MEM_ROWS_MAX];

	if (argc > 2 || (argc == 2 && !json)) {
		printf("error: usage: " MEM_USAGE "\n");
		return CMD_ERR_REPORTED;
	}
	memstat_get(&m);
	unsigned n = mem_rows(&m, rows);
	if (json) {
		printf("{\"pages_total\":%zu,\"pages_free\":%zu,\"heap_in_use\":%zu",
		       m.pages_total, m.pages_free, m.heap_in_use);
		for (unsigned i = 0; i < n; i++)
			printf(",\"%s\":%zu", rows[i].key, rows[i].value);
		printf("}\n");
		return 0;
	}
	/* The first line as it always was: scripts read pages_free from it. */
	printf("pages_total=%zu pages_free=%zu heap_in_use=%zu\n",
	       m.pages_total, m.pages_free, m.heap_in_use);
	for (unsigned i = 0; i < n; i++)
		printf("%s=%zu%*s%s\n", rows[i].key, rows[i].value,
		       20 - (int)strlen(rows[i].key), "", rows[i].what);
	return 0;
}
CONSOLE_CMD(mem, "free pages, kernel heap, tables, task slots, stacks, counter blocks",
	    MEM_USAGE, cmd_mem);


static int cmd_bootargs(int argc, char **argv)
{
	const struct bootarg_decl *const *d;

	if (cmd_extra_args(argc, argv))
		return CMD_ERR_REPORTED;
	printf("cmdline: %s\n", bootargs_cmdline());
	SET_FOREACH(d, bootargs)
		printf("  %-10s %s\n", (*d)->key, (*d)->help);
	return 0;
}
CONSOLE_CMD(bootargs, "the kernel command line and every argument Tally knows",
	    "bootargs", cmd_bootargs);

static int cmd_poweroff(int argc, char **argv)
{
	uint64_t code = 0;

	if (argc > 2 || (argc == 2 && (parse_u64(argv[1], 0, &code) || code > ARCH_EXIT_STATUS_MAX))) {
		printf("error: usage: poweroff [STATUS 0..%d]\n", ARCH_EXIT_STATUS_MAX);
		return CMD_ERR_REPORTED;
	}
	printf("poweroff: status %llu\n", (unsigned long long)code);
	arch_exit((int)code);
}
CONSOLE_CMD_ROOT(poweroff, "leave QEMU with a status (default 0); halt on hardware",
	    "poweroff [STATUS]", cmd_poweroff);

static int cmd_reboot(int argc, char **argv)
{
	if (cmd_extra_args(argc, argv))
		return CMD_ERR_REPORTED;
	printf("reboot\n");
	arch_reboot();
}
CONSOLE_CMD_ROOT(reboot, "reset the machine", "reboot", cmd_reboot);
