/*
 * Host tests of kernel/mm/uvm.c: regions, demand paging, brk, fork copies and
 * the user-copy functions, on a fake page table whose "physical" pages are
 * host memory.  The fake counts pages, so leaks show.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include <errno.h>

#include "arch.h"
#include "arch_task.h"
#include "mm/heap.h"
#include "mm/page.h"
#include "page_double.h"
#include "mm/uvm.h"

#define FAKE_BASE ((uintptr_t)0x400000)
#define FAKE_TOP ((uintptr_t)0x10000000)
#define FAKE_MAP_MAX 1024
#define TEXT_PAGES 2
#define DATA_PAGES 1
#define TEXT_START FAKE_BASE
#define DATA_START (FAKE_BASE + TEXT_PAGES * PAGE_SIZE)
#define HEAP_START (DATA_START + DATA_PAGES * PAGE_SIZE)
#define PROT_RW (VM_PROT_READ | VM_PROT_WRITE)
#define PROT_RX (VM_PROT_READ | VM_PROT_EXEC)

/* ---- fakes -------------------------------------------------------------- */

struct fake_map {
	uintptr_t va;
	uint64_t pa;
	unsigned prot;
};

struct arch_vm {
	size_t n;
	struct fake_map m[FAKE_MAP_MAX];
};

void *kzalloc(size_t n) { return calloc(1, n); }
void kfree(void *p) { free(p); }
void *arch_phys_to_virt(uint64_t pa) { return (void *)(uintptr_t)pa; }
uint64_t arch_virt_to_phys(const void *va) { return (uint64_t)(uintptr_t)va; }

void arch_user_range(uintptr_t *base, uintptr_t *top)
{
	*base = FAKE_BASE;
	*top = FAKE_TOP;
}

struct arch_vm *arch_vm_create(void) { return calloc(1, sizeof(struct arch_vm)); }
void arch_vm_destroy(struct arch_vm *vm) { free(vm); }

static struct fake_map *find(struct arch_vm *vm, uintptr_t va)
{
	for (size_t i = 0; i < vm->n; i++) {
		if (vm->m[i].va == va)
			return &vm->m[i];
	}
	return NULL;
}

int arch_vm_map(struct arch_vm *vm, uintptr_t va, uint64_t pa, unsigned prot)
{
	assert_int_equal(va % PAGE_SIZE, 0);
	if (find(vm, va))
		return -EEXIST;
	if (vm->n == FAKE_MAP_MAX)
		return -ENOMEM;
	vm->m[vm->n++] = (struct fake_map){ va, pa, prot };
	return 0;
}

uint64_t arch_vm_unmap(struct arch_vm *vm, uintptr_t va)
{
	struct fake_map *e = find(vm, va);
	if (!e)
		return 0;
	uint64_t pa = e->pa;
	*e = vm->m[--vm->n];
	return pa;
}

uint64_t arch_vm_lookup(struct arch_vm *vm, uintptr_t va, unsigned *prot)
{
	struct fake_map *e = find(vm, va & ~(uintptr_t)(PAGE_SIZE - 1));
	if (!e)
		return 0;
	*prot = e->prot;
	return e->pa;
}

/* ---- helpers -------------------------------------------------------------- */

/* A program like the loader makes: text, data, then heap and stack. */
static struct uvm *make_program(void)
{
	struct uvm *u = uvm_create();
	assert_non_null(u);
	assert_int_equal(uvm_add_segment(u, TEXT_START, DATA_START, PROT_RX), 0);
	assert_int_equal(uvm_add_segment(u, DATA_START, HEAP_START, PROT_RW), 0);
	assert_int_equal(uvm_setup_stack(u), 0);
	return u;
}

static int setup(void **state)
{
	(void)state;
	page_double_out = 0;
	page_double_fail = false;
	return 0;
}

/* ---- tests ---------------------------------------------------------------- */

static void test_layout_and_destroy_frees_all(void **state)
{
	(void)state;
	struct uvm *u = make_program();

	assert_int_equal(u->heap_start, HEAP_START);
	assert_int_equal(u->brk, HEAP_START);
	assert_int_equal(u->stack_top, FAKE_TOP);
	assert_int_equal(u->pages, TEXT_PAGES + DATA_PAGES + USTACK_EAGER_PAGES);
	assert_int_equal(page_double_out, (long)u->pages);
	uvm_destroy(u);
	assert_int_equal(page_double_out, 0);
}

