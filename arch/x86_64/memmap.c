/*
 * memmap.c - the free-RAM list in struct boot_info.
 *
 * Firmware maps may be unsorted, overlapping or unaligned, so every range
 * is trimmed inward to whole pages on the way in, and every cut is widened
 * outward to whole pages: a page is free only if all of it is.
 */
#include <string.h>

#include "arch.h"
#include "layout.h"
#include "memmap.h"
#include "mm/page.h"

static unsigned dropped;

static uint64_t page_down(uint64_t a)
{
	return a & ~(uint64_t)(PAGE_SIZE - 1);
}

static uint64_t page_up(uint64_t a)
{
	return page_down(a + PAGE_SIZE - 1);
}

static void remove_at(struct boot_info *bi, unsigned i)
{
	memmove(&bi->mem[i], &bi->mem[i + 1],
		(bi->nmem - i - 1) * sizeof(bi->mem[0]));
	bi->nmem--;
}

static bool insert_at(struct boot_info *bi, unsigned i, uint64_t base, uint64_t end)
{
	if (bi->nmem == BOOT_MEM_RANGES_MAX) {
		dropped++;
		return false;
	}
	memmove(&bi->mem[i + 1], &bi->mem[i], (bi->nmem - i) * sizeof(bi->mem[0]));
	bi->mem[i].base = base;
	bi->mem[i].size = end - base;
	bi->nmem++;
	return true;
}

/* Fold range i into its successors while they touch or overlap it. */
static void merge_from(struct boot_info *bi, unsigned i)
{
	while (i + 1 < bi->nmem && bi->mem[i + 1].base <= bi->mem[i].base + bi->mem[i].size) {
		uint64_t end = bi->mem[i].base + bi->mem[i].size;
		uint64_t next_end = bi->mem[i + 1].base + bi->mem[i + 1].size;
		if (next_end > end)
			bi->mem[i].size = next_end - bi->mem[i].base;
		remove_at(bi, i + 1);
	}
}

void memmap_add(struct boot_info *bi, uint64_t base, uint64_t len)
{
	uint64_t end = base + len < base ? UINT64_MAX : base + len;

	/* The direct map cannot reach beyond its window. */
	if (end > DIRECT_MAP_LIMIT)
		end = DIRECT_MAP_LIMIT;
	if (base >= end)
		return;
	base = page_up(base);
	end = page_down(end);
	if (base >= end)
		return;

	unsigned i = 0;
	while (i < bi->nmem && bi->mem[i].base < base)
		i++;
	if (i > 0 && bi->mem[i - 1].base + bi->mem[i - 1].size >= base) {
		i--;    /* extends its predecessor */
		uint64_t old_end = bi->mem[i].base + bi->mem[i].size;
		if (end > old_end)
			bi->mem[i].size = end - bi->mem[i].base;
	} else {
		insert_at(bi, i, base, end);
	}
	merge_from(bi, i);
}

/* Cut [base, end) out of range i; returns how many ranges replace it. */
static unsigned cut(struct boot_info *bi, unsigned i, uint64_t base, uint64_t end)
{
	uint64_t r_base = bi->mem[i].base;
	uint64_t r_end = r_base + bi->mem[i].size;

	if (end <= r_base || base >= r_end)
		return 1;
	if (base > r_base && end < r_end) {     /* a hole in the middle */
		bi->mem[i].size = base - r_base;
		/* When the table is full the top part is lost: RAM unused,
		 * never RAM handed out twice. */
		return insert_at(bi, i + 1, end, r_end) ? 2 : 1;
	}
	if (base > r_base) {
		bi->mem[i].size = base - r_base;
		return 1;
	}
	if (end < r_end) {
		bi->mem[i].base = end;
		bi->mem[i].size = r_end - end;
		return 1;
	}
	remove_at(bi, i);
	return 0;
}

void memmap_remove(struct boot_info *bi, uint64_t base, uint64_t len)
{
	uint64_t end = base + len < base ? UINT64_MAX : page_up(base + len);

	if (len == 0)
		return;
	base = page_down(base);
	for (unsigned i = 0; i < bi->nmem;)
		i += cut(bi, i, base, end);
}

uint64_t memmap_take_page(struct boot_info *bi, uint64_t limit)
{
	for (unsigned i = 0; i < bi->nmem; i++) {
		uint64_t pa = bi->mem[i].base;
		if (pa + PAGE_SIZE <= limit) {
			memmap_remove(bi, pa, PAGE_SIZE);
			return pa;
		}
	}
	return 0;
}

bool memmap_covers(const struct boot_info *bi, uint64_t base, uint64_t len)
{
	for (unsigned i = 0; i < bi->nmem; i++) {
		uint64_t b = bi->mem[i].base, e = b + bi->mem[i].size;
		if (base >= b && base <= e && len <= e - base)
			return true;
	}
	return false;
}

unsigned memmap_dropped(void)
{
	return dropped;
}
