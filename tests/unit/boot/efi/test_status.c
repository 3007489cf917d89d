/* Host tests of boot/efi/status.c: tally.efi's names for UEFI status codes. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "boot/efi/status.h"

#define ERR(n) (EFI_STATUS_ERROR_BIT | (n))

/* Values from the UEFI 2.10 specification, appendix D. */
static void test_errors_by_number(void **state)
{
	(void)state;
	assert_string_equal(efi_status_name(ERR(1)), "EFI_LOAD_ERROR");
	assert_string_equal(efi_status_name(ERR(2)), "EFI_INVALID_PARAMETER");
	assert_string_equal(efi_status_name(ERR(5)), "EFI_BUFFER_TOO_SMALL");
	assert_string_equal(efi_status_name(ERR(9)), "EFI_OUT_OF_RESOURCES");
	assert_string_equal(efi_status_name(ERR(14)), "EFI_NOT_FOUND");
	assert_string_equal(efi_status_name(ERR(26)), "EFI_SECURITY_VIOLATION");
	assert_string_equal(efi_status_name(ERR(28)), "EFI_END_OF_MEDIA");
	assert_string_equal(efi_status_name(ERR(31)), "EFI_END_OF_FILE");
	assert_string_equal(efi_status_name(ERR(35)), "EFI_HTTP_ERROR");
}

static void test_success_and_warnings(void **state)
{
	(void)state;
	assert_string_equal(efi_status_name(0), "EFI_SUCCESS");
	assert_string_equal(efi_status_name(1), "EFI_WARN_UNKNOWN_GLYPH");
	assert_string_equal(efi_status_name(5), "EFI_WARN_STALE_DATA");
	assert_string_equal(efi_status_name(7), "EFI_WARN_RESET_REQUIRED");
}

/* Codes the specification leaves unassigned get no name, never a wrong one. */
static void test_unnamed_codes(void **state)
{
	(void)state;
	assert_null(efi_status_name(ERR(0)));
	assert_null(efi_status_name(ERR(29)));
	assert_null(efi_status_name(ERR(30)));
	assert_null(efi_status_name(ERR(36)));
	assert_null(efi_status_name(ERR(0x7fffffff)));
	assert_null(efi_status_name(8));
	assert_null(efi_status_name(UINT64_MAX));
}

/* Every name is EFI_ plus capitals, digits and underscores, and no two
 * codes share one. */
static void test_names_are_well_formed_and_distinct(void **state)
{
	const char *seen[64];
	unsigned n = 0;

	(void)state;
	for (uint64_t code = 0; code < 40; code++) {
		for (int err = 0; err < 2; err++) {
			const char *name = efi_status_name(err ? ERR(code) : code);

			if (!name)
				continue;
			assert_int_equal(strncmp(name, "EFI_", 4), 0);
			for (const char *p = name; *p; p++)
				assert_true((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
					    *p == '_');
			for (unsigned i = 0; i < n; i++)
				assert_string_not_equal(seen[i], name);
			assert_true(n < 64);
			seen[n++] = name;
		}
	}
	assert_int_equal(n, 33 + 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_errors_by_number),
		cmocka_unit_test(test_success_and_warnings),
		cmocka_unit_test(test_unnamed_codes),
		cmocka_unit_test(test_names_are_well_formed_and_distinct),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