static void test_segments_checked(void **state)
{
	(void)state;
	struct uvm *u = uvm_create();

	assert_int_equal(uvm_add_segment(u, TEXT_START + 1, DATA_START, PROT_RX), -EINVAL);
	assert_int_equal(uvm_add_segment(u, 0, PAGE_SIZE, PROT_RX), -EINVAL);
	assert_int_equal(uvm_add_segment(u, FAKE_TOP, FAKE_TOP + PAGE_SIZE, PROT_RX), -EINVAL);
	assert_int_equal(uvm_add_segment(u, TEXT_START, DATA_START, PROT_RX), 0);
	assert_int_equal(uvm_add_segment(u, TEXT_START + PAGE_SIZE, HEAP_START, PROT_RW), -EINVAL);
	uvm_destroy(u);
	assert_int_equal(page_double_out, 0);
}

static void test_copy_roundtrip_across_pages(void **state)
{
	(void)state;
	struct uvm *u = make_program();
	char out[PAGE_SIZE + 64], in[sizeof(out)];
	/* Starts in the lower eager stack page and ends in the upper one. */
	uintptr_t at = u->stack_top - USTACK_EAGER_PAGES * PAGE_SIZE + 100;

	for (size_t i = 0; i < sizeof(out); i++)
		out[i] = (char)(i * 7);
	assert_int_equal(copy_to_user(u, at, out, sizeof(out)), 0);
	assert_int_equal(copy_from_user(u, in, at, sizeof(in)), 0);
	assert_memory_equal(in, out, sizeof(in));
	uvm_destroy(u);
}

static void test_bad_pointers_are_efault(void **state)
{
	(void)state;
	struct uvm *u = make_program();
	char buf[16];

	assert_int_equal(copy_from_user(u, buf, 0, sizeof(buf)), -EFAULT);
	assert_int_equal(copy_from_user(u, buf, FAKE_BASE - 8, sizeof(buf)), -EFAULT);
	assert_int_equal(copy_from_user(u, buf, FAKE_TOP, 1), -EFAULT);
	assert_int_equal(copy_from_user(u, buf, FAKE_TOP - 8, sizeof(buf)), -EFAULT);
	assert_int_equal(copy_from_user(u, buf, UINTPTR_MAX - 4, sizeof(buf)), -EFAULT);
	/* Between the heap end and the stack: no region. */
	assert_int_equal(copy_from_user(u, buf, HEAP_START + 16 * PAGE_SIZE, 4), -EFAULT);
	assert_int_equal(copy_to_user(NULL, FAKE_BASE, buf, 1), -EFAULT);
	/* Nothing got mapped on the way. */
	assert_int_equal(u->pages, TEXT_PAGES + DATA_PAGES + USTACK_EAGER_PAGES);
	uvm_destroy(u);
}

static void test_protection(void **state)
{
	(void)state;
	struct uvm *u = make_program();
	const char code[] = "\x90\x90";
	char buf[sizeof(code)];

	assert_int_equal(copy_to_user(u, TEXT_START, code, sizeof(code)), -EFAULT);
	assert_int_equal(uvm_write_init(u, TEXT_START, code, sizeof(code)), 0);
	assert_int_equal(copy_from_user(u, buf, TEXT_START, sizeof(buf)), 0);
	assert_memory_equal(buf, code, sizeof(code));
	assert_int_equal(copy_to_user(u, DATA_START, code, sizeof(code)), 0);
	uvm_destroy(u);
}

static void test_demand_faults(void **state)
{
	(void)state;
	struct uvm *u = make_program();
	uintptr_t r;
	size_t before = u->pages;

	/* Heap: only below brk. */
	assert_int_equal(uvm_fault(u, HEAP_START, true), -EFAULT);
	assert_int_equal(uvm_brk(u, HEAP_START + 3 * PAGE_SIZE, &r), 0);
	assert_int_equal(uvm_fault(u, HEAP_START + PAGE_SIZE + 5, true), 0);
	assert_int_equal(uvm_fault(u, HEAP_START + PAGE_SIZE, true), -EFAULT); /* mapped */
	assert_int_equal(uvm_fault(u, HEAP_START + 3 * PAGE_SIZE, true), -EFAULT);
	/* Stack: down to its limit, not below. */
	assert_int_equal(uvm_fault(u, u->stack_limit, true), 0);
	assert_int_equal(u->stack_low, u->stack_limit);
	assert_int_equal(uvm_fault(u, u->stack_limit - 1, true), -EFAULT);
	/* Text is mapped: a write fault there is a protection fault. */
	assert_int_equal(uvm_fault(u, TEXT_START, true), -EFAULT);
	assert_int_equal(u->pages, before + 2);
	uvm_destroy(u);
	assert_int_equal(page_double_out, 0);
}

