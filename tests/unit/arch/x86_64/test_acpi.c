/*
 * Host tests of arch/x86_64/acpi.c with hand-built tables: "physical"
 * memory is an arena, and the map function refuses what lies outside it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "arch/x86_64/acpi.h"

#define ARENA_SIZE 0x4000
#define RSDP_PA    0x0100u
#define RSDT_PA    0x0200u
#define XSDT_PA    0x0300u
#define FACP_PA    0x0800u
#define MADT_PA    0x1000u

static _Alignas(16) uint8_t arena[ARENA_SIZE];

static const uint8_t *map(uint64_t pa, size_t len, void *ctx)
{
	(void)ctx;
	if (pa > ARENA_SIZE || len > ARENA_SIZE - pa)
		return NULL;
	return arena + pa;
}

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/* Make the byte at off the one that brings p[0..n) to a zero sum. */
static void fix_sum(uint8_t *p, size_t n, size_t off)
{
	p[off] = 0;
	p[off] = (uint8_t)(0x100 - acpi_checksum(p, n));
}

static void sdt_header(uint32_t pa, const char *sig, uint32_t len)
{
	uint8_t *h = arena + pa;

	memset(h, 0, ACPI_SDT_HDR_LEN);
	memcpy(h, sig, 4);
	put32(h + ACPI_SDT_LEN_OFF, len);
	h[ACPI_SDT_REV_OFF] = 1;
	memcpy(h + 10, "TALLY ", 6);
}

static void seal(uint32_t pa)
{
	uint32_t len;

	memcpy(&len, arena + pa + ACPI_SDT_LEN_OFF, 4);
	fix_sum(arena + pa, len, 9);
}

static void rsdp(unsigned rev, uint32_t rsdt, uint64_t xsdt)
{
	uint8_t *p = arena + RSDP_PA;

	memset(p, 0, ACPI_RSDP_V2_LEN);
	memcpy(p, ACPI_RSDP_SIG, 8);
	p[ACPI_RSDP_REV_OFF] = (uint8_t)rev;
	put32(p + ACPI_RSDP_RSDT_OFF, rsdt);
	fix_sum(p, ACPI_RSDP_V1_LEN, 8);
	if (rev >= 2) {
		put32(p + ACPI_RSDP_LEN_OFF, ACPI_RSDP_V2_LEN);
		put64(p + ACPI_RSDP_XSDT_OFF, xsdt);
		fix_sum(p, ACPI_RSDP_V2_LEN, 32);
	}
}

/* MADT entries appended at *off. */
static void lapic(uint32_t *off, uint8_t uid, uint8_t id, uint32_t flags)
{
	uint8_t *e = arena + MADT_PA + *off;

	e[0] = MADT_TYPE_LAPIC;
	e[1] = MADT_LAPIC_LEN;
	e[2] = uid;
	e[3] = id;
	put32(e + 4, flags);
	*off += MADT_LAPIC_LEN;
}

static void x2apic(uint32_t *off, uint32_t uid, uint32_t id, uint32_t flags)
{
	uint8_t *e = arena + MADT_PA + *off;

	memset(e, 0, MADT_X2APIC_LEN);
	e[0] = MADT_TYPE_X2APIC;
	e[1] = MADT_X2APIC_LEN;
	put32(e + 4, id);
	put32(e + 8, flags);
	put32(e + 12, uid);
	*off += MADT_X2APIC_LEN;
}

static void ioapic(uint32_t *off)
{
	uint8_t *e = arena + MADT_PA + *off;

	memset(e, 0, 12);
	e[0] = 1;
	e[1] = 12;
	*off += 12;
}

static void madt_close(uint32_t len)
{
	sdt_header(MADT_PA, "APIC", len);
	put32(arena + MADT_PA + ACPI_MADT_LAPIC_ADDR_OFF, 0xfee00000u);
	put32(arena + MADT_PA + ACPI_MADT_FLAGS_OFF, ACPI_MADT_PCAT_COMPAT);
	seal(MADT_PA);
}

/* A machine like QEMU's q35 with four CPUs, one of them listed twice,
 * plus one disabled and one online-capable slot. */
