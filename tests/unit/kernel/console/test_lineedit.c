/* Host tests of kernel/console/lineedit.c: the console line editor, byte by byte. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "console/lineedit.h"

static char echoed[65536];
static size_t echoed_len;

static void echo_rec(const char *s, size_t n, void *arg)
{
	(void)arg;
	if (echoed_len + n < sizeof(echoed)) {
		memcpy(echoed + echoed_len, s, n);
		echoed_len += n;
		echoed[echoed_len] = '\0';
	}
}

static struct lineedit le;

static int setup(void **state)
{
	(void)state;
	echoed_len = 0;
	echoed[0] = '\0';
	le_init(&le, echo_rec, NULL);
	return 0;
}

/* Feed a string; return the result of its last byte. */
static enum le_result feed(const char *s, size_t n)
{
	enum le_result r = LE_MORE;
	for (size_t i = 0; i < n; i++)
		r = le_feed(&le, s[i]);
	return r;
}

#define CH_BACKSPACE 0x08

#define FEED(lit) feed(lit, sizeof(lit) - 1)

static void test_simple_line_cr(void **state)
{
	(void)state;
	assert_int_equal(FEED("echo hi"), LE_MORE);
	assert_int_equal(FEED("\r"), LE_LINE);
	assert_string_equal(le_line(&le), "echo hi");
	assert_string_equal(echoed, "echo hi\n");
}

static void test_crlf_is_one_line_end(void **state)
{
	(void)state;
	assert_int_equal(FEED("a\r"), LE_LINE);
	assert_int_equal(FEED("\n"), LE_MORE);   /* LF of CR LF swallowed */
	assert_int_equal(FEED("b\n"), LE_LINE);
	assert_string_equal(le_line(&le), "b");
	assert_int_equal(FEED("\n"), LE_LINE);  /* a lone LF is a blank line */
	assert_string_equal(le_line(&le), "");
}

static void test_backspace_and_del(void **state)
{
	(void)state;
	FEED("abd\x7f\x08" "bc\r");
	assert_string_equal(le_line(&le), "abc");
	assert_non_null(strstr(echoed, "\b \b"));
}

static void test_backspace_on_empty_line_is_harmless(void **state)
{
	(void)state;
	FEED("\x7f\x7f\x08x\r");
	assert_string_equal(le_line(&le), "x");
}

static void test_ctrl_u_erases(void **state)
{
	(void)state;
	FEED("junk junk\x15" "ok\r");
	assert_string_equal(le_line(&le), "ok");
}

static void test_ctrl_c_cancels(void **state)
{
	(void)state;
	FEED("poweroff");
	assert_int_equal(FEED("\x03"), LE_CANCEL);
	assert_non_null(strstr(echoed, "^C\n"));
	FEED("echo\r");
	assert_string_equal(le_line(&le), "echo");
}

static void test_overlong_line_refused_whole(void **state)
{
	(void)state;
	for (int i = 0; i < LINE_MAX_LEN + 100; i++)
		assert_int_equal(le_feed(&le, 'x'), LE_MORE);
	assert_int_equal(FEED("\r"), LE_TOOLONG);
	/* The editor recovers: the next line is complete and clean. */
	assert_int_equal(FEED("echo ok\r"), LE_LINE);
	assert_string_equal(le_line(&le), "echo ok");
}

/* Backspace first takes back the characters that were dropped, then the
 * kept ones: once the line is back within the limit it is accepted, and
 * it is the characters the person still sees. */
static void test_backspace_back_under_the_limit_accepts(void **state)
{
	(void)state;
	for (int i = 0; i < LINE_MAX_LEN + 8; i++)
		le_feed(&le, i < LINE_MAX_LEN - 2 ? 'x' : 'y');
	for (int i = 0; i < 10; i++)
		le_feed(&le, 0x7f);
	assert_int_equal(FEED("\r"), LE_LINE);
	assert_int_equal(strlen(le_line(&le)), LINE_MAX_LEN - 2);
	assert_null(strchr(le_line(&le), 'y'));
}

