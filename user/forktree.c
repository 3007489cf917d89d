/*
 * forktree D: every task at level L > 0 forks two children at level L-1;
 * a task at level L exits with CODE_BASE + L if its whole subtree checked
 * out, CODE_BAD otherwise.  Each parent waits for both children and checks
 * their codes.  The root (level D) prints one line and exits 0 on success:
 * 2^(D+1) - 1 tasks in all.
 */
#include <stdio.h>

#include "tally.h"

#define FORKTREE_MAX_DEPTH 6
#define CODE_BASE 10
#define CODE_BAD 1
#define CHILDREN 2

static int level_code(int level)
{
	return CODE_BASE + level;
}

static int subtree(int level);

/* Fork one child that runs the subtree below; its pid, or < 0. */
static int fork_child(int level)
{
	int pid = fork();

	if (pid == 0)
		exit(subtree(level - 1) ? CODE_BAD : level_code(level - 1));
	return pid;
}

/* 0 if both children and their subtrees ended as they should. */
static int subtree(int level)
{
	int pids[CHILDREN];
	int bad = 0;

	if (level == 0)
		return 0;
	for (int i = 0; i < CHILDREN; i++) {
		pids[i] = fork_child(level);
		if (pids[i] < 0) {
			printf("forktree: pid %d: fork: %s\n", getpid(), errno_name(pids[i]));
			bad = 1;
		}
	}
	for (int i = 0; i < CHILDREN; i++) {
		int status;
		if (pids[i] < 0)
			continue;
		int r = waitpid(pids[i], &status, 0);
		if (r != pids[i] || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != level_code(level - 1)) {
			printf("forktree: pid %d: child %d ended with status %#x (wait %d)\n",
			       getpid(), pids[i], status, r);
			bad = 1;
		}
	}
	return bad;
}

int main(int argc, char **argv)
{
	unsigned long d = arg_count(argc, argv, 1, "forktree D (0..6)");

	if (d > FORKTREE_MAX_DEPTH) {
		printf("forktree: depth %lu is more than %d\n", d, FORKTREE_MAX_DEPTH);
		return CODE_BAD;
	}
	if (subtree((int)d))
		return CODE_BAD;
	/* A full binary tree of depth d. */
	printf("forktree %lu ok tasks=%lu\n", d, (2ul << d) - 1);
	return 0;
}
