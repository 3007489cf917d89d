/*
 * elf.c - load the embedded user programs (static ELF executables).
 *
 * Only what the ELF specification fixes is used: the file header, the
 * program headers, and PT_LOAD segments.  The image was built with the
 * kernel for this machine, but it is still checked like any input: a
 * broken image is -ENOEXEC, never a kernel fault.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "arch_task.h"
#include "mm/elf.h"
#include "machdep.h"
#include "mm/page.h"
#include "mm/uvm.h"

#define EI_NIDENT 16
#define EI_CLASS 4
#define EI_DATA 5
#define ELFCLASS32 1
#define ELFCLASS64 2
#define ELFDATA2LSB 1
#define ELFDATA2MSB 2
#define ET_EXEC 2
#define PT_LOAD 1
#define PF_X 0x1u
#define PF_W 0x2u
#define PF_R 0x4u
#define ELF_MAX_PHDRS 16

static const unsigned char elf_magic[] = { 0x7f, 'E', 'L', 'F' };

#if UINTPTR_MAX > 0xffffffffu
#define ELF_CLASS ELFCLASS64
typedef uint64_t elf_word_t;
struct elf_phdr {
	uint32_t type, flags;
	uint64_t offset, vaddr, paddr, filesz, memsz, align;
};
#else
#define ELF_CLASS ELFCLASS32
typedef uint32_t elf_word_t;
struct elf_phdr {
	uint32_t type, offset, vaddr, paddr, filesz, memsz, flags, align;
};
#endif

struct elf_ehdr {
	unsigned char ident[EI_NIDENT];
	uint16_t type, machine;
	uint32_t version;
	elf_word_t entry, phoff, shoff;
	uint32_t flags;
	uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};

#define ELF_MACHINE MACHDEP_ELF_MACHINE       /* the arch's (machdep.h) */

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define ELF_DATA ELFDATA2MSB
#else
#define ELF_DATA ELFDATA2LSB
#endif

static bool header_ok(const struct elf_ehdr *h, size_t size)
{
	return memcmp(h->ident, elf_magic, sizeof(elf_magic)) == 0 &&
	       h->ident[EI_CLASS] == ELF_CLASS && h->ident[EI_DATA] == ELF_DATA &&
	       h->type == ET_EXEC && h->machine == ELF_MACHINE &&
	       h->phentsize == sizeof(struct elf_phdr) &&
	       h->phnum > 0 && h->phnum <= ELF_MAX_PHDRS &&
	       h->phoff <= size &&
	       (size_t)h->phnum * sizeof(struct elf_phdr) <= size - h->phoff;
}

static unsigned prot_of(uint32_t flags)
{
	unsigned prot = 0;

	if (flags & PF_R)
		prot |= VM_PROT_READ;
	if (flags & PF_W)
		prot |= VM_PROT_WRITE;
	if (flags & PF_X)
		prot |= VM_PROT_EXEC;
	return prot;
}

static int load_segment(struct uvm *u, const unsigned char *img, size_t size,
			const struct elf_phdr *ph)
{
	const uintptr_t mask = (uintptr_t)PAGE_SIZE - 1;
	uintptr_t va = (uintptr_t)ph->vaddr;

	if (ph->memsz == 0)
		return 0;       /* an empty section still gets a header */
	if (ph->filesz > ph->memsz || ph->offset > size ||
	    ph->filesz > size - ph->offset ||
	    va + (uintptr_t)ph->memsz < va)
		return -ENOEXEC;
	uintptr_t start = va & ~mask;
	uintptr_t end = (va + (uintptr_t)ph->memsz + mask) & ~mask;
	if (end < start)
		return -ENOEXEC;
	int err = uvm_add_segment(u, start, end, prot_of(ph->flags));
	if (err)
		return err == -ENOMEM ? err : -ENOEXEC;
	return uvm_write_init(u, va, img + ph->offset, (size_t)ph->filesz) ?
	       -ENOEXEC : 0;
}

static bool entry_in_text(const struct uvm *u, uintptr_t entry)
{
	for (unsigned i = 0; i < u->nseg; i++) {
		if (entry >= u->seg[i].start && entry < u->seg[i].end &&
		    (u->seg[i].prot & VM_PROT_EXEC))
			return true;
	}
	return false;
}

int elf_load(struct uvm *u, const void *image, size_t size, uintptr_t *entry)
{
	const unsigned char *img = image;
	struct elf_ehdr h;

	if (size < sizeof(h))
		return -ENOEXEC;
	memcpy(&h, img, sizeof(h));
	if (!header_ok(&h, size))
		return -ENOEXEC;
	for (unsigned i = 0; i < h.phnum; i++) {
		struct elf_phdr ph;
		memcpy(&ph, img + h.phoff + i * sizeof(ph), sizeof(ph));
		if (ph.type != PT_LOAD)
			continue;
		int err = load_segment(u, img, size, &ph);
		if (err)
			return err;
	}
	if (!entry_in_text(u, (uintptr_t)h.entry))
		return -ENOEXEC;
	*entry = (uintptr_t)h.entry;
	return 0;
}
