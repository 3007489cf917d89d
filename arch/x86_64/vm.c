/*
 * vm.c - user address spaces: a PML4 per task, 4-level tables of 4 KiB
 * user pages below, and the kernel half shared by every one of them.
 *
 * Sharing works by copying the kernel's PML4 slots 256..511 into each new
 * PML4.  That copy is only as good as the slots that exist when it is
 * made, so before the first address space is built every kernel slot gets
 * a page-directory-pointer table (empty if nothing is mapped there yet):
 * from then on the kernel changes only tables below the PML4, which all
 * address spaces reach.  This costs one page per empty slot, once.
 *
 * Rights: U/S on every level (the MMU ANDs them), R/W from VM_PROT_WRITE
 * on the last level only, and NX from the absence of VM_PROT_EXEC when
 * the CPU has no-execute pages.  A software bit keeps VM_PROT_EXEC, so a
 * lookup reports what was mapped whether or not the CPU could enforce it.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "arch.h"
#include "arch_task.h"
#include "cpu.h"
#include "mm/page.h"
#include "paging.h"
#include "vm.h"

#define PAGE_OFFSET_MASK ((uint64_t)PAGE_SIZE - 1)
/* Where a level's entries sit in a virtual address, PML4 first. */
static const unsigned level_shift[] = { PML4_SHIFT, PDPT_SHIFT, PD_SHIFT, PT_SHIFT };
#define LEVELS (sizeof(level_shift) / sizeof(level_shift[0]))
#define LEVEL_PT (LEVELS - 1)

struct arch_vm {
	uint64_t pml4[PT_ENTRIES];
};

_Static_assert(sizeof(struct arch_vm) == PAGE_SIZE, "an arch_vm is its PML4 page");

static bool nx_enabled;
static bool kernel_slots_ready;

void vm_init(void)
{
	if (cpuid(CPUID_EXT_MAX, 0).eax < CPUID_EXT_FEATURES ||
	    !(cpuid(CPUID_EXT_FEATURES, 0).edx & CPUID_EXT_EDX_NX))
		return;
	/* No kernel entry has bit 63 set, so the kernel's rights are unchanged. */
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_NXE);
	nx_enabled = true;
}

void arch_user_range(uintptr_t *base, uintptr_t *top)
{
	*base = (uintptr_t)ARCH_USER_BASE;
	*top = (uintptr_t)ARCH_USER_TOP;
}

/* x86 walks the page tables in hardware: there is no refill to count. */
uint32_t arch_tlb_refill_count(bool user)
{
	(void)user;
	return 0;
}

static uint64_t table_pa(const void *table)
{
	return arch_virt_to_phys(table);
}

static uint64_t *entry_table(uint64_t e)
{
	return arch_phys_to_virt(e & PTE_ADDR_MASK);
}

/* Page counts for `mem`: a user address space's PML4 and the tables below
 * its user half; the kernel-half PDPTs fill_kernel_slots made. */
static size_t user_tables, kernel_tables;

size_t arch_vm_table_pages(void)
{
	return user_tables;
}

size_t arch_vm_kernel_table_pages(void)
{
	return kernel_tables;
}

/*
 * The first address space fills every kernel PML4 slot with a PDPT
 * (about 256 pages), so a kernel mapping made later is seen by all
 * address spaces that copied the slots.  A one-time drop in free pages,
 * counted in kernel_tables.
 */
static int fill_kernel_slots(void)
{
	for (unsigned i = PML4_KERNEL_FIRST; i < PT_ENTRIES; i++) {
		if (boot_pml4[i] & PTE_PRESENT)
			continue;
		void *pdpt = page_alloc();
		if (!pdpt)
			return -ENOMEM;
		kernel_tables++;
		boot_pml4[i] = table_pa(pdpt) | PTE_TABLE;
	}
	kernel_slots_ready = true;
	return 0;
}

struct arch_vm *arch_vm_create(void)
{
	if (!kernel_slots_ready && fill_kernel_slots() != 0)
		return NULL;
	struct arch_vm *vm = page_alloc();      /* zeroed: no user mappings */
	if (!vm)
		return NULL;
	user_tables++;
	memcpy(&vm->pml4[PML4_KERNEL_FIRST], &boot_pml4[PML4_KERNEL_FIRST],
	       (PT_ENTRIES - PML4_KERNEL_FIRST) * sizeof(vm->pml4[0]));
	return vm;
}

