/*
 * page.c - physical page allocator.
 *
 * Pages never handed out yet are ranges of physical addresses, carved
 * from the top down; pages given back go on a free list threaded through
 * the pages themselves, reached through the arch's direct map.  Boot
 * records the ranges without touching a page (threading a list through
 * every page cost more than a million instructions), and the order pages
 * come out in is the order the old all-pages list gave: the last range's
 * highest page first.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "arch.h"
#include "mm/page.h"
#include "spinlock.h"

struct free_page {
	struct free_page *next;
};

/* [lo, hi) physical, page aligned, every page in it mappable. */
struct fresh_range {
	uint64_t lo, hi;
};

static struct free_page *free_list;
static struct fresh_range fresh[BOOT_MEM_RANGES_MAX];
static unsigned nfresh;
static size_t nfree, ntotal;

static uint64_t align_up(uint64_t x)
{
	return (x + PAGE_SIZE - 1) & ~(uint64_t)(PAGE_SIZE - 1);
}

/*
 * The arch maps a prefix of physical memory (the direct map's reach), so
 * the mappable pages of a range are a prefix of it: find its end by
 * bisection, looking at a few pages instead of all of them.
 */
static uint64_t mappable_end(uint64_t start, uint64_t end)
{
	uint64_t lo = 0, hi = (end - start) / PAGE_SIZE;        /* pages */

	if (hi == 0 || arch_phys_to_virt(end - PAGE_SIZE))
		return end;
	/* Invariant: pages below lo map (none known yet), page hi does not. */
	hi--;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (arch_phys_to_virt(start + mid * PAGE_SIZE))
			lo = mid + 1;
		else
			hi = mid;
	}
	return start + lo * PAGE_SIZE;
}

static void add_range(uint64_t base, uint64_t size)
{
	uint64_t start = align_up(base);
	uint64_t end = (base + size) & ~(uint64_t)(PAGE_SIZE - 1);

	if (end <= start)
		return;
	end = mappable_end(start, end);
	if (end <= start)
		return;
	if (nfresh == BOOT_MEM_RANGES_MAX)
		panic("page: more than %u memory ranges", (unsigned)BOOT_MEM_RANGES_MAX);
	fresh[nfresh].lo = start;
	fresh[nfresh].hi = end;
	nfresh++;
	nfree += (size_t)((end - start) / PAGE_SIZE);
	ntotal += (size_t)((end - start) / PAGE_SIZE);
}

void page_init(struct boot_info *bi)
{
	for (unsigned i = 0; i < bi->nmem; i++)
		add_range(bi->mem[i].base, bi->mem[i].size);
}

/* A page never handed out, or NULL; interrupts off. */
static void *take_fresh(void)
{
	while (nfresh > 0) {
		struct fresh_range *r = &fresh[nfresh - 1];
		if (r->hi > r->lo) {
			r->hi -= PAGE_SIZE;
			return arch_phys_to_virt(r->hi);
		}
		nfresh--;
	}
	return NULL;
}

/* The free list and the fresh range (spinlock.h's order: after heap). */
static struct spinlock page_lock = SPINLOCK_INIT("page");

void *page_alloc(void)
{
	irqflags_t f = spin_lock_irqsave(&page_lock);
	void *p = free_list;
	if (p)
		free_list = free_list->next;
	else
		p = take_fresh();
	if (p)
		nfree--;
	spin_unlock_irqrestore(&page_lock, f);
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
	irqflags_t f = spin_lock_irqsave(&page_lock);
	p->next = free_list;
	free_list = p;
	nfree++;
	spin_unlock_irqrestore(&page_lock, f);
}

size_t page_free_count(void)
{
	return nfree;
}

size_t page_total_count(void)
{
	return ntotal;
}
