/*
 * uvm.h - a user task's memory: its regions, demand paging, and the only
 * sanctioned way for the kernel to touch user memory.
 *
 * Regions: the program's loaded segments (mapped when loaded), the heap
 * [heap_start, brk) and the stack below stack_top, both filled a page at a
 * time when first touched.  Any other address is a fault.
 *
 * The kernel never dereferences a user pointer.  copy_from_user and
 * friends check the range, then walk the task's page table with
 * arch_vm_lookup and copy through the kernel's mapping of the physical
 * page (arch_phys_to_virt).  A bad pointer is therefore -EFAULT, never a
 * kernel fault, and the check does not depend on which address space the
 * CPU happens to have loaded.
 */
#ifndef TALLY_UVM_H
#define TALLY_UVM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mm/page.h"

#define UVM_MAX_SEGS 6
/* Stack pages mapped up front: programs that stay within them never
 * fault on their stack, which keeps fault counts exact for benchmarks. */
#define USTACK_EAGER_PAGES 2
#define USTACK_MAX_PAGES 128                    /* 512 KiB, then SIGSEGV */
#define UHEAP_MAX_BYTES (64u * 1024u * 1024u)

struct arch_vm;

struct uvm_region {
	uintptr_t start, end;   /* page aligned, end exclusive */
	unsigned prot;          /* VM_PROT_* */
};

struct uvm {
	struct arch_vm *vm;
	uintptr_t user_base, user_top;
	unsigned nseg;
	struct uvm_region seg[UVM_MAX_SEGS];
	uintptr_t heap_start;
	uintptr_t brk;          /* heap end as the program asked, unaligned */
	uintptr_t heap_limit;
	uintptr_t stack_top;
	uintptr_t stack_limit;  /* lowest address the stack may grow to */
	uintptr_t stack_low;    /* lowest stack page mapped so far */
	size_t pages;           /* resident user pages */
	/* One page the kernel writes and the task only reads (hwperf's
	 * read page), or NULL; never copied by fork. */
	void *kpage;
	uintptr_t kpage_va;
	/* uvm_user_span's last writable page (0: none) and its kernel
	 * address: a task reading its counters into one buffer over and over
	 * walks the page table once.  Forgotten when any page is unmapped. */
	uintptr_t span_va;
	char *span_k;
};

/* An empty address space; NULL when out of memory. */
struct uvm *uvm_create(void);
/* Unmap and free every user page, then the page tables. */
void uvm_destroy(struct uvm *u);

/* Map zeroed pages for [start, end) with prot.  -EINVAL if not inside
 * the user range or overlapping a segment, -ENOSPC past UVM_MAX_SEGS. */
int uvm_add_segment(struct uvm *u, uintptr_t start, uintptr_t end, unsigned prot);
/* After the segments: place the heap after them and the stack at the
 * top, mapping the stack's first pages. */
int uvm_setup_stack(struct uvm *u);

/* A fault at addr: map a fresh page if addr is in the heap or stack and
 * not yet mapped (0); -EFAULT if the access is not allowed there. */
int uvm_fault(struct uvm *u, uintptr_t addr, bool write);
/* SYS_brk: 0 asks; otherwise move the heap end (freeing pages when it
 * shrinks).  -ENOMEM outside [heap_start, heap_limit]. */
int uvm_brk(struct uvm *u, uintptr_t new_end, uintptr_t *result);
/* fork: a copy of every mapped page.  NULL when out of memory. */
struct uvm *uvm_clone(struct uvm *src);

/*
 * Map a zeroed page the kernel keeps writing, read-only for the task, at
 * va (page aligned, in the user range, clear of the segments, the heap's
 * and the stack's reach).  Returns its kernel address, or NULL with *err
 * set (-EINVAL for a bad va or a second page at another va, -ENOMEM).
 * Asking again for the same va returns the same page.  uvm_destroy frees
 * it; uvm_clone leaves it out.
 */
void *uvm_map_kernel_page(struct uvm *u, uintptr_t va, int *err);

/* 0 or -EFAULT; nothing is copied past the first bad byte's page. */
int copy_from_user(struct uvm *u, void *dst, uintptr_t src, size_t n);
int copy_to_user(struct uvm *u, uintptr_t dst, const void *src, size_t n);
/*
 * The kernel's address of the n user bytes at ua, when they lie in one
 * page that allows `need` (VM_PROT_*; a heap or stack page not yet
 * touched is mapped here, as a copy would), else NULL: the caller then
 * copies with copy_to_user/copy_from_user, which say EFAULT where it is
 * due.  For a caller that fills a user buffer in place (no copy through
 * a kernel buffer); the page stays the task's while the task itself does
 * not change its own address space.  The last page found writable is
 * remembered until a page is unmapped, so asking again costs no walk.
 */
void *uvm_user_span(struct uvm *u, uintptr_t ua, size_t n, unsigned need);
/*
 * uvm_user_span's answer for a readable and writable span in the page it
 * remembers, or NULL (then ask uvm_user_span).  Inline, and it maps,
 * allocates and walks nothing, so it needs no lock but that the task
 * asking is u's only user, which only it changes (a system call of its
 * own reading into its own buffer).
 */
static inline void *uvm_user_span_known(const struct uvm *u, uintptr_t ua, size_t n)
{
	uintptr_t off = ua & (PAGE_SIZE - 1);

	if (!u || n == 0 || n > PAGE_SIZE - off || !u->span_va ||
	    ua - off != u->span_va)
		return NULL;
	return u->span_k + off;
}
/* Loader only: write into pages whatever their protection (text). */
int uvm_write_init(struct uvm *u, uintptr_t dst, const void *src, size_t n);
/* A NUL-terminated string of at most max-1 characters: its length,
 * -EFAULT, or -E2BIG when it does not end within max bytes. */
long strncpy_from_user(struct uvm *u, char *dst, uintptr_t src, size_t max);

#endif