static bool user_page(uintptr_t va)
{
	return (va & PAGE_OFFSET_MASK) == 0 && va >= ARCH_USER_BASE && va < ARCH_USER_TOP;
}

/* The last-level entry for va, creating tables on the way if asked. */
static uint64_t *walk(struct arch_vm *vm, uintptr_t va, bool create)
{
	uint64_t *table = vm->pml4;

	for (unsigned level = 0; level < LEVEL_PT; level++) {
		uint64_t *e = &table[PT_INDEX(va, level_shift[level])];
		if (!(*e & PTE_PRESENT)) {
			if (!create)
				return NULL;
			void *next = page_alloc();
			if (!next)
				return NULL;
			user_tables++;
			*e = table_pa(next) | PTE_TABLE | PTE_USER;
		}
		table = entry_table(*e);
	}
	return &table[PT_INDEX(va, level_shift[LEVEL_PT])];
}

static uint64_t pte_for(uint64_t pa, unsigned prot)
{
	uint64_t pte = pa | PTE_PRESENT | PTE_USER;

	if (prot & VM_PROT_WRITE)
		pte |= PTE_WRITE;
	if (prot & VM_PROT_EXEC)
		pte |= PTE_SW_EXEC;
	else if (nx_enabled)
		pte |= PTE_NX;
	return pte;
}

int arch_vm_map(struct arch_vm *vm, uintptr_t va, uint64_t pa, unsigned prot)
{
	if (!user_page(va) || (pa & ~PTE_ADDR_MASK))
		return -EINVAL;
	uint64_t *pte = walk(vm, va, true);
	if (!pte)
		return -ENOMEM;
	if (*pte & PTE_PRESENT)
		return -EEXIST;
	/* Not present before: no TLB can hold it, nothing to flush. */
	*pte = pte_for(pa, prot);
	return 0;
}

static bool is_active(const struct arch_vm *vm)
{
	return (read_cr3() & PTE_ADDR_MASK) == table_pa(vm);
}

uint64_t arch_vm_unmap(struct arch_vm *vm, uintptr_t va)
{
	if (!user_page(va))
		return 0;
	uint64_t *pte = walk(vm, va, false);
	if (!pte || !(*pte & PTE_PRESENT))
		return 0;
	uint64_t pa = *pte & PTE_ADDR_MASK;
	*pte = 0;
	/* An inactive space has nothing in the TLB: loading CR3 flushed it. */
	if (is_active(vm))
		invlpg(va);
	return pa;
}

uint64_t arch_vm_lookup(struct arch_vm *vm, uintptr_t va, unsigned *prot)
{
	uintptr_t page = va & ~(uintptr_t)PAGE_OFFSET_MASK;

	if (!user_page(page))
		return 0;
	uint64_t *pte = walk(vm, page, false);
	if (!pte || !(*pte & PTE_PRESENT))
		return 0;
	if (prot) {
		/* A present x86 page can always be read. */
		*prot = VM_PROT_READ;
		if (*pte & PTE_WRITE)
			*prot |= VM_PROT_WRITE;
		if (*pte & PTE_SW_EXEC)
			*prot |= VM_PROT_EXEC;
	}
	return *pte & PTE_ADDR_MASK;
}

void arch_vm_activate(struct arch_vm *vm)
{
	uint64_t root = vm ? table_pa(vm) : table_pa(boot_pml4);

	/* Reloading the same root would only flush the TLB for nothing. */
	if ((read_cr3() & PTE_ADDR_MASK) != root)
		write_cr3(root);
}

/* Free the tables below entry e of a table at level (0 = PML4). */
static void free_below(uint64_t e, unsigned level)
{
	if (!(e & PTE_PRESENT) || level >= LEVEL_PT)
		return;
	uint64_t *table = entry_table(e);
	for (unsigned i = 0; i < PT_ENTRIES; i++)
		free_below(table[i], level + 1);
	page_free(table);
	user_tables--;
}

void arch_vm_destroy(struct arch_vm *vm)
{
	if (!vm)
		return;
	if (is_active(vm))
		arch_vm_activate(NULL);
	for (unsigned i = 0; i < PML4_KERNEL_FIRST; i++)
		free_below(vm->pml4[i], 0);
	page_free(vm);
	user_tables--;
}
