/*
 * memstat.h - what the kernel holds, for `mem`: the figures a leak would
 * move.  Every one but the one-time ones (heap_pages, kernel_tables) must
 * be back at its value once the tasks that moved it are reaped.
 */
#ifndef TALLY_MEMSTAT_H
#define TALLY_MEMSTAT_H

#include <stddef.h>

struct memstat {
	size_t pages_total;
	size_t pages_free;
	size_t heap_in_use;     /* bytes in kmalloc blocks handed out */
	size_t heap_pages;      /* pages the heap carved (kept for reuse) */
	size_t page_tables;     /* user address spaces' table pages */
	size_t kernel_tables;   /* kernel-half tables, made once */
	unsigned tasks;         /* task slots not free */
	unsigned task_max;
	unsigned kstacks;       /* kernel stacks, one page each */
	unsigned hwperf_sets;   /* tasks holding counters (hwperf_task_holds) */
	unsigned hwperf_system; /* 1 while the system block is held */
	unsigned hwperf_upages; /* mapped read pages (one page each) */
};

void memstat_get(struct memstat *m);

#endif
