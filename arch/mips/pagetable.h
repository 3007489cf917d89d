/*
 * pagetable.h - one address space's software page table, as the TLB
 * refill handler (tlbrefill.S) walks it.
 *
 * Two levels of 1024 entries, 4 KiB pages: the root entry for VA bits
 * 31:22 holds the kernel (KSEG0) address of a leaf table, and the leaf
 * entry for bits 21:12 is a PTE (pte.h).  The even and odd pages of a TLB
 * pair are neighbours in one leaf, so the handler loads both with one
 * base address.  A root entry with no leaf points at one shared leaf of
 * zeros instead of NULL: the handler never branches, and an unmapped
 * address simply refills as an invalid pair.
 *
 * Pure C over page_alloc/page_free, so it also runs in the host tests
 * (where root entries are 8 bytes; the kernel's are 4, like the PTEs).
 */
#ifndef TALLY_MIPS_PAGETABLE_H
#define TALLY_MIPS_PAGETABLE_H

#define PT_ENTRIES     1024
#define PT_INDEX_MASK  (PT_ENTRIES - 1)
#define PT_ROOT_SHIFT  22            /* each root entry covers 4 MiB */
#define PT_LEAF_SHIFT  12            /* each leaf entry one 4 KiB page */
#define PT_ROOT_ENTRY_BYTES 4         /* on MIPS32 (uintptr_t) */
#define PT_PTE_BYTES   4

#ifndef __ASSEMBLY__

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A root with every entry on the empty leaf; NULL when out of memory. */
uintptr_t *pt_create(void);
/* Fill root (PT_ENTRIES words) with the empty leaf. */
void pt_init(uintptr_t *root);
/* Free the leaves and the root (not the pages they map). */
void pt_destroy(uintptr_t *root);
/* Root and leaf pages of every table made and not yet destroyed. */
size_t pt_pages(void);
/* Where va's PTE lives: NULL if its leaf does not exist and create is
 * false, or if a new leaf cannot be allocated. */
uint32_t *pt_slot(uintptr_t *root, uintptr_t va, bool create);
/* va's PTE, 0 if none. */
uint32_t pt_get(const uintptr_t *root, uintptr_t va);
/* The PTEs of the even and odd page of va's TLB pair. */
void pt_pair(const uintptr_t *root, uintptr_t va, uint32_t *even, uint32_t *odd);
/* The shared leaf of zeros (tests check that it stays so). */
const uint32_t *pt_empty_leaf(void);

#endif /* !__ASSEMBLY__ */
#endif
