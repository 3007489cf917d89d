/*
 * memmap.h - building boot_info's list of free RAM: add what the firmware
 * calls available, then cut out what is in use.  Ranges stay sorted,
 * disjoint and whole 4 KiB pages.
 */
#ifndef TALLY_X86_64_MEMMAP_H
#define TALLY_X86_64_MEMMAP_H

#include <stdbool.h>
#include <stdint.h>

struct boot_info;

void memmap_add(struct boot_info *bi, uint64_t base, uint64_t len);
void memmap_remove(struct boot_info *bi, uint64_t base, uint64_t len);
/* One page below limit, removed from bi; 0 if there is none. */
uint64_t memmap_take_page(struct boot_info *bi, uint64_t limit);
/* True when [base, base + len) lies wholly inside one free range. */
bool memmap_covers(const struct boot_info *bi, uint64_t base, uint64_t len);
/* Ranges lost because the table was full (reported by arch_init). */
unsigned memmap_dropped(void);

#endif
