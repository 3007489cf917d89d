/*
 * Host tests of kernel/mm/page.c and kernel/mm/heap.c, over a fake "physical
 * memory" array standing in for the arch's direct map.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "arch.h"
#include "mm/heap.h"
#include "mm/page.h"
#include "spinlock.h"

#define FAKE_PHYS_BASE 0x100000u
#define FAKE_PAGES     64

static _Alignas(4096) unsigned char ram[FAKE_PAGES * 4096];
static jmp_buf panic_jmp;
static char panic_msg[256];

void *arch_phys_to_virt(uint64_t pa)
{
	if (pa < FAKE_PHYS_BASE || pa >= FAKE_PHYS_BASE + sizeof(ram))
		return NULL;
	return ram + (pa - FAKE_PHYS_BASE);
}

irqflags_t arch_irq_save(void) { return 0; }
void arch_irq_restore(irqflags_t f) { (void)f; }

/* spinlock.h's out-of-line parts, lockdebug off: one thread here, so a
 * lock found held means page.c or heap.c forgot to let it go. */
bool spin_debug_;
void spin_lock_debug(struct spinlock *l, uintptr_t site) { (void)l; (void)site; }
void spin_unlock_debug(struct spinlock *l) { (void)l; }
void spin_wait(struct spinlock *l)
{
	panic("spinlock %s: found held", l->name);
}

void panic(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(panic_msg, sizeof(panic_msg), fmt, ap);
	va_end(ap);
	longjmp(panic_jmp, 1);
}

/* page.c keeps its free list in statics: each test starts from a fresh
 * boot with an empty allocator by giving it no memory and draining. */
static void boot_with(uint64_t base, uint64_t size)
{
	struct boot_info bi = { .cmdline = "", .nmem = 1 };
	bi.mem[0].base = base;
	bi.mem[0].size = size;
	while (page_alloc())
		;
	page_init(&bi);
}

static void test_unaligned_range_is_trimmed(void **state)
{
	(void)state;
	size_t before = page_total_count();
	/* 10 pages starting 100 bytes in: only 9 whole pages fit. */
	boot_with(FAKE_PHYS_BASE + 100, 10 * 4096);
	assert_int_equal(page_free_count(), 9);
	assert_int_equal(page_total_count() - before, 9);
}

static void test_range_beyond_mapping_stops(void **state)
{
	(void)state;
	/* The last 4 pages of the fake RAM plus 4 that arch cannot map. */
	boot_with(FAKE_PHYS_BASE + (FAKE_PAGES - 4) * 4096, 8 * 4096);
	assert_int_equal(page_free_count(), 4);
}

static void test_range_mostly_beyond_mapping(void **state)
{
	(void)state;
	/* 3 mappable pages, then 1000 the arch cannot map: the end is found
	 * without mapping them all. */
	boot_with(FAKE_PHYS_BASE + (FAKE_PAGES - 3) * 4096, 1003 * 4096);
	assert_int_equal(page_free_count(), 3);
	boot_with(FAKE_PHYS_BASE + FAKE_PAGES * 4096, 50 * 4096);
	assert_int_equal(page_free_count(), 0);
	assert_null(page_alloc());
}

/* Boot records the ranges; no page is written until it is handed out. */
static void test_init_touches_no_page(void **state)
{
	(void)state;
	boot_with(FAKE_PHYS_BASE, 0);
	memset(ram, 0xa5, sizeof(ram));
	struct boot_info bi = { .cmdline = "", .nmem = 1 };
	bi.mem[0].base = FAKE_PHYS_BASE;
	bi.mem[0].size = sizeof(ram);
	page_init(&bi);
	assert_int_equal(page_free_count(), FAKE_PAGES);
	for (size_t i = 0; i < sizeof(ram); i++)
		assert_int_equal(ram[i], 0xa5);
	while (page_alloc())
		;
}

/* The last range's highest page first, then down, then the range before;
 * a freed page comes back before any fresh one. */
static void test_alloc_order_and_reuse(void **state)
{
	(void)state;
	boot_with(FAKE_PHYS_BASE, 0);
	struct boot_info bi = { .cmdline = "", .nmem = 2 };
	bi.mem[0].base = FAKE_PHYS_BASE;
	bi.mem[0].size = 2 * 4096;
	bi.mem[1].base = FAKE_PHYS_BASE + 10 * 4096;
	bi.mem[1].size = 2 * 4096;
	page_init(&bi);
	assert_int_equal(page_free_count(), 4);
	unsigned char *a = page_alloc(), *b = page_alloc();
	assert_ptr_equal(a, ram + 11 * 4096);
	assert_ptr_equal(b, ram + 10 * 4096);
	page_free(a);
	assert_int_equal(page_free_count(), 3);
	assert_ptr_equal(page_alloc(), a);
	assert_ptr_equal(page_alloc(), ram + 1 * 4096);
	assert_ptr_equal(page_alloc(), ram);
	assert_null(page_alloc());
	assert_int_equal(page_free_count(), 0);
}

static void test_alloc_zeroes_and_free_returns(void **state)
{
	(void)state;
	boot_with(FAKE_PHYS_BASE, 16 * 4096);
	unsigned char *p = page_alloc();
	assert_non_null(p);
	assert_int_equal(((uintptr_t)p) & 4095, 0);
	for (int i = 0; i < 4096; i++)
		assert_int_equal(p[i], 0);
	memset(p, 0xa5, 4096);
	assert_int_equal(page_free_count(), 15);
	page_free(p);
	assert_int_equal(page_free_count(), 16);
	p = page_alloc();
	assert_int_equal(p[100], 0);    /* zeroed again on reuse */
	page_free(p);
}

