/* Host tests of kernel/proc/program_syms.c: a PC's function in "ADDR NAME" text. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "proc/program_syms.h"

/* Build-time tables have no linker set on the host. */
const struct program_syms *const __set_program_syms_start[1];
const struct program_syms *const __set_program_syms_end[1];

static const char table[] =
	"00400000 _start\n"
	"00400020 __syscall6\n"
	"0040003a __sigreturn_trampoline\n"
	"00400050 main\n";

static void lookup(uintptr_t pc, const char *want, uintptr_t want_off)
{
	char name[32];
	uintptr_t off = 99;

	program_sym_lookup(table, strlen(table), pc, name, sizeof(name), &off);
	assert_string_equal(name, want);
	assert_int_equal(off, want_off);
}

static void test_function_holding_pc(void **state)
{
	(void)state;
	lookup(0x400000, "_start", 0);
	lookup(0x400024, "__syscall6", 4);
	lookup(0x400050, "main", 0);
	lookup(0x401000, "main", 0xfb0);        /* past the last: the last */
}

static void test_below_every_symbol(void **state)
{
	(void)state;
	char name[8];
	uintptr_t off;

	assert_false(program_sym_lookup(table, strlen(table), 0x3fffff, name,
					sizeof(name), &off));
	assert_string_equal(name, "?");
}

static void test_bad_lines_skipped_and_names_cut(void **state)
{
	(void)state;
	static const char messy[] = "zz nothing\n00400010\n00400010 a_very_long_name\nbad";
	char name[6];
	uintptr_t off;

	assert_true(program_sym_lookup(messy, strlen(messy), 0x400011, name,
				       sizeof(name), &off));
	assert_string_equal(name, "a_ver");
	assert_int_equal(off, 1);
}

static void test_no_trailing_newline(void **state)
{
	(void)state;
	static const char t[] = "00400000 only";
	char name[8];
	uintptr_t off;

	assert_true(program_sym_lookup(t, strlen(t), 0x400004, name, sizeof(name), &off));
	assert_string_equal(name, "only");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_function_holding_pc),
		cmocka_unit_test(test_below_every_symbol),
		cmocka_unit_test(test_bad_lines_skipped_and_names_cut),
		cmocka_unit_test(test_no_trailing_newline),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
