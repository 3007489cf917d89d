/*
 * paging.c - the direct map of all RAM, and physical <-> virtual.
 *
 * The boot tables already map the first 4 GiB at DIRECT_MAP_BASE; RAM
 * above that gets 2 MiB pages here (qemu64 has no 1 GiB pages), with
 * page-table pages taken from free RAM below 4 GiB, where the boot map
 * lets them be written before they are linked in.
 */
#include <string.h>

#include "arch.h"
#include "cpu.h"
#include "layout.h"
#include "memmap.h"
#include "mm/page.h"
#include "paging.h"

/* NULL beyond the direct map's window (kernel/mm/page.c relies on it). */
void *arch_phys_to_virt(uint64_t pa)
{
	if (pa >= DIRECT_MAP_LIMIT)
		return NULL;
	return (void *)(uintptr_t)(DIRECT_MAP_BASE + pa);
}

uint64_t arch_virt_to_phys(const void *va)
{
	uint64_t a = (uint64_t)(uintptr_t)va;

	if (a >= KERNEL_VMA)
		return a - KERNEL_VMA;
	if (a >= DIRECT_MAP_BASE && a < DIRECT_MAP_BASE + DIRECT_MAP_LIMIT)
		return a - DIRECT_MAP_BASE;
	panic("arch_virt_to_phys: %p is neither kernel image nor direct map", va);
}

/* The table entry e points to, created empty if absent. */
static uint64_t *next_table(uint64_t *e, struct boot_info *bi)
{
	if (!(*e & PTE_PRESENT)) {
		uint64_t pa = memmap_take_page(bi, BOOT_MAP_END);
		if (!pa)
			panic("paging: no RAM below 4 GiB for page tables");
		memset(arch_phys_to_virt(pa), 0, PAGE_SIZE);
		*e = pa | PTE_TABLE;
	}
	return arch_phys_to_virt(*e & PTE_ADDR_MASK);
}

static void map_large(uint64_t pa, struct boot_info *bi)
{
	uint64_t va = DIRECT_MAP_BASE + pa;
	uint64_t *pdpt = next_table(&boot_pml4[PT_INDEX(va, PML4_SHIFT)], bi);
	uint64_t *pd = next_table(&pdpt[PT_INDEX(va, PDPT_SHIFT)], bi);

	pd[PT_INDEX(va, PD_SHIFT)] = pa | PTE_LARGE_RW;
}

void paging_map_ram(struct boot_info *bi)
{
	/* Taking table pages edits bi->mem, so walk a copy. */
	struct mem_range ranges[BOOT_MEM_RANGES_MAX];
	unsigned n = bi->nmem;

	memcpy(ranges, bi->mem, n * sizeof(ranges[0]));
	for (unsigned i = 0; i < n; i++) {
		uint64_t pa = ranges[i].base & ~(LARGE_PAGE_SIZE - 1);
		uint64_t end = ranges[i].base + ranges[i].size;
		if (pa < BOOT_MAP_END)
			pa = BOOT_MAP_END;
		for (; pa < end; pa += LARGE_PAGE_SIZE)
			map_large(pa, bi);
	}
	write_cr3(read_cr3());
}

void paging_drop_identity(void)
{
	boot_pml4[PML4_IDENTITY] = 0;
	write_cr3(read_cr3());
}

/*
 * PCD and PWT select PAT entry 3, which is UC unless someone reprograms
 * IA32_PAT (Tally never does): SDM vol. 3A, 11.12.3, Table 11-11.  The
 * boot tables cover the first 4 GiB with 2 MiB pages and are shared by
 * every address space, so one entry changes and one CR3 reload flushes it.
 */
volatile void *paging_map_mmio(uint64_t pa)
{
	uint64_t va = DIRECT_MAP_BASE + pa;
	uint64_t *pdpt, *pd;

	if (pa >= BOOT_MAP_END)
		return NULL;
	pdpt = arch_phys_to_virt(boot_pml4[PT_INDEX(va, PML4_SHIFT)] & PTE_ADDR_MASK);
	pd = arch_phys_to_virt(pdpt[PT_INDEX(va, PDPT_SHIFT)] & PTE_ADDR_MASK);
	pd[PT_INDEX(va, PD_SHIFT)] |= PTE_PCD | PTE_PWT;
	write_cr3(read_cr3());
	return (volatile void *)(uintptr_t)va;
}

/* The x86 MMU walks the page tables itself: no refill reaches the kernel. */
unsigned arch_tlb_refill_ring(void)
{
	return 0;
}
