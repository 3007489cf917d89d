/*
 * hog KIND: take one resource until the kernel refuses, say how it was
 * refused, and hold it until killed (exhaustion tests, issue 16).
 *
 *   mem    grow the heap a page at a time, each page made resident by
 *          the kernel writing into it (getrusage), until brk refuses
 *          (ENOMEM: the heap limit) or the page cannot be had (EFAULT:
 *          no free memory); prints `hog mem pages=N err=ENAME`, then
 *          sleeps until killed
 *   fork   fork children (which sleep) until fork refuses (EAGAIN: the
 *          task table is full, ENOMEM); prints `hog fork tasks=N
 *          err=ENAME`, then sleeps until killed; each child exits on its
 *          own once the hog is gone (it polls getppid), and an orphan is
 *          released by the kernel when it exits
 *   bomb   a fork bomb: every task forks until refused, and every child
 *          does the same; each task then waits for its children and
 *          exits 0.  The first task prints `hog bomb forks=N err=ENAME`
 *          for its own forks and exits 0 once every child is reaped.
 *
 * The kernel writes into a heap page through the same fault path a
 * user store takes, but answers EFAULT instead of killing the task, so
 * the hog can report what ran out.
 */
#include <stdio.h>
#include <string.h>

#include "tally.h"

#define EXIT_USAGE 2
#define HOLD_MS 1000
#define BOMB_NAP_MS 50
#define ORPHAN_POLL_MS 20

static void hold(void)
{
	for (;;)
		sleep_ms(HOLD_MS);
}

static void hog_mem(void)
{
	long base = brk(0);
	uintptr_t end = ((uintptr_t)base + PAGE_SIZE - 1) & ~(uintptr_t)(PAGE_SIZE - 1);
	unsigned long pages = 0;
	long err;

	for (;;) {
		err = brk((void *)(end + PAGE_SIZE));
		if (err < 0)
			break;
		err = getrusage(RUSAGE_SELF, (struct tally_rusage *)end);
		if (err < 0)
			break;
		end += PAGE_SIZE;
		pages++;
	}
	printf("hog mem pages=%lu err=%s\n", pages, errno_name((int)err));
	hold();
}

static void hog_fork(void)
{
	unsigned long tasks = 0;
	int pid;

	int me = getpid();

	while ((pid = fork()) > 0)
		tasks++;
	if (pid == 0) {
		while (getppid() == me)
			sleep_ms(ORPHAN_POLL_MS);
		exit(0);
	}
	printf("hog fork tasks=%lu err=%s\n", tasks, errno_name(pid));
	hold();
}

/* Fork until refused, in every task; then reap. Returns its own forks. */
static unsigned long bomb(int *err)
{
	unsigned long forks = 0;
	int pid, status;

	for (;;) {
		pid = fork();
		if (pid < 0)
			break;
		if (pid == 0) {
			forks = 0;      /* a child counts its own */
			continue;
		}
		forks++;
	}
	*err = pid;
	/* Let the table stay full a moment, so every task meets the refusal. */
	sleep_ms(BOMB_NAP_MS);
	while (waitpid(WAIT_ANY, &status, 0) > 0)
		;
	return forks;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		printf("usage: hog mem|fork|bomb\n");
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "mem") == 0)
		hog_mem();
	if (strcmp(argv[1], "fork") == 0)
		hog_fork();
	if (strcmp(argv[1], "bomb") == 0) {
		int me = getpid(), err = 0;
		unsigned long forks = bomb(&err);
		if (getpid() == me)
			printf("hog bomb forks=%lu err=%s\n", forks, errno_name(err));
		return 0;
	}
	printf("usage: hog mem|fork|bomb\n");
	return EXIT_USAGE;
}
