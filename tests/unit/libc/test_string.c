/* test_string.c - libc/string.c: memory and string functions. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

/* Bytes around a buffer that no function may touch. */
#define GUARD 0x5a

static void fill_guarded(char *buf, size_t len)
{
	memset(buf, GUARD, len);
}

static void test_memcpy(void **state)
{
	char src[] = "abcdef";
	char dst[8];

	(void)state;
	fill_guarded(dst, sizeof(dst));
	assert_ptr_equal(memcpy(dst, src, 3), dst);
	assert_memory_equal(dst, "abc", 3);
	assert_int_equal(dst[3], GUARD);

	/* n == 0 copies nothing. */
	assert_ptr_equal(memcpy(dst, src + 3, 0), dst);
	assert_memory_equal(dst, "abc", 3);
}

/*
 * The word-at-a-time paths against a byte-by-byte reference: every
 * alignment of destination and source within a word (0..7 covers both
 * machines' words), every length from none to past eight words, with
 * guard bytes on both sides that must come through untouched.
 */
#define SWEEP_ALIGN 8
#define SWEEP_LEN 68
#define SWEEP_PAD 16
#define SWEEP_BUF (SWEEP_PAD + SWEEP_ALIGN + SWEEP_LEN + SWEEP_PAD)

static unsigned char pattern_byte(size_t i)
{
	return (unsigned char)(i * 7 + 1);     /* no two neighbours alike */
}

static void test_memcpy_sweep(void **state)
{
	_Alignas(16) unsigned char src[SWEEP_BUF], dst[SWEEP_BUF], want[SWEEP_BUF];

	(void)state;
	for (size_t i = 0; i < SWEEP_BUF; i++)
		src[i] = pattern_byte(i);
	for (size_t da = 0; da < SWEEP_ALIGN; da++)
		for (size_t sa = 0; sa < SWEEP_ALIGN; sa++)
			for (size_t n = 0; n < SWEEP_LEN; n++) {
				unsigned char *d = dst + SWEEP_PAD + da;
				const unsigned char *s = src + SWEEP_PAD + sa;

				for (size_t i = 0; i < SWEEP_BUF; i++)
					dst[i] = want[i] = GUARD;
				for (size_t i = 0; i < n; i++)
					want[SWEEP_PAD + da + i] = s[i];
				assert_ptr_equal(memcpy(d, s, n), d);
				assert_memory_equal(dst, want, SWEEP_BUF);
			}
}

static void test_memset_sweep(void **state)
{
	_Alignas(16) unsigned char dst[SWEEP_BUF], want[SWEEP_BUF];
	/* 0x1ab: only the low byte counts, as C says. */
	static const int values[] = { 0, 0xff, 0x5c, 0x1ab, -1 };

	(void)state;
	for (size_t v = 0; v < sizeof(values) / sizeof(values[0]); v++)
		for (size_t da = 0; da < SWEEP_ALIGN; da++)
			for (size_t n = 0; n < SWEEP_LEN; n++) {
				unsigned char *d = dst + SWEEP_PAD + da;

				for (size_t i = 0; i < SWEEP_BUF; i++)
					dst[i] = want[i] = GUARD;
				for (size_t i = 0; i < n; i++)
					want[SWEEP_PAD + da + i] = (unsigned char)values[v];
				assert_ptr_equal(memset(d, values[v], n), d);
				assert_memory_equal(dst, want, SWEEP_BUF);
			}
}

/*
 * memmove within one buffer: source and destination at every pair of
 * offsets in the first two words and a half plus far apart, so the
 * overlap runs from none through partial to total in both directions.
 */
