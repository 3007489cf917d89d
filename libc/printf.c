/*
 * printf.c - the one formatter, and snprintf on top of it.
 *
 * vcbprintf hands every character to a callback, so the console, snprintf
 * and user programs share one implementation and none needs a buffer of
 * its own.  Integers are converted as 64-bit magnitudes by repeated
 * division: no floating point, which the kernel may not touch.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum {
	F_LEFT = 1 << 0,	/* '-' */
	F_ZERO = 1 << 1,	/* '0' */
	F_PLUS = 1 << 2,	/* '+' */
	F_SPACE = 1 << 3,	/* ' ' */
	F_ALT = 1 << 4,		/* '#' */
};

/* One parsed conversion.  len is one letter: H for hh, L for ll. */
struct spec {
	unsigned int flags;
	int width;
	int prec;		/* -1 when none was given */
	char len;
	char conv;
};

struct out {
	putc_fn put;
	void *arg;
	int count;
};

/* Octal of 2^64 - 1 is 22 digits, the longest any conversion makes. */
#define DIGITS_MAX 24

static void emit(struct out *o, char c)
{
	o->put(c, o->arg);
	o->count++;
}

static void emit_n(struct out *o, char c, int n)
{
	for (; n > 0; n--)
		emit(o, c);
}

static void emit_s(struct out *o, const char *s, int n)
{
	for (; n > 0; n--)
		emit(o, *s++);
}

/* ---- parsing a conversion specification -------------------------------- */

static const char *parse_flags(const char *f, unsigned int *flags)
{
	for (;; f++) {
		switch (*f) {
		case '-': *flags |= F_LEFT; break;
		case '0': *flags |= F_ZERO; break;
		case '+': *flags |= F_PLUS; break;
		case ' ': *flags |= F_SPACE; break;
		case '#': *flags |= F_ALT; break;
		default: return f;
		}
	}
}

/* Saturates instead of overflowing on absurd widths like %99999999999d. */
static const char *parse_num(const char *f, int *n)
{
	*n = 0;
	for (; *f >= '0' && *f <= '9'; f++)
		*n = *n > 100000000 ? *n : *n * 10 + (*f - '0');
	return f;
}

/* A negative '*' width means '-' plus the width, as C specifies. */
static const char *parse_width(const char *f, struct spec *sp, va_list *ap)
{
	if (*f != '*')
		return parse_num(f, &sp->width);
	sp->width = va_arg(*ap, int);
	if (sp->width < 0) {
		sp->flags |= F_LEFT;
		sp->width = sp->width == INT_MIN ? INT_MAX : -sp->width;
	}
	return f + 1;
}

/* A negative '*' precision counts as none at all. */
static const char *parse_prec(const char *f, struct spec *sp, va_list *ap)
{
	sp->prec = -1;
	if (*f != '.')
		return f;
	f++;
	if (*f != '*')
		return parse_num(f, &sp->prec);
	sp->prec = va_arg(*ap, int);
	if (sp->prec < 0)
		sp->prec = -1;
	return f + 1;
}

static const char *parse_len(const char *f, char *len)
{
	*len = 0;
	if ((f[0] == 'h' || f[0] == 'l') && f[1] == f[0]) {
		*len = f[0] == 'h' ? 'H' : 'L';
		return f + 2;
	}
	if (*f == 'h' || *f == 'l' || *f == 'z' || *f == 'j' || *f == 't')
		*len = *f++;
	return f;
}

/* f points just past the '%'; returns just past the conversion letter. */
static const char *parse_spec(const char *f, struct spec *sp, va_list *ap)
{
	sp->flags = 0;
	f = parse_flags(f, &sp->flags);
	f = parse_width(f, sp, ap);
	f = parse_prec(f, sp, ap);
	f = parse_len(f, &sp->len);
	sp->conv = *f;
	return *f ? f + 1 : f;
}

/* ---- fetching arguments ------------------------------------------------ */

/*
 * Arguments narrower than int arrive promoted to int; hh and h cut them
 * back.  z and t have no standard counterpart of the other signedness, so
 * they are read as the type of the same width and converted.
 */
