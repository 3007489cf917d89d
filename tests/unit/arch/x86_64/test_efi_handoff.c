/*
 * Host tests of arch/x86_64/efi_handoff.c (with the real memmap.c): what
 * the kernel makes of tally.efi's hand-off block.  "Physical" memory is an
 * arena here: arch_phys_to_virt(pa) is arena + pa.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* POSIX, hidden by -std=c11 in glibc's stdio.h (host_libc.h includes it
 * before any feature macro here could count): the report is read back
 * through a file. */
int fileno(FILE *stream);

#include "arch.h"
#include "arch/x86_64/efi_handoff.h"
#include "arch/x86_64/memmap.h"
#include "arch/x86_64/multiboot.h"
#include "arch/x86_64/smp.h"

#define ARENA_SIZE 0x4000
#define BLOCK_PA   0x1000u
#define RSDP_PA    0x3000u
#define DESC_SIZE  48u          /* OVMF's stride: longer than the descriptor */
#define KiB        1024ull
#define MiB        (1024 * KiB)

static _Alignas(16) uint8_t arena[ARENA_SIZE];
static jmp_buf panicked;
static char panic_msg[256];

void *arch_phys_to_virt(uint64_t pa)
{
	assert_true(pa < ARENA_SIZE);
	return arena + pa;
}

/* What the hand-off told SMP discovery (arch/x86_64/smp.c). */
static uint64_t noted_rsdp;
static const char *noted_source;

void smp_note_rsdp_pa(uint64_t pa, const char *source)
{
	noted_rsdp = pa;
	noted_source = source;
}

void panic(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(panic_msg, sizeof(panic_msg), fmt, ap);
	va_end(ap);
	longjmp(panicked, 1);
}

struct d { uint32_t type; uint64_t start, pages; };

/* The block as tally.efi lays it out: header, command line, map. */
static struct efi_handoff *block(const struct d *map, unsigned n, const char *cmdline)
{
	struct efi_handoff *h = (void *)(arena + BLOCK_PA);
	uint64_t cmd_pa = BLOCK_PA + 0x80, map_pa = BLOCK_PA + 0x100;

	memset(arena, 0, sizeof(arena));
	h->magic = EFI_HANDOFF_MAGIC;
	h->version = EFI_HANDOFF_VERSION;
	h->total_size = 0x100 + n * DESC_SIZE;
	h->exit_attempts = 1;
	h->cmdline = cmd_pa;
	strcpy((char *)arena + cmd_pa, cmdline);
	h->mmap = map_pa;
	h->mmap_size = n * DESC_SIZE;
	h->mmap_desc_size = DESC_SIZE;
	h->mmap_desc_version = 1;
	h->uefi_revision = (2u << 16) | 70;
	h->firmware_revision = 0x10000;
	strcpy(h->firmware_vendor, "Test Firmware");
	for (unsigned i = 0; i < n; i++) {
		struct efi_mmap_desc e = { .type = map[i].type, .phys_start = map[i].start,
					   .pages = map[i].pages };
		/* The bytes past the descriptor must be skipped, not read. */
		memset(arena + map_pa + i * DESC_SIZE, 0xa5, DESC_SIZE);
		memcpy(arena + map_pa + i * DESC_SIZE, &e, sizeof(e));
	}
	return h;
}

/* The block and map live in the first 16 KiB, which the map below calls
 * loader data: the parse must cut the block out of it. */
static const struct d ovmf_like[] = {
	{ EFI_MT_BOOT_SERVICES_CODE, 0x0, 4 },          /* 16 KiB from 0 */
	{ EFI_MT_LOADER_DATA, 0x4000, 0x9c },           /* to 0xa0000 */
	{ 0 /* reserved */, 0xa0000, 0x60 },
	{ EFI_MT_CONVENTIONAL, 0x100000, 0x700 },       /* 1 MiB .. 8 MiB */
	{ 9 /* ACPI reclaim */, 0x800000, 0x10 },
	{ EFI_MT_BOOT_SERVICES_DATA, 0x810000, 0x7f0 }, /* to 16 MiB */
	{ 5 /* runtime services code */, 0x1000000, 0x100 },
	{ EFI_MT_LOADER_CODE, 0x1100000, 0x100 },
	{ 10 /* ACPI NVS */, 0x1200000, 0x100 },
	{ 11 /* MMIO */, 0xfec00000, 0x1 },
	{ EFI_MT_CONVENTIONAL, 0x100000000ull, 0x40000 }, /* 1 GiB above 4 GiB */
};
#define NMAP (sizeof(ovmf_like) / sizeof(ovmf_like[0]))