static uint32_t build_machine(void)
{
	uint32_t off = ACPI_MADT_ENTRIES_OFF;

	memset(arena, 0, sizeof(arena));
	lapic(&off, 0, 0, MADT_LAPIC_ENABLED);
	lapic(&off, 1, 1, MADT_LAPIC_ENABLED);
	ioapic(&off);
	lapic(&off, 2, 2, 0);
	lapic(&off, 3, 3, MADT_LAPIC_ONLINE_CAPABLE);
	lapic(&off, 4, 1, MADT_LAPIC_ENABLED);
	x2apic(&off, 5, 300, MADT_LAPIC_ENABLED);
	madt_close(off);

	sdt_header(FACP_PA, "FACP", ACPI_SDT_HDR_LEN);
	seal(FACP_PA);
	sdt_header(RSDT_PA, "RSDT", ACPI_SDT_HDR_LEN + 8);
	put32(arena + RSDT_PA + ACPI_SDT_HDR_LEN, FACP_PA);
	put32(arena + RSDT_PA + ACPI_SDT_HDR_LEN + 4, MADT_PA);
	seal(RSDT_PA);
	sdt_header(XSDT_PA, "XSDT", ACPI_SDT_HDR_LEN + 16);
	put64(arena + XSDT_PA + ACPI_SDT_HDR_LEN, FACP_PA);
	put64(arena + XSDT_PA + ACPI_SDT_HDR_LEN + 8, MADT_PA);
	seal(XSDT_PA);
	return off;
}

static void test_rsdp_v1_and_v2(void **state)
{
	uint64_t root;
	bool x;
	const char *why = NULL;

	(void)state;
	build_machine();
	rsdp(0, RSDT_PA, 0);
	assert_int_equal(acpi_rsdp_parse(arena + RSDP_PA, 64, &root, &x, &why), 0);
	assert_int_equal(root, RSDT_PA);
	assert_false(x);
	rsdp(2, RSDT_PA, XSDT_PA);
	assert_int_equal(acpi_rsdp_parse(arena + RSDP_PA, 64, &root, &x, &why), 0);
	assert_int_equal(root, XSDT_PA);
	assert_true(x);
	/* Revision 2 without an XSDT falls back on the RSDT. */
	rsdp(2, RSDT_PA, 0);
	assert_int_equal(acpi_rsdp_parse(arena + RSDP_PA, 64, &root, &x, &why), 0);
	assert_int_equal(root, RSDT_PA);
	assert_false(x);
}

static void test_rsdp_refusals(void **state)
{
	uint64_t root = 0;
	bool x;
	const char *why = NULL;

	(void)state;
	build_machine();
	rsdp(2, RSDT_PA, XSDT_PA);
	assert_int_equal(acpi_rsdp_parse(arena + RSDP_PA, 19, &root, &x, &why), -EINVAL);
	assert_string_equal(why, "rsdp truncated");
	assert_int_equal(acpi_rsdp_parse(arena + RSDP_PA, 30, &root, &x, &why), -EINVAL);
	assert_string_equal(why, "rsdp v2 truncated");
	arena[RSDP_PA + 33]++;          /* reserved byte: extended sum only */
	assert_int_equal(acpi_rsdp_parse(arena + RSDP_PA, 64, &root, &x, &why), -EINVAL);
	assert_string_equal(why, "rsdp bad extended checksum");
	arena[RSDP_PA + 9]++;           /* OEM id: both sums */
	assert_int_equal(acpi_rsdp_parse(arena + RSDP_PA, 64, &root, &x, &why), -EINVAL);
	assert_string_equal(why, "rsdp bad checksum");
	arena[RSDP_PA]= 'X';
	assert_int_equal(acpi_rsdp_parse(arena + RSDP_PA, 64, &root, &x, &why), -EINVAL);
	assert_string_equal(why, "rsdp bad signature");
}

static void test_rsdp_scan(void **state)
{
	(void)state;
	build_machine();
	rsdp(0, RSDT_PA, 0);
	assert_int_equal(acpi_rsdp_scan(arena, 0x800), RSDP_PA);
	/* A signature with a bad sum earlier in the area is passed over. */
	memcpy(arena + 0x40, ACPI_RSDP_SIG, 8);
	assert_int_equal(acpi_rsdp_scan(arena, 0x800), RSDP_PA);
	/* Off a 16-byte boundary it is not an RSDP. */
	memmove(arena + RSDP_PA + 4, arena + RSDP_PA, ACPI_RSDP_V1_LEN);
	memset(arena + RSDP_PA, 0, 4);
	assert_int_equal(acpi_rsdp_scan(arena, 0x800), -1);
}

