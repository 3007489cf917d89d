/* page.h - physical page allocator (4 KiB pages, free list per range). */
#ifndef TALLY_PAGE_H
#define TALLY_PAGE_H

#include <stddef.h>
#include <stdint.h>

#define PAGE_SIZE 4096u

struct boot_info;
void page_init(struct boot_info *bi);
/* Returns a kernel virtual address of a zeroed page, or NULL. */
void *page_alloc(void);
void page_free(void *va);
size_t page_free_count(void);
size_t page_total_count(void);

#endif
