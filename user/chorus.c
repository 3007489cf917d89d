/*
 * chorus N TAG: N lines, each written by one printf (one write()): TAG,
 * the line's number and a fixed run of letters.  Several on several CPUs
 * prove the kernel keeps each write whole: a line another CPU's output
 * cut into no longer reads back as it was written.
 */
#include <stdio.h>
#include <string.h>

#include "tally.h"

#define LETTERS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
#define TAG_MAX 8

int main(int argc, char **argv)
{
	unsigned long n = arg_count(argc, argv, 1, "chorus N TAG");

	if (argc != 3 || strlen(argv[2]) == 0 || strlen(argv[2]) > TAG_MAX) {
		printf("usage: chorus N TAG (TAG 1 to %d characters)\n", TAG_MAX);
		return 2;
	}
	for (unsigned long i = 0; i < n; i++)
		printf("chorus %s %lu " LETTERS "\n", argv[2], i);
	return 0;
}