static void test_find_madt_via_rsdt_and_xsdt(void **state)
{
	uint64_t pa = 0;
	uint32_t len = 0;
	const char *why = NULL;

	(void)state;
	uint32_t madt_len = build_machine();
	assert_int_equal(acpi_find_table(map, NULL, RSDT_PA, false, "APIC", &pa, &len, &why), 0);
	assert_int_equal(pa, MADT_PA);
	assert_int_equal(len, madt_len);
	pa = 0;
	assert_int_equal(acpi_find_table(map, NULL, XSDT_PA, true, "APIC", &pa, &len, &why), 0);
	assert_int_equal(pa, MADT_PA);
	assert_int_equal(acpi_find_table(map, NULL, XSDT_PA, true, "HPET", &pa, &len, &why),
			 -ENOENT);
	assert_string_equal(why, "table not listed");
	/* The XSDT read as an RSDT has the wrong signature. */
	assert_int_equal(acpi_find_table(map, NULL, XSDT_PA, false, "APIC", &pa, &len, &why),
			 -EINVAL);
	assert_string_equal(why, "rsdt bad signature");
}

static void test_find_refuses_bad_checksums(void **state)
{
	uint64_t pa;
	uint32_t len;
	const char *why = NULL;

	(void)state;
	build_machine();
	arena[RSDT_PA + 20]++;
	assert_int_equal(acpi_find_table(map, NULL, RSDT_PA, false, "APIC", &pa, &len, &why),
			 -EINVAL);
	assert_string_equal(why, "rsdt unreadable or bad checksum");
	build_machine();
	arena[MADT_PA + ACPI_MADT_ENTRIES_OFF + 3] = 7;   /* an APIC id, unsealed */
	assert_int_equal(acpi_find_table(map, NULL, XSDT_PA, true, "APIC", &pa, &len, &why),
			 -EINVAL);
	assert_string_equal(why, "table bad checksum");
	/* A root entry pointing outside memory is skipped, not followed. */
	build_machine();
	put64(arena + XSDT_PA + ACPI_SDT_HDR_LEN, 0x7fff0000ull);
	seal(XSDT_PA);
	assert_int_equal(acpi_find_table(map, NULL, XSDT_PA, true, "APIC", &pa, &len, &why), 0);
	/* A table whose length runs past memory is refused by name. */
	put32(arena + MADT_PA + ACPI_SDT_LEN_OFF, ARENA_SIZE);
	assert_int_equal(acpi_find_table(map, NULL, XSDT_PA, true, "APIC", &pa, &len, &why),
			 -EINVAL);
	assert_string_equal(why, "table not reachable");
}

static void test_madt_cpus(void **state)
{
	struct acpi_madt_info m;
	const char *why = NULL;

	(void)state;
	uint32_t len = build_machine();
	assert_int_equal(acpi_madt_parse(arena + MADT_PA, len, &m, &why), 0);
	assert_int_equal(m.lapic_addr, 0xfee00000u);
	assert_int_equal(m.flags, ACPI_MADT_PCAT_COMPAT);
	assert_int_equal(m.ncpus, 3);
	assert_int_equal(m.cpu[0].apic_id, 0);
	assert_int_equal(m.cpu[1].apic_id, 1);
	assert_int_equal(m.cpu[1].uid, 1);
	assert_false(m.cpu[1].x2apic);
	assert_int_equal(m.cpu[2].apic_id, 300);
	assert_int_equal(m.cpu[2].uid, 5);
	assert_true(m.cpu[2].x2apic);
	assert_int_equal(m.disabled, 1);
	assert_int_equal(m.online_capable, 1);
	assert_int_equal(m.duplicates, 1);
	assert_int_equal(m.dropped, 0);
}

static void test_madt_override_and_overflow(void **state)
{
	struct acpi_madt_info m;
	const char *why = NULL;
	uint32_t off = ACPI_MADT_ENTRIES_OFF;
	uint8_t *e;

	(void)state;
	memset(arena, 0, sizeof(arena));
	for (unsigned i = 0; i < ACPI_CPUS_MAX + 2; i++)
		x2apic(&off, i, i, MADT_LAPIC_ENABLED);
	e = arena + MADT_PA + off;
	e[0] = MADT_TYPE_LAPIC_OVERRIDE;
	e[1] = MADT_LAPIC_OVERRIDE_LEN;
	put64(e + 4, 0x1fee00000ull);
	off += MADT_LAPIC_OVERRIDE_LEN;
	madt_close(off);
	assert_int_equal(acpi_madt_parse(arena + MADT_PA, off, &m, &why), 0);
	assert_int_equal(m.ncpus, ACPI_CPUS_MAX);
	assert_int_equal(m.dropped, 2);
	assert_int_equal(m.lapic_addr, 0x1fee00000ull);
}

