/*
 * spin N: a known busy loop of N iterations in user mode, no system
 * calls but the final exit (for scheduling and user-time tests).
 */
#include "tally.h"

int main(int argc, char **argv)
{
	unsigned long n = arg_count(argc, argv, 1, "spin N");
	volatile unsigned long counter = 0;

	for (unsigned long i = 0; i < n; i++)
		counter++;
	return counter == n ? 0 : 1;
}