static struct boot_info bi;

static void parse(uint32_t pa)
{
	memset(&bi, 0, sizeof(bi));
	bi.cmdline = "";
	efi_handoff_parse(pa, &bi);
}

static void test_usable_types_only(void **state)
{
	uint64_t usable = (4 + 0x9c + 0x700 + 0x7f0 + 0x100 + 0x40000) * 4 * KiB;

	(void)state;
	block(ovmf_like, NMAP, "hz=250 onpanic=exit");
	if (setjmp(panicked))
		fail_msg("panicked: %s", panic_msg);
	parse(BLOCK_PA);
	assert_int_equal(bi.mem_total, usable);
	assert_string_equal(bi.cmdline, "hz=250 onpanic=exit");
}

/* Adjacent usable ranges merge; the block is cut out; reserved, ACPI,
 * runtime and MMIO ranges never appear. */
static void test_free_ranges(void **state)
{
	struct efi_handoff *h;

	(void)state;
	h = block(ovmf_like, NMAP, "");
	if (setjmp(panicked))
		fail_msg("panicked: %s", panic_msg);
	parse(BLOCK_PA);
	assert_int_equal(bi.nmem, 6);
	assert_int_equal(bi.mem[0].base, 0);
	assert_int_equal(bi.mem[0].size, BLOCK_PA);
	/* The block ends inside its last page; that page is not free. */
	assert_int_equal(bi.mem[1].base, (BLOCK_PA + h->total_size + 0xfff) & ~0xfffull);
	assert_int_equal(bi.mem[1].base + bi.mem[1].size, 0xa0000);
	assert_int_equal(bi.mem[2].base, 0x100000);
	assert_int_equal(bi.mem[2].size, 7 * MiB);
	assert_int_equal(bi.mem[3].base, 0x810000);
	assert_int_equal(bi.mem[3].base + bi.mem[3].size, 0x1000000);
	/* Loader code (tally.efi itself) is free once the kernel runs. */
	assert_int_equal(bi.mem[4].base, 0x1100000);
	assert_int_equal(bi.mem[4].size, 1 * MiB);
	assert_int_equal(bi.mem[5].base, 0x100000000ull);
	assert_int_equal(bi.mem[5].size, 1024 * MiB);

	/* memmap_covers (the AP trampoline's page check): inside one range,
	 * up to its very end, but not across a hole or past the end. */
	assert_true(memmap_covers(&bi, bi.mem[1].base, 0x1000));
	assert_false(memmap_covers(&bi, bi.mem[1].base - 0x1000, 0x1000));
	assert_true(memmap_covers(&bi, 0x9f000, 0x1000));
	assert_false(memmap_covers(&bi, 0x9f000, 0x2000));
	assert_false(memmap_covers(&bi, 0xa0000, 0x1000));
	assert_true(memmap_covers(&bi, 0x100000, 7 * MiB));
	assert_false(memmap_covers(&bi, 0x100000, 7 * MiB + 1));
	assert_false(memmap_covers(&bi, 0x7fffffffffffffffull, 0x1000));
}

static void test_memory_above_4gib(void **state)
{
	const struct d map[] = {
		{ EFI_MT_CONVENTIONAL, 0x100000, 0x100 },
		{ EFI_MT_CONVENTIONAL, 0x100000000ull, 0x100 },
	};

	(void)state;
	block(map, 2, "");
	if (setjmp(panicked))
		fail_msg("panicked: %s", panic_msg);
	parse(BLOCK_PA);
	assert_int_equal(bi.nmem, 2);
	assert_int_equal(bi.mem[1].base, 0x100000000ull);
	assert_int_equal(bi.mem_total, 2 * MiB);
}

