/*
 * ovfpages N WHAT: touch N fresh heap pages (N page faults, like touch)
 * with a SIGUSR1 handler installed, for a parent that counts faults:u
 * with a threshold and SIGUSR1 as the overflow signal (R15).  The fault
 * on page i (1-based) is delivered before the store to page i completes,
 * so the handler sees which fault raised the signal.  It reports through
 * its exit status, which fits 0..255:
 *
 *	WHAT = count   the number of times the handler ran
 *	WHAT = first   the fault number at which it first ran (0: never)
 *
 * 255 if the heap cannot grow or WHAT is unknown.
 */
#include <stdio.h>
#include <string.h>

#include "tally.h"

#define EXIT_BAD 255
#define USAGE "ovfpages N count|first"

static volatile unsigned long touching;        /* fault number in flight */
static volatile unsigned long handled;
static volatile unsigned long first;

static void on_overflow(int sig)
{
	(void)sig;
	if (handled == 0)
		first = touching;
	handled++;
}

int main(int argc, char **argv)
{
	unsigned long n = arg_count(argc, argv, 1, USAGE);
	long base = brk(0);
	uintptr_t start = ((uintptr_t)base + PAGE_SIZE - 1) & ~(uintptr_t)(PAGE_SIZE - 1);

	if (argc < 3 || (strcmp(argv[2], "count") != 0 && strcmp(argv[2], "first") != 0)) {
		printf("usage: %s\n", USAGE);
		return EXIT_BAD;
	}
	if (base < 0 || brk((void *)(start + n * PAGE_SIZE)) < 0 ||
	    signal(SIGUSR1, on_overflow) < 0)
		return EXIT_BAD;
	volatile unsigned char *p = (volatile unsigned char *)start;
	for (unsigned long i = 0; i < n; i++) {
		touching = i + 1;
		p[i * PAGE_SIZE] = 1;
	}
	return (int)(strcmp(argv[2], "count") == 0 ? handled : first);
}
