/* heap.h - small kernel heap on top of the page allocator. */
#ifndef TALLY_HEAP_H
#define TALLY_HEAP_H

#include <stddef.h>

void *kmalloc(size_t n);
void *kzalloc(size_t n);
void kfree(void *p);
size_t heap_in_use(void);
/* Pages the heap has taken from page.c; it never gives them back. */
size_t heap_pages(void);

#endif