static unsigned long long arg_unsigned(char len, va_list *ap)
{
	switch (len) {
	case 'H': return (unsigned char)va_arg(*ap, unsigned int);
	case 'h': return (unsigned short)va_arg(*ap, unsigned int);
	case 'l': return va_arg(*ap, unsigned long);
	case 'L': return va_arg(*ap, unsigned long long);
	case 'z': return va_arg(*ap, size_t);
	case 'j': return va_arg(*ap, uintmax_t);
	case 't': return (size_t)va_arg(*ap, ptrdiff_t);
	default: return va_arg(*ap, unsigned int);
	}
}

static long long arg_signed(char len, va_list *ap)
{
	switch (len) {
	case 'H': return (signed char)va_arg(*ap, int);
	case 'h': return (short)va_arg(*ap, int);
	case 'l': return va_arg(*ap, long);
	case 'L': return va_arg(*ap, long long);
	case 'z': return (ptrdiff_t)va_arg(*ap, size_t);
	case 'j': return va_arg(*ap, intmax_t);
	case 't': return va_arg(*ap, ptrdiff_t);
	default: return va_arg(*ap, int);
	}
}

/* ---- integers ---------------------------------------------------------- */

/* Writes digits backwards ending at end; returns how many. */
static int to_digits(char *end, unsigned long long v, unsigned int base,
		     bool upper)
{
	const char *digs = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char *p = end;

	do {
		/* Only one division: v % base would pull in a second helper
		 * (__umoddi3) on 32-bit MIPS. */
		unsigned long long q = v / base;

		*--p = digs[v - q * base];
		v = q;
	} while (v);
	return (int)(end - p);
}

/* The prefix before the zeros: a sign, or 0x for %#x and %p. */
static int int_prefix(const struct spec *sp, bool neg, bool zero, char *pfx)
{
	bool is_signed = sp->conv == 'd' || sp->conv == 'i';

	if (is_signed && (neg || sp->flags & (F_PLUS | F_SPACE))) {
		pfx[0] = neg ? '-' : sp->flags & F_PLUS ? '+' : ' ';
		return 1;
	}
	if (sp->conv == 'p' || ((sp->flags & F_ALT) && !zero &&
				(sp->conv == 'x' || sp->conv == 'X'))) {
		pfx[0] = '0';
		pfx[1] = sp->conv == 'X' ? 'X' : 'x';
		return 2;
	}
	return 0;
}

/* Zeros between prefix and digits: from the precision, or from %#o. */
static int int_zeros(const struct spec *sp, const char *digits, int ndig)
{
	int zeros = sp->prec > ndig ? sp->prec - ndig : 0;

	/* %#o guarantees the result starts with a zero. */
	if (sp->conv == 'o' && (sp->flags & F_ALT) && zeros == 0 &&
	    (ndig == 0 || digits[0] != '0'))
		zeros = 1;
	return zeros;
}

static unsigned int conv_base(char conv)
{
	if (conv == 'o')
		return 8;
	return conv == 'x' || conv == 'X' || conv == 'p' ? 16 : 10;
}

static void format_int(struct out *o, const struct spec *sp,
		       unsigned long long mag, bool neg)
{
	char buf[DIGITS_MAX], pfx[2];
	unsigned int base = conv_base(sp->conv);
	/* "%.0d" of zero prints no digits at all. */
	int ndig = sp->prec == 0 && mag == 0 ? 0 :
		   to_digits(buf + DIGITS_MAX, mag, base, sp->conv == 'X');
	const char *digits = buf + DIGITS_MAX - ndig;
	int npfx = int_prefix(sp, neg, mag == 0, pfx);
	int zeros = int_zeros(sp, digits, ndig);
	int pad = sp->width - npfx - zeros - ndig;

	/* The 0 flag pads with zeros after the sign, unless a precision
	 * already says how many digits to show. */
	if (!(sp->flags & F_LEFT) && (sp->flags & F_ZERO) && sp->prec < 0 &&
	    pad > 0) {
		zeros += pad;
		pad = 0;
	}
	if (!(sp->flags & F_LEFT))
		emit_n(o, ' ', pad);
	emit_s(o, pfx, npfx);
	emit_n(o, '0', zeros);
	emit_s(o, digits, ndig);
	if (sp->flags & F_LEFT)
		emit_n(o, ' ', pad);
}

