/* Host tests of boot/efi/cmdline.c: tally.efi's kernel command line from
 * the ESP file and the UCS-2 load options. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "boot/efi/cmdline.h"

/* ASCII to the UCS-2 the firmware passes; returns bytes, NUL included. */
static size_t ucs2(const char *s, uint16_t *out)
{
	size_t n = 0;

	while (s[n]) {
		out[n] = (uint8_t)s[n];
		n++;
	}
	out[n] = 0;
	return (n + 1) * 2;
}

static void test_file_words_and_comments(void **state)
{
	struct cmdline c;
	const char *file = "# kernel arguments\r\n  hz=250\t onpanic=exit \r\n"
			   "   # indented comment selftest\n\nidlespin\n";

	(void)state;
	cmdline_init(&c);
	assert_int_equal(cmdline_add_text(&c, file, strlen(file), 1), 0);
	assert_string_equal(c.text, "hz=250 onpanic=exit idlespin");
	assert_int_equal(c.len, strlen(c.text));
}

/* '#' starts a comment only at the start of a line, and only in the file. */
static void test_hash_inside_a_word_is_kept(void **state)
{
	struct cmdline c;

	(void)state;
	cmdline_init(&c);
	assert_int_equal(cmdline_add_text(&c, "a=#1 b", 6, 1), 0);
	assert_int_equal(cmdline_add_text(&c, "#c", 2, 0), 0);
	assert_string_equal(c.text, "a=#1 b #c");
}

static void test_file_then_load_options(void **state)
{
	struct cmdline c;
	uint16_t opts[64];
	size_t bytes = ucs2("  hz=100 selftest ", opts);

	(void)state;
	cmdline_init(&c);
	assert_int_equal(cmdline_add_text(&c, "hz=250\n", 7, 1), 0);
	assert_int_equal(cmdline_add_ucs2(&c, opts, bytes), 0);
	assert_string_equal(c.text, "hz=250 hz=100 selftest");
}

/* A shell passes the program first; a boot entry passes only arguments. */
static void test_program_name_dropped(void **state)
{
	struct cmdline c;
	uint16_t opts[64];

	(void)state;
	cmdline_init(&c);
	assert_int_equal(cmdline_add_ucs2(&c, opts, ucs2("FS0:\\EFI\\BOOT\\BOOTX64.EFI hz=250", opts)), 0);
	assert_string_equal(c.text, "hz=250");
	cmdline_init(&c);
	assert_int_equal(cmdline_add_ucs2(&c, opts, ucs2("tally.efi", opts)), 0);
	assert_string_equal(c.text, "");
	cmdline_init(&c);
	assert_int_equal(cmdline_add_ucs2(&c, opts, ucs2("efi=1 x.efi", opts)), 0);
	assert_string_equal(c.text, "efi=1 x.efi");
}

/* A boot entry's optional data may be binary, e.g. a GUID. */
static void test_binary_load_options_refused(void **state)
{
	struct cmdline c;
	const uint16_t guid[8] = { 0x1234, 0xabcd, 0x0011, 0x8899, 0xa0a0, 0x0041, 0x0042, 0xffff };
	uint16_t opts[8];

	(void)state;
	cmdline_init(&c);
	assert_int_equal(cmdline_add_text(&c, "hz=250", 6, 1), 0);
	assert_int_equal(cmdline_add_ucs2(&c, guid, sizeof(guid)), CMDLINE_NOT_TEXT);
	/* An odd byte count is not UCS-2 either; a control character is not text. */
	ucs2("ab", opts);
	assert_int_equal(cmdline_add_ucs2(&c, opts, 3), CMDLINE_NOT_TEXT);
	opts[0] = 0x07;
	assert_int_equal(cmdline_add_ucs2(&c, opts, 4), CMDLINE_NOT_TEXT);
	assert_int_equal(cmdline_add_text(&c, "a\001b", 3, 1), CMDLINE_NOT_TEXT);
	assert_string_equal(c.text, "hz=250");
}

static void test_too_long_refused_whole(void **state)
{
	static char big[CMDLINE_MAX + 8];
	struct cmdline c;

	(void)state;
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	cmdline_init(&c);
	assert_int_equal(cmdline_add_text(&c, "a", 1, 0), 0);
	assert_int_equal(cmdline_add_text(&c, big, CMDLINE_MAX - 2, 0), CMDLINE_TOO_LONG);
	assert_string_equal(c.text, "a");
	/* Exactly full: "a" + " " + 1021 characters = 1023 and the NUL. */
	assert_int_equal(cmdline_add_text(&c, big, CMDLINE_MAX - 3, 0), 0);
	assert_int_equal(c.len, CMDLINE_MAX - 1);
}

static void test_take_loader_options(void **state)
{
	struct cmdline c;
	char val[16];

	(void)state;
	cmdline_init(&c);
	assert_int_equal(cmdline_add_text(&c, "efi.kernel=/a.elf hz=250 efi.stalekey "
				       "efi.kernelx=1 efi.kernel=/b.elf", 200, 0), 0);
	assert_int_equal(cmdline_take(&c, "efi.stalekey", val, sizeof(val)), 1);
	assert_string_equal(val, "");
	assert_int_equal(cmdline_take(&c, "efi.kernel", val, sizeof(val)), 2);
	assert_string_equal(val, "/b.elf");
	assert_string_equal(c.text, "hz=250 efi.kernelx=1");
	assert_int_equal(c.len, strlen(c.text));
	assert_int_equal(cmdline_take(&c, "efi.kernel", val, sizeof(val)), 0);
	/* A value longer than the buffer is cut, never overrun. */
	cmdline_init(&c);
	assert_int_equal(cmdline_add_text(&c, "k=0123456789abcdefghij", 22, 0), 0);
	assert_int_equal(cmdline_take(&c, "k", val, 8), 1);
	assert_string_equal(val, "0123456");
	assert_string_equal(c.text, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_words_and_comments),
		cmocka_unit_test(test_hash_inside_a_word_is_kept),
		cmocka_unit_test(test_file_then_load_options),
		cmocka_unit_test(test_program_name_dropped),
		cmocka_unit_test(test_binary_load_options_refused),
		cmocka_unit_test(test_too_long_refused_whole),
		cmocka_unit_test(test_take_loader_options),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
