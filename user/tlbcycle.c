/*
 * tlbcycle N: N stores, each to a different TLB page pair that is mapped
 * but not in the TLB, so on MIPS each takes exactly one TLB refill.
 *
 * Setup (the same for every N): grow the heap by TLBCYCLE_PAIRS pairs
 * aligned to a pair, and write both pages of every pair (page faults).
 * The loop then stores to the pairs in turn.  The MIPS refill handler
 * replaces entries round robin over a ring of R entries, so a pair last
 * used TLBCYCLE_PAIRS stores ago is gone as long as TLBCYCLE_PAIRS > R.
 * The loop's own code pair is evicted too: once every R data refills it
 * is overwritten and refetched, one more refill.  The loop keeps its
 * state in registers, so it touches no stack.  Hence N = k * R stores
 * take exactly k * (R + 1) refills more than N = 0 (kernel/bench/
 * events_bench.c derives this).  Exit 0, or 3 if the heap cannot grow
 * (4 if the getrusage below fails).
 *
 * tlbcycle N self: the same, then the task's own getrusage, printed as
 * `tlbcycle self tlb_user=K`: the refills the loop took come before that
 * call and nothing cuts between them (no tick in so short a loop, no
 * other call), so they are in K only if the call's own cut charged them
 * (arch/mips/trap.c: the refill hint).
 */
#include <stdio.h>
#include <string.h>

#include "tally.h"

#define TLBCYCLE_PAIRS 80               /* > any MIPS32 ring of 64 */
#define PAIR_BYTES (2 * PAGE_SIZE)
#define EXIT_NOMEM 3
#define EXIT_RUSAGE 4

int main(int argc, char **argv)
{
	unsigned long n = arg_count(argc, argv, 1, "tlbcycle N [self]");
	int self = argc > 2 && strcmp(argv[2], "self") == 0;
	long base = brk(0);
	uintptr_t start = ((uintptr_t)base + PAIR_BYTES - 1) & ~(uintptr_t)(PAIR_BYTES - 1);
	uintptr_t stop = start + TLBCYCLE_PAIRS * PAIR_BYTES;

	if (base < 0 || brk((void *)stop) < 0) {
		printf("tlbcycle: brk failed\n");
		return EXIT_NOMEM;
	}
	for (uintptr_t a = start; a < stop; a += PAGE_SIZE)
		*(volatile unsigned char *)a = 1;
	volatile unsigned char *p = (volatile unsigned char *)start;
	for (unsigned long i = 0; i < n; i++) {
		*p = (unsigned char)i;
		p += PAIR_BYTES;
		if (p == (volatile unsigned char *)stop)
			p = (volatile unsigned char *)start;
	}
	if (self) {
		struct tally_rusage ru;

		if (getrusage(RUSAGE_SELF, &ru) < 0)
			return EXIT_RUSAGE;
		printf("tlbcycle self tlb_user=%llu\n", (unsigned long long)ru.tlb_user);
	}
	return 0;
}
