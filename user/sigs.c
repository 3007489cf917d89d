/*
 * sigs N: the task sends itself SIGUSR1 N times; each is delivered and
 * handled before kill returns to the loop, so the task receives exactly
 * N signals.  System calls: signal, N kill, N sigreturn (each handler's
 * return), exit.  Exits 0 if the handler ran N times, 1 otherwise.
 */
#include <stdio.h>

#include "tally.h"

static volatile unsigned long handled;

static void on_usr1(int sig)
{
	(void)sig;
	handled++;
}

int main(int argc, char **argv)
{
	unsigned long n = arg_count(argc, argv, 1, "sigs N");

	if (signal(SIGUSR1, on_usr1) < 0)
		return 1;
	for (unsigned long i = 0; i < n; i++)
		kill(getpid(), SIGUSR1);
	if (handled != n) {
		printf("sigs: handled %lu of %lu\n", handled, n);
		return 1;
	}
	return 0;
}
