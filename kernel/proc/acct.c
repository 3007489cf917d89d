/*
 * acct.c - interval bookkeeping for exact per-task accounting (acct.h).
 */
#include "proc/acct.h"

#define NS_PER_S 1000000000ull

void acct_clock_init(struct acct_clock *c, uint64_t now,
		     uint32_t tlb_user, uint32_t tlb_kernel)
{
	c->stamp = now;
	c->tlb_user_seen = tlb_user;
	c->tlb_kernel_seen = tlb_kernel;
	c->backwards = 0;
}

void acct_cut_time(struct acct_clock *c, struct task_acct *a, uint64_t now,
		   bool was_user)
{
	/* A counter that went backwards charges nothing rather than 2^64
	 * cycles, and is counted (acct.h). */
	uint64_t d = now - c->stamp;

	if (__builtin_expect(now < c->stamp, 0)) {
		c->backwards++;
		d = 0;
	}
	c->stamp = now;
	if (!a)
		return;
	if (was_user)
		a->user_cycles += d;
	else
		a->sys_cycles += d;
}

void acct_cut_span(struct acct_clock *c, struct task_acct *a, uint64_t left,
		   uint64_t back)
{
	uint64_t sys = left - c->stamp;
	uint64_t user = back - left;

	/* Every system call passes here: stamps in order (always, on one
	 * CPU's counter) cost one test and no selects.  A stamp behind the
	 * one before it makes its difference wrap to 2^63 or more, so the
	 * top bit of either says it; in order, a difference that large
	 * would be a span of centuries. */
	if (__builtin_expect(((sys | user) >> 63) != 0, 0)) {
		sys = left >= c->stamp ? sys : 0;
		user = back >= left ? user : 0;
		c->backwards++;
	}
	c->stamp = back;
	if (!a)
		return;
	a->sys_cycles += sys;
	a->user_cycles += user;
}

void acct_cut_tlb(struct acct_clock *c, struct task_acct *a,
		  uint32_t tlb_user, uint32_t tlb_kernel)
{
	/* Unsigned subtraction gives the right count across a wrap. */
	uint32_t du = tlb_user - c->tlb_user_seen;
	uint32_t dk = tlb_kernel - c->tlb_kernel_seen;

	c->tlb_user_seen = tlb_user;
	c->tlb_kernel_seen = tlb_kernel;
	if (!a)
		return;
	a->tlb_user += du;
	a->tlb_kernel += dk;
}

void acct_fold(struct task_acct *a)
{
	a->sys_cycles += a->pend.sys_cycles;
	a->user_cycles += a->pend.user_cycles;
	a->syscalls += a->pend.syscalls;
	a->pend = (struct acct_pending){ 0 };
}

void acct_view(struct task_acct *dst, const struct task_acct *a)
{
	*dst = *a;
	acct_fold(dst);
}

__attribute__((noinline)) void acct_cut_syscall_whole(struct acct_clock *c,
						      struct task_acct *a,
						      uint64_t left, uint64_t back)
{
	/* Folded first: the short cut may have refused for a pending sum
	 * near 2^31, and would again on every call until a fold. */
	acct_fold(a);
	acct_cut_span(c, a, left, back);
	a->syscalls++;
}

void acct_add(struct task_acct *dst, const struct task_acct *src)
{
	dst->user_cycles += src->user_cycles + src->pend.user_cycles;
	dst->sys_cycles += src->sys_cycles + src->pend.sys_cycles;
	dst->syscalls += src->syscalls + src->pend.syscalls;
	dst->vcsw += src->vcsw;
	dst->ivcsw += src->ivcsw;
	dst->faults += src->faults;
	dst->tlb_user += src->tlb_user;
	dst->tlb_kernel += src->tlb_kernel;
	dst->signals += src->signals;
}

uint64_t acct_cycles_to_ns(uint64_t cycles, uint64_t hz)
{
	if (hz == 0)
		return 0;
	/* Whole seconds and the remainder separately: cycles * 1e9 alone
	 * would overflow after a few seconds at GHz rates.  The remainder is
	 * below hz, and hz * 1e9 fits 64 bits for any hz under 18 GHz. */
	uint64_t secs = cycles / hz;
	uint64_t rem = cycles - secs * hz;

	return secs * NS_PER_S + rem * NS_PER_S / hz;
}

void acct_to_rusage(const struct task_acct *t, uint64_t hz,
		    struct tally_rusage *ru)
{
	struct task_acct v;
	const struct task_acct *a = &v;

	acct_view(&v, t);
	ru->utime_ns = acct_cycles_to_ns(a->user_cycles, hz);
	ru->stime_ns = acct_cycles_to_ns(a->sys_cycles, hz);
	ru->syscalls = a->syscalls;
	ru->vcsw = a->vcsw;
	ru->ivcsw = a->ivcsw;
	ru->faults = a->faults;
	ru->tlb_user = a->tlb_user;
	ru->tlb_kernel = a->tlb_kernel;
	ru->signals = a->signals;
}
