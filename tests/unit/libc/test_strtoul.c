/*
 * test_strtoul.c - libc/strtoul.c (strto*, parse_u64/parse_i64) and
 * libc/abs.c, the rest of stdlib.h.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* The host C library's, hidden by host_libc.h's renames, to compare with. */
unsigned long long host_strtoull(const char *s, char **endp, int base)
	__asm__("strtoull");
long long host_strtoll(const char *s, char **endp, int base)
	__asm__("strtoll");

/* Outcome of one strto*_e call; err starts at a value no call reports. */
struct res {
	unsigned long long u;
	long long i;
	ptrdiff_t end;
	int err;
};

static struct res ull(const char *s, int base)
{
	struct res r = { .err = 999 };
	char *end;

	r.u = strtoull_e(s, &end, base, &r.err);
	r.end = end - s;
	return r;
}

static struct res sll(const char *s, int base)
{
	struct res r = { .err = 999 };
	char *end;

	r.i = strtoll_e(s, &end, base, &r.err);
	r.end = end - s;
	return r;
}

static struct res ul(const char *s, int base)
{
	struct res r = { .err = 999 };
	char *end;

	r.u = strtoul_e(s, &end, base, &r.err);
	r.end = end - s;
	return r;
}

#define ASSERT_U(r, val, endoff, errv)                 \
	do {                                           \
		struct res r_ = (r);                   \
		assert_int_equal(r_.u, (val));         \
		assert_int_equal(r_.end, (endoff));    \
		assert_int_equal(r_.err, (errv));      \
	} while (0)

#define ASSERT_I(r, val, endoff, errv)                 \
	do {                                           \
		struct res r_ = (r);                   \
		assert_true(r_.i == (val));            \
		assert_int_equal(r_.end, (endoff));    \
		assert_int_equal(r_.err, (errv));      \
	} while (0)

static void test_decimal(void **state)
{
	(void)state;
	ASSERT_U(ull("123", 10), 123, 3, 0);
	ASSERT_U(ull("0", 10), 0, 1, 0);
	ASSERT_U(ull("007", 10), 7, 3, 0);
	ASSERT_U(ull("+7", 10), 7, 2, 0);
	/* Leading space is skipped; the end is just past the digits. */
	ASSERT_U(ull(" \t\n\v\f\r42 rest", 10), 42, 8, 0);
	ASSERT_U(ull("42abc", 10), 42, 2, 0);
	ASSERT_I(sll("  -42x", 10), -42, 5, 0);
	ASSERT_U(ul("4096", 0), 4096, 4, 0);
}

static void test_base_prefixes(void **state)
{
	(void)state;
	ASSERT_U(ull("0x1F", 0), 31, 4, 0);
	ASSERT_U(ull("0X1f", 0), 31, 4, 0);
	ASSERT_U(ull("0x10", 16), 16, 4, 0);
	ASSERT_U(ull("017", 0), 15, 3, 0);
	ASSERT_U(ull("0", 0), 0, 1, 0);
	ASSERT_U(ull("10", 0), 10, 2, 0);
	/* Base 0 with a leading 0 is octal, which has no 8. */
	ASSERT_U(ull("08", 0), 0, 1, 0);
	/* "0x" with no hex digit after it is the number 0, then junk. */
	ASSERT_U(ull("0x", 0), 0, 1, 0);
	ASSERT_U(ull("0xg", 16), 0, 1, 0);
	ASSERT_U(ull("  0x", 0), 0, 3, 0);
	/* The prefix belongs to base 16 only. */
	ASSERT_U(ull("0x10", 10), 0, 1, 0);
	ASSERT_I(sll("-0x10", 0), -16, 5, 0);
	ASSERT_I(sll("+010", 0), 8, 4, 0);
}

static void test_other_bases(void **state)
{
	(void)state;
	ASSERT_U(ull("ff", 16), 255, 2, 0);
	ASSERT_U(ull("FF", 16), 255, 2, 0);
	ASSERT_U(ull("1012", 2), 5, 3, 0);
	ASSERT_U(ull("777", 8), 511, 3, 0);
	ASSERT_U(ull("zz", 36), 1295, 2, 0);
	ASSERT_U(ull("ZZ", 36), 1295, 2, 0);
	ASSERT_U(ull("abc", 11), 10, 1, 0);
	ASSERT_U(ull("11111111111111111111111111111111"
		     "11111111111111111111111111111111", 2), UINT64_MAX, 64, 0);
}

static void test_bad_base(void **state)
{
	(void)state;
	ASSERT_U(ull("10", 1), 0, 0, EINVAL);
	ASSERT_U(ull("10", 37), 0, 0, EINVAL);
	ASSERT_U(ull("10", -1), 0, 0, EINVAL);
	ASSERT_I(sll("10", 99), 0, 0, EINVAL);
}