static void test_memmove_sweep(void **state)
{
	enum { SPAN = 2 * SWEEP_ALIGN + 4, FAR = SWEEP_LEN };
	_Alignas(16) unsigned char buf[SWEEP_PAD + SPAN + FAR + SWEEP_LEN + SWEEP_PAD];
	unsigned char want[sizeof(buf)], orig[sizeof(buf)];
	static const size_t extra[] = { 0, FAR };

	(void)state;
	for (size_t i = 0; i < sizeof(buf); i++)
		orig[i] = pattern_byte(i);
	for (size_t x = 0; x < 2; x++)
		for (size_t so = 0; so < SPAN; so++)
			for (size_t dof = 0; dof < SPAN; dof++)
				for (size_t n = 0; n < SWEEP_LEN; n++) {
					size_t sp = SWEEP_PAD + so, dp = SWEEP_PAD + dof + extra[x];

					if (x == 1 && (so + dof) % 2) {  /* far below too */
						sp = SWEEP_PAD + so + FAR;
						dp = SWEEP_PAD + dof;
					}
					for (size_t i = 0; i < sizeof(buf); i++)
						buf[i] = want[i] = orig[i];
					/* The reference: what the source held before. */
					for (size_t i = 0; i < n; i++)
						want[dp + i] = orig[sp + i];
					assert_ptr_equal(memmove(buf + dp, buf + sp, n), buf + dp);
					assert_memory_equal(buf, want, sizeof(buf));
				}
}

static void test_memmove_overlap_up(void **state)
{
	char buf[] = "0123456789";

	(void)state;
	/* Destination above source: a forward copy would smear "0000...". */
	assert_ptr_equal(memmove(buf + 2, buf, 6), buf + 2);
	assert_string_equal(buf, "0101234589");
}

static void test_memmove_overlap_down(void **state)
{
	char buf[] = "0123456789";

	(void)state;
	assert_ptr_equal(memmove(buf, buf + 3, 7), buf);
	assert_string_equal(buf, "3456789789");
}

static void test_memmove_same_and_empty(void **state)
{
	char buf[] = "abc";

	(void)state;
	memmove(buf, buf, 3);
	assert_string_equal(buf, "abc");
	memmove(buf + 1, buf, 0);
	assert_string_equal(buf, "abc");
}

static void test_memset(void **state)
{
	unsigned char buf[6];

	(void)state;
	memset(buf, GUARD, sizeof(buf));
	/* Only the low byte of c is stored. */
	assert_ptr_equal(memset(buf + 1, 0x1ff, 4), buf + 1);
	assert_int_equal(buf[0], GUARD);
	assert_int_equal(buf[1], 0xff);
	assert_int_equal(buf[4], 0xff);
	assert_int_equal(buf[5], GUARD);
	memset(buf, 0, 0);
	assert_int_equal(buf[0], GUARD);
}

static void test_memcmp(void **state)
{
	(void)state;
	assert_int_equal(memcmp("abc", "abc", 3), 0);
	assert_true(memcmp("abc", "abd", 3) < 0);
	assert_true(memcmp("abd", "abc", 3) > 0);
	/* Bytes compare as unsigned: 0x80 is greater than 0x01. */
	assert_true(memcmp("\x80", "\x01", 1) > 0);
	assert_int_equal(memcmp("abc", "abd", 2), 0);
	assert_int_equal(memcmp("x", "y", 0), 0);
	/* Embedded NULs are data, not terminators. */
	assert_true(memcmp("a\0b", "a\0c", 3) < 0);
}

static void test_memchr(void **state)
{
	const char s[] = "hello\x80world";

	(void)state;
	assert_ptr_equal(memchr(s, 'l', sizeof(s)), s + 2);
	assert_null(memchr(s, 'w', 6));
	assert_ptr_equal(memchr(s, 'w', 7), s + 6);
	/* c is converted to unsigned char: -128 and 0x180 both find 0x80. */
	assert_ptr_equal(memchr(s, -128, sizeof(s)), s + 5);
	assert_ptr_equal(memchr(s, 0x180, sizeof(s)), s + 5);
	assert_ptr_equal(memchr(s, '\0', sizeof(s)), s + sizeof(s) - 1);
	assert_null(memchr(s, 'h', 0));
}

