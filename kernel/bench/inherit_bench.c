/*
 * inherit_bench.c - counts of a whole process tree summed into the parent
 * that waits (R16 fork inherits the control, R17 wait adds the counts).
 *
 * forktree D (user/forktree.c) is a full binary tree of depth D: each of
 * the 2^D - 1 inner tasks forks two children, waits for both and exits
 * (5 system calls); each of the 2^D leaves only exits (1); the root also
 * prints one line (1 write).  Counted from the root with syscalls:u, the
 * root's final count is every task's calls:
 *
 *	2^D * 1 + (2^D - 1) * 5 + 1 = 6 * 2^D - 4      (D = 3: 44)
 *
 * while the root's own accounting holds only its own 2 + 2 + 1 + 1 = 6.
 * The benchmark runs n trees, each a fresh root.  The arithmetic is
 * derive.h's, checked against a simulation of the tree on the host.
 */
#include <errno.h>
#include <stdio.h>

#include "bench.h"
#include "bench_task.h"
#include "derive.h"

#define TREE_DEPTH 3

#define xstr(s) str(s)
#define str(s) #s

static struct bench_prog prog;         /* large: off the stack */

static int measure(uint64_t n, struct bench_sample *s)
{

	s->value[0] = s->value[1] = 0;
	for (uint64_t i = 0; i < n; i++) {
		int r = bench_run_prog("syscalls:u", "forktree", xstr(TREE_DEPTH), &prog, NULL);
		if (r < 0)
			return r;
		int slot = bench_slot(&prog, "syscalls");
		if (slot < 0)
			return -EINVAL;
		s->value[0] += prog.counts.count[slot];
		s->value[1] += prog.acct.syscalls;
	}
	return 0;
}

static const struct bench inherit_forktree = {
	.name = "inherit_forktree",
	.desc = "forktree 3 under syscalls:u: the root's count is the whole tree's 44 calls (R17)",
	.default_n = 2,
	.nchecks = 2,
	.checks = {
		{ .name = "tree_syscalls", .kind = BENCH_EXACT, .per_iter = FORKTREE_TREE_CALLS(TREE_DEPTH) },
		{ .name = "acct_root_own_syscalls", .kind = BENCH_EXACT,
		  .per_iter = FORKTREE_ROOT_CALLS },
	},
	.measure = measure,
	.subtract_zero_run = false,
};
BENCH(inherit_forktree, &inherit_forktree);