static void expect_panic(const char *what)
{
	if (setjmp(panicked)) {
		assert_non_null(strstr(panic_msg, what));
		return;
	}
	parse(BLOCK_PA);
	fail_msg("no panic for %s", what);
}

static void test_bad_blocks_panic(void **state)
{
	(void)state;
	block(ovmf_like, NMAP, "")->magic = 0x12345678;
	expect_panic("magic 0x12345678");
	block(ovmf_like, NMAP, "")->version = 2;
	expect_panic("version 2");
	block(ovmf_like, NMAP, "")->mmap_desc_size = 16;
	expect_panic("descriptor size 16");
}

/* Run efi_handoff_report with stdout going to a file; return its text. */
static const char *report(void)
{
	static char out[2048];
	FILE *f = tmpfile();
	int saved;
	size_t n;

	assert_non_null(f);
	fflush(stdout);
	saved = dup(1);
	dup2(fileno(f), 1);
	efi_handoff_report();
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	rewind(f);
	n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = '\0';
	fclose(f);
	return out;
}

/* ACPI 2.0 RSDP: "RSD PTR ", checksum over 20 bytes, length 36 and an
 * extended checksum over all of it. */
static void put_rsdp(int revision, int break_sum)
{
	uint8_t *p = arena + RSDP_PA;
	uint32_t len = 36;
	uint8_t sum = 0;

	memset(p, 0, 36);
	memcpy(p, "RSD PTR ", 8);
	memcpy(p + 9, "TALLY ", 6);
	p[15] = (uint8_t)revision;
	memcpy(p + 20, &len, 4);
	for (int i = 0; i < 20; i++)
		sum = (uint8_t)(sum + p[i]);
	p[8] = (uint8_t)-sum;
	sum = 0;
	for (int i = 0; i < 36; i++)
		sum = (uint8_t)(sum + p[i]);
	p[32] = (uint8_t)-sum;
	if (break_sum)
		p[16] ^= 1;             /* the RSDT address: covered by both sums */
}

static void test_report_rsdp_and_memory(void **state)
{
	struct efi_handoff *h;
	const char *out;

	(void)state;
	h = block(ovmf_like, NMAP, "");
	put_rsdp(2, 0);
	h->acpi_rsdp = RSDP_PA;
	h->acpi_rsdp_guid_version = 2;
	h->exit_attempts = 2;
	if (setjmp(panicked))
		fail_msg("panicked: %s", panic_msg);
	noted_rsdp = 0;
	parse(BLOCK_PA);
	/* SMP discovery reads its MADT from the same RSDP. */
	assert_int_equal(noted_rsdp, RSDP_PA);
	assert_string_equal(noted_source, "uefi");
	out = report();
	assert_non_null(strstr(out, "uefi: firmware Test Firmware rev 0x10000, UEFI 2.70\n"));
	/* (0x700 + 0x40000) pages, (4 + 0x7f0), (0x9c + 0x100); 4 KiB each. */
	assert_non_null(strstr(out, "uefi: memory map 11 descriptors, usable 1065536 KiB: "
			       "conventional 1055744 KiB, boot services 8144 KiB, loader 1648 KiB\n"));
	assert_non_null(strstr(out, "uefi: acpi rsdp 0x3000 (ACPI 2.0 table, revision 2): ok\n"));
	assert_non_null(strstr(out, "exited after 2 attempts\n"));

	put_rsdp(2, 1);
	parse(BLOCK_PA);
	assert_non_null(strstr(report(), "): bad checksum\n"));
	put_rsdp(0, 0);
	memcpy(arena + RSDP_PA, "RSD PTX ", 8);
	parse(BLOCK_PA);
	assert_non_null(strstr(report(), "): bad signature\n"));
	h->acpi_rsdp = 0;
	parse(BLOCK_PA);
	assert_non_null(strstr(report(), "uefi: acpi rsdp none"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_usable_types_only),
		cmocka_unit_test(test_free_ranges),
		cmocka_unit_test(test_memory_above_4gib),
		cmocka_unit_test(test_bad_blocks_panic),
		cmocka_unit_test(test_report_rsdp_and_memory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
