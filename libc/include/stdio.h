/*
 * stdio.h - formatted output without any stream machinery.
 *
 * Conversions: %d %i %u %x %X %o %c %s %p %%, length modifiers hh h l ll z
 * j t, flags - 0 + space #, field width and precision (also as *).
 * vcbprintf is the one formatter: it hands each character to a callback,
 * so the kernel console, snprintf and user programs share it.
 */
#ifndef TALLY_STDIO_H
#define TALLY_STDIO_H

#include <stdarg.h>
#include <stddef.h>

typedef void (*putc_fn)(char c, void *arg);

/* Returns the number of characters produced. */
int vcbprintf(putc_fn put, void *arg, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/* C99 semantics: returns the length the full output would have had. */
int vsnprintf(char *restrict buf, size_t size, const char *restrict fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
int snprintf(char *restrict buf, size_t size, const char *restrict fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * printf goes wherever the program's environment sends it: the kernel
 * defines it to print on the console, user programs to write(1, ...).
 */
int printf(const char *restrict fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
