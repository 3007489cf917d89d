/*
 * Host tests of arch/mips/pte.h and pagetable.c: the PTE encoding the
 * refill handler shifts into EntryLo, and the two-level table it walks.
 * The walk below repeats tlbrefill.S's arithmetic in C, so a change to
 * either layout that the handler would not follow shows up here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "arch/mips/pagetable.h"
#include "arch/mips/pte.h"
#include "mm/page.h"
#include "page_double.h"

#define CCA_CACHED 3u
#define USER_VA 0x00400000u
#define HOST_ROOT_BYTES (PT_ENTRIES * sizeof(uintptr_t))

static int setup(void **state)
{
	(void)state;
	page_double_out = 0;
	/* Roots hold host pointers (8 bytes): every "page" is root-sized. */
	page_double_bytes = HOST_ROOT_BYTES;
	page_double_fail = false;
	return 0;
}

/* What tlbrefill.S loads into EntryLo0/1 for a miss at va. */
static void handler_walk(const uintptr_t *root, uint32_t va, uint32_t *lo0, uint32_t *lo1)
{
	const uint32_t *leaf = (const uint32_t *)root[va >> PT_ROOT_SHIFT];
	uint32_t off = (va >> (PT_LEAF_SHIFT + 1 - 3)) & (((PT_ENTRIES / 2) - 1) * 8);
	const uint32_t *pair = (const uint32_t *)((const char *)leaf + off);

	*lo0 = pte_entrylo(pair[0]);
	*lo1 = pte_entrylo(pair[1]);
}

static void test_pte_encoding(void **state)
{
	(void)state;
	uint64_t pa = 0x0123f000u;
	uint32_t pte = pte_make(pa, VM_PROT_READ | VM_PROT_WRITE, CCA_CACHED);
	uint32_t lo = pte_entrylo(pte);

	assert_true(pte_valid(pte));
	assert_int_equal(pte_pa(pte), pa);
	assert_int_equal(pte_prot(pte), VM_PROT_READ | VM_PROT_WRITE);
	assert_int_equal(lo & ENTRYLO_PFN_MASK, (pa >> 12) << ENTRYLO_PFN_SHIFT);
	assert_int_equal((lo & ENTRYLO_C_MASK) >> ENTRYLO_C_SHIFT, CCA_CACHED);
	assert_true(lo & ENTRYLO_V);
	assert_true(lo & ENTRYLO_D);
	assert_false(lo & ENTRYLO_G);
	/* Software bits never reach EntryLo, and its fill bits stay clear. */
	assert_int_equal(lo & 0xc0000000u, 0);

	pte = pte_make(pa, VM_PROT_READ | VM_PROT_EXEC, CCA_CACHED);
	assert_false(pte_entrylo(pte) & ENTRYLO_D);
	assert_int_equal(pte_prot(pte), VM_PROT_READ | VM_PROT_EXEC);
	assert_int_equal(pte_prot(pte_make(pa, VM_PROT_READ, CCA_CACHED)), VM_PROT_READ);
}

static void test_pte_largest_frame(void **state)
{
	(void)state;
	uint64_t pa = PTE_PA_LIMIT - PAGE_SIZE;
	uint32_t pte = pte_make(pa, VM_PROT_READ, CCA_CACHED);

	assert_int_equal(PTE_PA_LIMIT, (uint64_t)1 << 36);
	assert_int_equal(pte_pa(pte), pa);
	assert_int_equal(pte_entrylo(pte) & ~ENTRYLO_PFN_MASK & 0xc0000000u, 0);
}

static void test_empty_table_refills_invalid(void **state)
{
	(void)state;
	uintptr_t *root = pt_create();
	uint32_t lo0, lo1;

	assert_non_null(root);
	assert_int_equal(page_double_out, 1);
	assert_int_equal(pt_pages(), page_double_out);   /* `mem`'s page_tables */
	handler_walk(root, USER_VA, &lo0, &lo1);
	assert_int_equal(lo0 | lo1, 0);
	handler_walk(root, 0xfffff000u, &lo0, &lo1);
	assert_int_equal(lo0 | lo1, 0);
	assert_null(pt_slot(root, USER_VA, false));
	assert_int_equal(pt_get(root, USER_VA), 0);
	pt_destroy(root);
	assert_int_equal(page_double_out, 0);
	assert_int_equal(pt_pages(), page_double_out);   /* `mem`'s page_tables */
}