static void test_copy_maps_untouched_heap(void **state)
{
	(void)state;
	struct uvm *u = make_program();
	uintptr_t r;
	const char msg[] = "hello";

	assert_int_equal(uvm_brk(u, HEAP_START + PAGE_SIZE, &r), 0);
	assert_int_equal(copy_to_user(u, HEAP_START + 10, msg, sizeof(msg)), 0);
	char back[sizeof(msg)];
	assert_int_equal(copy_from_user(u, back, HEAP_START + 10, sizeof(back)), 0);
	assert_string_equal(back, msg);
	uvm_destroy(u);
	assert_int_equal(page_double_out, 0);
}

static void test_brk(void **state)
{
	(void)state;
	struct uvm *u = make_program();
	uintptr_t r;

	assert_int_equal(uvm_brk(u, 0, &r), 0);
	assert_int_equal(r, HEAP_START);
	assert_int_equal(uvm_brk(u, HEAP_START - 1, &r), -ENOMEM);
	assert_int_equal(uvm_brk(u, u->heap_limit + 1, &r), -ENOMEM);
	assert_int_equal(uvm_brk(u, HEAP_START + 4 * PAGE_SIZE, &r), 0);
	for (int i = 0; i < 4; i++)
		assert_int_equal(uvm_fault(u, HEAP_START + i * PAGE_SIZE, true), 0);
	long held = page_double_out;
	/* Shrinking frees whole pages above the new end, keeps the partial one. */
	assert_int_equal(uvm_brk(u, HEAP_START + PAGE_SIZE + 1, &r), 0);
	assert_int_equal(r, HEAP_START + PAGE_SIZE + 1);
	assert_int_equal(page_double_out, held - 2);
	uvm_destroy(u);
	assert_int_equal(page_double_out, 0);
}

/* uvm_user_span: the kernel address of bytes within one writable page
 * (faulting an untouched heap page in), NULL for anything a copy would
 * refuse or that spans two pages; the page it remembers is forgotten
 * when unmapped, so a shrunk heap is never written through it. */
static void test_user_span(void **state)
{
	(void)state;
	struct uvm *u = make_program();
	uintptr_t r;
	char back[4];

	assert_int_equal(uvm_brk(u, HEAP_START + 2 * PAGE_SIZE, &r), 0);
	char *p = uvm_user_span(u, HEAP_START + PAGE_SIZE + 8, 4, PROT_RW);
	assert_non_null(p);
	memcpy(p, "abc", 4);
	assert_int_equal(copy_from_user(u, back, HEAP_START + PAGE_SIZE + 8, 4), 0);
	assert_string_equal(back, "abc");
	/* Asked again (remembered): the same address. */
	assert_ptr_equal(uvm_user_span(u, HEAP_START + PAGE_SIZE + 8, 4, PROT_RW), p);
	assert_ptr_equal(uvm_user_span(u, HEAP_START + PAGE_SIZE, 1, VM_PROT_READ),
			 p - 8);
	/* Refused: two pages, nothing, read-only text, outside the range. */
	assert_null(uvm_user_span(u, HEAP_START + PAGE_SIZE - 2, 4, PROT_RW));
	assert_null(uvm_user_span(u, HEAP_START, 0, PROT_RW));
	assert_null(uvm_user_span(u, TEXT_START, 4, PROT_RW));
	assert_non_null(uvm_user_span(u, TEXT_START, 4, VM_PROT_READ));
	assert_null(uvm_user_span(u, FAKE_TOP - 2, 4, PROT_RW));
	assert_null(uvm_user_span(NULL, HEAP_START, 4, PROT_RW));
	/* The heap shrinks below that page: gone, and not remembered. */
	assert_non_null(uvm_user_span(u, HEAP_START + PAGE_SIZE + 8, 4, PROT_RW));
	assert_int_equal(uvm_brk(u, HEAP_START + PAGE_SIZE, &r), 0);
	assert_null(uvm_user_span(u, HEAP_START + PAGE_SIZE + 8, 4, PROT_RW));
	/* Grown again: a fresh zero page, written where a copy reads. */
	assert_int_equal(uvm_brk(u, HEAP_START + 2 * PAGE_SIZE, &r), 0);
	p = uvm_user_span(u, HEAP_START + PAGE_SIZE + 8, 4, PROT_RW);
	assert_non_null(p);
	assert_int_equal(p[0], 0);
	memcpy(p, "xyz", 4);
	assert_int_equal(copy_from_user(u, back, HEAP_START + PAGE_SIZE + 8, 4), 0);
	assert_string_equal(back, "xyz");
	/* A fork's copy remembers nothing of its parent's pages. */
	struct uvm *c = uvm_clone(u);
	assert_non_null(c);
	assert_int_equal(c->span_va, 0);
	char *q = uvm_user_span(c, HEAP_START + PAGE_SIZE + 8, 4, PROT_RW);
	assert_non_null(q);
	assert_ptr_not_equal(q, p);
	uvm_destroy(c);
	uvm_destroy(u);
	assert_int_equal(page_double_out, 0);
}

