/*
 * printf.c - printf for user programs: libc's formatter into a small
 * buffer, written out with one write() per call (or per full buffer).
 */
#include <stdarg.h>
#include <stdio.h>

#include "tally.h"

#define OUT_BUF 128
#define FD_STDOUT 1

struct out {
	char buf[OUT_BUF];
	size_t n;
};

static void flush(struct out *o)
{
	if (o->n)
		write(FD_STDOUT, o->buf, o->n);
	o->n = 0;
}

static void put(char c, void *arg)
{
	struct out *o = arg;

	if (o->n == OUT_BUF)
		flush(o);
	o->buf[o->n++] = c;
}

int printf(const char *restrict fmt, ...)
{
	struct out o = { .n = 0 };
	va_list ap;

	va_start(ap, fmt);
	int n = vcbprintf(put, &o, fmt, ap);
	va_end(ap);
	flush(&o);
	return n;
}
