/*
 * strtoul.c - text to integers.
 *
 * One scanner reads the C syntax into a sign and a 64-bit magnitude; each
 * entry point then only decides what "out of range" means for its type.
 * A kernel has no global errno, so errors go to an explicit slot, which is
 * always written (0 on success) so callers need not clear it first.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>

struct scan {
	unsigned long long mag;	/* saturates at ULLONG_MAX */
	bool neg;
	const char *end;	/* just past the digits; the input if none */
};

/* 36 for anything that is a digit in no base. */
static unsigned int digit_value(char c)
{
	unsigned char u = (unsigned char)c;

	if (isdigit(u))
		return u - '0';
	if (isalpha(u))
		return (unsigned int)(tolower(u) - 'a') + 10;
	return 36;
}

/*
 * The 0x prefix counts only when a hex digit follows, so "0x" and "0xg"
 * read as the number 0 followed by junk, as C requires.
 */
static const char *skip_prefix(const char *p, int *base)
{
	bool hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
		   digit_value(p[2]) < 16;

	if ((*base == 0 || *base == 16) && hex) {
		*base = 16;
		return p + 2;
	}
	if (*base == 0)
		*base = p[0] == '0' ? 8 : 10;
	return p;
}

/* Consumes every digit even past overflow, so that end is where C says. */
static int scan_digits(const char *p, unsigned int base, struct scan *sc)
{
	const unsigned long long cutoff = ULLONG_MAX / base;
	/* Not ULLONG_MAX % base: 32-bit MIPS would need one more helper. */
	const unsigned long long cutlim = ULLONG_MAX - cutoff * base;
	const char *start = p;
	bool overflow = false;
	unsigned int d;

	for (; (d = digit_value(*p)) < base; p++) {
		if (sc->mag > cutoff || (sc->mag == cutoff && d > cutlim))
			overflow = true;
		else
			sc->mag = sc->mag * base + d;
	}
	if (p == start)
		return -EINVAL;
	sc->end = p;
	if (overflow) {
		sc->mag = ULLONG_MAX;
		return -ERANGE;
	}
	return 0;
}

static int scan_number(const char *s, int base, struct scan *sc)
{
	const char *p = s;

	sc->mag = 0;
	sc->neg = false;
	sc->end = s;
	if (base < 0 || base == 1 || base > 36)
		return -EINVAL;
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '+' || *p == '-')
		sc->neg = *p++ == '-';
	p = skip_prefix(p, &base);
	return scan_digits(p, (unsigned int)base, sc);
}

static void report(const struct scan *sc, int err, char **endp, int *errp)
{
	if (endp)
		*endp = (char *)sc->end;
	if (errp)
		*errp = -err;
}

/* max is all ones in the target type, so masking wraps a negation to it. */
static unsigned long long to_unsigned(const char *s, char **endp, int base,
				      int *errp, unsigned long long max)
{
	struct scan sc;
	int err = scan_number(s, base, &sc);

	if (err == 0 && sc.mag > max)
		err = -ERANGE;
	report(&sc, err, endp, errp);
	if (err == -ERANGE)
		return max;
	return sc.neg ? (0 - sc.mag) & max : sc.mag;
}

unsigned long strtoul_e(const char *s, char **endp, int base, int *errp)
{
	return (unsigned long)to_unsigned(s, endp, base, errp, ULONG_MAX);
}

unsigned long long strtoull_e(const char *s, char **endp, int base, int *errp)
{
	return to_unsigned(s, endp, base, errp, ULLONG_MAX);
}

long long strtoll_e(const char *s, char **endp, int base, int *errp)
{
	struct scan sc;
	int err = scan_number(s, base, &sc);
	unsigned long long limit = (unsigned long long)LLONG_MAX + sc.neg;

	if (err == 0 && sc.mag > limit)
		err = -ERANGE;
	report(&sc, err, endp, errp);
	if (err == -ERANGE)
		return sc.neg ? LLONG_MIN : LLONG_MAX;
	if (sc.neg && sc.mag > 0)
		/* Negate in two steps so -2^63 never exists as a positive. */
		return -(long long)(sc.mag - 1) - 1;
	return (long long)sc.mag;
}

unsigned long strtoul(const char *s, char **endp, int base)
{
	return strtoul_e(s, endp, base, NULL);
}

unsigned long long strtoull(const char *s, char **endp, int base)
{
	return strtoull_e(s, endp, base, NULL);
}

long long strtoll(const char *s, char **endp, int base)
{
	return strtoll_e(s, endp, base, NULL);
}

/*
 * A whole-string number starts with a digit (a letter in bases above 10),
 * after at most one sign: no spaces, and no minus for an unsigned result,
 * where strtoull would quietly wrap "-1" to 2^64 - 1.
 */
static bool starts_plainly(const char *s, bool minus_ok)
{
	if (*s == '+' || (minus_ok && *s == '-'))
		s++;
	return isalnum((unsigned char)*s);
}

/* Junk beats range: "99999999999999999999x" is not a number at all. */
static int whole_error(int err, const char *end)
{
	if (err == EINVAL || *end != '\0')
		return -EINVAL;
	return -err;
}

int parse_u64(const char *s, int base, uint64_t *out)
{
	char *end;
	int err;
	unsigned long long v;

	if (!starts_plainly(s, false))
		return -EINVAL;
	v = strtoull_e(s, &end, base, &err);
	err = whole_error(err, end);
	if (err == 0)
		*out = v;
	return err;
}

int parse_i64(const char *s, int base, int64_t *out)
{
	char *end;
	int err;
	long long v;

	if (!starts_plainly(s, true))
		return -EINVAL;
	v = strtoll_e(s, &end, base, &err);
	err = whole_error(err, end);
	if (err == 0)
		*out = v;
	return err;
}
