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
};

/* One per CPU: where the current interval started. */
struct acct_clock {
	uint64_t stamp;
	uint32_t tlb_user_seen;
	uint32_t tlb_kernel_seen;
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
/* dst += src, field by field (a reaped child into its parent). */
void acct_add(struct task_acct *dst, const struct task_acct *src);
/* Exact for any cycle count that fits 64 bits; 0 when hz is unknown. */
uint64_t acct_cycles_to_ns(uint64_t cycles, uint64_t hz);
void acct_to_rusage(const struct task_acct *a, uint64_t hz,
		    struct tally_rusage *ru);

#endif
