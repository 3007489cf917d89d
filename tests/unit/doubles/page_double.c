/*
 * page_double.c - host-memory pages for unit tests (page_double.h).
 */
#include <stdlib.h>
#include <string.h>

#include "mm/page.h"
#include "page_double.h"

long page_double_out;
bool page_double_fail;
size_t page_double_bytes = PAGE_SIZE;

void *page_alloc(void)
{
	if (page_double_fail)
		return NULL;
	void *p = aligned_alloc(PAGE_SIZE, page_double_bytes);
	memset(p, 0, page_double_bytes);
	page_double_out++;
	return p;
}

void page_free(void *va)
{
	if (va) {
		page_double_out--;
		free(va);
	}
}