static void test_madt_truncated_entries(void **state)
{
	struct acpi_madt_info m;
	const char *why = NULL;
	uint32_t off;

	(void)state;
	/* The last entry claims more bytes than the table has. */
	memset(arena, 0, sizeof(arena));
	off = ACPI_MADT_ENTRIES_OFF;
	lapic(&off, 0, 0, MADT_LAPIC_ENABLED);
	lapic(&off, 1, 1, MADT_LAPIC_ENABLED);
	madt_close(off - 2);
	assert_int_equal(acpi_madt_parse(arena + MADT_PA, off - 2, &m, &why), -EINVAL);
	assert_string_equal(why, "madt entry truncated");
	/* A zero-length entry would never advance. */
	memset(arena, 0, sizeof(arena));
	off = ACPI_MADT_ENTRIES_OFF;
	lapic(&off, 0, 0, MADT_LAPIC_ENABLED);
	arena[MADT_PA + off + 1] = 0;
	off += 4;
	madt_close(off);
	assert_int_equal(acpi_madt_parse(arena + MADT_PA, off, &m, &why), -EINVAL);
	assert_string_equal(why, "madt entry truncated");
	/* One odd byte after the last entry. */
	memset(arena, 0, sizeof(arena));
	off = ACPI_MADT_ENTRIES_OFF;
	lapic(&off, 0, 0, MADT_LAPIC_ENABLED);
	off += 1;
	madt_close(off);
	assert_int_equal(acpi_madt_parse(arena + MADT_PA, off, &m, &why), -EINVAL);
	assert_string_equal(why, "madt entry truncated");
	/* A local APIC entry shorter than its type's layout. */
	memset(arena, 0, sizeof(arena));
	off = ACPI_MADT_ENTRIES_OFF;
	lapic(&off, 0, 0, MADT_LAPIC_ENABLED);
	arena[MADT_PA + off - MADT_LAPIC_LEN + 1] = 6;
	off -= 2;
	madt_close(off);
	assert_int_equal(acpi_madt_parse(arena + MADT_PA, off, &m, &why), -EINVAL);
	assert_string_equal(why, "madt local apic entry too short");
	/* An x2APIC entry likewise. */
	memset(arena, 0, sizeof(arena));
	off = ACPI_MADT_ENTRIES_OFF;
	x2apic(&off, 0, 0, MADT_LAPIC_ENABLED);
	arena[MADT_PA + off - MADT_X2APIC_LEN + 1] = 8;
	off -= 8;
	madt_close(off);
	assert_int_equal(acpi_madt_parse(arena + MADT_PA, off, &m, &why), -EINVAL);
	assert_string_equal(why, "madt x2apic entry too short");
}

static void test_madt_header_refusals(void **state)
{
	struct acpi_madt_info m;
	const char *why = NULL;
	uint32_t len = build_machine();

	(void)state;
	/* The caller's length must be the table's own. */
	assert_int_equal(acpi_madt_parse(arena + MADT_PA, len - 1, &m, &why), -EINVAL);
	assert_string_equal(why, "madt truncated header");
	assert_int_equal(acpi_madt_parse(arena + MADT_PA, 40, &m, &why), -EINVAL);
	assert_string_equal(why, "madt truncated header");
	arena[MADT_PA + ACPI_MADT_ENTRIES_OFF + 3] ^= 1;
	assert_int_equal(acpi_madt_parse(arena + MADT_PA, len, &m, &why), -EINVAL);
	assert_string_equal(why, "madt bad checksum");
	memcpy(arena + MADT_PA, "APIX", 4);
	assert_int_equal(acpi_madt_parse(arena + MADT_PA, len, &m, &why), -EINVAL);
	assert_string_equal(why, "madt bad signature");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rsdp_v1_and_v2),
		cmocka_unit_test(test_rsdp_refusals),
		cmocka_unit_test(test_rsdp_scan),
		cmocka_unit_test(test_find_madt_via_rsdt_and_xsdt),
		cmocka_unit_test(test_find_refuses_bad_checksums),
		cmocka_unit_test(test_madt_cpus),
		cmocka_unit_test(test_madt_override_and_overflow),
		cmocka_unit_test(test_madt_truncated_entries),
		cmocka_unit_test(test_madt_header_refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
