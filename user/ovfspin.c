/*
 * ovfspin: spin in user mode until the overflow signal (SIGUSR1) comes,
 * and exit(0) from its handler at once, so the task's final cycles:u
 * count is where the signal was delivered plus the handler's few
 * instructions.  For a parent that counts cycles:u with a threshold.
 * Exit 1 if no signal came within SPIN_MAX loops.
 */
#include "tally.h"

#define SPIN_MAX 2000000000ul
#define EXIT_NO_SIGNAL 1

static void on_overflow(int sig)
{
	(void)sig;
	exit(0);
}

int main(void)
{
	if (signal(SIGUSR1, on_overflow) < 0)
		return EXIT_NO_SIGNAL;
	for (volatile unsigned long i = 0; i < SPIN_MAX; i++)
		;
	return EXIT_NO_SIGNAL;
}
