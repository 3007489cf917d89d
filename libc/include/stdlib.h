/* stdlib.h - number parsing (libc/strtoul.c) and small helpers. */
#ifndef TALLY_STDLIB_H
#define TALLY_STDLIB_H

#include <stddef.h>
#include <stdint.h>

/*
 * C semantics: leading space, optional sign, base 0 detects 0x / 0 prefixes.
 * On overflow the result saturates (ULONG_MAX etc.) and *errp, when errp is
 * non-NULL, gets ERANGE; with no digits *endp == s and *errp gets EINVAL.
 * There is no global errno in a kernel, hence the explicit error slot.
 */
unsigned long strtoul_e(const char *s, char **endp, int base, int *errp);
unsigned long long strtoull_e(const char *s, char **endp, int base, int *errp);
long long strtoll_e(const char *s, char **endp, int base, int *errp);
unsigned long strtoul(const char *s, char **endp, int base);
unsigned long long strtoull(const char *s, char **endp, int base);
long long strtoll(const char *s, char **endp, int base);

/*
 * Whole-string parsers for commands and boot arguments: the entire string
 * must be a number (no trailing junk, no empty string).  Return 0, -EINVAL
 * or -ERANGE and store nothing on error.
 */
int parse_u64(const char *s, int base, uint64_t *out);
int parse_i64(const char *s, int base, int64_t *out);

int abs(int x);

#endif
