/*
 * sys N: N null system calls (getppid, which only reads).  The task makes
 * exactly N + SYS_OTHER_SYSCALLS system calls: the loop, then exit.
 */
#include "tally.h"

#define SYS_OTHER_SYSCALLS 1

int main(int argc, char **argv)
{
	unsigned long n = arg_count(argc, argv, 1, "sys N");

	for (unsigned long i = 0; i < n; i++)
		getppid();
	return 0;
}
