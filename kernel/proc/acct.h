/*
 * acct.h - exact per-task accounting.
 *
 * Time comes from the cycle counter, cut at every kernel entry and exit
 * and at every context switch: each interval between two cuts belongs to
 * exactly one task and one mode, so user + system time adds up to the
 * whole run with nothing counted twice.  TLB refills are counted by the
 * arch's refill handler in free-running counters; each cut charges the
 * difference since the previous cut to the task that was running.
 *
 * The functions here are pure bookkeeping (the caller passes the clock
 * and counter readings), so the host unit tests check them exactly.
 */
#ifndef TALLY_ACCT_H
#define TALLY_ACCT_H

#include <stdbool.h>
#include <stdint.h>

#include "uabi.h"

/*
 * A task's share of its fast system calls not yet added to its 64-bit
 * sums (acct_cut_syscall_short): on a 32-bit CPU each 64-bit sum costs seven
 * instructions a call, these three.  Each stays below 2^31, so adding
 * one more call's span (also below 2^31, or it is charged whole instead)
 * never wraps; the add that reaches 2^31 folds them.  Whoever reads the
 * task's sums folds first (acct_fold, acct_view), so every total stays
 * exact.
 */
struct acct_pending {
	uint32_t sys_cycles;
	uint32_t user_cycles;
	uint32_t syscalls;
};

struct task_acct {
	uint64_t user_cycles;
	uint64_t sys_cycles;
	uint64_t syscalls;
	uint64_t vcsw;
	uint64_t ivcsw;
	uint64_t faults;
	uint64_t tlb_user;
	uint64_t tlb_kernel;
	uint64_t signals;
	struct acct_pending pend;       /* counted in the sums above once folded */
};

/* One per CPU: where the current interval started. */
struct acct_clock {
	uint64_t stamp;
	uint32_t tlb_user_seen;
	uint32_t tlb_kernel_seen;
	/*
	 * Cuts that found a stamp behind the one before it, which charge
	 * nothing for the step: the cycle counter went back (a VPE's Count
	 * under QEMU without -icount does, docs/design/platforms.md, issue
	 * 13).  Every count taken meanwhile is off by the step, so it is
	 * reported (sched_clock_backwards), never only absorbed.
	 */
	uint32_t backwards;
};

void acct_clock_init(struct acct_clock *c, uint64_t now,
		     uint32_t tlb_user, uint32_t tlb_kernel);
/*
 * Close the interval at now: its cycles go to a (NULL: nobody, before the
 * first task) as user time if was_user, else as system time.
 */
void acct_cut_time(struct acct_clock *c, struct task_acct *a, uint64_t now,
		   bool was_user);
/* Charge refills since the last cut; the counters may wrap. */
/*
 * An entry from user mode in one cut: kernel time up to left (the exit
 * stamp), user time from left to back (the entry stamp); the clock is at
 * back after.  The same guards as acct_cut_time.
 */
void acct_cut_span(struct acct_clock *c, struct task_acct *a, uint64_t left,
		   uint64_t back);
void acct_cut_tlb(struct acct_clock *c, struct task_acct *a,
		  uint32_t tlb_user, uint32_t tlb_kernel);

/*
 * The pending share into the 64-bit sums.  Only the task itself (it
 * alone adds to pend) or a reader of a task that runs nowhere (a zombie
 * off its CPU) may fold: others read through acct_view.
 */
void acct_fold(struct task_acct *a);
/* *a with its pending share folded in, a left as it is. */
void acct_view(struct task_acct *dst, const struct task_acct *a);

/* What acct_cut_syscall_short refused (a span with a difference of
 * 2^31 or more, stamps out of order, or a pending sum the call would take
 * to 2^31): the pending sums folded, then acct_cut_span and the call's
 * count in 64 bits.  Out of line, rare. */
void acct_cut_syscall_whole(struct acct_clock *c, struct task_acct *a,
			    uint64_t left, uint64_t back);

/* A 32-bit half of the clock's stamp, wherever the byte order puts it
 * (may_alias: the stamp is read and written whole as well). */
typedef uint32_t __attribute__((may_alias)) acct_word_t;

#define ACCT_STAMP_LOW  0
#define ACCT_STAMP_HIGH 1

static inline acct_word_t *acct_stamp_word(struct acct_clock *c, unsigned half)
{
	return (acct_word_t *)&c->stamp + (half ^ (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__));
}

/*
 * A system call's entry from user mode (kernel/entry.c
 * cut_syscall_entry): acct_cut_span(c, a, left, back) and one call
 * counted, the same totals once folded; since is c->stamp, as the caller
 * read it for the stamps.  For a machine whose stamps are within 2^32 of
 * the clock's last cut (kernel/arch.h arch_user_span), so left - stamp
 * and back - left are whole as 32-bit values: those below 2^31 go to
 * pend in 32-bit adds.  False, and nothing charged or stored, when a
 * span is 2^31 or more (or the stamps are out of order) or a pending sum
 * would reach 2^31: the caller charges it whole (acct_cut_syscall_whole)
 * with its own call, whose arguments the common case then never
 * prepares.  One sign test for all five, before any store, so that a
 * caller with nothing else to call needs no stack frame.  The clock
 * itself is exact.
 */
static inline bool acct_cut_syscall_short(struct acct_clock *c, struct task_acct *a,
					  uint64_t since, uint64_t left, uint64_t back)
{
	uint32_t sys = (uint32_t)(left - since);
	uint32_t user = (uint32_t)(back - left);
	uint32_t ps = a->pend.sys_cycles + sys;
	uint32_t pu = a->pend.user_cycles + user;
	uint32_t pc = a->pend.syscalls + 1;

	/* The differences and the new sums all below 2^31: one sign test.
	 * The sums were below 2^31 and so is each difference that passes,
	 * so a sum never wraps past the test. */
	if (__builtin_expect((int32_t)(sys | user | ps | pu | pc) < 0, 0))
		return false;

	/* back itself: since plus sys + user (under 2^32), so its low word
	 * is back's and its high word since's plus the one carry there can
	 * be (the low word wrapped past since's).  Only the low word is
	 * stored, as it came, and the high word only on the carry, once per
	 * 2^32 cycles: a 32-bit machine then spends one test on it where
	 * loading, adding and storing it took four instructions. */
	uint32_t lo = (uint32_t)back;

	acct_stamp_word(c, ACCT_STAMP_LOW)[0] = lo;
	/* The high word is since's still; volatile, so that its load is
	 * made on the carry alone, never ahead of the test. */
	if (__builtin_expect(lo < (uint32_t)since, 0))
		*(volatile acct_word_t *)acct_stamp_word(c, ACCT_STAMP_HIGH) += 1;
	a->pend.sys_cycles = ps;
	a->pend.user_cycles = pu;
	a->pend.syscalls = pc;
	return true;
}

/* dst += src, field by field, src's pending share included (a reaped
 * child into its parent). */
void acct_add(struct task_acct *dst, const struct task_acct *src);
/* Exact for any cycle count that fits 64 bits; 0 when hz is unknown. */
uint64_t acct_cycles_to_ns(uint64_t cycles, uint64_t hz);
/* The task's totals, its pending share included. */
void acct_to_rusage(const struct task_acct *a, uint64_t hz,
		    struct tally_rusage *ru);

#endif
