/*
 * test_printf.c - libc/printf.c: vcbprintf, vsnprintf, snprintf.
 *
 * Hand-written expectations for every feature, then a sweep that compares
 * integer and string conversions with the host C library's over many
 * combinations of flags, width, precision and length.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <string.h>

/* glibc's own vsnprintf, which host_libc.h's renames otherwise hide. */
int host_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
	__asm__("vsnprintf");

/* Expectations below spell out 64-bit long, size_t and pointers. */
_Static_assert(sizeof(long) == 8 && sizeof(void *) == 8 && sizeof(size_t) == 8,
	       "these tests expect an LP64 host");

#define GUARD 0x5a

static char out[256];

/* Checks both the text and the returned length. */
#define CHECK(expect, ...)                                                \
	do {                                                              \
		int n_ = snprintf(out, sizeof(out), __VA_ARGS__);         \
		assert_string_equal(out, (expect));                       \
		assert_int_equal(n_, strlen(expect));                     \
	} while (0)

/* For formats that are deliberately odd (flags C says are ignored, a NULL
 * %s), which GCC's format checking would otherwise reject. */
#define CHECK_ODD(...)                                                    \
	_Pragma("GCC diagnostic push")                                    \
	_Pragma("GCC diagnostic ignored \"-Wformat\"")                     \
	_Pragma("GCC diagnostic ignored \"-Wformat-overflow\"")            \
	CHECK(__VA_ARGS__);                                               \
	_Pragma("GCC diagnostic pop")

static void test_plain_text(void **state)
{
	(void)state;
	CHECK("", "%s", "");
	CHECK("counter 0", "counter 0");
	CHECK("100%", "100%%");
	CHECK("%%", "%%%%");
}

static void test_signed(void **state)
{
	(void)state;
	CHECK("0", "%d", 0);
	CHECK("-1", "%d", -1);
	CHECK("42", "%i", 42);
	CHECK("2147483647", "%d", INT_MAX);
	CHECK("-2147483648", "%d", INT_MIN);
	CHECK("-9223372036854775808", "%lld", (long long)INT64_MIN);
	CHECK("9223372036854775807", "%lld", (long long)INT64_MAX);
	CHECK("-9223372036854775808", "%ld", LONG_MIN);
	CHECK("-9223372036854775808", "%jd", (intmax_t)INTMAX_MIN);
}

static void test_unsigned(void **state)
{
	(void)state;
	CHECK("4294967295", "%u", UINT_MAX);
	CHECK("18446744073709551615", "%llu", (unsigned long long)UINT64_MAX);
	CHECK("ffffffffffffffff", "%llx", (unsigned long long)UINT64_MAX);
	CHECK("FFFFFFFFFFFFFFFF", "%llX", (unsigned long long)UINT64_MAX);
	CHECK("1777777777777777777777", "%llo", (unsigned long long)UINT64_MAX);
	CHECK("deadbeef", "%x", 0xdeadbeefu);
	CHECK("DEADBEEF", "%X", 0xdeadbeefu);
	CHECK("17", "%o", 15u);
	CHECK("0", "%x", 0u);
}

static void test_length_modifiers(void **state)
{
	(void)state;
	/* hh and h cut the promoted int back to char and short. */
	CHECK("5", "%hhu", (unsigned char)261);
	CHECK("-56", "%hhd", (signed char)-56);
	CHECK("-1", "%hd", (short)-1);
	CHECK("2345", "%hx", (unsigned short)0x2345);
	CHECK("18446744073709551615", "%zu", (size_t)SIZE_MAX);
	CHECK("-5", "%td", (ptrdiff_t)-5);
	CHECK("18446744073709551615", "%ju", (uintmax_t)UINTMAX_MAX);
	CHECK("ffffffffffffffff", "%tx", (ptrdiff_t)-1);
	CHECK("12345678901", "%lu", 12345678901ul);
}

