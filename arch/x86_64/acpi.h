/*
 * acpi.h - the few ACPI tables SMP bring-up reads: the RSDP, the RSDT or
 * XSDT it points to, and the MADT's processor entries (ACPI 6.5, 5.2.5
 * RSDP, 5.2.7 RSDT, 5.2.8 XSDT, 5.2.12 MADT).
 *
 * The parsing touches memory only through a caller's map function, so the
 * host tests feed it hand-built tables (tests/unit/arch/x86_64/test_acpi.c)
 * and the kernel its direct map (smp.c).  Every refusal names its reason.
 */
#ifndef TALLY_X86_64_ACPI_H
#define TALLY_X86_64_ACPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ACPI_RSDP_V1_LEN     20u        /* ACPI 1.0 part; its checksum covers it */
#define ACPI_RSDP_V2_LEN     36u
#define ACPI_RSDP_MAX_LEN    64u        /* longest Length this code believes */
#define ACPI_RSDP_SIG        "RSD PTR "
#define ACPI_RSDP_REV_OFF    15u
#define ACPI_RSDP_RSDT_OFF   16u
#define ACPI_RSDP_LEN_OFF    20u
#define ACPI_RSDP_XSDT_OFF   24u
/* The RSDP sits on a 16-byte boundary in the EBDA's first KiB or in the
 * BIOS area 0E0000h..0FFFFFh (ACPI 6.5, 5.2.5.1). */
#define ACPI_RSDP_ALIGN      16u
#define ACPI_BDA_EBDA_SEG    0x40eu     /* BIOS data area: EBDA segment */
#define ACPI_EBDA_SCAN_LEN   1024u
#define ACPI_BIOS_AREA       0xe0000u
#define ACPI_BIOS_AREA_LEN   0x20000u

/* System description table header (5.2.6). */
#define ACPI_SDT_HDR_LEN     36u
#define ACPI_SDT_LEN_OFF     4u
#define ACPI_SDT_REV_OFF     8u
/* A table longer than this is taken for garbage, not mapped. */
#define ACPI_SDT_MAX_LEN     (1u << 20)

/* MADT (5.2.12): header, local APIC address, flags, then entries of
 * type (1 byte) and length (1 byte). */
#define ACPI_MADT_LAPIC_ADDR_OFF 36u
#define ACPI_MADT_FLAGS_OFF      40u
#define ACPI_MADT_ENTRIES_OFF    44u
#define ACPI_MADT_PCAT_COMPAT    (1u << 0)  /* dual 8259s present */
#define MADT_TYPE_LAPIC          0u
#define MADT_TYPE_LAPIC_OVERRIDE 5u
#define MADT_TYPE_X2APIC         9u
#define MADT_LAPIC_LEN           8u     /* type, len, uid, apic id, flags */
#define MADT_LAPIC_OVERRIDE_LEN  12u
#define MADT_X2APIC_LEN          16u    /* type, len, rsvd, id, flags, uid */
#define MADT_LAPIC_ENABLED       (1u << 0)
#define MADT_LAPIC_ONLINE_CAPABLE (1u << 1)  /* ACPI 6.3+: may be enabled later */

/* CPUs one MADT parse keeps; more are counted in `dropped`. */
#define ACPI_CPUS_MAX 64u

struct acpi_cpu {
	uint32_t apic_id;
	uint32_t uid;                   /* ACPI processor UID */
	bool x2apic;                    /* from a type 9 entry */
};

struct acpi_madt_info {
	uint64_t lapic_addr;            /* after any type 5 override */
	uint32_t flags;
	unsigned ncpus;                 /* enabled CPUs, in table order */
	struct acpi_cpu cpu[ACPI_CPUS_MAX];
	unsigned disabled;              /* neither enabled nor online-capable */
	unsigned online_capable;        /* not enabled now, may be hot-added */
	unsigned duplicates;            /* an APIC id listed twice: kept once */
	unsigned dropped;               /* enabled beyond ACPI_CPUS_MAX */
};

/*
 * Physical memory as the caller sees it: a pointer to len bytes at pa, or
 * NULL where it cannot be reached.
 */
typedef const uint8_t *(*acpi_map_fn)(uint64_t pa, size_t len, void *ctx);

/* Sum of n bytes modulo 256: a valid ACPI structure sums to 0. */
uint8_t acpi_checksum(const uint8_t *p, size_t n);

/*
 * Check an RSDP (signature, ACPI 1.0 checksum, and for revision >= 2 the
 * extended checksum over Length) of which avail bytes can be read, and
 * say where the root table is: the XSDT when revision >= 2 gives one,
 * else the RSDT.  0, or -EINVAL with *why set.
 */
int acpi_rsdp_parse(const uint8_t *p, size_t avail, uint64_t *root_pa,
		    bool *is_xsdt, const char **why);

/* First RSDP in area (len bytes, 16-byte steps) whose checksums hold; the
 * offset, or -1. */
long acpi_rsdp_scan(const uint8_t *area, size_t len);

/*
 * Walk the RSDT (is_xsdt false: 4-byte entries) or XSDT (8-byte entries)
 * at root_pa, checking its checksum and each candidate's, and return the
 * physical address and length of the first table with signature sig (4
 * chars) in *pa, *len.  0; -EINVAL (bad root or table: *why); -ENOENT
 * (not listed: *why).
 */
int acpi_find_table(acpi_map_fn map, void *ctx, uint64_t root_pa, bool is_xsdt,
		    const char *sig, uint64_t *pa, uint32_t *len, const char **why);

/*
 * Parse a whole MADT of len bytes (checksum verified here).  Enabled
 * local APIC and x2APIC entries become out->cpu[]; every entry's length
 * is checked against its type and the table's end.  0, or -EINVAL with
 * *why set (out is then partly filled and not to be used).
 */
int acpi_madt_parse(const uint8_t *madt, uint32_t len, struct acpi_madt_info *out,
		    const char **why);

#endif
