/*
 * args.c - argument helpers shared by the programs.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tally.h"

#define EXIT_USAGE 2

unsigned long arg_count(int argc, char **argv, int i, const char *usage)
{
	uint64_t v;

	if (i >= argc || parse_u64(argv[i], 10, &v) != 0 || v > (unsigned long)-1) {
		printf("usage: %s\n", usage);
		exit(EXIT_USAGE);
	}
	return (unsigned long)v;
}