static void test_width_and_flags(void **state)
{
	(void)state;
	CHECK("ab      |", "%-8s|", "ab");
	CHECK("      ab", "%8s", "ab");
	CHECK("0000beef", "%08x", 0xbeefu);
	CHECK("   42", "%5d", 42);
	CHECK("42   |", "%-5d|", 42);
	CHECK("-0042", "%05d", -42);
	CHECK_ODD("-42  ", "%-05d", -42)
	CHECK("+5", "%+d", 5);
	CHECK("-5", "%+d", -5);
	CHECK(" 5", "% d", 5);
	CHECK_ODD("+5", "%+ d", 5)
	CHECK("+0", "%+d", 0);
	CHECK("+005", "%+04d", 5);
	CHECK("42", "%1d", 42);
	/* + and space mean nothing for unsigned conversions. */
	CHECK_ODD("5", "%+u", 5u)
	CHECK_ODD("5", "% x", 5u)
}

static void test_alternate_form(void **state)
{
	(void)state;
	CHECK("0xff", "%#x", 255u);
	CHECK("0XFF", "%#X", 255u);
	/* No prefix on zero, by the C standard. */
	CHECK("0", "%#x", 0u);
	CHECK("010", "%#o", 8u);
	CHECK("0", "%#o", 0u);
	CHECK("0", "%#.0o", 0u);
	CHECK("00010", "%#.5o", 8u);
	CHECK("0x000ff", "%#07x", 255u);
	CHECK("   0xff", "%#7x", 255u);
}

static void test_precision(void **state)
{
	(void)state;
	CHECK("007", "%.3d", 7);
	CHECK("-007", "%.3d", -7);
	CHECK_ODD("  007", "%05.3d", 7)
	CHECK("", "%.0d", 0);
	CHECK("     ", "%5.0d", 0);
	CHECK("", "%.0x", 0u);
	CHECK("0", "%.1d", 0);
	CHECK("0000000000000000000001", "%.22llu", 1ull);
	CHECK("abc", "%.3s", "abcdef");
	CHECK("abcdef", "%.10s", "abcdef");
	CHECK("", "%.0s", "abcdef");
	CHECK("   ab", "%5.2s", "abcdef");
	/* "%." alone is precision zero. */
	CHECK("", "%.d", 0);
}

static void test_precision_unterminated(void **state)
{
	const char bytes[3] = { 'x', 'y', 'z' };

	(void)state;
	/* With a precision, %s must not read beyond it (ASan would say). */
	CHECK("xyz", "%.3s", bytes);
	CHECK("xy", "%.2s", bytes);
}

static void test_star(void **state)
{
	(void)state;
	CHECK("   42", "%*d", 5, 42);
	/* A negative * width is the - flag. */
	CHECK("42   |", "%*d|", -5, 42);
	CHECK("00042", "%.*d", 5, 42);
	/* A negative * precision is no precision. */
	CHECK("42", "%.*d", -1, 42);
	CHECK("ab", "%.*s", 2, "abcdef");
	CHECK("  ab", "%*.*s", 4, 2, "abcdef");
	CHECK("abcdef", "%.*s", -3, "abcdef");
}

static void test_null_string(void **state)
{
	(void)state;
	CHECK_ODD("(null)", "%s", (char *)NULL)
	CHECK_ODD("  (null)", "%8s", (char *)NULL)
	CHECK_ODD("(nu", "%.3s", (char *)NULL)
}

static void test_char(void **state)
{
	(void)state;
	CHECK("x", "%c", 'x');
	CHECK("  x", "%3c", 'x');
	CHECK("x  |", "%-3c|", 'x');
	CHECK("\xe9", "%c", 0xe9);
}

static void test_char_nul(void **state)
{
	(void)state;
	/* A NUL from %c is output like any other character. */
	assert_int_equal(snprintf(out, sizeof(out), "a%cb", 0), 3);
	assert_memory_equal(out, "a\0b", 4);
}

static void test_pointer(void **state)
{
	(void)state;
	CHECK("0x1234", "%p", (void *)0x1234);
	CHECK("0xffffffffffffffff", "%p", (void *)UINTPTR_MAX);
	CHECK("0x0", "%p", NULL);
	CHECK("  0xab", "%6p", (void *)0xab);
	CHECK("0xab  |", "%-6p|", (void *)0xab);
}

