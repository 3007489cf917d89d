/*
 * pte.h - the page-table entry: an EntryLo value shifted up by two bits,
 * with the protection the kernel asked for in the two bits freed below.
 *
 * The refill handler turns an entry into EntryLo with one `srl`, which
 * also clears EntryLo's fill bits 31:30 (RI/XI on cores that have them),
 * so no software bit can ever reach the TLB.  Read and execute rights
 * have no TLB bit on a MIPS32 core without RI/XI (a valid page is always
 * both); they are kept here so that arch_vm_lookup gives back exactly the
 * rights that arch_vm_map was given.
 *
 * Pure arithmetic: also compiled into the host tests.  The constants are
 * shared with the assembler.
 */
#ifndef TALLY_MIPS_PTE_H
#define TALLY_MIPS_PTE_H

#include "cp0.h"

#define PTE_ENTRYLO_SHIFT 2
#define PTE_SW_READ       0x1u
#define PTE_SW_EXEC       0x2u
#define PTE_V             (ENTRYLO_V << PTE_ENTRYLO_SHIFT)
#define PTE_D             (ENTRYLO_D << PTE_ENTRYLO_SHIFT)
#define PTE_PAGE_SHIFT    ENTRYLO_PA_SHIFT
/* Physical addresses EntryLo can name: PFN is 24 bits of 4 KiB frames. */
#define PTE_PA_LIMIT      (((uint64_t)(ENTRYLO_PFN_MASK >> ENTRYLO_PFN_SHIFT) + 1) \
			   << ENTRYLO_PA_SHIFT)

#ifndef __ASSEMBLY__

#include <stdbool.h>
#include <stdint.h>

#include "arch_task.h"

static inline uint32_t pte_entrylo(uint32_t pte)
{
	return pte >> PTE_ENTRYLO_SHIFT;
}

/* pa page aligned and below PTE_PA_LIMIT; cca is a Config.K0-style value. */
static inline uint32_t pte_make(uint64_t pa, unsigned prot, unsigned cca)
{
	uint32_t lo = (uint32_t)(pa >> ENTRYLO_PA_SHIFT) << ENTRYLO_PFN_SHIFT;
	uint32_t pte;

	lo |= ((uint32_t)cca << ENTRYLO_C_SHIFT) & ENTRYLO_C_MASK;
	lo |= ENTRYLO_V;
	if (prot & VM_PROT_WRITE)
		lo |= ENTRYLO_D;
	pte = lo << PTE_ENTRYLO_SHIFT;
	if (prot & VM_PROT_READ)
		pte |= PTE_SW_READ;
	if (prot & VM_PROT_EXEC)
		pte |= PTE_SW_EXEC;
	return pte;
}

static inline bool pte_valid(uint32_t pte)
{
	return (pte & PTE_V) != 0;
}

static inline uint64_t pte_pa(uint32_t pte)
{
	uint32_t pfn = (pte_entrylo(pte) & ENTRYLO_PFN_MASK) >> ENTRYLO_PFN_SHIFT;

	return (uint64_t)pfn << ENTRYLO_PA_SHIFT;
}

static inline unsigned pte_prot(uint32_t pte)
{
	unsigned prot = 0;

	if (pte & PTE_SW_READ)
		prot |= VM_PROT_READ;
	if (pte & PTE_D)
		prot |= VM_PROT_WRITE;
	if (pte & PTE_SW_EXEC)
		prot |= VM_PROT_EXEC;
	return prot;
}

#endif /* !__ASSEMBLY__ */
#endif
