/*
 * acpi.c - RSDP, RSDT/XSDT and MADT parsing (acpi.h).  Portable C: fields
 * are read with memcpy at their byte offsets (ACPI is little-endian, as is
 * every machine this runs on), never through packed structs over firmware
 * memory.
 */
#include <errno.h>
#include <string.h>

#include "acpi.h"

static uint32_t le32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t le64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

uint8_t acpi_checksum(const uint8_t *p, size_t n)
{
	uint8_t s = 0;

	while (n--)
		s = (uint8_t)(s + *p++);
	return s;
}

int acpi_rsdp_parse(const uint8_t *p, size_t avail, uint64_t *root_pa,
		    bool *is_xsdt, const char **why)
{
	uint32_t len;

	if (avail < ACPI_RSDP_V1_LEN) {
		*why = "rsdp truncated";
		return -EINVAL;
	}
	if (memcmp(p, ACPI_RSDP_SIG, 8) != 0) {
		*why = "rsdp bad signature";
		return -EINVAL;
	}
	if (acpi_checksum(p, ACPI_RSDP_V1_LEN) != 0) {
		*why = "rsdp bad checksum";
		return -EINVAL;
	}
	*is_xsdt = false;
	*root_pa = le32(p + ACPI_RSDP_RSDT_OFF);
	if (p[ACPI_RSDP_REV_OFF] >= 2) {
		if (avail < ACPI_RSDP_V2_LEN) {
			*why = "rsdp v2 truncated";
			return -EINVAL;
		}
		len = le32(p + ACPI_RSDP_LEN_OFF);
		if (len < ACPI_RSDP_V2_LEN || len > ACPI_RSDP_MAX_LEN || len > avail) {
			*why = "rsdp v2 bad length";
			return -EINVAL;
		}
		if (acpi_checksum(p, len) != 0) {
			*why = "rsdp bad extended checksum";
			return -EINVAL;
		}
		if (le64(p + ACPI_RSDP_XSDT_OFF) != 0) {
			*root_pa = le64(p + ACPI_RSDP_XSDT_OFF);
			*is_xsdt = true;
		}
	}
	if (*root_pa == 0) {
		*why = "rsdp names no root table";
		return -EINVAL;
	}
	return 0;
}

long acpi_rsdp_scan(const uint8_t *area, size_t len)
{
	uint64_t root;
	bool x;
	const char *why;

	for (size_t off = 0; off + ACPI_RSDP_V1_LEN <= len; off += ACPI_RSDP_ALIGN) {
		if (acpi_rsdp_parse(area + off, len - off, &root, &x, &why) == 0)
			return (long)off;
	}
	return -1;
}

/* The header first, then the whole table once its length is known. */
static const uint8_t *map_table(acpi_map_fn map, void *ctx, uint64_t pa,
				uint32_t *len, const char **why)
{
	const uint8_t *h = map(pa, ACPI_SDT_HDR_LEN, ctx);

	if (!h) {
		*why = "table not reachable";
		return NULL;
	}
	*len = le32(h + ACPI_SDT_LEN_OFF);
	if (*len < ACPI_SDT_HDR_LEN || *len > ACPI_SDT_MAX_LEN) {
		*why = "table bad length";
		return NULL;
	}
	h = map(pa, *len, ctx);
	if (!h) {
		*why = "table not reachable";
		return NULL;
	}
	if (acpi_checksum(h, *len) != 0) {
		*why = "table bad checksum";
		return NULL;
	}
	return h;
}