static void test_unknown_conversion(void **state)
{
	(void)state;
	/* Printed as written, so the mistake is visible on the console. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-extra-args"
	CHECK("a%qb", "a%qb");
	CHECK("%5k", "%5k");
	CHECK("abc%", "abc%");
	CHECK("%-08.3lw", "%-08.3lw");
#pragma GCC diagnostic pop
}

static void test_truncation(void **state)
{
	char buf[16];

	(void)state;
	memset(buf, GUARD, sizeof(buf));
	/* C99: the result is the full length, the text cut to size - 1. */
	assert_int_equal(snprintf(buf, 5, "%s", "abcdefgh"), 8);
	assert_string_equal(buf, "abcd");
	assert_int_equal(buf[5], GUARD);

	assert_int_equal(snprintf(buf, 9, "%s", "abcdefgh"), 8);
	assert_string_equal(buf, "abcdefgh");
	assert_int_equal(snprintf(buf, 8, "%s", "abcdefgh"), 8);
	assert_string_equal(buf, "abcdefg");

	assert_int_equal(snprintf(buf, 1, "%d", 12345), 5);
	assert_string_equal(buf, "");
	assert_int_equal(buf[1], 'b');

	assert_int_equal(snprintf(buf, 4, "%08x", 0xbeefu), 8);
	assert_string_equal(buf, "000");
}

static void test_size_zero(void **state)
{
	char buf[4];

	(void)state;
	memset(buf, GUARD, sizeof(buf));
	assert_int_equal(snprintf(buf, 0, "%s", "abc"), 3);
	assert_int_equal(buf[0], GUARD);
	/* Size 0 with no buffer: the usual way to measure. */
	assert_int_equal(snprintf(NULL, 0, "%llu", 18446744073709551615ull), 20);
}

struct collect {
	char text[64];
	int n;
};

static void collect_put(char c, void *arg)
{
	struct collect *col = arg;

	if (col->n < (int)sizeof(col->text))
		col->text[col->n] = c;
	col->n++;
}