static void test_exhaustion_returns_null(void **state)
{
	(void)state;
	boot_with(FAKE_PHYS_BASE, 3 * 4096);
	void *a = page_alloc(), *b = page_alloc(), *c = page_alloc();
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(c);
	assert_null(page_alloc());
	page_free(a);
	page_free(b);
	page_free(c);
	assert_int_equal(page_free_count(), 3);
}

static void test_free_unaligned_panics(void **state)
{
	(void)state;
	boot_with(FAKE_PHYS_BASE, 2 * 4096);
	char *p = page_alloc();
	if (setjmp(panic_jmp) == 0) {
		page_free(p + 8);
		fail_msg("page_free of an unaligned pointer did not panic");
	}
	assert_non_null(strstr(panic_msg, "not page aligned"));
	page_free(p);
}

static void test_kmalloc_sizes_and_accounting(void **state)
{
	(void)state;
	boot_with(FAKE_PHYS_BASE, 32 * 4096);
	size_t base = heap_in_use();
	void *small = kmalloc(1);
	void *mid = kmalloc(100);
	void *big = kmalloc(2000);
	assert_non_null(small);
	assert_non_null(mid);
	assert_non_null(big);
	assert_int_equal(((uintptr_t)small) & 7, 0);
	assert_int_equal(((uintptr_t)mid) & 7, 0);
	/* 1 byte + 8 header -> 16; 100 + 8 -> 128; 2000 + 8 -> 2048. */
	assert_int_equal(heap_in_use() - base, 16 + 128 + 2048);
	memset(big, 0x5a, 2000);
	kfree(small);
	kfree(mid);
	kfree(big);
	assert_int_equal(heap_in_use(), base);
}

static void test_kmalloc_too_big_fails(void **state)
{
	(void)state;
	boot_with(FAKE_PHYS_BASE, 8 * 4096);
	assert_null(kmalloc(2041));     /* 2041 + 8 > 2048 */
	assert_non_null(kmalloc(2040));
}

static void test_kzalloc_zeroes_reused_block(void **state)
{
	(void)state;
	boot_with(FAKE_PHYS_BASE, 8 * 4096);
	unsigned char *p = kmalloc(50);
	memset(p, 0xff, 50);
	kfree(p);
	unsigned char *q = kzalloc(50);
	assert_ptr_equal(p, q);         /* same class, LIFO reuse */
	for (int i = 0; i < 50; i++)
		assert_int_equal(q[i], 0);
	kfree(q);
}

static void test_double_free_panics(void **state)
{
	(void)state;
	boot_with(FAKE_PHYS_BASE, 8 * 4096);
	void *p = kmalloc(30);
	kfree(p);
	if (setjmp(panic_jmp) == 0) {
		kfree(p);
		fail_msg("double kfree did not panic");
	}
	assert_non_null(strstr(panic_msg, "not allocated by kmalloc"));
}

static void test_heap_survives_page_exhaustion(void **state)
{
	(void)state;
	boot_with(FAKE_PHYS_BASE, 2 * 4096);
	int n = 0;
	while (kmalloc(1000))   /* 1024-byte class: 4 per page */
		n++;
	assert_true(n >= 4 && n <= 8);
	assert_null(kmalloc(1000));
}

static void test_heap_pages_explain_the_drop_in_free_pages(void **state)
{
	(void)state;
	boot_with(FAKE_PHYS_BASE, 32 * 4096);
	size_t held = heap_pages(), free0 = page_free_count();
	void *b[5];
	/* 2048-byte blocks, two per page: five need at least two new pages. */
	for (int i = 0; i < 5; i++)
		assert_non_null(b[i] = kmalloc(2000));
	assert_true(heap_pages() >= held + 2);
	assert_int_equal(heap_pages() + page_free_count(), held + free0);
	size_t grown = heap_pages();
	for (int i = 0; i < 5; i++)
		kfree(b[i]);
	/* Kept for the next kmalloc, not returned: the drop stays, and
	 * heap_pages says where the pages went. */
	assert_int_equal(heap_pages(), grown);
	assert_int_equal(heap_pages() + page_free_count(), held + free0);
	for (int i = 0; i < 5; i++)
		assert_non_null(b[i] = kmalloc(2000));
	assert_int_equal(heap_pages(), grown);
	for (int i = 0; i < 5; i++)
		kfree(b[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unaligned_range_is_trimmed),
		cmocka_unit_test(test_range_beyond_mapping_stops),
		cmocka_unit_test(test_range_mostly_beyond_mapping),
		cmocka_unit_test(test_init_touches_no_page),
		cmocka_unit_test(test_alloc_order_and_reuse),
		cmocka_unit_test(test_alloc_zeroes_and_free_returns),
		cmocka_unit_test(test_exhaustion_returns_null),
		cmocka_unit_test(test_free_unaligned_panics),
		cmocka_unit_test(test_kmalloc_sizes_and_accounting),
		cmocka_unit_test(test_kmalloc_too_big_fails),
		cmocka_unit_test(test_kzalloc_zeroes_reused_block),
		cmocka_unit_test(test_double_free_panics),
		cmocka_unit_test(test_heap_survives_page_exhaustion),
		cmocka_unit_test(test_heap_pages_explain_the_drop_in_free_pages),
	};
	return cmocka_run_group_tests_name("page_heap", tests, NULL, NULL);
}
