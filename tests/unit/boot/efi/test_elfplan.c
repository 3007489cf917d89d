/* Host tests of boot/efi/elfplan.c: which kernel ELFs tally.efi accepts
 * and where it puts their segments. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "boot/efi/elfplan.h"

/* The ELF-64 layout, written out here so the test does not share the
 * code's own definitions. */
struct ehdr {
	uint8_t ident[16];
	uint16_t type, machine;
	uint32_t version;
	uint64_t entry, phoff, shoff;
	uint32_t flags;
	uint16_t ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};

struct phdr {
	uint32_t type, flags;
	uint64_t offset, vaddr, paddr, filesz, memsz, align;
};

#define FILE_SIZE 0x3000
#define KVMA 0xffffffff80000000ull

static uint8_t file[FILE_SIZE];

static struct ehdr *hdr(void) { return (struct ehdr *)file; }
static struct phdr *ph(unsigned i) { return (struct phdr *)(file + 64 + i * 56); }

/* Like tally.elf: 32-bit boot code at 1 MiB (virtual = physical), then
 * the rest linked in the top 2 GiB and loaded right behind it. */
static void make_kernel(void)
{
	memset(file, 0, sizeof(file));
	memcpy(hdr()->ident, "\177ELF\002\001\001", 7);
	hdr()->type = 2;
	hdr()->machine = 62;
	hdr()->version = 1;
	hdr()->entry = 0x100040;
	hdr()->phoff = 64;
	hdr()->ehsize = 64;
	hdr()->phentsize = 56;
	hdr()->phnum = 3;
	*ph(0) = (struct phdr){ 1, 5, 0x1000, 0x100000, 0x100000, 0x800, 0x800, 0x1000 };
	/* A note between: not loaded. */
	*ph(1) = (struct phdr){ 4, 4, 0x1800, 0x100800, 0x100800, 0x10, 0x10, 4 };
	*ph(2) = (struct phdr){ 1, 6, 0x2000, KVMA + 0x101000, 0x101000, 0x1000, 0x5000, 0x1000 };
}

static int plan(struct elfplan *p, const char **why)
{
	return elfplan_make(file, sizeof(file), p, why);
}

static void test_kernel_layout(void **state)
{
	struct elfplan p;
	const char *why = NULL;

	(void)state;
	make_kernel();
	assert_int_equal(plan(&p, &why), 0);
	assert_int_equal(p.nseg, 2);
	assert_int_equal(p.lo, 0x100000);
	assert_int_equal(p.hi, 0x106000);
	assert_int_equal(p.entry, 0x100040);
	assert_int_equal(p.seg[1].paddr, 0x101000);
	assert_int_equal(p.seg[1].offset, 0x2000);
	assert_int_equal(p.seg[1].filesz, 0x1000);
	assert_int_equal(p.seg[1].memsz, 0x5000);
}

/* The entry is a link address; the CPU gets there with paging off. */
static void test_entry_translated_to_physical(void **state)
{
	struct elfplan p;
	const char *why = NULL;

	(void)state;
	make_kernel();
	hdr()->entry = KVMA + 0x101010;
	assert_int_equal(plan(&p, &why), 0);
	assert_int_equal(p.entry, 0x101010);
	/* In the zeroed tail (.bss) there is no code to enter. */
	hdr()->entry = KVMA + 0x102010;
	assert_int_equal(plan(&p, &why), -1);
	assert_string_equal(why, "entry point outside the loaded code");
}

static void expect_refused(const char *reason)
{
	struct elfplan p;
	const char *why = NULL;

	assert_int_equal(plan(&p, &why), -1);
	assert_non_null(why);
	assert_string_equal(why, reason);
}

static void test_refusals(void **state)
{
	(void)state;
	make_kernel(); file[1] = 'X';
	expect_refused("not an ELF file");
	make_kernel(); hdr()->ident[4] = 1;
	expect_refused("not a 64-bit little-endian ELF");
	make_kernel(); hdr()->machine = 3;
	expect_refused("not an x86-64 executable");
	make_kernel(); hdr()->type = 3;
	expect_refused("not an x86-64 executable");
	make_kernel(); hdr()->phoff = FILE_SIZE - 100;
	expect_refused("program headers outside the file");
	make_kernel(); hdr()->phnum = 0;
	expect_refused("no program headers");
	make_kernel(); ph(2)->filesz = 0x6000;
	expect_refused("segment larger in the file than in memory");
	make_kernel(); ph(2)->offset = FILE_SIZE - 0x800;
	expect_refused("segment outside the file");
	make_kernel(); ph(2)->paddr = 0xfffff000;
	expect_refused("segment at or above 4 GiB");
	make_kernel(); ph(2)->paddr = 0x100000000ull;
	expect_refused("segment at or above 4 GiB");
	make_kernel(); ph(0)->type = 6; ph(2)->type = 6;
	expect_refused("no loadable segment");
}

static void test_short_file(void **state)
{
	struct elfplan p;
	const char *why = NULL;

	(void)state;
	make_kernel();
	assert_int_equal(elfplan_make(file, 63, &p, &why), -1);
	assert_string_equal(why, "shorter than an ELF header");
	/* Headers fit, but the segments' bytes do not. */
	assert_int_equal(elfplan_make(file, 0x2800, &p, &why), -1);
	assert_string_equal(why, "segment outside the file");
}

static void test_too_many_segments(void **state)
{
	(void)state;
	make_kernel();
	hdr()->phnum = ELFPLAN_SEGS_MAX + 1;
	for (unsigned i = 0; i < ELFPLAN_SEGS_MAX + 1; i++)
		*ph(i) = (struct phdr){ 1, 5, 0x1000, 0x100000 + i * 0x1000,
					0x100000 + i * 0x1000, 0x100, 0x100, 0x1000 };
	expect_refused("too many segments");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_layout),
		cmocka_unit_test(test_entry_translated_to_physical),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_short_file),
		cmocka_unit_test(test_too_many_segments),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
