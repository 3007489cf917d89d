/*
 * multiboot.h - what multiboot loaders hand over (Multiboot 0.6.96 and
 * Multiboot2 1.0 specifications).  Only the parts Tally reads are named.
 */
#ifndef TALLY_X86_64_MULTIBOOT_H
#define TALLY_X86_64_MULTIBOOT_H

#include <stdint.h>

struct boot_info;

#define MB1_BOOT_MAGIC   0x2BADB002u     /* EAX from a v1 loader */
#define MB2_BOOT_MAGIC   0x36d76289u     /* EAX from a v2 loader */

/* --- multiboot v1 ---------------------------------------------------- */
#define MB1_INFO_MEMORY   (1u << 0)      /* mem_lower, mem_upper */
#define MB1_INFO_CMDLINE  (1u << 2)
#define MB1_INFO_MODS     (1u << 3)
#define MB1_INFO_MMAP     (1u << 6)
#define MB1_INFO_LOADER   (1u << 9)      /* boot_loader_name */

struct mb1_info {
	uint32_t flags;
	uint32_t mem_lower;             /* KiB below 1 MiB */
	uint32_t mem_upper;             /* KiB from 1 MiB to the first hole */
	uint32_t boot_device;
	uint32_t cmdline;
	uint32_t mods_count;
	uint32_t mods_addr;
	uint32_t syms[4];
	uint32_t mmap_length;
	uint32_t mmap_addr;
	uint32_t drives_length;
	uint32_t drives_addr;
	uint32_t config_table;
	uint32_t boot_loader_name;
	uint32_t apm_table;
	uint8_t vbe_and_framebuffer[44];  /* to the end of the structure */
} __attribute__((packed));

struct mb1_module {
	uint32_t start, end;            /* physical [start, end) */
	uint32_t string;
	uint32_t reserved;
} __attribute__((packed));

/* Entries are `size` bytes long, not counting size itself. */
struct mb1_mmap_entry {
	uint32_t size;
	uint64_t base;
	uint64_t len;
	uint32_t type;
} __attribute__((packed));

/* --- multiboot2 ------------------------------------------------------- */
#define MB2_TAG_END      0u
#define MB2_TAG_CMDLINE  1u
#define MB2_TAG_MODULE   3u
#define MB2_TAG_MMAP     6u
#define MB2_TAG_ACPI_OLD 14u             /* a copy of the ACPI 1.0 RSDP */
#define MB2_TAG_ACPI_NEW 15u             /* a copy of the ACPI 2.0+ RSDP */
#define MB2_TAG_ALIGN    8u

struct mb2_info {
	uint32_t total_size;            /* this header and all tags */
	uint32_t reserved;
};

struct mb2_tag {
	uint32_t type;
	uint32_t size;                  /* header included, padding not */
};

struct mb2_tag_string {
	struct mb2_tag tag;
	char string[];
};

struct mb2_tag_module {
	struct mb2_tag tag;
	uint32_t start, end;
	char string[];
};

struct mb2_tag_mmap {
	struct mb2_tag tag;
	uint32_t entry_size;
	uint32_t entry_version;
};

struct mb2_mmap_entry {
	uint64_t base;
	uint64_t len;
	uint32_t type;
	uint32_t reserved;
};

/* Memory map type of usable RAM, the same in both versions. */
#define MB_MEMORY_AVAILABLE 1u

/*
 * Fill bi from the loader's information at physical address info_pa.
 * Returns 0, or -EINVAL when magic names no loader Tally knows.
 */
int multiboot_parse(uint32_t magic, uint32_t info_pa, struct boot_info *bi);

/* multiboot1.c, multiboot2.c: add RAM, remove what the loader handed over. */
void multiboot1_parse(uint32_t info_pa, struct boot_info *bi);
void multiboot2_parse(uint32_t info_pa, struct boot_info *bi);
/* efi_handoff.c: Tally's UEFI application (magic EFI_HANDOFF_MAGIC);
 * panics on a block it cannot read.  _report prints what it saw. */
void efi_handoff_parse(uint32_t info_pa, struct boot_info *bi);
void efi_handoff_report(void);
/* "/boot/tally.elf a=1" -> "a=1": v1 loaders prepend the image's name. */
const char *multiboot_skip_image_name(const char *cmdline);

#endif
