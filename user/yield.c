/*
 * yield N: N voluntary context switches and nothing else.  The task makes
 * exactly N + YIELD_OTHER_SYSCALLS system calls (the other one is exit)
 * and exactly N voluntary switches.
 */
#include "tally.h"

#define YIELD_OTHER_SYSCALLS 1

int main(int argc, char **argv)
{
	unsigned long n = arg_count(argc, argv, 1, "yield N");

	for (unsigned long i = 0; i < n; i++)
		yield();
	return 0;
}
