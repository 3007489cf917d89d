/*
 * efi_handoff.h - what Tally's UEFI application (boot/efi/) hands the
 * kernel, and how.
 *
 * The application loads the kernel ELF where a multiboot loader would,
 * exits boot services, leaves long mode and jumps to the kernel's one
 * 32-bit entry (_start) in multiboot state: protected mode, paging off,
 * flat segments, interrupts off, EAX = EFI_HANDOFF_MAGIC and EBX = the
 * physical address of struct efi_handoff.  Everything it points at lies
 * below 4 GiB, inside the block (total_size bytes from the header), except
 * the ACPI RSDP, which stays in firmware memory.
 *
 * Why not a 64-bit entry: one entry for every loader means the code that
 * checks the CPU, clears .bss and builds the kernel's page tables is the
 * code every boot path runs (and the multiboot tests already exercise),
 * and nothing depends on the firmware's page tables after the jump.
 *
 * Shared by the application and arch/x86_64/efi_handoff.c; fixed-width
 * fields only, so both compilers lay it out the same.
 */
#ifndef TALLY_X86_64_EFI_HANDOFF_H
#define TALLY_X86_64_EFI_HANDOFF_H

#include <stdint.h>

#define EFI_HANDOFF_MAGIC   0x7a11ef10u  /* in EAX and in the block */
#define EFI_HANDOFF_VERSION 1u

struct efi_handoff {
	uint32_t magic;                 /* EFI_HANDOFF_MAGIC */
	uint32_t version;               /* EFI_HANDOFF_VERSION */
	uint32_t total_size;            /* the whole block, map and text included */
	uint32_t exit_attempts;         /* ExitBootServices calls (> 1: stale map key) */
	uint64_t cmdline;               /* NUL-terminated ASCII */
	uint64_t acpi_rsdp;             /* 0 when the firmware has no ACPI table */
	uint32_t acpi_rsdp_guid_version; /* 2: ACPI 2.0+ GUID, 1: ACPI 1.0 GUID */
	uint32_t uefi_revision;         /* system table: major << 16 | minor */
	uint32_t firmware_revision;
	uint32_t mmap_desc_version;
	uint64_t mmap;                  /* the EFI memory map at ExitBootServices */
	uint32_t mmap_size;             /* bytes */
	uint32_t mmap_desc_size;        /* stride: may exceed the descriptor */
	char firmware_vendor[48];       /* ASCII, NUL-terminated */
};

/* The part of an EFI_MEMORY_DESCRIPTOR the kernel reads (UEFI 2.10, 7.2). */
struct efi_mmap_desc {
	uint32_t type;
	uint32_t pad;
	uint64_t phys_start;
	uint64_t virt_start;
	uint64_t pages;                 /* 4 KiB pages */
	uint64_t attribute;
};

#define EFI_HANDOFF_PAGE_SIZE 4096ull  /* the unit of a descriptor's pages */

/* Memory types free for the OS once boot services have exited. */
#define EFI_MT_LOADER_CODE          1u
#define EFI_MT_LOADER_DATA          2u
#define EFI_MT_BOOT_SERVICES_CODE   3u
#define EFI_MT_BOOT_SERVICES_DATA   4u
#define EFI_MT_CONVENTIONAL         7u

#endif