static void test_no_digits(void **state)
{
	(void)state;
	/* The end is the start of the input, not after the skipped space. */
	ASSERT_U(ull("", 10), 0, 0, EINVAL);
	ASSERT_U(ull("   ", 10), 0, 0, EINVAL);
	ASSERT_U(ull("-", 10), 0, 0, EINVAL);
	ASSERT_U(ull("+", 0), 0, 0, EINVAL);
	ASSERT_U(ull("x", 0), 0, 0, EINVAL);
	ASSERT_U(ull("  -x", 10), 0, 0, EINVAL);
	ASSERT_U(ull("+-1", 10), 0, 0, EINVAL);
	ASSERT_U(ull("g", 16), 0, 0, EINVAL);
	ASSERT_I(sll("--1", 10), 0, 0, EINVAL);
}

static void test_unsigned_overflow(void **state)
{
	(void)state;
	ASSERT_U(ull("18446744073709551615", 10), UINT64_MAX, 20, 0);
	ASSERT_U(ull("18446744073709551616", 10), UINT64_MAX, 20, ERANGE);
	ASSERT_U(ull("0xffffffffffffffff", 0), UINT64_MAX, 18, 0);
	ASSERT_U(ull("0x10000000000000000", 0), UINT64_MAX, 19, ERANGE);
	ASSERT_U(ull("1777777777777777777777", 8), UINT64_MAX, 22, 0);
	ASSERT_U(ull("2000000000000000000000", 8), UINT64_MAX, 22, ERANGE);
	/* Every digit is consumed even after overflow. */
	ASSERT_U(ull("99999999999999999999999abc", 10), UINT64_MAX, 23, ERANGE);
	/* Overflow with a minus sign still saturates to the maximum. */
	ASSERT_U(ull("-18446744073709551616", 10), UINT64_MAX, 21, ERANGE);
}

static void test_unsigned_negation(void **state)
{
	(void)state;
	/* C: a minus sign negates in the unsigned type. */
	ASSERT_U(ull("-1", 10), UINT64_MAX, 2, 0);
	ASSERT_U(ull("-18446744073709551615", 10), 1, 21, 0);
	ASSERT_U(ull("-0", 10), 0, 2, 0);
	ASSERT_U(ul("-1", 10), ULONG_MAX, 2, 0);
}

static void test_signed_range(void **state)
{
	(void)state;
	ASSERT_I(sll("9223372036854775807", 10), LLONG_MAX, 19, 0);
	ASSERT_I(sll("9223372036854775808", 10), LLONG_MAX, 19, ERANGE);
	ASSERT_I(sll("-9223372036854775808", 10), LLONG_MIN, 20, 0);
	ASSERT_I(sll("-9223372036854775809", 10), LLONG_MIN, 20, ERANGE);
	ASSERT_I(sll("-0x8000000000000000", 0), LLONG_MIN, 19, 0);
	ASSERT_I(sll("99999999999999999999999", 10), LLONG_MAX, 23, ERANGE);
	ASSERT_I(sll("-99999999999999999999999", 10), LLONG_MIN, 24, ERANGE);
}

static void test_plain_wrappers(void **state)
{
	char *end;

	(void)state;
	assert_int_equal(strtoul("0x2a!", &end, 0), 42);
	assert_int_equal(*end, '!');
	assert_int_equal(strtoull("777", NULL, 8), 511);
	assert_true(strtoll("-12", NULL, 10) == -12);
	/* No error slot: the saturated value alone tells of overflow. */
	assert_int_equal(strtoull("99999999999999999999", NULL, 10), UINT64_MAX);
	/* A NULL end pointer is allowed in the _e forms too. */
	assert_int_equal(strtoull_e("5", NULL, 10, NULL), 5);
}

static void test_parse_u64(void **state)
{
	uint64_t v = 77;

	(void)state;
	assert_int_equal(parse_u64("123", 10, &v), 0);
	assert_int_equal(v, 123);
	assert_int_equal(parse_u64("0x10", 0, &v), 0);
	assert_int_equal(v, 16);
	assert_int_equal(parse_u64("ff", 16, &v), 0);
	assert_int_equal(v, 255);
	assert_int_equal(parse_u64("+5", 10, &v), 0);
	assert_int_equal(v, 5);
	assert_int_equal(parse_u64("18446744073709551615", 10, &v), 0);
	assert_int_equal(v, UINT64_MAX);
	assert_int_equal(parse_u64("0", 0, &v), 0);
	assert_int_equal(v, 0);
}

static void test_parse_u64_errors(void **state)
{
	static const char *const invalid[] = {
		"", " ", "12x", " 12", "12 ", "-1", "-0", "0x", "x10", "+",
		"++1", "1 2", "ff",
	};
	uint64_t v = 77;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(invalid) / sizeof(invalid[0]); i++) {
		if (parse_u64(invalid[i], 0, &v) != -EINVAL)
			fail_msg("parse_u64(\"%s\") should be -EINVAL", invalid[i]);
	}
	assert_int_equal(parse_u64("19", 8, &v), -EINVAL);
	assert_int_equal(parse_u64("10", 1, &v), -EINVAL);
	assert_int_equal(parse_u64("18446744073709551616", 10, &v), -ERANGE);
	/* Junk outranks range: this is not a number at all. */
	assert_int_equal(parse_u64("99999999999999999999x", 10, &v), -EINVAL);
	/* Nothing is stored on error. */
	assert_int_equal(v, 77);
}