static int call_vcbprintf(struct collect *col, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int call_vcbprintf(struct collect *col, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vcbprintf(collect_put, col, fmt, ap);
	va_end(ap);
	return n;
}

static void test_vcbprintf(void **state)
{
	struct collect col = { .n = 0 };

	(void)state;
	assert_int_equal(call_vcbprintf(&col, "[%5s|%-3d|%c]", "ab", 7, 0), 13);
	assert_int_equal(col.n, 13);
	assert_memory_equal(col.text, "[   ab|7  |\0]", 13);
}

static int call_vsnprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int call_vsnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

static void test_vsnprintf(void **state)
{
	char buf[8];

	(void)state;
	assert_int_equal(call_vsnprintf(buf, sizeof(buf), "%s=%u", "pmc", 3u), 5);
	assert_string_equal(buf, "pmc=3");
	assert_int_equal(call_vsnprintf(buf, 3, "%s=%u", "pmc", 3u), 5);
	assert_string_equal(buf, "pm");
}

/* ---- agreement with the host C library --------------------------------- */

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const char *const sweep_flags[] = {
	"", "-", "0", "+", " ", "#", "-+", "0+", "0 ", "-#", "0#", "+ ", "-0",
};
static const char *const sweep_widths[] = { "", "1", "7", "25" };
static const char *const sweep_precs[] = { "", ".", ".0", ".1", ".5", ".23" };
static const char *const sweep_lengths[] = {
	"hh", "h", "", "l", "ll", "z", "j", "t",
};
static const char sweep_convs[] = "diuxXo";
static const long long sweep_values[] = {
	0, 1, -1, 7, 8, -8, 42, 255, 256, -129, 65535, 65536, INT_MAX,
	INT_MIN, (long long)UINT_MAX, 0x123456789abcdefLL, LLONG_MAX, LLONG_MIN,
};

static int both_format(char *ours, char *host, size_t size,
		       const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* 0 when ours and the host's return the same length. */
static int both_format(char *ours, char *host, size_t size,
		       const char *fmt, ...)
{
	va_list ap, aq;
	int n_ours, n_host;

	va_start(ap, fmt);
	va_copy(aq, ap);
	n_ours = vsnprintf(ours, size, fmt, ap);
	n_host = host_vsnprintf(host, size, fmt, aq);
	va_end(aq);
	va_end(ap);
	return n_ours == n_host ? 0 : -1;
}

/* Passes v as the type the length modifier names. */
static int both_format_int(char *ours, char *host, size_t size,
			   const char *fmt, const char *len, long long v)
{
	if (strcmp(len, "l") == 0)
		return both_format(ours, host, size, fmt, (long)v);
	if (strcmp(len, "ll") == 0)
		return both_format(ours, host, size, fmt, v);
	if (strcmp(len, "z") == 0)
		return both_format(ours, host, size, fmt, (size_t)v);
	if (strcmp(len, "j") == 0)
		return both_format(ours, host, size, fmt, (intmax_t)v);
	if (strcmp(len, "t") == 0)
		return both_format(ours, host, size, fmt, (ptrdiff_t)v);
	return both_format(ours, host, size, fmt, (int)v);
}

static void check_same(const char *fmt, const char *ours, const char *host,
		       int same_len)
{
	if (!same_len || strcmp(ours, host) != 0)
		fail_msg("format \"%s\": ours \"%s\", host \"%s\"", fmt, ours, host);
}

static void sweep_one_int(const char *flags, const char *width,
			  const char *prec, const char *len, char conv)
{
	char fmt[32], ours[64], host[64];
	size_t i;

	/* Through ours, which must agree with the host on the format too. */
	snprintf(fmt, sizeof(fmt), "%%%s%s%s%s%c", flags, width, prec, len, conv);
	for (i = 0; i < N(sweep_values); i++) {
		int same = both_format_int(ours, host, sizeof(ours), fmt, len,
					   sweep_values[i]) == 0;

		check_same(fmt, ours, host, same);
	}
}

static void test_sweep_integers(void **state)
{
	size_t f, w, p, l;
	const char *c;

	(void)state;
	for (f = 0; f < N(sweep_flags); f++)
		for (w = 0; w < N(sweep_widths); w++)
			for (p = 0; p < N(sweep_precs); p++)
				for (l = 0; l < N(sweep_lengths); l++)
					for (c = sweep_convs; *c; c++)
						sweep_one_int(sweep_flags[f],
							      sweep_widths[w],
							      sweep_precs[p],
							      sweep_lengths[l], *c);
}

static void test_sweep_strings(void **state)
{
	static const char *const strs[] = { "", "a", "tally", "performance counter" };
	static const char *const flags[] = { "", "-" };
	char fmt[32], ours[64], host[64];
	size_t f, w, p, s;

	(void)state;
	for (f = 0; f < N(flags); f++)
		for (w = 0; w < N(sweep_widths); w++)
			for (p = 0; p < N(sweep_precs); p++)
				for (s = 0; s < N(strs); s++) {
					snprintf(fmt, sizeof(fmt), "[%%%s%s%ss]", flags[f],
						 sweep_widths[w], sweep_precs[p]);
					check_same(fmt, ours, host,
						   both_format(ours, host, sizeof(ours),
							       fmt, strs[s]) == 0);
				}
}

static void test_sweep_truncation(void **state)
{
	char ours[32], host[32];
	size_t size;

	(void)state;
	for (size = 1; size <= sizeof(ours); size++) {
		memset(ours, GUARD, sizeof(ours));
		check_same("truncated", ours, host,
			   both_format(ours, host, size, "%s:%-6d|%#llx", "cpu0",
				       -42, 0xfeedfacecafeull) == 0);
		if (size < sizeof(ours))
			assert_int_equal(ours[size], GUARD);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_text),
		cmocka_unit_test(test_signed),
		cmocka_unit_test(test_unsigned),
		cmocka_unit_test(test_length_modifiers),
		cmocka_unit_test(test_width_and_flags),
		cmocka_unit_test(test_alternate_form),
		cmocka_unit_test(test_precision),
		cmocka_unit_test(test_precision_unterminated),
		cmocka_unit_test(test_star),
		cmocka_unit_test(test_null_string),
		cmocka_unit_test(test_char),
		cmocka_unit_test(test_char_nul),
		cmocka_unit_test(test_pointer),
		cmocka_unit_test(test_unknown_conversion),
		cmocka_unit_test(test_truncation),
		cmocka_unit_test(test_size_zero),
		cmocka_unit_test(test_vcbprintf),
		cmocka_unit_test(test_vsnprintf),
		cmocka_unit_test(test_sweep_integers),
		cmocka_unit_test(test_sweep_strings),
		cmocka_unit_test(test_sweep_truncation),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
