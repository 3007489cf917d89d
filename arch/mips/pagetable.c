/*
 * pagetable.c - building and walking the two-level page table that the
 * refill handler reads (pagetable.h).
 */
#include <stddef.h>
#include <string.h>

#include "mm/page.h"
#include "pagetable.h"

#ifdef ARCH_MIPS
_Static_assert(PT_ENTRIES * sizeof(uintptr_t) == PAGE_SIZE, "root is one page");
_Static_assert(sizeof(uintptr_t) == PT_ROOT_ENTRY_BYTES, "tlbrefill.S root stride");
#endif
_Static_assert(PT_ENTRIES * sizeof(uint32_t) == PAGE_SIZE, "leaf is one page");
_Static_assert(sizeof(uint32_t) == PT_PTE_BYTES, "tlbrefill.S leaf stride");

/* Never written: the handler reads it for every address with no leaf. */
static const uint32_t pt_empty[PT_ENTRIES];

const uint32_t *pt_empty_leaf(void)
{
	return pt_empty;
}

static unsigned root_index(uintptr_t va)
{
	return (unsigned)(va >> PT_ROOT_SHIFT) & PT_INDEX_MASK;
}

static unsigned leaf_index(uintptr_t va)
{
	return (unsigned)(va >> PT_LEAF_SHIFT) & PT_INDEX_MASK;
}

static bool leaf_is_empty(uintptr_t entry)
{
	return entry == (uintptr_t)pt_empty;
}

void pt_init(uintptr_t *root)
{
	for (unsigned i = 0; i < PT_ENTRIES; i++)
		root[i] = (uintptr_t)pt_empty;
}

static size_t pages_in_use;

size_t pt_pages(void)
{
	return pages_in_use;
}

uintptr_t *pt_create(void)
{
	uintptr_t *root = page_alloc();

	if (root) {
		pages_in_use++;
		pt_init(root);
	}
	return root;
}

void pt_destroy(uintptr_t *root)
{
	if (!root)
		return;
	for (unsigned i = 0; i < PT_ENTRIES; i++) {
		if (!leaf_is_empty(root[i])) {
			page_free((void *)root[i]);
			pages_in_use--;
		}
	}
	page_free(root);
	pages_in_use--;
}

uint32_t *pt_slot(uintptr_t *root, uintptr_t va, bool create)
{
	uintptr_t *entry = &root[root_index(va)];

	if (leaf_is_empty(*entry)) {
		void *leaf;

		if (!create || (leaf = page_alloc()) == NULL)
			return NULL;
		/* page_alloc zeroes: every PTE of a new leaf is invalid. */
		pages_in_use++;
		*entry = (uintptr_t)leaf;
	}
	return &((uint32_t *)*entry)[leaf_index(va)];
}

uint32_t pt_get(const uintptr_t *root, uintptr_t va)
{
	return ((const uint32_t *)root[root_index(va)])[leaf_index(va)];
}

void pt_pair(const uintptr_t *root, uintptr_t va, uint32_t *even, uint32_t *odd)
{
	const uint32_t *leaf = (const uint32_t *)root[root_index(va)];
	unsigned i = leaf_index(va) & ~1u;

	*even = leaf[i];
	*odd = leaf[i + 1];
}
