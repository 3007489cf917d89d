/*
 * nap MS: sleep MS milliseconds (one voluntary switch).  SIGUSR1 is
 * caught, so a kill -USR1 cuts the sleep short instead of ending the task.
 * Prints "nap: slept" (exit 0) or "nap: interrupted (EINTR)" (exit
 * EXIT_INTERRUPTED, so a script need not catch the line as it goes by).
 */
#include <stdio.h>

#include "tally.h"

#define EXIT_INTERRUPTED 5

static void on_usr1(int sig)
{
	(void)sig;
}

int main(int argc, char **argv)
{
	unsigned long ms = arg_count(argc, argv, 1, "nap MS");

	if (signal(SIGUSR1, on_usr1) < 0)
		return 1;
	int r = sleep_ms((unsigned)ms);
	if (r == 0) {
		printf("nap: slept\n");
		return 0;
	}
	printf("nap: interrupted (%s)\n", errno_name(r));
	return r == -EINTR ? EXIT_INTERRUPTED : 1;
}
