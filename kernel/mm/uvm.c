/*
 * uvm.c - user address spaces: regions, demand paging, user copies.
 */
#include <errno.h>
#include <string.h>

#include "arch.h"
#include "arch_task.h"
#include "mm/heap.h"
#include "mm/page.h"
#include "mm/uvm.h"

#define PAGE_MASK ((uintptr_t)PAGE_SIZE - 1)
#define PROT_RW (VM_PROT_READ | VM_PROT_WRITE)

static uintptr_t page_down(uintptr_t a)
{
	return a & ~PAGE_MASK;
}

static uintptr_t page_up(uintptr_t a)
{
	return (a + PAGE_MASK) & ~PAGE_MASK;
}

struct uvm *uvm_create(void)
{
	struct uvm *u = kzalloc(sizeof(*u));

	if (!u)
		return NULL;
	u->vm = arch_vm_create();
	if (!u->vm) {
		kfree(u);
		return NULL;
	}
	arch_user_range(&u->user_base, &u->user_top);
	return u;
}

static int map_zero_page(struct uvm *u, uintptr_t va, unsigned prot)
{
	void *page = page_alloc();

	if (!page)
		return -ENOMEM;
	int err = arch_vm_map(u->vm, va, arch_virt_to_phys(page), prot);
	if (err) {
		page_free(page);
		return err;
	}
	u->pages++;
	return 0;
}

static void unmap_range(struct uvm *u, uintptr_t start, uintptr_t end)
{
	if (u->span_va >= start && u->span_va < end)
		u->span_va = 0;
	for (uintptr_t va = start; va < end; va += PAGE_SIZE) {
		uint64_t pa = arch_vm_unmap(u->vm, va);
		if (pa) {
			page_free(arch_phys_to_virt(pa));
			u->pages--;
		}
	}
}

static uintptr_t heap_mapped_end(const struct uvm *u)
{
	return page_up(u->brk);
}

void uvm_destroy(struct uvm *u)
{
	if (!u)
		return;
	for (unsigned i = 0; i < u->nseg; i++)
		unmap_range(u, u->seg[i].start, u->seg[i].end);
	if (u->stack_top) {
		unmap_range(u, u->heap_start, heap_mapped_end(u));
		unmap_range(u, u->stack_low, u->stack_top);
	}
	if (u->kpage) {
		arch_vm_unmap(u->vm, u->kpage_va);
		page_free(u->kpage);
	}
	arch_vm_destroy(u->vm);
	kfree(u);
}

static bool overlaps(uintptr_t s1, uintptr_t e1, uintptr_t s2, uintptr_t e2)
{
	return s1 < e2 && s2 < e1;
}

int uvm_add_segment(struct uvm *u, uintptr_t start, uintptr_t end, unsigned prot)
{
	if ((start | end) & PAGE_MASK || start >= end ||
	    start < u->user_base || end > u->user_top || u->stack_top)
		return -EINVAL;
	for (unsigned i = 0; i < u->nseg; i++) {
		if (overlaps(start, end, u->seg[i].start, u->seg[i].end))
			return -EINVAL;
	}
	if (u->nseg == UVM_MAX_SEGS)
		return -ENOSPC;
	/* Recorded before mapping, so uvm_destroy frees a partial segment. */
	u->seg[u->nseg++] = (struct uvm_region){ start, end, prot };
	for (uintptr_t va = start; va < end; va += PAGE_SIZE) {
		int err = map_zero_page(u, va, prot);
		if (err)
			return err;
	}
	return 0;
}

int uvm_setup_stack(struct uvm *u)
{
	uintptr_t seg_end = u->user_base;

	for (unsigned i = 0; i < u->nseg; i++) {
		if (u->seg[i].end > seg_end)
			seg_end = u->seg[i].end;
	}
	u->stack_top = u->user_top;
	u->stack_limit = u->stack_top - (uintptr_t)USTACK_MAX_PAGES * PAGE_SIZE;
	u->stack_low = u->stack_top;
	u->heap_start = seg_end;
	u->brk = seg_end;
	u->heap_limit = seg_end + UHEAP_MAX_BYTES;
	/* An unmapped page always separates heap and stack. */
	if (u->heap_limit > u->stack_limit - PAGE_SIZE)
		u->heap_limit = u->stack_limit - PAGE_SIZE;
	if (u->heap_limit < u->heap_start)
		return -ENOMEM;
	for (unsigned i = 0; i < USTACK_EAGER_PAGES; i++) {
		int err = map_zero_page(u, u->stack_low - PAGE_SIZE, PROT_RW);
		if (err)
			return err;
		u->stack_low -= PAGE_SIZE;
	}
	return 0;
}

