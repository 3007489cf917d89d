/*
 * memstat.c - gather `mem`'s figures (memstat.h) in one pass over the
 * task table.
 *
 * Where every page goes: free, a task's user page, the heap's, a table,
 * a kernel stack or a read page.  A count of each lets a test see which
 * one did not come back, where free pages alone cannot.
 */
#include "arch.h"
#include "arch_task.h"
#include "mm/heap.h"
#include "hwperf/hwperf.h"
#include "mm/memstat.h"
#include "mm/page.h"
#include "proc/task.h"

void memstat_get(struct memstat *m)
{
	*m = (struct memstat){
		.task_max = TASK_MAX,
	};
	irqflags_t f = spin_lock_irqsave(&task_table_lock);
	for (unsigned i = 0; i < TASK_MAX; i++) {
		const struct task *t = task_slot(i);
		if (t->state == TASK_FREE)
			continue;
		m->tasks++;
		m->kstacks += t->kstack != NULL;
		m->hwperf_sets += hwperf_task_holds(&t->hw);
		m->hwperf_upages += t->hw.upage != NULL;
	}
	spin_unlock_irqrestore(&task_table_lock, f);
	/* Read after the walk, with interrupts on: the counters are words
	 * their owners update under their own locks. */
	m->pages_total = page_total_count();
	m->pages_free = page_free_count();
	m->heap_in_use = heap_in_use();
	m->heap_pages = heap_pages();
	m->page_tables = arch_vm_table_pages();
	m->kernel_tables = arch_vm_kernel_table_pages();
	m->hwperf_system = hwperf_mode() == HWPERF_SYSTEM;
}
