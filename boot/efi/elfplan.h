/*
 * elfplan.h - check the kernel ELF the UEFI application carries and work
 * out where its segments go, before any firmware memory is asked for.
 * Portable (host unit test): the copying is done by main.c.
 */
#ifndef TALLY_EFI_ELFPLAN_H
#define TALLY_EFI_ELFPLAN_H

#include <stddef.h>
#include <stdint.h>

#define ELFPLAN_SEGS_MAX 8

struct elfplan_seg {
	uint64_t paddr;         /* load (physical) address */
	uint64_t offset;        /* in the file */
	uint64_t filesz;        /* bytes copied from the file */
	uint64_t memsz;         /* filesz, then zeros up to this */
};

struct elfplan {
	uint64_t lo, hi;        /* physical span of all segments, page aligned */
	uint64_t entry;         /* physical: the 32-bit multiboot entry */
	unsigned nseg;
	struct elfplan_seg seg[ELFPLAN_SEGS_MAX];
};

/*
 * Fill plan from the ELF image of size bytes.  Returns 0, or -1 with *why
 * saying what is wrong: not a 64-bit little-endian x86-64 executable,
 * a header or segment outside the file, more than ELFPLAN_SEGS_MAX
 * segments, or anything (segments, entry) at or above 4 GiB, which the
 * kernel's 32-bit entry cannot reach.
 */
int elfplan_make(const void *image, size_t size, struct elfplan *plan,
		 const char **why);

#endif