int acpi_find_table(acpi_map_fn map, void *ctx, uint64_t root_pa, bool is_xsdt,
		    const char *sig, uint64_t *pa, uint32_t *len, const char **why)
{
	uint32_t root_len, tlen;
	const uint8_t *root = map_table(map, ctx, root_pa, &root_len, why);
	const char *root_sig = is_xsdt ? "XSDT" : "RSDT";
	size_t step = is_xsdt ? 8 : 4;
	const char *twhy;

	if (!root) {
		*why = is_xsdt ? "xsdt unreadable or bad checksum" :
			"rsdt unreadable or bad checksum";
		return -EINVAL;
	}
	if (memcmp(root, root_sig, 4) != 0) {
		*why = is_xsdt ? "xsdt bad signature" : "rsdt bad signature";
		return -EINVAL;
	}
	for (size_t off = ACPI_SDT_HDR_LEN; off + step <= root_len; off += step) {
		uint64_t t = is_xsdt ? le64(root + off) : le32(root + off);
		const uint8_t *h;

		if (t == 0)
			continue;
		h = map(t, ACPI_SDT_HDR_LEN, ctx);
		if (!h || memcmp(h, sig, 4) != 0)
			continue;
		/* A listed table with our signature must be whole. */
		if (!map_table(map, ctx, t, &tlen, &twhy)) {
			*why = twhy;
			return -EINVAL;
		}
		*pa = t;
		*len = tlen;
		return 0;
	}
	*why = "table not listed";
	return -ENOENT;
}

static bool have_apic_id(const struct acpi_madt_info *out, uint32_t id)
{
	for (unsigned i = 0; i < out->ncpus; i++)
		if (out->cpu[i].apic_id == id)
			return true;
	return false;
}

static void add_cpu(struct acpi_madt_info *out, uint32_t apic_id, uint32_t uid,
		    uint32_t flags, bool x2apic)
{
	if (!(flags & MADT_LAPIC_ENABLED)) {
		if (flags & MADT_LAPIC_ONLINE_CAPABLE)
			out->online_capable++;
		else
			out->disabled++;
		return;
	}
	if (have_apic_id(out, apic_id)) {
		out->duplicates++;
		return;
	}
	if (out->ncpus >= ACPI_CPUS_MAX) {
		out->dropped++;
		return;
	}
	out->cpu[out->ncpus++] = (struct acpi_cpu){ .apic_id = apic_id, .uid = uid,
						    .x2apic = x2apic };
}

int acpi_madt_parse(const uint8_t *madt, uint32_t len, struct acpi_madt_info *out,
		    const char **why)
{
	memset(out, 0, sizeof(*out));
	if (len < ACPI_MADT_ENTRIES_OFF || le32(madt + ACPI_SDT_LEN_OFF) != len) {
		*why = "madt truncated header";
		return -EINVAL;
	}
	if (memcmp(madt, "APIC", 4) != 0) {
		*why = "madt bad signature";
		return -EINVAL;
	}
	if (acpi_checksum(madt, len) != 0) {
		*why = "madt bad checksum";
		return -EINVAL;
	}
	out->lapic_addr = le32(madt + ACPI_MADT_LAPIC_ADDR_OFF);
	out->flags = le32(madt + ACPI_MADT_FLAGS_OFF);
	for (uint32_t off = ACPI_MADT_ENTRIES_OFF; off < len;) {
		const uint8_t *e = madt + off;
		uint8_t type, elen;

		if (len - off < 2) {
			*why = "madt entry truncated";
			return -EINVAL;
		}
		type = e[0];
		elen = e[1];
		/* A zero length would loop; a length past the end reads beyond. */
		if (elen < 2 || elen > len - off) {
			*why = "madt entry truncated";
			return -EINVAL;
		}
		switch (type) {
		case MADT_TYPE_LAPIC:
			if (elen < MADT_LAPIC_LEN) {
				*why = "madt local apic entry too short";
				return -EINVAL;
			}
			add_cpu(out, e[3], e[2], le32(e + 4), false);
			break;
		case MADT_TYPE_X2APIC:
			if (elen < MADT_X2APIC_LEN) {
				*why = "madt x2apic entry too short";
				return -EINVAL;
			}
			add_cpu(out, le32(e + 4), le32(e + 12), le32(e + 8), true);
			break;
		case MADT_TYPE_LAPIC_OVERRIDE:
			if (elen < MADT_LAPIC_OVERRIDE_LEN) {
				*why = "madt apic address override too short";
				return -EINVAL;
			}
			out->lapic_addr = le64(e + 4);
			break;
		default:
			break;          /* I/O APICs, overrides, NMIs: not ours */
		}
		off += elen;
	}
	return 0;
}
