/*
 * heap.c - kmalloc: power-of-two size classes carved from pages.
 *
 * Each block starts with a header naming its class, so kfree needs no
 * size.  Requests above the largest class fail: the kernel's big objects
 * (page tables, stacks) take whole pages from page.c instead.
 */
#include <stdint.h>
#include <string.h>

#include "arch.h"
#include "mm/heap.h"
#include "mm/page.h"
#include "spinlock.h"

#define MIN_SHIFT 4                     /* 16-byte blocks */
#define MAX_SHIFT 11                    /* 2048-byte blocks */
#define NCLASSES  (MAX_SHIFT - MIN_SHIFT + 1)
#define HDR_MAGIC 0x7a11u

struct block_hdr {
	uint16_t magic;
	uint16_t cls;
	uint32_t pad;   /* keeps the payload 8-byte aligned */
};

struct free_block {
	struct free_block *next;
};

static struct free_block *classes[NCLASSES];
static size_t bytes_in_use;
/* Pages carved into blocks.  The heap keeps them (a free block stays on
 * its class's list), so the first time a class needs more blocks than
 * ever before, free pages drop for good and this rises by as much. */
static size_t pages_held;

static int class_for(size_t n)
{
	size_t need = n + sizeof(struct block_hdr);
	for (int c = 0; c < NCLASSES; c++) {
		if (need <= ((size_t)1 << (c + MIN_SHIFT)))
			return c;
	}
	return -1;
}

static int refill(int c)
{
	char *page = page_alloc();
	size_t bsize = (size_t)1 << (c + MIN_SHIFT);

	if (!page)
		return -1;
	pages_held++;
	for (size_t off = 0; off + bsize <= PAGE_SIZE; off += bsize) {
		struct free_block *b = (struct free_block *)(page + off);
		b->next = classes[c];
		classes[c] = b;
	}
	return 0;
}

/* The size classes; a refill takes the page lock inside it. */
static struct spinlock heap_lock = SPINLOCK_INIT("heap");

void *kmalloc(size_t n)
{
	int c = class_for(n);
	if (c < 0)
		return NULL;

	irqflags_t f = spin_lock_irqsave(&heap_lock);
	if (!classes[c] && refill(c) < 0) {
		spin_unlock_irqrestore(&heap_lock, f);
		return NULL;
	}
	struct free_block *b = classes[c];
	classes[c] = b->next;
	bytes_in_use += (size_t)1 << (c + MIN_SHIFT);
	spin_unlock_irqrestore(&heap_lock, f);

	struct block_hdr *h = (struct block_hdr *)b;
	h->magic = HDR_MAGIC;
	h->cls = (uint16_t)c;
	return h + 1;
}

void *kzalloc(size_t n)
{
	void *p = kmalloc(n);
	if (p)
		memset(p, 0, n);
	return p;
}

void kfree(void *p)
{
	if (!p)
		return;
	struct block_hdr *h = (struct block_hdr *)p - 1;
	if (h->magic != HDR_MAGIC || h->cls >= NCLASSES)
		panic("kfree: %p was not allocated by kmalloc", p);
	int c = h->cls;
	h->magic = 0;   /* catches a double free */

	irqflags_t f = spin_lock_irqsave(&heap_lock);
	struct free_block *b = (struct free_block *)h;
	b->next = classes[c];
	classes[c] = b;
	bytes_in_use -= (size_t)1 << (c + MIN_SHIFT);
	spin_unlock_irqrestore(&heap_lock, f);
}

size_t heap_in_use(void)
{
	return bytes_in_use;
}

size_t heap_pages(void)
{
	return pages_held;
}
