/*
 * derive.h - how the event benchmarks' expectations follow from the
 * programs they run: pure arithmetic, host-tested against simulations of
 * the programs (tests/unit/kernel/bench/test_derive.c).
 */
#ifndef TALLY_BENCH_DERIVE_H
#define TALLY_BENCH_DERIVE_H

#include <stdbool.h>
#include <stdint.h>

/* ---- tlbcycle (user/tlbcycle.c) on the MIPS round-robin refill ring ------
 * Each round is `ring` stores to pairs not in the TLB plus one refetch of
 * the loop's code pair, which the ring overwrites once per `ring` data
 * refills.  Whole rounds leave the code pair's place in the ring where it
 * was, so setup and exit cost the same at every number of rounds. */
#define TLB_RING_DERIVED 16             /* QEMU's Malta CPUs (4Kc..74Kf) */
#define TLB_REFILLS_PER_ROUND(ring) ((ring) + 1)

/* ---- forktree D (user/forktree.c), counted from the root -----------------
 * A full binary tree: 2^D leaves that only exit, 2^D - 1 inner tasks that
 * fork two children, wait for both and exit; the root also prints a line. */
#define FORKTREE_CHILDREN 2
#define FORKTREE_EXIT_CALLS 1
#define FORKTREE_PRINT_CALLS 1
#define FORKTREE_INNER_CALLS (2 * FORKTREE_CHILDREN + FORKTREE_EXIT_CALLS)
#define FORKTREE_LEAVES(d) (1 << (d))
#define FORKTREE_INNER(d) (FORKTREE_LEAVES(d) - 1)
#define FORKTREE_TREE_CALLS(d) (FORKTREE_LEAVES(d) * FORKTREE_EXIT_CALLS + \
				FORKTREE_INNER(d) * FORKTREE_INNER_CALLS + \
				FORKTREE_PRINT_CALLS)
/* The root's own calls (depth >= 1): what its own accounting holds. */
#define FORKTREE_ROOT_CALLS (FORKTREE_INNER_CALLS + FORKTREE_PRINT_CALLS)

/* ---- overflow on cycles ---------------------------------------------------- */
#define DERIVE_MILLI 1000
/* How far past thresh count went, in thousandths of per_tick; UINT64_MAX
 * if count is short of thresh (the signal came early), which no range
 * check accepts.  per_tick > 0. */
uint64_t derive_overshoot_milli(uint64_t count, uint64_t thresh, uint64_t per_tick);

/* ---- hwlose's exit status (user/hwlose.c) --------------------------------- */
#define HOLDER_LOST_BIT 1u
#define HOLDER_BUMP_SHIFT 1
#define HOLDER_REPORT_MAX 127           /* its EXIT_SETUP is above */

struct holder_report {
	unsigned gen_bump;      /* G1 - G0 as the holder saw it */
	unsigned lost;          /* 1: its counters stopped */
};

/* false if code is not a report (a setup failure). */
bool derive_holder_report(unsigned code, struct holder_report *r);

#endif
