/*
 * multiboot2.c - the v2 tag list (GRUB 2, on BIOS and UEFI).
 *
 * The whole list is one block (total_size), so cutting that block out of
 * the free list keeps the command line tag boot_info points at; modules
 * live elsewhere and are cut out one by one.
 */
#include "arch.h"
#include "memmap.h"
#include "multiboot.h"
#include "smp.h"

static void add_mmap(const struct mb2_tag_mmap *t, struct boot_info *bi)
{
	const uint8_t *p = (const uint8_t *)(t + 1);
	const uint8_t *end = (const uint8_t *)t + t->tag.size;

	if (t->entry_size < sizeof(struct mb2_mmap_entry))
		return;         /* a format this code does not know */
	for (; p + t->entry_size <= end; p += t->entry_size) {
		const struct mb2_mmap_entry *e = (const void *)p;
		if (e->type == MB_MEMORY_AVAILABLE) {
			bi->mem_total += e->len;
			memmap_add(bi, e->base, e->len);
		}
	}
}

/* A malformed list (a zero-sized tag) ends the walk instead of looping. */
static int tag_ok(const struct mb2_tag *t, const uint8_t *end)
{
	return (const uint8_t *)t + sizeof(*t) <= end && t->type != MB2_TAG_END &&
	       t->size >= sizeof(*t);
}

static const struct mb2_tag *next_tag(const struct mb2_tag *t)
{
	uintptr_t next = (uintptr_t)t + t->size;

	next = (next + MB2_TAG_ALIGN - 1) & ~(uintptr_t)(MB2_TAG_ALIGN - 1);
	return (const struct mb2_tag *)next;
}

/*
 * Memory is added before anything is removed (a module tag may come
 * before the map), hence two passes.
 */
void multiboot2_parse(uint32_t info_pa, struct boot_info *bi)
{
	const struct mb2_info *mi = arch_phys_to_virt(info_pa);
	const struct mb2_tag *first = (const struct mb2_tag *)(mi + 1);
	const uint8_t *end = (const uint8_t *)mi + mi->total_size;
	const struct mb2_tag *t;

	for (t = first; tag_ok(t, end); t = next_tag(t)) {
		if (t->type == MB2_TAG_MMAP)
			add_mmap((const struct mb2_tag_mmap *)t, bi);
	}
	memmap_remove(bi, info_pa, mi->total_size);
	for (t = first; tag_ok(t, end); t = next_tag(t)) {
		if (t->type == MB2_TAG_CMDLINE) {
			bi->cmdline = ((const struct mb2_tag_string *)t)->string;
		} else if (t->type == MB2_TAG_MODULE) {
			const struct mb2_tag_module *m = (const void *)t;
			memmap_remove(bi, m->start, m->end - m->start);
		} else if (t->type == MB2_TAG_ACPI_OLD || t->type == MB2_TAG_ACPI_NEW) {
			smp_note_rsdp_copy(t + 1, t->size - sizeof(*t),
					   t->type == MB2_TAG_ACPI_NEW ? "multiboot2 acpi new" :
					   "multiboot2 acpi old");
		}
	}
}