/* Could a segment, the heap or the stack ever cover [va, va + page)? */
static bool claimed(const struct uvm *u, uintptr_t va)
{
	uintptr_t end = va + PAGE_SIZE;

	for (unsigned i = 0; i < u->nseg; i++) {
		if (overlaps(va, end, u->seg[i].start, u->seg[i].end))
			return true;
	}
	return u->stack_top &&
	       (overlaps(va, end, u->heap_start, page_up(u->heap_limit)) ||
	        overlaps(va, end, u->stack_limit, u->stack_top));
}

void *uvm_map_kernel_page(struct uvm *u, uintptr_t va, int *err)
{
	if (u->kpage) {
		*err = u->kpage_va == va ? 0 : -EINVAL;
		return *err ? NULL : u->kpage;
	}
	if ((va & PAGE_MASK) || va < u->user_base || va >= u->user_top ||
	    claimed(u, va)) {
		*err = -EINVAL;
		return NULL;
	}
	void *page = page_alloc();
	if (!page) {
		*err = -ENOMEM;
		return NULL;
	}
	*err = arch_vm_map(u->vm, va, arch_virt_to_phys(page), VM_PROT_READ);
	if (*err) {
		page_free(page);
		return NULL;
	}
	u->kpage = page;
	u->kpage_va = va;
	return page;
}

static bool in_heap(const struct uvm *u, uintptr_t a)
{
	return a >= u->heap_start && a < heap_mapped_end(u);
}

static bool in_stack(const struct uvm *u, uintptr_t a)
{
	return a >= u->stack_limit && a < u->stack_top;
}

int uvm_fault(struct uvm *u, uintptr_t addr, bool write)
{
	(void)write;    /* heap and stack are read-write throughout */
	uintptr_t va = page_down(addr);
	unsigned prot;

	if (!u->stack_top || !(in_heap(u, addr) || in_stack(u, addr)))
		return -EFAULT;
	/* Mapped already: the access broke the page's protection. */
	if (arch_vm_lookup(u->vm, va, &prot))
		return -EFAULT;
	int err = map_zero_page(u, va, PROT_RW);
	if (err)
		return err;
	if (in_stack(u, addr) && va < u->stack_low)
		u->stack_low = va;
	return 0;
}

int uvm_brk(struct uvm *u, uintptr_t new_end, uintptr_t *result)
{
	if (new_end == 0) {
		*result = u->brk;
		return 0;
	}
	if (new_end < u->heap_start || new_end > u->heap_limit)
		return -ENOMEM;
	if (page_up(new_end) < heap_mapped_end(u))
		unmap_range(u, page_up(new_end), heap_mapped_end(u));
	u->brk = new_end;
	*result = new_end;
	return 0;
}

static int clone_range(struct uvm *dst, struct uvm *src, uintptr_t start,
		       uintptr_t end)
{
	for (uintptr_t va = start; va < end; va += PAGE_SIZE) {
		unsigned prot;
		uint64_t pa = arch_vm_lookup(src->vm, va, &prot);
		if (!pa)
			continue;
		void *page = page_alloc();
		if (!page)
			return -ENOMEM;
		memcpy(page, arch_phys_to_virt(pa & ~(uint64_t)PAGE_MASK), PAGE_SIZE);
		int err = arch_vm_map(dst->vm, va, arch_virt_to_phys(page), prot);
		if (err) {
			page_free(page);
			return err;
		}
		dst->pages++;
	}
	return 0;
}

struct uvm *uvm_clone(struct uvm *src)
{
	struct uvm *dst = uvm_create();

