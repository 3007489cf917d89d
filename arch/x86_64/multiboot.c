/*
 * multiboot.c - turn a multiboot loader's information into boot_info.
 *
 * The loader passes 32-bit physical pointers; all of them lie below 4 GiB,
 * which the boot page tables map at DIRECT_MAP_BASE, so they are followed
 * through the direct map (never the identity map, which is about to go).
 */
#include <ctype.h>
#include <errno.h>

#include "arch.h"
#include "efi_handoff.h"
#include "layout.h"
#include "memmap.h"
#include "multiboot.h"
#include "smp.h"

const char *multiboot_skip_image_name(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	while (*s && !isspace((unsigned char)*s))
		s++;
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* What every loader leaves in use, whatever its map says. */
static void remove_fixed(struct boot_info *bi)
{
	uint64_t k_start = (uint64_t)(uintptr_t)__kernel_phys_start;
	uint64_t k_end = (uint64_t)(uintptr_t)__kernel_phys_end;

	/* Asked before low memory leaves the list: whether the firmware
	 * calls the AP trampoline's page RAM it may overwrite. */
	smp_note_tramp_ram(memmap_covers(bi, SMP_TRAMP_PA, SMP_TRAMP_SIZE));
	memmap_remove(bi, 0, LOW_MEMORY_END);
	memmap_remove(bi, k_start, k_end - k_start);
}

int multiboot_parse(uint32_t magic, uint32_t info_pa, struct boot_info *bi)
{
	bi->cmdline = "";
	bi->mem_total = 0;
	bi->nmem = 0;
	if (magic == MB1_BOOT_MAGIC) {
		bi->loader = "multiboot1";
		multiboot1_parse(info_pa, bi);
	} else if (magic == MB2_BOOT_MAGIC) {
		bi->loader = "multiboot2";
		multiboot2_parse(info_pa, bi);
	} else if (magic == EFI_HANDOFF_MAGIC) {
		bi->loader = "uefi";
		efi_handoff_parse(info_pa, bi);
	} else {
		bi->loader = "unknown";
		return -EINVAL;
	}
	remove_fixed(bi);
	return 0;
}
