/*
 * args.c - argument helpers shared by the programs.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tally.h"

#define EXIT_USAGE 2

uint32_t arg_count32(int argc, char **argv, int i, const char *usage)
{
	unsigned long n = arg_count(argc, argv, i, usage);

	if (n > UINT32_MAX) {
		printf("usage: %s (N at most %u)\n", usage, (unsigned)UINT32_MAX);
		exit(EXIT_USAGE);
	}
	return (uint32_t)n;
}

unsigned long arg_count(int argc, char **argv, int i, const char *usage)
{
	uint64_t v;

	if (i >= argc || parse_u64(argv[i], 10, &v) != 0 || v > (unsigned long)-1) {
		printf("usage: %s\n", usage);
		exit(EXIT_USAGE);
	}
	return (unsigned long)v;
}