static void test_strlen_strnlen(void **state)
{
	const char unterminated[4] = { 'a', 'b', 'c', 'd' };

	(void)state;
	assert_int_equal(strlen(""), 0);
	assert_int_equal(strlen("tally"), 5);
	assert_int_equal(strnlen("tally", 3), 3);
	assert_int_equal(strnlen("tally", 99), 5);
	assert_int_equal(strnlen("tally", 0), 0);
	/* strnlen must not read past max (ASan checks it here). */
	assert_int_equal(strnlen(unterminated, sizeof(unterminated)), 4);
}

static void test_strcmp(void **state)
{
	(void)state;
	assert_int_equal(strcmp("", ""), 0);
	assert_int_equal(strcmp("abc", "abc"), 0);
	assert_true(strcmp("abc", "abd") < 0);
	assert_true(strcmp("abd", "abc") > 0);
	/* A prefix sorts first. */
	assert_true(strcmp("ab", "abc") < 0);
	assert_true(strcmp("abc", "ab") > 0);
	assert_true(strcmp("", "a") < 0);
	/* Unsigned order: "\x80" after "a". */
	assert_true(strcmp("\x80", "a") > 0);
}

static void test_strncmp(void **state)
{
	(void)state;
	assert_int_equal(strncmp("abcX", "abcY", 3), 0);
	assert_true(strncmp("abcX", "abcY", 4) < 0);
	assert_int_equal(strncmp("a", "b", 0), 0);
	/* Stops at the terminator even when n is larger. */
	assert_int_equal(strncmp("ab", "ab", 100), 0);
	assert_true(strncmp("ab", "abc", 100) < 0);
	assert_true(strncmp("\xff", "\x01", 1) > 0);
}

static void test_strchr(void **state)
{
	const char *s = "a.b.c";

	(void)state;
	assert_ptr_equal(strchr(s, '.'), s + 1);
	assert_ptr_equal(strchr(s, 'a'), s);
	assert_null(strchr(s, 'z'));
	/* The terminator is part of the string. */
	assert_ptr_equal(strchr(s, '\0'), s + 5);
}

static void test_strchr_high_byte(void **state)
{
	const char *s = "x\xe9y";

	(void)state;
	/* c converts to char: 0xe9 and (char)0xe9 both find the byte. */
	assert_ptr_equal(strchr(s, 0xe9), s + 1);
	assert_ptr_equal(strchr(s, (char)0xe9), s + 1);
}

static void test_strrchr(void **state)
{
	const char *s = "a.b.c";

	(void)state;
	assert_ptr_equal(strrchr(s, '.'), s + 3);
	assert_ptr_equal(strrchr(s, 'a'), s);
	assert_null(strrchr(s, 'z'));
	assert_ptr_equal(strrchr(s, '\0'), s + 5);
	assert_null(strrchr("", 'a'));
}

static void test_strstr(void **state)
{
	const char *s = "aaab counter cycles";

	(void)state;
	assert_ptr_equal(strstr(s, ""), s);
	assert_ptr_equal(strstr("", ""), strstr("", ""));
	assert_string_equal(strstr("", ""), "");
	assert_null(strstr("", "a"));
	/* A false start ("aa" then 'a' not 'b') must not skip the match. */
	assert_ptr_equal(strstr(s, "aab"), s + 1);
	assert_ptr_equal(strstr(s, "cycles"), s + 13);
	assert_null(strstr(s, "cycless"));
	assert_null(strstr("ab", "abc"));
}

static void test_strlcpy_fits(void **state)
{
	char dst[8];

	(void)state;
	fill_guarded(dst, sizeof(dst));
	assert_int_equal(strlcpy(dst, "abc", sizeof(dst)), 3);
	assert_string_equal(dst, "abc");
	/* Exactly size - 1 characters still fit. */
	assert_int_equal(strlcpy(dst, "1234567", sizeof(dst)), 7);
	assert_string_equal(dst, "1234567");
}

