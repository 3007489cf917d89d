/*
 * multiboot1.c - the v1 information structure (QEMU -kernel, GRUB legacy).
 *
 * Everything the structure points to (command line, memory map, module
 * list and strings, loader name) is cut out of the free list, since
 * boot_info keeps pointing at the command line and a later debugger may
 * want the rest.
 */
#include <string.h>

#include "arch.h"
#include "memmap.h"
#include "multiboot.h"

#define KIB 1024ull
#define MB1_UPPER_BASE 0x100000ull      /* mem_upper counts from 1 MiB */

static void remove_string(struct boot_info *bi, uint32_t pa)
{
	memmap_remove(bi, pa, strlen(arch_phys_to_virt(pa)) + 1);
}

static void add_mmap(const struct mb1_info *mi, struct boot_info *bi)
{
	const uint8_t *p = arch_phys_to_virt(mi->mmap_addr);
	const uint8_t *end = p + mi->mmap_length;

	while (p + sizeof(struct mb1_mmap_entry) <= end) {
		const struct mb1_mmap_entry *e = (const void *)p;
		if (e->type == MB_MEMORY_AVAILABLE) {
			bi->mem_total += e->len;
			memmap_add(bi, e->base, e->len);
		}
		p += e->size + sizeof(e->size);
	}
}

/* Without a map, v1 still promises one block from 1 MiB. */
static void add_upper(const struct mb1_info *mi, struct boot_info *bi)
{
	uint64_t len = mi->mem_upper * KIB;

	bi->mem_total = mi->mem_lower * KIB + len;
	memmap_add(bi, MB1_UPPER_BASE, len);
}

static void remove_modules(const struct mb1_info *mi, struct boot_info *bi)
{
	const struct mb1_module *m = arch_phys_to_virt(mi->mods_addr);

	memmap_remove(bi, mi->mods_addr, mi->mods_count * sizeof(*m));
	for (uint32_t i = 0; i < mi->mods_count; i++) {
		memmap_remove(bi, m[i].start, m[i].end - m[i].start);
		if (m[i].string)
			remove_string(bi, m[i].string);
	}
}

void multiboot1_parse(uint32_t info_pa, struct boot_info *bi)
{
	const struct mb1_info *mi = arch_phys_to_virt(info_pa);

	if (mi->flags & MB1_INFO_MMAP)
		add_mmap(mi, bi);
	else if (mi->flags & MB1_INFO_MEMORY)
		add_upper(mi, bi);

	memmap_remove(bi, info_pa, sizeof(*mi));
	if (mi->flags & MB1_INFO_MMAP)
		memmap_remove(bi, mi->mmap_addr, mi->mmap_length);
	if (mi->flags & MB1_INFO_MODS)
		remove_modules(mi, bi);
	if (mi->flags & MB1_INFO_LOADER)
		remove_string(bi, mi->boot_loader_name);
	if (mi->flags & MB1_INFO_CMDLINE) {
		remove_string(bi, mi->cmdline);
		bi->cmdline = multiboot_skip_image_name(arch_phys_to_virt(mi->cmdline));
	}
}
