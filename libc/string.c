/*
 * string.c - memory and string functions for kernel and user programs.
 *
 * memcpy, memmove and memset move a machine word at a time: the hwperf
 * read copies 768 bytes and the page allocator clears 4 KiB, and a byte
 * loop costs three or four instructions a byte there.  Each aligns the
 * destination with a byte head, moves whole words, and finishes with a
 * byte tail.  The source is read with aligned loads when it shares the
 * destination's alignment and through a packed type otherwise, which the
 * compiler turns into what the machine allows (a plain load on x86, the
 * lwl/lwr pair on MIPS).  The rest are plain byte loops: nothing hot.
 */
#include <string.h>
#include <stdint.h>

/*
 * Without -ffreestanding, GCC at -O2 replaces a byte-copy or byte-fill loop
 * with a call to memcpy or memset, which inside memcpy and memset is endless
 * recursion.  The kernel flags prevent it today; the attribute keeps these
 * functions right under any flags.  Clang never calls a function from its
 * own body this way and rejects GCC's optimize attribute, hence the guard.
 */
#if defined(__GNUC__) && !defined(__clang__)
#define NO_LOOP_TO_CALL __attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define NO_LOOP_TO_CALL
#endif

/* A word that may alias any object (the callers' buffers have any type). */
typedef uintptr_t __attribute__((may_alias)) word_t;
/* The same word at any address. */
struct __attribute__((packed, may_alias)) uword {
	word_t v;
};

#define WSIZE sizeof(word_t)
#define WMASK ((uintptr_t)WSIZE - 1)
/* Below this many bytes aligning costs more than words save. */
#define WORD_MIN (2 * WSIZE)

static inline word_t load_any(const unsigned char *s)
{
	return ((const struct uword *)(const void *)s)->v;
}

/*
 * Front to back.  Safe for memmove when dst is below src: every word is
 * loaded before the store that could overlap it, and the types may alias,
 * so the compiler keeps that order.
 */
NO_LOOP_TO_CALL
static void copy_forward(unsigned char *d, const unsigned char *s, size_t n)
{
	if (n >= WORD_MIN) {
		while ((uintptr_t)d & WMASK) {
			*d++ = *s++;
			n--;
		}
		if (((uintptr_t)s & WMASK) == 0) {
			/* Eight words a turn: the loop's own adds, compare
			 * and branch then cost an eighth as much per word (a
			 * 768-byte counter set on x86_64: 499 instructions a
			 * word a turn, 314 four a turn, about 250 eight). */
			word_t *dw = (word_t *)(void *)d;
			const word_t *sw = (const word_t *)(const void *)s;

			for (; n >= 8 * WSIZE; n -= 8 * WSIZE, dw += 8, sw += 8) {
				word_t a = sw[0], b = sw[1], c = sw[2], e = sw[3];
				word_t f = sw[4], g = sw[5], h = sw[6], i = sw[7];

				dw[0] = a;
				dw[1] = b;
				dw[2] = c;
				dw[3] = e;
				dw[4] = f;
				dw[5] = g;
				dw[6] = h;
				dw[7] = i;
			}
			for (; n >= WSIZE; n -= WSIZE)
				*dw++ = *sw++;
			d = (unsigned char *)dw;
			s = (const unsigned char *)sw;
		} else {
			for (; n >= WSIZE; n -= WSIZE, d += WSIZE, s += WSIZE)
				*(word_t *)(void *)d = load_any(s);
		}
	}
	while (n--)
		*d++ = *s++;
}