static void test_strlcpy_truncates(void **state)
{
	char dst[8];

	(void)state;
	fill_guarded(dst, sizeof(dst));
	/* Returns strlen(src), so truncation shows as a result >= size. */
	assert_int_equal(strlcpy(dst, "performance", 5), 11);
	assert_string_equal(dst, "perf");
	assert_int_equal(dst[5], GUARD);

	assert_int_equal(strlcpy(dst, "xyz", 1), 3);
	assert_string_equal(dst, "");
	assert_int_equal(dst[1], 'e');
}

static void test_strlcpy_size_zero(void **state)
{
	char dst[4];

	(void)state;
	fill_guarded(dst, sizeof(dst));
	assert_int_equal(strlcpy(dst, "abc", 0), 3);
	assert_int_equal(dst[0], GUARD);
}

static void test_strlcat(void **state)
{
	char dst[8];

	(void)state;
	fill_guarded(dst, sizeof(dst));
	strlcpy(dst, "ab", sizeof(dst));
	assert_int_equal(strlcat(dst, "cd", sizeof(dst)), 4);
	assert_string_equal(dst, "abcd");
	/* Truncation: the result is the length it would have had. */
	assert_int_equal(strlcat(dst, "efghij", sizeof(dst)), 10);
	assert_string_equal(dst, "abcdefg");
	assert_int_equal(strlcat(dst, "", sizeof(dst)), 7);
	assert_string_equal(dst, "abcdefg");
}

static void test_strlcat_unterminated(void **state)
{
	char dst[8];

	(void)state;
	/* No NUL within size: nothing written, result size + strlen(src). */
	fill_guarded(dst, sizeof(dst));
	assert_int_equal(strlcat(dst, "abc", 4), 7);
	assert_int_equal(dst[0], GUARD);
	assert_int_equal(dst[3], GUARD);
	assert_int_equal(strlcat(dst, "abc", 0), 3);
	assert_int_equal(dst[0], GUARD);
}

static void test_strspn_strcspn(void **state)
{
	(void)state;
	assert_int_equal(strspn("  \tx y", " \t"), 3);
	assert_int_equal(strspn("abc", ""), 0);
	assert_int_equal(strspn("", "abc"), 0);
	assert_int_equal(strspn("aaa", "a"), 3);
	assert_int_equal(strcspn("key=value", "=:"), 3);
	assert_int_equal(strcspn("key", "=:"), 3);
	assert_int_equal(strcspn("key", ""), 3);
	assert_int_equal(strcspn("=x", "="), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memcpy),
		cmocka_unit_test(test_memcpy_sweep),
		cmocka_unit_test(test_memset_sweep),
		cmocka_unit_test(test_memmove_sweep),
		cmocka_unit_test(test_memmove_overlap_up),
		cmocka_unit_test(test_memmove_overlap_down),
		cmocka_unit_test(test_memmove_same_and_empty),
		cmocka_unit_test(test_memset),
		cmocka_unit_test(test_memcmp),
		cmocka_unit_test(test_memchr),
		cmocka_unit_test(test_strlen_strnlen),
		cmocka_unit_test(test_strcmp),
		cmocka_unit_test(test_strncmp),
		cmocka_unit_test(test_strchr),
		cmocka_unit_test(test_strchr_high_byte),
		cmocka_unit_test(test_strrchr),
		cmocka_unit_test(test_strstr),
		cmocka_unit_test(test_strlcpy_fits),
		cmocka_unit_test(test_strlcpy_truncates),
		cmocka_unit_test(test_strlcpy_size_zero),
		cmocka_unit_test(test_strlcat),
		cmocka_unit_test(test_strlcat_unterminated),
		cmocka_unit_test(test_strspn_strcspn),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
