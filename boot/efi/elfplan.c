/*
 * elfplan.c - the kernel ELF's load plan (ELF-64 object file format 1.5,
 * System V ABI AMD64 supplement for the machine number).
 *
 * Segments are placed at their physical addresses (p_paddr): the kernel
 * is linked at 0xffffffff80000000 but loaded from 1 MiB, exactly as a
 * multiboot loader places it, because the same 32-bit entry code runs.
 */
#include "elfplan.h"

#define EI_NIDENT    16
#define ELFCLASS64   2
#define ELFDATA2LSB  1
#define ET_EXEC      2
#define EM_X86_64    62
#define PT_LOAD      1
#define PAGE_SIZE    4096ull
#define LIMIT_32BIT  (1ull << 32)

struct elf64_ehdr {
	uint8_t ident[EI_NIDENT];
	uint16_t type, machine;
	uint32_t version;
	uint64_t entry, phoff, shoff;
	uint32_t flags;
	uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};

struct elf64_phdr {
	uint32_t type, flags;
	uint64_t offset, vaddr, paddr, filesz, memsz, align;
};

/* The image need not be aligned (it is a blob in the .efi's data). */
static void copy_bytes(void *dst, const void *src, size_t n)
{
	uint8_t *d = dst;
	const uint8_t *s = src;

	while (n--)
		*d++ = *s++;
}

static int fail(const char **why, const char *what)
{
	*why = what;
	return -1;
}

static int check_header(const struct elf64_ehdr *h, size_t size, const char **why)
{
	if (h->ident[0] != 0x7f || h->ident[1] != 'E' || h->ident[2] != 'L' ||
	    h->ident[3] != 'F')
		return fail(why, "not an ELF file");
	if (h->ident[4] != ELFCLASS64 || h->ident[5] != ELFDATA2LSB)
		return fail(why, "not a 64-bit little-endian ELF");
	if (h->type != ET_EXEC || h->machine != EM_X86_64)
		return fail(why, "not an x86-64 executable");
	if (h->phentsize != sizeof(struct elf64_phdr) || h->phnum == 0)
		return fail(why, "no program headers");
	if (h->phoff > size ||
	    (uint64_t)h->phnum * sizeof(struct elf64_phdr) > size - h->phoff)
		return fail(why, "program headers outside the file");
	return 0;
}

static int add_segment(const struct elf64_phdr *p, size_t size,
		       struct elfplan *plan, const char **why)
{
	struct elfplan_seg *s;

	if (p->filesz > p->memsz)
		return fail(why, "segment larger in the file than in memory");
	if (p->offset > size || p->filesz > size - p->offset)
		return fail(why, "segment outside the file");
	if (p->paddr >= LIMIT_32BIT || p->memsz > LIMIT_32BIT - p->paddr)
		return fail(why, "segment at or above 4 GiB");
	if (plan->nseg == ELFPLAN_SEGS_MAX)
		return fail(why, "too many segments");
	s = &plan->seg[plan->nseg++];
	s->paddr = p->paddr;
	s->offset = p->offset;
	s->filesz = p->filesz;
	s->memsz = p->memsz;
	return 0;
}

int elfplan_make(const void *image, size_t size, struct elfplan *plan,
		 const char **why)
{
	struct elf64_ehdr h;
	uint64_t lo = UINT64_MAX, hi = 0, entry = 0;
	int entry_inside = 0;

	plan->nseg = 0;
	if (size < sizeof(h))
		return fail(why, "shorter than an ELF header");
	copy_bytes(&h, image, sizeof(h));
	if (check_header(&h, size, why))
		return -1;
	for (unsigned i = 0; i < h.phnum; i++) {
		struct elf64_phdr p;

		copy_bytes(&p, (const uint8_t *)image + h.phoff + i * sizeof(p), sizeof(p));
		if (p.type != PT_LOAD || p.memsz == 0)
			continue;
		if (add_segment(&p, size, plan, why))
			return -1;
		if (p.paddr < lo)
			lo = p.paddr;
		if (p.paddr + p.memsz > hi)
			hi = p.paddr + p.memsz;
		/* e_entry is a link (virtual) address; the CPU arrives with
		 * paging off, so it is moved to its segment's physical one. */
		if (h.entry >= p.vaddr && h.entry - p.vaddr < p.filesz) {
			entry = p.paddr + (h.entry - p.vaddr);
			entry_inside = 1;
		}
	}
	if (plan->nseg == 0)
		return fail(why, "no loadable segment");
	if (!entry_inside)
		return fail(why, "entry point outside the loaded code");
	plan->lo = lo & ~(PAGE_SIZE - 1);
	plan->hi = (hi + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	plan->entry = entry;
	return 0;
}
