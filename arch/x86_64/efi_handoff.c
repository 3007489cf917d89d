/*
 * efi_handoff.c - boot_info from Tally's own UEFI application
 * (boot/efi/, protocol in efi_handoff.h).
 *
 * The EFI memory map was taken at ExitBootServices, so what the
 * firmware's boot services and the application itself held (loader and
 * boot-services code and data) is free now, like conventional memory;
 * only the kernel image (multiboot.c cuts it out for every loader) and
 * the hand-off block, which holds the command line, stay in use.
 */
#include <stdio.h>
#include <string.h>

#include "arch.h"
#include "efi_handoff.h"
#include "layout.h"
#include "memmap.h"
#include "multiboot.h"
#include "smp.h"

#define RSDP_SIGNATURE      "RSD PTR "
#define RSDP_V1_LEN         20u         /* ACPI 1.0 part: checksum covers it */
#define RSDP_REVISION_OFF   15u
#define RSDP_LENGTH_OFF     20u         /* ACPI 2.0+: length of the whole */
#define RSDP_MAX_LEN        64u

/* What arch_init reports once the console is up. */
static struct {
	int present;
	uint32_t exit_attempts, uefi_revision, firmware_revision;
	char vendor[sizeof(((struct efi_handoff *)0)->firmware_vendor)];
	unsigned ndesc;
	uint64_t by_kind[3];            /* conventional, boot services, loader */
	uint64_t rsdp;
	unsigned rsdp_guid, rsdp_revision;
	const char *rsdp_state;
} seen;

static uint8_t byte_sum(const uint8_t *p, unsigned n)
{
	uint8_t s = 0;

	while (n--)
		s = (uint8_t)(s + *p++);
	return s;
}

/* The signature and checksums say whether the firmware's pointer is one. */
static const char *check_rsdp(uint64_t pa, unsigned *revision)
{
	const uint8_t *p;
	uint32_t len;

	if (pa == 0)
		return "none";
	if (pa + RSDP_MAX_LEN > BOOT_MAP_END)
		return "above 4 GiB, not checked";
	p = arch_phys_to_virt(pa);
	if (memcmp(p, RSDP_SIGNATURE, 8) != 0)
		return "bad signature";
	if (byte_sum(p, RSDP_V1_LEN) != 0)
		return "bad checksum";
	*revision = p[RSDP_REVISION_OFF];
	if (*revision >= 2) {
		memcpy(&len, p + RSDP_LENGTH_OFF, sizeof(len));
		if (len < RSDP_V1_LEN || len > RSDP_MAX_LEN || byte_sum(p, len) != 0)
			return "bad extended checksum";
	}
	return "ok";
}

static void add_map(const struct efi_handoff *h, struct boot_info *bi)
{
	const uint8_t *p = arch_phys_to_virt(h->mmap);

	for (uint32_t off = 0; off + sizeof(struct efi_mmap_desc) <= h->mmap_size;
	     off += h->mmap_desc_size) {
		struct efi_mmap_desc d;
		uint64_t len;
		int kind;

		memcpy(&d, p + off, sizeof(d));
		seen.ndesc++;
		switch (d.type) {
		case EFI_MT_CONVENTIONAL:
			kind = 0;
			break;
		case EFI_MT_BOOT_SERVICES_CODE:
		case EFI_MT_BOOT_SERVICES_DATA:
			kind = 1;
			break;
		case EFI_MT_LOADER_CODE:
		case EFI_MT_LOADER_DATA:
			kind = 2;
			break;
		default:
			continue;
		}
		len = d.pages * EFI_HANDOFF_PAGE_SIZE;
		seen.by_kind[kind] += len;
		bi->mem_total += len;
		memmap_add(bi, d.phys_start, len);
	}
}

void efi_handoff_parse(uint32_t info_pa, struct boot_info *bi)
{
	const struct efi_handoff *h = arch_phys_to_virt(info_pa);

	/* A stride shorter than the descriptor would walk inside entries. */
	if (h->magic != EFI_HANDOFF_MAGIC || h->version != EFI_HANDOFF_VERSION ||
	    h->mmap_desc_size < sizeof(struct efi_mmap_desc))
		panic("uefi: hand-off block at %#x is not one this kernel reads "
		      "(magic %#x version %u descriptor size %u; want %#x, %u, >= %u)",
		      info_pa, h->magic, h->version, h->mmap_desc_size,
		      EFI_HANDOFF_MAGIC, EFI_HANDOFF_VERSION,
		      (unsigned)sizeof(struct efi_mmap_desc));
	memset(&seen, 0, sizeof(seen));
	seen.present = 1;
	seen.exit_attempts = h->exit_attempts;
	seen.uefi_revision = h->uefi_revision;
	seen.firmware_revision = h->firmware_revision;
	memcpy(seen.vendor, h->firmware_vendor, sizeof(seen.vendor));
	seen.vendor[sizeof(seen.vendor) - 1] = '\0';
	seen.rsdp = h->acpi_rsdp;
	seen.rsdp_guid = h->acpi_rsdp_guid_version;
	seen.rsdp_state = check_rsdp(h->acpi_rsdp, &seen.rsdp_revision);
	smp_note_rsdp_pa(h->acpi_rsdp, "uefi");

	add_map(h, bi);
	memmap_remove(bi, info_pa, h->total_size);
	bi->cmdline = arch_phys_to_virt(h->cmdline);
}

void efi_handoff_report(void)
{
	if (!seen.present)
		return;
	printf("uefi: firmware %s rev %#x, UEFI %u.%u\n", seen.vendor,
	       seen.firmware_revision, seen.uefi_revision >> 16,
	       seen.uefi_revision & 0xffff);
	printf("uefi: memory map %u descriptors, usable %llu KiB: conventional %llu KiB, "
	       "boot services %llu KiB, loader %llu KiB\n", seen.ndesc,
	       (unsigned long long)((seen.by_kind[0] + seen.by_kind[1] + seen.by_kind[2]) >> 10),
	       (unsigned long long)(seen.by_kind[0] >> 10),
	       (unsigned long long)(seen.by_kind[1] >> 10),
	       (unsigned long long)(seen.by_kind[2] >> 10));
	if (seen.rsdp)
		printf("uefi: acpi rsdp %#llx (ACPI %s table, revision %u): %s\n",
		       (unsigned long long)seen.rsdp, seen.rsdp_guid >= 2 ? "2.0" : "1.0",
		       seen.rsdp_revision, seen.rsdp_state);
	else
		printf("uefi: acpi rsdp none (the firmware lists no ACPI table)\n");
	printf("uefi: boot services exited after %u attempt%s\n", seen.exit_attempts,
	       seen.exit_attempts == 1 ? "" : "s");
}