/* Back to front, for memmove when dst is above src: the mirror image. */
NO_LOOP_TO_CALL
static void copy_backward(unsigned char *d, const unsigned char *s, size_t n)
{
	d += n;
	s += n;
	if (n >= WORD_MIN) {
		while ((uintptr_t)d & WMASK) {
			*--d = *--s;
			n--;
		}
		if (((uintptr_t)s & WMASK) == 0) {
			for (; n >= WSIZE; n -= WSIZE) {
				d -= WSIZE;
				s -= WSIZE;
				*(word_t *)(void *)d = *(const word_t *)(const void *)s;
			}
		} else {
			for (; n >= WSIZE; n -= WSIZE) {
				d -= WSIZE;
				s -= WSIZE;
				*(word_t *)(void *)d = load_any(s);
			}
		}
	}
	while (n--)
		*--d = *--s;
}

NO_LOOP_TO_CALL
void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	copy_forward(dst, src, n);
	return dst;
}

NO_LOOP_TO_CALL
void *memmove(void *dst, const void *src, size_t n)
{
	/* Compare as integers: relational operators on pointers into
	 * different objects are undefined.  Destination above source and
	 * overlapping: copy from the end so that no byte is overwritten
	 * before it has been read. */
	if ((uintptr_t)dst - (uintptr_t)src >= n)
		copy_forward(dst, src, n);
	else
		copy_backward(dst, src, n);
	return dst;
}

NO_LOOP_TO_CALL
void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;
	unsigned char b = (unsigned char)c;

	if (n >= WORD_MIN) {
		/* The byte in every lane: 0x0101...01 times b. */
		word_t w = (word_t)(~(uintptr_t)0 / 0xff) * b;

		while ((uintptr_t)d & WMASK) {
			*d++ = b;
			n--;
		}
		for (; n >= WSIZE; n -= WSIZE, d += WSIZE)
			*(word_t *)(void *)d = w;
	}
	while (n--)
		*d++ = b;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *p = a, *q = b;

	for (; n; n--, p++, q++) {
		if (*p != *q)
			return *p < *q ? -1 : 1;
	}
	return 0;
}

void *memchr(const void *s, int c, size_t n)
{
	const unsigned char *p = s;

	for (; n; n--, p++) {
		if (*p == (unsigned char)c)
			return (void *)p;
	}
	return NULL;
}

size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return (size_t)(p - s);
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

/* C orders strings by unsigned char, so "\x80" sorts after "a". */
int strcmp(const char *a, const char *b)
{
	return strncmp(a, b, SIZE_MAX);
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		unsigned char x = (unsigned char)*a, y = (unsigned char)*b;

		if (x != y)
			return x < y ? -1 : 1;
		if (x == '\0')
			break;
	}
	return 0;
}

/* The terminator counts as part of the string: strchr(s, 0) finds it. */
char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (*s == '\0')
			return NULL;
	}
}

char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	for (;; s++) {
		if (*s == (char)c)
			last = s;
		if (*s == '\0')
			return (char *)last;
	}
}

/* Quadratic in the worst case; haystacks here are command lines. */
char *strstr(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++) {
		if (strncmp(hay, needle, n) == 0)
			return (char *)hay;
	}
	return n == 0 ? (char *)hay : NULL;
}

size_t strlcpy(char *restrict dst, const char *restrict src, size_t size)
{
	size_t len = strlen(src);

	if (size > 0) {
		size_t n = len < size - 1 ? len : size - 1;

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}

/*
 * Returns the length the concatenation would have had, so callers detect
 * truncation with `>= size`.  A dst with no terminator within size is left
 * untouched, as it cannot be appended to safely.
 */
size_t strlcat(char *restrict dst, const char *restrict src, size_t size)
{
	size_t dlen = strnlen(dst, size);

	if (dlen == size)
		return size + strlen(src);
	return dlen + strlcpy(dst + dlen, src, size - dlen);
}

size_t strspn(const char *s, const char *accept)
{
	size_t n = 0;

	while (s[n] && strchr(accept, s[n]))
		n++;
	return n;
}

size_t strcspn(const char *s, const char *reject)
{
	size_t n = 0;

	while (s[n] && !strchr(reject, s[n]))
		n++;
	return n;
}
