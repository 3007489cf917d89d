/*
 * pingpong N: two tasks hand the CPU to each other 2N times by yield.
 *
 * The task forks once; parent and child then each yield N times.  With
 * nobody else ready, every yield switches to the other task, so the run
 * makes 2N voluntary context switches (and 2N yield calls) more than
 * `pingpong 0`, which only forks, waits and exits.  That difference is
 * what the cost benchmark divides by.  Counters enabled on the parent
 * before it starts are inherited by the child (R16), so both sides of
 * every switch carry them.  Exits 0 if the child ended with 0.
 */
#include "tally.h"

static void yield_n(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		yield();
}

int main(int argc, char **argv)
{
	unsigned long n = arg_count(argc, argv, 1, "pingpong N");
	int status = 0;
	int pid = fork();

	if (pid < 0)
		return 1;
	yield_n(n);
	if (pid == 0)
		return 0;
	if (waitpid(pid, &status, 0) != pid)
		return 1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
