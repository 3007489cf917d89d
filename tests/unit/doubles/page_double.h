/*
 * page_double.h - page_alloc/page_free for host tests, on host memory.
 *
 * Pages come zeroed from aligned_alloc; the double counts those not yet
 * freed, so a test sees leaks, and can make the next allocations fail.
 */
#ifndef TALLY_PAGE_DOUBLE_H
#define TALLY_PAGE_DOUBLE_H

#include <stdbool.h>
#include <stddef.h>

extern long page_double_out;     /* allocated and not freed */
extern bool page_double_fail;    /* page_alloc returns NULL while set */
/* Bytes behind each "page": PAGE_SIZE, or more where a host structure
 * stands in a page and is wider than the target's (8-byte pointers). */
extern size_t page_double_bytes;

#endif