/* uvm_user_span_known, the lock-free hot read's lookup: only the page
 * uvm_user_span remembered, only spans within it (a size that would wrap
 * the page's end included), nothing once that page is unmapped, and
 * nothing before any page was remembered (page 0 included). */
static void test_user_span_known(void **state)
{
	(void)state;
	struct uvm *u = make_program();
	uintptr_t r;
	uintptr_t at = HEAP_START + PAGE_SIZE + 8;

	assert_null(uvm_user_span_known(u, 0, 4));
	assert_null(uvm_user_span_known(u, at, 4));
	assert_int_equal(uvm_brk(u, HEAP_START + 2 * PAGE_SIZE, &r), 0);
	assert_null(uvm_user_span_known(u, at, 4));
	char *p = uvm_user_span(u, at, 4, PROT_RW);
	assert_non_null(p);
	assert_ptr_equal(uvm_user_span_known(u, at, 4), p);
	assert_ptr_equal(uvm_user_span_known(u, at - 8, PAGE_SIZE), p - 8);
	assert_ptr_equal(uvm_user_span_known(u, at + 4, 1), p + 4);
	assert_null(uvm_user_span_known(u, at - 8, PAGE_SIZE + 1));
	assert_null(uvm_user_span_known(u, at, PAGE_SIZE));
	assert_null(uvm_user_span_known(u, at, (size_t)0 - 4));
	assert_null(uvm_user_span_known(u, at, 0));
	assert_null(uvm_user_span_known(u, at - PAGE_SIZE, 4));
	assert_null(uvm_user_span_known(NULL, at, 4));
	/* A read-only page is never remembered. */
	assert_non_null(uvm_user_span(u, TEXT_START, 4, VM_PROT_READ));
	assert_null(uvm_user_span_known(u, TEXT_START, 4));
	assert_ptr_equal(uvm_user_span_known(u, at, 4), p);
	assert_int_equal(uvm_brk(u, HEAP_START + PAGE_SIZE, &r), 0);
	assert_null(uvm_user_span_known(u, at, 4));
	uvm_destroy(u);
	assert_int_equal(page_double_out, 0);
}

static void test_strncpy_from_user(void **state)
{
	(void)state;
	struct uvm *u = make_program();
	char name[8];
	const char s[] = "spin";
	const char longer[] = "forktree-long";
	uintptr_t at = DATA_START;

	assert_int_equal(copy_to_user(u, at, s, sizeof(s)), 0);
	assert_int_equal(strncpy_from_user(u, name, at, sizeof(name)), 4);
	assert_string_equal(name, "spin");
	assert_int_equal(copy_to_user(u, at, longer, sizeof(longer)), 0);
	assert_int_equal(strncpy_from_user(u, name, at, sizeof(name)), -E2BIG);
	assert_int_equal(strncpy_from_user(u, name, 0, sizeof(name)), -EFAULT);
	/* A string running off the end of the data into unmapped space. */
	uintptr_t last = HEAP_START - 2;
	assert_int_equal(copy_to_user(u, last, "ab", 2), 0);
	assert_int_equal(strncpy_from_user(u, name, last, sizeof(name)), -EFAULT);
	uvm_destroy(u);
}

