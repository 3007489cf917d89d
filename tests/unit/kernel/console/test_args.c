/* Host tests of kernel/console/args.c: splitting console lines into words. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include <errno.h>

#include "console/args.h"

static int split(const char *in, char *buf, size_t bufsz, char **argv, int max)
{
	strncpy(buf, in, bufsz - 1);
	buf[bufsz - 1] = '\0';
	return args_split(buf, argv, max);
}

static void test_blank_line(void **state)
{
	(void)state;
	char buf[64], *argv[8];
	assert_int_equal(split("", buf, sizeof(buf), argv, 8), 0);
	assert_int_equal(split("  \t  ", buf, sizeof(buf), argv, 8), 0);
	assert_null(argv[0]);
}

static void test_words(void **state)
{
	(void)state;
	char buf[64], *argv[8];
	assert_int_equal(split("  hwperf  read\t42 ", buf, sizeof(buf), argv, 8), 3);
	assert_string_equal(argv[0], "hwperf");
	assert_string_equal(argv[1], "read");
	assert_string_equal(argv[2], "42");
	assert_null(argv[3]);
}

static void test_quotes(void **state)
{
	(void)state;
	char buf[64], *argv[8];
	assert_int_equal(split("echo 'a  b' \"c d\" e'f g'h", buf, sizeof(buf), argv, 8), 4);
	assert_string_equal(argv[1], "a  b");
	assert_string_equal(argv[2], "c d");
	assert_string_equal(argv[3], "ef gh");
}

static void test_quotes_inside_other_quotes(void **state)
{
	(void)state;
	char buf[64], *argv[8];
	assert_int_equal(split("say \"it's\" ''", buf, sizeof(buf), argv, 8), 3);
	assert_string_equal(argv[1], "it's");
	assert_string_equal(argv[2], "");
}

static void test_unterminated_quote(void **state)
{
	(void)state;
	char buf[64], *argv[8];
	assert_int_equal(split("echo 'abc", buf, sizeof(buf), argv, 8), -EINVAL);
	assert_int_equal(split("echo \"", buf, sizeof(buf), argv, 8), -EINVAL);
}

static void test_too_many(void **state)
{
	(void)state;
	char buf[64], *argv[3];
	assert_int_equal(split("a b c", buf, sizeof(buf), argv, 3), 3);
	assert_int_equal(split("a b c d", buf, sizeof(buf), argv, 3), -E2BIG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blank_line),
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_quotes),
		cmocka_unit_test(test_quotes_inside_other_quotes),
		cmocka_unit_test(test_unterminated_quote),
		cmocka_unit_test(test_too_many),
	};
	return cmocka_run_group_tests_name("args", tests, NULL, NULL);
}