static void test_parse_i64(void **state)
{
	int64_t v = 77;

	(void)state;
	assert_int_equal(parse_i64("-42", 10, &v), 0);
	assert_true(v == -42);
	assert_int_equal(parse_i64("-0x10", 0, &v), 0);
	assert_true(v == -16);
	assert_int_equal(parse_i64("-9223372036854775808", 10, &v), 0);
	assert_true(v == INT64_MIN);
	assert_int_equal(parse_i64("9223372036854775807", 10, &v), 0);
	assert_true(v == INT64_MAX);

	v = 77;
	assert_int_equal(parse_i64("9223372036854775808", 10, &v), -ERANGE);
	assert_int_equal(parse_i64("-9223372036854775809", 10, &v), -ERANGE);
	assert_int_equal(parse_i64("-", 10, &v), -EINVAL);
	assert_int_equal(parse_i64("--1", 10, &v), -EINVAL);
	assert_int_equal(parse_i64(" -1", 10, &v), -EINVAL);
	assert_int_equal(parse_i64("-1 ", 10, &v), -EINVAL);
	assert_int_equal(parse_i64("", 10, &v), -EINVAL);
	assert_true(v == 77);
}

static void test_abs(void **state)
{
	(void)state;
	assert_int_equal(abs(5), 5);
	assert_int_equal(abs(-5), 5);
	assert_int_equal(abs(0), 0);
	assert_int_equal(abs(INT_MAX), INT_MAX);
	assert_int_equal(abs(-INT_MAX), INT_MAX);
	/* No defined answer exists; ours must at least not trap (UBSan). */
	assert_true(abs(INT_MIN) == INT_MIN);
}

/* ---- agreement with the host C library --------------------------------- */

static const char *const sweep_inputs[] = {
	"", " ", "0", "1", "-1", "+1", "  42", "\t-7z", "007", "08", "0x", "0X",
	"0x1g", "0xG", "-0x", "z", "Zz9", "10", "777", "ff", "0b101",
	"9223372036854775807", "9223372036854775808", "-9223372036854775808",
	"-9223372036854775809", "18446744073709551615", "18446744073709551616",
	"-18446744073709551615", "0xffffffffffffffff", "0x1ffffffffffffffff",
	"1777777777777777777777", "2000000000000000000000",
	"3w5e11264sgsf", "3w5e11264sgsg", "99999999999999999999999999x", "- 1",
	"+-1", "1 2", "\x80" "1",
};
static const int sweep_bases[] = { 0, 2, 8, 10, 16, 36 };

static void sweep_one(const char *s, int base)
{
	struct res o = ull(s, base), p = sll(s, base);
	char *hend;
	unsigned long long hu;
	long long hi;
	int herr;

	errno = 0;
	hu = host_strtoull(s, &hend, base);
	herr = errno;
	if (o.u != hu || o.end != hend - s || (o.err == ERANGE) != (herr == ERANGE))
		fail_msg("strtoull(\"%s\", %d): ours %llu end %td err %d, "
			 "host %llu end %td errno %d",
			 s, base, o.u, o.end, o.err, hu, hend - s, herr);
	errno = 0;
	hi = host_strtoll(s, &hend, base);
	herr = errno;
	if (p.i != hi || p.end != hend - s || (p.err == ERANGE) != (herr == ERANGE))
		fail_msg("strtoll(\"%s\", %d): ours %lld end %td err %d, "
			 "host %lld end %td errno %d",
			 s, base, p.i, p.end, p.err, hi, hend - s, herr);
}

static void test_sweep_against_host(void **state)
{
	size_t i, b;

	(void)state;
	for (i = 0; i < sizeof(sweep_inputs) / sizeof(sweep_inputs[0]); i++)
		for (b = 0; b < sizeof(sweep_bases) / sizeof(sweep_bases[0]); b++)
			sweep_one(sweep_inputs[i], sweep_bases[b]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decimal),
		cmocka_unit_test(test_base_prefixes),
		cmocka_unit_test(test_other_bases),
		cmocka_unit_test(test_bad_base),
		cmocka_unit_test(test_no_digits),
		cmocka_unit_test(test_unsigned_overflow),
		cmocka_unit_test(test_unsigned_negation),
		cmocka_unit_test(test_signed_range),
		cmocka_unit_test(test_plain_wrappers),
		cmocka_unit_test(test_parse_u64),
		cmocka_unit_test(test_parse_u64_errors),
		cmocka_unit_test(test_parse_i64),
		cmocka_unit_test(test_abs),
		cmocka_unit_test(test_sweep_against_host),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
