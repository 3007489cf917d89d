/*
 * Host tests of kernel/bench/derive.h: the event benchmarks' expectations
 * against simulations of the programs they run, so that each expected
 * count rests on a model of the program, not on a number once observed.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "bench/derive.h"

/* ---- a round-robin software-refilled TLB (arch/mips/tlbrefill.S) ------------ */

#define RING_MAX 64
#define NO_PAIR (-1)
#define PAIRS_MAX 128
/* Pair numbers of the program's non-heap pages. */
#define CODE_PAIR 1000
#define STACK_PAIR 2000
#define LIB_PAIR 3000
#define TLBCYCLE_PAIRS 80       /* user/tlbcycle.c */

struct entry {
	int pair;
	bool valid[2];          /* EntryLo0/1 valid bits, copied at refill */
};

struct sim {
	struct entry e[RING_MAX];
	unsigned ring, next;
	unsigned long refills, faults;
	bool mapped[PAIRS_MAX][2];      /* heap pairs' page table */
};

static bool page_mapped(const struct sim *s, int pair, int half)
{
	return pair >= PAIRS_MAX || s->mapped[pair][half];   /* text, stack, lib: loaded */
}

static int lookup(const struct sim *s, int pair)
{
	for (unsigned i = 0; i < s->ring; i++)
		if (s->e[i].pair == pair)
			return (int)i;
	return -1;
}

static void refill(struct sim *s, int pair)
{
	struct entry *e = &s->e[s->next];

	e->pair = pair;
	e->valid[0] = page_mapped(s, pair, 0);
	e->valid[1] = page_mapped(s, pair, 1);
	s->next = (s->next + 1) % s->ring;
	s->refills++;
}

/* One try of one access: true if it completed (TLB hit on a valid half). */
static bool try_access(struct sim *s, int pair, int half)
{
	int i = lookup(s, pair);

	if (i < 0) {
		refill(s, pair);
		return false;
	}
	if (!s->e[i].valid[half]) {     /* page fault: map, drop the entry */
		s->mapped[pair][half] = true;
		s->e[i].pair = NO_PAIR;
		s->faults++;
		return false;
	}
	return true;
}

/* An instruction in the code pair touching (pair, half); every retry
 * fetches the instruction again. */
static void insn(struct sim *s, int pair, int half)
{
	for (;;) {
		if (!try_access(s, CODE_PAIR, 0))
			continue;
		if (try_access(s, pair, half))
			return;
	}
}

static void fetch(struct sim *s, int pair)
{
	while (!try_access(s, pair, 0))
		;
}

/* tlbcycle n, starting with the ring's pointer at phase; its refills. */
static unsigned long run_tlbcycle(unsigned ring, unsigned phase, unsigned long n)
{
	static struct sim s;

	memset(&s, 0, sizeof(s));
	s.ring = ring;
	s.next = phase;
	for (unsigned i = 0; i < ring; i++)
		s.e[i].pair = NO_PAIR;
	fetch(&s, CODE_PAIR);                    /* main's prologue */
	insn(&s, STACK_PAIR, 1);
	fetch(&s, LIB_PAIR);                     /* arg_count, brk */
	for (int page = 0; page < 2 * TLBCYCLE_PAIRS; page++)
		insn(&s, page / 2, page % 2);
	for (unsigned long i = 0; i < n; i++)
		insn(&s, (int)(i % TLBCYCLE_PAIRS), 0);
	insn(&s, STACK_PAIR, 1);                 /* main's epilogue */
	fetch(&s, LIB_PAIR);                     /* exit */
	assert_int_equal(s.faults, 2 * TLBCYCLE_PAIRS);
	return s.refills;
}

static void check_rounds(unsigned ring)
{
	for (unsigned phase = 0; phase < ring; phase++) {
		unsigned long base = run_tlbcycle(ring, phase, 0);
		for (unsigned long k = 1; k <= 5; k++)
			assert_int_equal(run_tlbcycle(ring, phase, k * ring) - base,
					 k * TLB_REFILLS_PER_ROUND(ring));
	}
}