	if (!dst)
		return NULL;
	struct arch_vm *vm = dst->vm;
	*dst = *src;
	dst->vm = vm;
	dst->span_va = 0;
	dst->pages = 0;
	dst->kpage = NULL;
	dst->kpage_va = 0;
	int err = 0;
	for (unsigned i = 0; i < src->nseg && !err; i++)
		err = clone_range(dst, src, src->seg[i].start, src->seg[i].end);
	if (!err && src->stack_top) {
		err = clone_range(dst, src, src->heap_start, heap_mapped_end(src));
		if (!err)
			err = clone_range(dst, src, src->stack_low, src->stack_top);
	}
	if (err) {
		uvm_destroy(dst);
		return NULL;
	}
	return dst;
}

/* ---- copies --------------------------------------------------------------- */

static bool range_ok(const struct uvm *u, uintptr_t a, size_t n)
{
	return a >= u->user_base && a <= u->user_top &&
	       n <= u->user_top - a;
}

/*
 * Kernel address of user byte va, allowing an access that needs `need`
 * rights.  A page not yet touched in the heap or stack is mapped here:
 * the program may hand the kernel a buffer it never wrote.
 */
static void *user_byte(struct uvm *u, uintptr_t va, unsigned need)
{
	unsigned prot = 0;
	uint64_t pa = arch_vm_lookup(u->vm, page_down(va), &prot);

	if (!pa) {
		if (uvm_fault(u, va, need & VM_PROT_WRITE) < 0)
			return NULL;
		pa = arch_vm_lookup(u->vm, page_down(va), &prot);
		if (!pa)
			return NULL;
	}
	if ((prot & need) != need)
		return NULL;
	return (char *)arch_phys_to_virt(pa & ~(uint64_t)PAGE_MASK) + (va & PAGE_MASK);
}

/* to_user: copy kbuf into user memory, else out of it. */
static int copy_pages(struct uvm *u, uintptr_t ua, void *kbuf, size_t n,
		      bool to_user, unsigned need)
{
	char *k = kbuf;

	if (!u || !range_ok(u, ua, n))
		return -EFAULT;
	while (n > 0) {
		size_t chunk = PAGE_SIZE - (ua & PAGE_MASK);
		if (chunk > n)
			chunk = n;
		char *p = user_byte(u, ua, need);
		if (!p)
			return -EFAULT;
		if (to_user)
			memcpy(p, k, chunk);
		else
			memcpy(k, p, chunk);
		ua += chunk;
		k += chunk;
		n -= chunk;
	}
	return 0;
}

int copy_from_user(struct uvm *u, void *dst, uintptr_t src, size_t n)
{
	return copy_pages(u, src, dst, n, false, VM_PROT_READ);
}

int copy_to_user(struct uvm *u, uintptr_t dst, const void *src, size_t n)
{
	return copy_pages(u, dst, (void *)(uintptr_t)src, n, true,
			  VM_PROT_READ | VM_PROT_WRITE);
}

void *uvm_user_span(struct uvm *u, uintptr_t ua, size_t n, unsigned need)
{
	const unsigned rw = VM_PROT_READ | VM_PROT_WRITE;
	char *p;

	/* Only unmapping takes a page away or changes its rights (pages
	 * are mapped once, with their final protection), so a page found
	 * writable stays so until unmap_range forgets it; it was in the
	 * user range when found, and the range's ends are page aligned, so
	 * a span within it is too. */
	if ((need & ~rw) == 0 && (p = uvm_user_span_known(u, ua, n)) != NULL)
		return p;
	if (!u || n == 0 || !range_ok(u, ua, n) ||
	    (ua & PAGE_MASK) + n > PAGE_SIZE)
		return NULL;
	p = user_byte(u, ua, need);
	if (p && (need & rw) == rw) {
		u->span_va = page_down(ua);
		u->span_k = p - (ua & PAGE_MASK);
	}
	return p;
}

int uvm_write_init(struct uvm *u, uintptr_t dst, const void *src, size_t n)
{
	return copy_pages(u, dst, (void *)(uintptr_t)src, n, true, 0);
}

long strncpy_from_user(struct uvm *u, char *dst, uintptr_t src, size_t max)
{
	if (!u || max == 0)
		return -EFAULT;
	for (size_t i = 0; i < max; i++) {
		if (src + i < src || !range_ok(u, src + i, 1))
			return -EFAULT;
		const char *p = user_byte(u, src + i, VM_PROT_READ);
		if (!p)
			return -EFAULT;
		dst[i] = *p;
		if (*p == '\0')
			return (long)i;
	}
	dst[max - 1] = '\0';
	return -E2BIG;
}
