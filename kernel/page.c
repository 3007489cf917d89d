/*
 * page.c - physical page allocator.
 *
 * A free list threaded through the free pages themselves, reached through
 * the arch's direct map: no metadata array to size before we know how
 * much RAM there is.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "arch.h"
#include "page.h"

struct free_page {
	struct free_page *next;
};

static struct free_page *free_list;
static size_t nfree, ntotal;

static uint64_t align_up(uint64_t x)
{
	return (x + PAGE_SIZE - 1) & ~(uint64_t)(PAGE_SIZE - 1);
}

static void add_range(uint64_t base, uint64_t size)
{
	uint64_t start = align_up(base);
	uint64_t end = (base + size) & ~(uint64_t)(PAGE_SIZE - 1);

	for (uint64_t pa = start; pa + PAGE_SIZE <= end; pa += PAGE_SIZE) {
		struct free_page *p = arch_phys_to_virt(pa);
		if (!p)
			break;  /* beyond what the arch can map */
		p->next = free_list;
		free_list = p;
		nfree++;
		ntotal++;
	}
}

void page_init(struct boot_info *bi)
{
	for (unsigned i = 0; i < bi->nmem; i++)
		add_range(bi->mem[i].base, bi->mem[i].size);
}

void *page_alloc(void)
{
	irqflags_t f = arch_irq_save();
	struct free_page *p = free_list;
	if (p) {
		free_list = p->next;
		nfree--;
	}
	arch_irq_restore(f);
	if (p)
		memset(p, 0, PAGE_SIZE);
	return p;
}

void page_free(void *va)
{
	if (!va)
		return;
	if ((uintptr_t)va & (PAGE_SIZE - 1))
		panic("page_free: %p is not page aligned", va);
	struct free_page *p = va;
	irqflags_t f = arch_irq_save();
	p->next = free_list;
	free_list = p;
	nfree++;
	arch_irq_restore(f);
}

size_t page_free_count(void)
{
	return nfree;
}

size_t page_total_count(void)
{
	return ntotal;
}
