/*
 * fpchain N: a known profile for sample records (issue 15 item 3).  main
 * calls chain_a -> chain_b -> chain_c -> hot_leaf, which does N units of
 * work, and cold_leaf directly, which does N / COLD_SHARE; so hot_leaf
 * under that chain is where nearly every cycle goes.
 *
 * Built with frame pointers and without sibling calls (user/user.mk), so
 * every function keeps a frame and the kernel's walk finds each caller;
 * the functions are global and noinline so that each keeps its name.
 */
#include <stdio.h>

#include "tally.h"

#define COLD_SHARE 8
#define UNIT 1000u

unsigned long hot_leaf(unsigned long n);
unsigned long cold_leaf(unsigned long n);
unsigned long chain_a(unsigned long n);
unsigned long chain_b(unsigned long n);
unsigned long chain_c(unsigned long n);

/* volatile: the loop is the work, the compiler may not fold it.  The
 * leaves keep their accumulator on the stack because gcc gives a leaf
 * that touches no stack no frame, whatever the flags say; then the walk
 * would skip its caller. */
static volatile unsigned long sink;

__attribute__((noinline)) unsigned long hot_leaf(unsigned long n)
{
	volatile unsigned long acc = 0;

	for (unsigned long i = 0; i < n * UNIT; i++) {
		acc += i ^ (acc >> 3);
		sink = acc;
	}
	return acc;
}

__attribute__((noinline)) unsigned long cold_leaf(unsigned long n)
{
	volatile unsigned long acc = 1;

	for (unsigned long i = 0; i < n * UNIT; i++) {
		acc += i ^ (acc << 1);
		sink = acc;
	}
	return acc;
}

/* Each adds after the call, so the call cannot become a jump. */
__attribute__((noinline)) unsigned long chain_c(unsigned long n)
{
	return hot_leaf(n) + 3;
}

__attribute__((noinline)) unsigned long chain_b(unsigned long n)
{
	return chain_c(n) + 2;
}

__attribute__((noinline)) unsigned long chain_a(unsigned long n)
{
	return chain_b(n) + 1;
}

int main(int argc, char **argv)
{
	unsigned long n = arg_count(argc, argv, 1, "fpchain N");
	unsigned long r = chain_a(n) + cold_leaf(n / COLD_SHARE);

	printf("fpchain n=%lu r=%lu\n", n, r & 0xffffu);
	return 0;
}