/* ---- everything else --------------------------------------------------- */

/* Text padded with spaces; the 0 flag is meaningless here and ignored. */
static void format_text(struct out *o, const struct spec *sp, const char *s,
			int n)
{
	int pad = sp->width - n;

	if (!(sp->flags & F_LEFT))
		emit_n(o, ' ', pad);
	emit_s(o, s, n);
	if (sp->flags & F_LEFT)
		emit_n(o, ' ', pad);
}

/* Never reads past the precision, so unterminated arrays are fine. */
static void format_string(struct out *o, const struct spec *sp, const char *s)
{
	size_t max = sp->prec < 0 ? SIZE_MAX : (size_t)sp->prec;
	size_t n;

	if (!s)
		s = "(null)";
	n = strnlen(s, max);
	format_text(o, sp, s, n > INT_MAX ? INT_MAX : (int)n);
}

/*
 * An unknown conversion, or a lone '%' at the end, is printed as written:
 * a visible mistake on the console is better than a silent one.
 */
static void format_unknown(struct out *o, const char *start, const char *end)
{
	emit(o, '%');
	emit_s(o, start, (int)(end - start));
}

static void format_one(struct out *o, const struct spec *sp, va_list *ap,
		       const char *start, const char *end)
{
	char c;

	switch (sp->conv) {
	case 'd':
	case 'i': {
		long long v = arg_signed(sp->len, ap);
		unsigned long long mag = v < 0 ? 0 - (unsigned long long)v :
					 (unsigned long long)v;

		format_int(o, sp, mag, v < 0);
		break;
	}
	case 'u': case 'x': case 'X': case 'o':
		format_int(o, sp, arg_unsigned(sp->len, ap), false);
		break;
	case 'p':
		format_int(o, sp, (uintptr_t)va_arg(*ap, void *), false);
		break;
	case 'c':
		c = (char)va_arg(*ap, int);
		format_text(o, sp, &c, 1);
		break;
	case 's':
		format_string(o, sp, va_arg(*ap, const char *));
		break;
	case '%':
		emit(o, '%');
		break;
	default:
		format_unknown(o, start, end);
	}
}

int vcbprintf(putc_fn put, void *arg, const char *fmt, va_list ap)
{
	struct out o = { put, arg, 0 };
	struct spec sp;
	va_list aq;

	/* Helpers take a va_list pointer; a copy makes that portable where
	 * va_list is an array type (x86-64) and so decays as a parameter. */
	va_copy(aq, ap);
	while (*fmt) {
		const char *start;

		if (*fmt != '%') {
			emit(&o, *fmt++);
			continue;
		}
		start = fmt + 1;
		fmt = parse_spec(start, &sp, &aq);
		format_one(&o, &sp, &aq, start, fmt);
	}
	va_end(aq);
	return o.count;
}

/* ---- into a buffer ----------------------------------------------------- */

struct sbuf {
	char *buf;
	size_t size;
	size_t pos;
};

/* Counts every character but stores only what fits before the NUL. */
static void sbuf_put(char c, void *arg)
{
	struct sbuf *b = arg;

	if (b->pos + 1 < b->size)
		b->buf[b->pos] = c;
	b->pos++;
}

int vsnprintf(char *restrict buf, size_t size, const char *restrict fmt, va_list ap)
{
	struct sbuf b = { buf, size, 0 };
	int n = vcbprintf(sbuf_put, &b, fmt, ap);

	if (size > 0)
		buf[b.pos < size ? b.pos : size - 1] = '\0';
	return n;
}

int snprintf(char *restrict buf, size_t size, const char *restrict fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
