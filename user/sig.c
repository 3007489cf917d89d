/*
 * sig: a signal handler runs and returns through sigreturn to where the
 * task was; an ignored signal does nothing; a blocked-while-handled
 * signal waits for the handler to return.  Prints "sig ok", exits 0.
 */
#include <stdio.h>

#include "tally.h"

#define SIGNALS_SENT 3

static volatile int handled;
static volatile int nested;
static volatile int inside;

static void on_usr1(int sig)
{
	if (inside)
		nested = 1;
	inside = 1;
	if (sig == SIGUSR1)
		handled++;
	/* Delivered only after this handler returns. */
	if (handled == 1)
		kill(getpid(), SIGUSR1);
	inside = 0;
}

int main(void)
{
	volatile int live = 42;

	if (signal(SIGUSR1, on_usr1) < 0 || signal(SIGUSR2, (void (*)(int))SIG_IGN) < 0) {
		printf("sig: signal failed\n");
		return 1;
	}
	kill(getpid(), SIGUSR2);
	kill(getpid(), SIGUSR1);
	kill(getpid(), SIGUSR1);
	if (handled != SIGNALS_SENT || nested || live != 42) {
		printf("sig: handled=%d nested=%d live=%d\n", handled, nested, live);
		return 1;
	}
	printf("sig ok\n");
	return 0;
}
