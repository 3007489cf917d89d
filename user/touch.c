/*
 * touch N: grow the heap by N pages and write one byte in each, so the
 * kernel maps each on its first touch: exactly N page faults (the text,
 * data and first stack pages are mapped at load and never fault).
 * System calls: two brk, then exit.  Exit 0 if every page kept its byte.
 */
#include <stdio.h>

#include "tally.h"

#define EXIT_NOMEM 3
#define EXIT_CORRUPT 4

int main(int argc, char **argv)
{
	unsigned long n = arg_count(argc, argv, 1, "touch N");
	long base = brk(0);
	uintptr_t start = ((uintptr_t)base + PAGE_SIZE - 1) & ~(uintptr_t)(PAGE_SIZE - 1);
	long end = brk((void *)(start + n * PAGE_SIZE));

	if (base < 0 || end < 0) {
		printf("touch: brk: %s\n", errno_name((int)(end < 0 ? end : base)));
		return EXIT_NOMEM;
	}
	volatile unsigned char *p = (volatile unsigned char *)start;
	for (unsigned long i = 0; i < n; i++)
		p[i * PAGE_SIZE] = (unsigned char)(i + 1);
	for (unsigned long i = 0; i < n; i++) {
		if (p[i * PAGE_SIZE] != (unsigned char)(i + 1))
			return EXIT_CORRUPT;
	}
	return 0;
}