static void test_tlbcycle_rounds_cost_ring_plus_one_at_any_phase(void **state)
{
	(void)state;
	check_rounds(TLB_RING_DERIVED);
	check_rounds(8);
	check_rounds(32);
	check_rounds(RING_MAX);
}

/* The data stores alone: each misses exactly once, whatever the ring. */
static void test_tlbcycle_every_store_misses(void **state)
{
	(void)state;
	for (unsigned ring = 8; ring <= RING_MAX; ring *= 2) {
		unsigned long base = run_tlbcycle(ring, 0, 0);
		unsigned long d = run_tlbcycle(ring, 0, 3 * TLBCYCLE_PAIRS) - base;
		/* 3 * PAIRS data refills, and the code pair's refetches. */
		assert_true(d >= 3 * TLBCYCLE_PAIRS);
		assert_true(d <= 3 * TLBCYCLE_PAIRS + 3 * TLBCYCLE_PAIRS / ring + 1);
	}
}

/* ---- forktree D: every task's system calls ------------------------------- */

static unsigned long subtree_calls(int level)
{
	unsigned long calls = FORKTREE_EXIT_CALLS;

	if (level == 0)
		return calls;
	for (int i = 0; i < FORKTREE_CHILDREN; i++)
		calls += 2 /* fork, waitpid */ + subtree_calls(level - 1);
	return calls;
}

static void test_forktree_calls_match_a_walk_of_the_tree(void **state)
{
	(void)state;
	for (int d = 0; d <= 6; d++)
		assert_int_equal(FORKTREE_TREE_CALLS(d), subtree_calls(d) + FORKTREE_PRINT_CALLS);
	/* `stat -e syscalls:u forktree 2` on x86_64 and mips printed 20. */
	assert_int_equal(FORKTREE_TREE_CALLS(2), 20);
	assert_int_equal(FORKTREE_TREE_CALLS(3), 44);
	assert_int_equal(FORKTREE_ROOT_CALLS, 6);
}

/* ---- overshoot and the holder's report ------------------------------------ */

static void test_overshoot_in_thousandths_of_a_tick(void **state)
{
	(void)state;
	assert_int_equal(derive_overshoot_milli(1000, 1000, 100), 0);
	assert_int_equal(derive_overshoot_milli(1100, 1000, 100), 1000);
	assert_int_equal(derive_overshoot_milli(1101, 1000, 100), 1010);
	assert_int_equal(derive_overshoot_milli(1050, 1000, 100), 500);
	/* Early is never in range. */
	assert_true(derive_overshoot_milli(999, 1000, 100) == UINT64_MAX);
}

static void test_holder_report_decodes(void **state)
{
	(void)state;
	struct holder_report r;

	assert_true(derive_holder_report((1u << HOLDER_BUMP_SHIFT) | HOLDER_LOST_BIT, &r));
	assert_int_equal(r.gen_bump, 1);
	assert_int_equal(r.lost, 1);
	assert_true(derive_holder_report(0, &r));
	assert_int_equal(r.gen_bump, 0);
	assert_int_equal(r.lost, 0);
	assert_true(derive_holder_report(2u << HOLDER_BUMP_SHIFT, &r));
	assert_int_equal(r.gen_bump, 2);
	assert_int_equal(r.lost, 0);
	/* hwlose's EXIT_SETUP (200) and anything above the reports. */
	assert_false(derive_holder_report(HOLDER_REPORT_MAX + 1, &r));
	assert_false(derive_holder_report(200, &r));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tlbcycle_rounds_cost_ring_plus_one_at_any_phase),
		cmocka_unit_test(test_tlbcycle_every_store_misses),
		cmocka_unit_test(test_forktree_calls_match_a_walk_of_the_tree),
		cmocka_unit_test(test_overshoot_in_thousandths_of_a_tick),
		cmocka_unit_test(test_holder_report_decodes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
