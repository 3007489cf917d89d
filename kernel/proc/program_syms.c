/*
 * program_syms.c - find a user PC's function in a program's symbol text
 * (format in program_syms.h).  The tables are small (a few dozen lines),
 * so a scan per lookup is enough.
 */
#include <stdbool.h>
#include <string.h>

#include "proc/program_syms.h"

#define HEX_BASE 16u
#define NIBBLE_BITS 4
#define DECIMAL_DIGITS 10

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + DECIMAL_DIGITS;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + DECIMAL_DIGITS;
	return -1;
}

/* One line at *p: its address and name (not NUL-terminated); advances *p
 * past the line.  False for a line that is not "HEX NAME". */
static bool next_line(const char **p, const char *end, uintptr_t *addr,
		      const char **name, size_t *nlen)
{
	const char *s = *p;
	uintptr_t a = 0;
	bool digits = false;
	int d;

	while (s < end && (d = hex_digit(*s)) >= 0) {
		a = (a << NIBBLE_BITS) | (uintptr_t)d;
		digits = true;
		s++;
	}
	bool sep = s < end && *s == ' ';
	const char *n = sep ? s + 1 : s;
	const char *e = memchr(n, '\n', (size_t)(end - n));
	if (!e)
		e = end;
	*p = e < end ? e + 1 : end;
	*addr = a;
	*name = n;
	*nlen = (size_t)(e - n);
	return digits && sep && *nlen > 0;
}

bool program_sym_lookup(const char *text, size_t len, uintptr_t pc,
			char *buf, size_t buflen, uintptr_t *off)
{
	const char *p = text, *end = text + len, *best = NULL, *name;
	size_t best_len = 0, nlen;
	uintptr_t best_addr = 0, addr;

	while (p < end) {
		if (!next_line(&p, end, &addr, &name, &nlen) || addr > pc)
			continue;
		if (!best || addr >= best_addr) {
			best = name;
			best_len = nlen;
			best_addr = addr;
		}
	}
	if (!best) {
		strlcpy(buf, "?", buflen);
		*off = 0;
		return false;
	}
	if (best_len >= buflen)
		best_len = buflen - 1;
	memcpy(buf, best, best_len);
	buf[best_len] = '\0';
	*off = pc - best_addr;
	return true;
}

const struct program_syms *program_syms_find(const char *name)
{
	const struct program_syms *const *s;

	SET_FOREACH(s, program_syms)
		if (strcmp((*s)->name, name) == 0)
			return *s;
	return NULL;
}