static void test_clone_is_a_copy(void **state)
{
	(void)state;
	struct uvm *u = make_program();
	uintptr_t r;
	int v = 1234, w = 0;

	assert_int_equal(uvm_brk(u, HEAP_START + PAGE_SIZE, &r), 0);
	assert_int_equal(copy_to_user(u, HEAP_START, &v, sizeof(v)), 0);
	struct uvm *c = uvm_clone(u);
	assert_non_null(c);
	assert_int_equal(c->pages, u->pages);
	v = 99;
	assert_int_equal(copy_to_user(u, HEAP_START, &v, sizeof(v)), 0);
	assert_int_equal(copy_from_user(c, &w, HEAP_START, sizeof(w)), 0);
	assert_int_equal(w, 1234);
	uvm_destroy(u);
	uvm_destroy(c);
	assert_int_equal(page_double_out, 0);
}

static void test_clone_out_of_memory_leaks_nothing(void **state)
{
	(void)state;
	struct uvm *u = make_program();
	long held = page_double_out;

	page_double_fail = true;
	assert_null(uvm_clone(u));
	page_double_fail = false;
	assert_int_equal(page_double_out, held);
	uvm_destroy(u);
	assert_int_equal(page_double_out, 0);
}

/* The hwperf read page: read-only for the task, one per address space,
 * never where the program, heap or stack may be, freed with the space,
 * not copied by fork. */
static void test_kernel_page(void **state)
{
	(void)state;
	struct uvm *u = make_program();
	uintptr_t va = FAKE_TOP / 2;
	unsigned prot = 0;
	int err = 1, w = 0;
	long held = page_double_out;

	assert_null(uvm_map_kernel_page(u, TEXT_START, &err));
	assert_int_equal(err, -EINVAL);
	assert_null(uvm_map_kernel_page(u, HEAP_START + PAGE_SIZE, &err));
	assert_int_equal(err, -EINVAL);
	assert_null(uvm_map_kernel_page(u, FAKE_TOP - PAGE_SIZE, &err));
	assert_int_equal(err, -EINVAL);
	assert_null(uvm_map_kernel_page(u, va + 1, &err));
	assert_int_equal(err, -EINVAL);
	assert_int_equal(page_double_out, held);

	int *k = uvm_map_kernel_page(u, va, &err);
	assert_non_null(k);
	assert_int_equal(err, 0);
	assert_int_equal(uvm_map_kernel_page(u, va, &err), k);
	assert_null(uvm_map_kernel_page(u, va + PAGE_SIZE, &err));
	assert_int_equal(err, -EINVAL);
	assert_int_equal(arch_vm_lookup(u->vm, va, &prot), arch_virt_to_phys(k));
	assert_int_equal(prot, VM_PROT_READ);
	*k = 77;
	assert_int_equal(copy_from_user(u, &w, va, sizeof(w)), 0);
	assert_int_equal(w, 77);
	assert_int_equal(copy_to_user(u, va, &w, sizeof(w)), -EFAULT);
	assert_int_equal(uvm_fault(u, va, false), -EFAULT);

	struct uvm *c = uvm_clone(u);
	assert_non_null(c);
	assert_null(c->kpage);
	assert_int_equal(arch_vm_lookup(c->vm, va, &prot), 0);
	uvm_destroy(c);
	uvm_destroy(u);
	assert_int_equal(page_double_out, 0);
}

static void test_kernel_page_out_of_memory(void **state)
{
	(void)state;
	struct uvm *u = make_program();
	int err = 0;

	page_double_fail = true;
	assert_null(uvm_map_kernel_page(u, FAKE_TOP / 2, &err));
	assert_int_equal(err, -ENOMEM);
	page_double_fail = false;
	assert_null(u->kpage);
	uvm_destroy(u);
	assert_int_equal(page_double_out, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_layout_and_destroy_frees_all, setup),
		cmocka_unit_test_setup(test_segments_checked, setup),
		cmocka_unit_test_setup(test_copy_roundtrip_across_pages, setup),
		cmocka_unit_test_setup(test_bad_pointers_are_efault, setup),
		cmocka_unit_test_setup(test_protection, setup),
		cmocka_unit_test_setup(test_demand_faults, setup),
		cmocka_unit_test_setup(test_copy_maps_untouched_heap, setup),
		cmocka_unit_test_setup(test_brk, setup),
		cmocka_unit_test_setup(test_user_span, setup),
		cmocka_unit_test_setup(test_user_span_known, setup),
		cmocka_unit_test_setup(test_strncpy_from_user, setup),
		cmocka_unit_test_setup(test_clone_is_a_copy, setup),
		cmocka_unit_test_setup(test_clone_out_of_memory_leaks_nothing, setup),
		cmocka_unit_test_setup(test_kernel_page, setup),
		cmocka_unit_test_setup(test_kernel_page_out_of_memory, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
