/* test_ctype_errno.c - libc/ctype.c and libc/errno.c. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>

/*
 * The host C library's classifiers, hidden by host_libc.h's renames.  A
 * test program runs in the "C" locale, where glibc's classes are ASCII and
 * bytes >= 0x80 are in none: exactly Tally's rules.
 */
int host_isdigit(int c) __asm__("isdigit");
int host_isxdigit(int c) __asm__("isxdigit");
int host_isalpha(int c) __asm__("isalpha");
int host_isalnum(int c) __asm__("isalnum");
int host_isspace(int c) __asm__("isspace");
int host_isupper(int c) __asm__("isupper");
int host_islower(int c) __asm__("islower");
int host_isprint(int c) __asm__("isprint");
int host_iscntrl(int c) __asm__("iscntrl");
int host_ispunct(int c) __asm__("ispunct");
int host_toupper(int c) __asm__("toupper");
int host_tolower(int c) __asm__("tolower");

struct classifier {
	const char *name;
	int (*ours)(int);
	int (*host)(int);
};

#define CLASSIFIER(f) { #f, f, host_##f }

static const struct classifier classifiers[] = {
	CLASSIFIER(isdigit), CLASSIFIER(isxdigit), CLASSIFIER(isalpha),
	CLASSIFIER(isalnum), CLASSIFIER(isspace), CLASSIFIER(isupper),
	CLASSIFIER(islower), CLASSIFIER(isprint), CLASSIFIER(iscntrl),
	CLASSIFIER(ispunct),
};

static void test_classes_spot_checks(void **state)
{
	(void)state;
	assert_true(isdigit('0') && isdigit('9'));
	assert_false(isdigit('a') || isdigit('/') || isdigit(':'));
	assert_true(isxdigit('f') && isxdigit('F') && isxdigit('7'));
	assert_false(isxdigit('g') || isxdigit('G'));
	assert_true(isspace(' ') && isspace('\t') && isspace('\n') &&
		    isspace('\v') && isspace('\f') && isspace('\r'));
	assert_false(isspace('\0') || isspace('\b') || isspace('x'));
	assert_true(isprint(' ') && isprint('~'));
	assert_false(isprint('\x7f') || isprint('\n'));
	assert_true(iscntrl('\0') && iscntrl('\x1f') && iscntrl('\x7f'));
	assert_false(iscntrl(' '));
	assert_true(ispunct('!') && ispunct('~') && ispunct('_'));
	assert_false(ispunct(' ') || ispunct('a') || ispunct('5'));
	assert_true(isalnum('z') && isalnum('Z') && isalnum('0'));
	assert_false(isalpha('5'));
}

static void test_high_bytes_and_eof(void **state)
{
	size_t i;
	int c;

	(void)state;
	/* No locale: bytes >= 0x80 and EOF are in no class. */
	for (i = 0; i < sizeof(classifiers) / sizeof(classifiers[0]); i++) {
		assert_false(classifiers[i].ours(EOF));
		for (c = 0x80; c <= 0xff; c++)
			assert_false(classifiers[i].ours(c));
	}
	assert_int_equal(toupper(EOF), EOF);
	assert_int_equal(tolower(0xe9), 0xe9);
	assert_int_equal(toupper(0xe9), 0xe9);
}

static void test_case(void **state)
{
	(void)state;
	assert_int_equal(toupper('a'), 'A');
	assert_int_equal(toupper('z'), 'Z');
	assert_int_equal(toupper('A'), 'A');
	assert_int_equal(toupper('5'), '5');
	assert_int_equal(toupper('{'), '{');
	assert_int_equal(tolower('A'), 'a');
	assert_int_equal(tolower('Z'), 'z');
	assert_int_equal(tolower('@'), '@');
	assert_int_equal(tolower('['), '[');
}

/* Every value a classifier may be given: EOF and each unsigned char. */
static void test_all_bytes_match_host(void **state)
{
	size_t i;
	int c;

	(void)state;
	for (c = EOF; c <= UCHAR_MAX; c++) {
		for (i = 0; i < sizeof(classifiers) / sizeof(classifiers[0]); i++) {
			const struct classifier *k = &classifiers[i];

			if (!k->ours(c) != !k->host(c))
				fail_msg("%s(%d): ours %d, host %d", k->name, c,
					 k->ours(c), k->host(c));
		}
		assert_int_equal(toupper(c), host_toupper(c));
		assert_int_equal(tolower(c), host_tolower(c));
	}
}

/* ---- errno names ------------------------------------------------------- */

struct known_errno {
	int num;
	const char *name;
};

#define KNOWN(e) { e, #e }

static const struct known_errno known[] = {
	KNOWN(EPERM), KNOWN(ENOENT), KNOWN(ESRCH), KNOWN(EINTR), KNOWN(EIO),
	KNOWN(E2BIG), KNOWN(ENOEXEC), KNOWN(EBADF), KNOWN(ECHILD),
	KNOWN(EAGAIN), KNOWN(ENOMEM), KNOWN(EACCES), KNOWN(EFAULT),
	KNOWN(EBUSY), KNOWN(EEXIST), KNOWN(ENODEV), KNOWN(EINVAL),
	KNOWN(ENOSPC), KNOWN(ERANGE), KNOWN(ENOSYS), KNOWN(ENOTSUP),
};

static void test_errno_name(void **state)
{
	(void)state;
	assert_string_equal(errno_name(16), "EBUSY");
	assert_string_equal(errno_name(-16), "EBUSY");
	assert_string_equal(errno_name(-EINVAL), "EINVAL");
	assert_string_equal(errno_name(0), "OK");
}

/* Every number in errno.h has its own name, under both signs. */
static void test_errno_name_all(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		assert_string_equal(errno_name(known[i].num), known[i].name);
		assert_string_equal(errno_name(-known[i].num), known[i].name);
		assert_string_not_equal(errno_text(known[i].num), "unknown error");
		assert_string_equal(errno_text(-known[i].num),
				    errno_text(known[i].num));
	}
}

static void test_errno_unknown(void **state)
{
	(void)state;
	assert_string_equal(errno_name(6), "E?");
	assert_string_equal(errno_name(-1000), "E?");
	assert_string_equal(errno_name(INT_MAX), "E?");
	/* -INT_MIN does not exist; the lookup must not compute it (UBSan). */
	assert_string_equal(errno_name(INT_MIN), "E?");
	assert_string_equal(errno_text(6), "unknown error");
	assert_string_equal(errno_text(INT_MIN), "unknown error");
}

static void test_errno_text(void **state)
{
	(void)state;
	assert_string_equal(errno_text(EBUSY), "device or resource busy");
	assert_string_equal(errno_text(-EINVAL), "invalid argument");
	assert_string_equal(errno_text(0), "success");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classes_spot_checks),
		cmocka_unit_test(test_high_bytes_and_eof),
		cmocka_unit_test(test_case),
		cmocka_unit_test(test_all_bytes_match_host),
		cmocka_unit_test(test_errno_name),
		cmocka_unit_test(test_errno_name_all),
		cmocka_unit_test(test_errno_unknown),
		cmocka_unit_test(test_errno_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