/* Still over the limit after some Backspaces: still refused. */
static void test_backspace_not_enough_still_refused(void **state)
{
	(void)state;
	for (int i = 0; i < LINE_MAX_LEN + 8; i++)
		le_feed(&le, 'x');
	for (int i = 0; i < 7; i++)
		le_feed(&le, CH_BACKSPACE);
	assert_int_equal(FEED("\r"), LE_TOOLONG);
}

static void test_exactly_max_is_accepted(void **state)
{
	(void)state;
	for (int i = 0; i < LINE_MAX_LEN; i++)
		le_feed(&le, 'y');
	assert_int_equal(FEED("\r"), LE_LINE);
	assert_int_equal(strlen(le_line(&le)), LINE_MAX_LEN);
}

static void test_binary_junk_dropped(void **state)
{
	(void)state;
	const char junk[] = { 'e', (char)0x80, 'c', (char)0xff, 'h', 0x01, 'o', 0x00, 0x07, '\r' };
	assert_int_equal(feed(junk, sizeof(junk)), LE_LINE);
	assert_string_equal(le_line(&le), "echo");
}

static void test_history_up_down(void **state)
{
	(void)state;
	FEED("one\r");
	FEED("two\r");
	FEED("three\r");
	assert_int_equal(FEED("\x1b[A\r"), LE_LINE);
	assert_string_equal(le_line(&le), "three");
	assert_int_equal(FEED("\x1b[A\x1b[A\x1b[A\r"), LE_LINE);
	assert_string_equal(le_line(&le), "one");  /* three, two, one */
	/* History is now one three two one (newest first); moving past the
	 * oldest stays there. */
	FEED("\x1b[A\x1b[A\x1b[A\x1b[A\x1b[A\x1b[A");
	FEED("\x1bOB");                            /* ESC O B also moves down */
	assert_int_equal(FEED("\r"), LE_LINE);
	assert_string_equal(le_line(&le), "two");
}

static void test_history_down_to_empty(void **state)
{
	(void)state;
	FEED("one\r");
	assert_int_equal(FEED("\x1b[A\x1b[B\r"), LE_LINE);
	assert_string_equal(le_line(&le), "");
}

static void test_history_keeps_16(void **state)
{
	(void)state;
	char line[16];
	for (int i = 0; i < 20; i++) {
		int n = snprintf(line, sizeof(line), "cmd%d\r", i);
		feed(line, (size_t)n);
	}
	for (int i = 0; i < LINE_HISTORY; i++)
		FEED("\x1b[A");
	FEED("\r");
	assert_string_equal(le_line(&le), "cmd4");   /* 20 - 16 */
	/* Running cmd4 again pushed out the old cmd4: cmd5 is now oldest,
	 * and moving up past it stays there. */
	for (int i = 0; i < 30; i++)
		FEED("\x1b[A");
	FEED("\r");
	assert_string_equal(le_line(&le), "cmd5");
}

static void test_unknown_escape_does_not_eat_line(void **state)
{
	(void)state;
	FEED("\x1b[Zab\x1bxcd\r");
	assert_string_equal(le_line(&le), "abcd");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_simple_line_cr, setup),
		cmocka_unit_test_setup(test_crlf_is_one_line_end, setup),
		cmocka_unit_test_setup(test_backspace_and_del, setup),
		cmocka_unit_test_setup(test_backspace_on_empty_line_is_harmless, setup),
		cmocka_unit_test_setup(test_ctrl_u_erases, setup),
		cmocka_unit_test_setup(test_ctrl_c_cancels, setup),
		cmocka_unit_test_setup(test_overlong_line_refused_whole, setup),
		cmocka_unit_test_setup(test_backspace_back_under_the_limit_accepts, setup),
		cmocka_unit_test_setup(test_backspace_not_enough_still_refused, setup),
		cmocka_unit_test_setup(test_exactly_max_is_accepted, setup),
		cmocka_unit_test_setup(test_binary_junk_dropped, setup),
		cmocka_unit_test_setup(test_history_up_down, setup),
		cmocka_unit_test_setup(test_history_down_to_empty, setup),
		cmocka_unit_test_setup(test_history_keeps_16, setup),
		cmocka_unit_test_setup(test_unknown_escape_does_not_eat_line, setup),
	};
	return cmocka_run_group_tests_name("lineedit", tests, NULL, NULL);
}