static void test_even_odd_pair(void **state)
{
	(void)state;
	uintptr_t *root = pt_create();
	uint32_t even_va = USER_VA + 0x6000u, odd_va = even_va + PAGE_SIZE;
	uint32_t lo0, lo1, e, o;

	*pt_slot(root, odd_va, true) = pte_make(0x5000, VM_PROT_READ, CCA_CACHED);
	assert_int_equal(page_double_out, 2);
	assert_int_equal(pt_pages(), page_double_out);   /* `mem`'s page_tables */         /* root and one leaf */
	handler_walk(root, even_va, &lo0, &lo1);
	assert_int_equal(lo0, 0);
	assert_int_equal(lo1, pte_entrylo(pt_get(root, odd_va)));
	/* Either page of the pair refills the same pair. */
	handler_walk(root, odd_va + 0x123, &e, &o);
	assert_int_equal(e, lo0);
	assert_int_equal(o, lo1);
	pt_pair(root, even_va, &e, &o);
	assert_int_equal(pte_entrylo(o), lo1);

	*pt_slot(root, even_va, true) = pte_make(0x9000, VM_PROT_WRITE | VM_PROT_READ,
						 CCA_CACHED);
	assert_int_equal(page_double_out, 2);
	assert_int_equal(pt_pages(), page_double_out);   /* `mem`'s page_tables */         /* same leaf */
	handler_walk(root, odd_va, &lo0, &lo1);
	assert_int_equal((lo0 & ENTRYLO_PFN_MASK) >> ENTRYLO_PFN_SHIFT, 9);
	assert_int_equal((lo1 & ENTRYLO_PFN_MASK) >> ENTRYLO_PFN_SHIFT, 5);
	pt_destroy(root);
	assert_int_equal(page_double_out, 0);
	assert_int_equal(pt_pages(), page_double_out);   /* `mem`'s page_tables */
}

static void test_leaves_per_4mib(void **state)
{
	(void)state;
	uintptr_t *root = pt_create();

	*pt_slot(root, USER_VA, true) = pte_make(0x1000, VM_PROT_READ, CCA_CACHED);
	*pt_slot(root, USER_VA + 0x3ff000u, true) = pte_make(0x2000, VM_PROT_READ, CCA_CACHED);
	assert_int_equal(page_double_out, 2);
	assert_int_equal(pt_pages(), page_double_out);   /* `mem`'s page_tables */
	*pt_slot(root, USER_VA + 0x400000u, true) = pte_make(0x3000, VM_PROT_READ, CCA_CACHED);
	*pt_slot(root, 0x7ffef000u, true) = pte_make(0x4000, VM_PROT_READ, CCA_CACHED);
	assert_int_equal(page_double_out, 4);
	assert_int_equal(pt_pages(), page_double_out);   /* `mem`'s page_tables */
	assert_int_equal(pte_pa(pt_get(root, 0x7ffef000u)), 0x4000);
	assert_int_equal(pte_pa(pt_get(root, USER_VA + 0x3ff000u)), 0x2000);
	assert_int_equal(pt_get(root, USER_VA + 0x1000u), 0);
	pt_destroy(root);
	assert_int_equal(page_double_out, 0);
	assert_int_equal(pt_pages(), page_double_out);   /* `mem`'s page_tables */
	/* Nothing ever wrote to the shared empty leaf. */
	for (unsigned i = 0; i < PT_ENTRIES; i++)
		assert_int_equal(pt_empty_leaf()[i], 0);
}

static void test_out_of_memory(void **state)
{
	(void)state;
	uintptr_t *root = pt_create();

	page_double_fail = true;
	assert_null(pt_slot(root, USER_VA, true));
	assert_int_equal(pt_get(root, USER_VA), 0);
	assert_null(pt_create());
	page_double_fail = false;
	pt_destroy(root);
	assert_int_equal(page_double_out, 0);
	assert_int_equal(pt_pages(), page_double_out);   /* `mem`'s page_tables */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_pte_encoding, setup),
		cmocka_unit_test_setup(test_pte_largest_frame, setup),
		cmocka_unit_test_setup(test_empty_table_refills_invalid, setup),
		cmocka_unit_test_setup(test_even_odd_pair, setup),
		cmocka_unit_test_setup(test_leaves_per_4mib, setup),
		cmocka_unit_test_setup(test_out_of_memory, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
