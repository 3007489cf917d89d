/*
 * invariant.c - what every read must satisfy, checked on every read the
 * kernel hands out, whoever asked (system call, console, benchmark).
 *
 *	running <= enabled   an event is on a counter only while it is wanted
 *	count <= running     for an event that counts the cycle counter itself
 *	                     (pmu_caps.clock_event): it cannot count more
 *	                     ticks than it was on a counter for
 *	never backwards      a count is never below what an earlier read of it
 *	                     showed, unless the counter was restarted (a new
 *	                     event or a new acquire, with a new generation)
 *	sum over CPUs        a system read equals the sum of the per-CPU
 *	                     blocks it folded (R12, R19)
 *
 * A violation is a kernel bug, not the caller's, so the read still
 * returns: the violation is counted, the first one is described, and
 * `hwperf status` and every benchmark run report them (a FAIL).
 *
 * A read checks only the used counters whose values changed since the
 * last check: every path that writes a set's counts marks the counters
 * it wrote in `unchecked` (vctr.c: a fold marks the counters it added
 * hardware counts or running time to, a reset or a child's counts the
 * counters they touched; syscpu.c every counter of the system block it
 * adds to).  A counter no path wrote still satisfies what it satisfied
 * at its last check, so a read of 32 multiplexed counters checks the
 * few that were on hardware, not all 32.
 */
#include <stdio.h>
#include <string.h>

#include "env.h"
#include "internal.h"

static struct hwperf_inv_report report;
/* report.reads' count, in two words: every read adds one, which on a
 * 32-bit machine is a load, an add and a store with the carry only when
 * the low word wraps, where a 64-bit add takes nine instructions. */
static uint32_t reads_lo, reads_hi;

void hwperf_invariants(struct hwperf_inv_report *out)
{
	*out = report;
	out->reads = (uint64_t)reads_hi << 32 | reads_lo;
}

static void violated(const struct hwperf_set *s, const char *what, unsigned i,
                     const char *fmt, unsigned long long a, unsigned long long b)
{
	char *d = report.last;
	size_t len = sizeof(report.last);
	int n = snprintf(d, len, "%s, virtual counter %u (%s): ", what, i,
	                 s->ctl.ev[i].name);

	if (n > 0 && (size_t)n < len)
		snprintf(d + n, len - (size_t)n, fmt, a, b);
	if (report.violations++ == 0)
		memcpy(report.first, report.last, sizeof(report.first));
}

static bool counts_clock(const struct hwperf_set *s, unsigned i)
{
	const struct hwperf_res *r = &s->res[i];
	const struct pmu_caps *caps = &hwperf_core.caps;

	if (r->raw || r->table >= caps->ntables)
		return false;
	const struct pmu_event_table *t = caps->tables[r->table];
	return caps->clock_event && r->entry < t->count &&
	       &t->events[r->entry] == caps->clock_event;
}

/*
 * The counters in bad failed the quick test below: which invariant,
 * described, and what each read now becomes the last seen.  Out of line
 * and cold, so the read's loop calls nothing, keeps its few values in
 * registers and builds no arguments for a report it never makes.
 */
static __attribute__((noinline, cold)) void check_counters(struct hwperf_set *s,
                                                           bool sys, uint32_t bad)
{
	const char *what = sys ? "system read" : "read";

	for (; bad; bad &= bad - 1) {
		unsigned i = (unsigned)__builtin_ctz(bad);
		uint64_t count = s->c.count[i], running = s->c.running[i];
		/* Only used counters are checked, and every used counter is
		 * owed the set's time (hwperf_set_enabled without the test). */
		uint64_t enabled = s->c.enabled[i] + s->enabled_owed;

		if (running > enabled)
			violated(s, what, i, "running %llu > enabled %llu", running, enabled);
		if (count > running && counts_clock(s, i))
			violated(s, what, i, "count %llu > running %llu of a clock event",
			         count, running);
		if (count < s->seen[i])
			violated(s, what, i, "count %llu < %llu read before, same generation",
			         count, s->seen[i]);
		s->seen[i] = count;
	}
}

void hwperf_inv_check_set(struct hwperf_set *s, bool sys)
{
	uint32_t m = s->used & s->unchecked;
	uint64_t owed = s->enabled_owed;
	uint32_t bad = 0;

	if (++reads_lo == 0)
		reads_hi++;
	s->unchecked &= ~m;
	for (; m; m &= m - 1) {
		unsigned i = (unsigned)__builtin_ctz(m);
		uint64_t count = s->c.count[i], running = s->c.running[i];
		uint64_t seen = s->seen[i];

		/* Every violation passes this test (count > running is only
		 * one for a clock event, which check_counters asks); such a
		 * counter keeps its last seen count for check_counters.  The
		 * three compares without a branch each, and the store of
		 * seen a select: a MIPS32 branch is two instructions with
		 * its delay slot, and a 64-bit compare's branch three. */
		bool b = (running > s->c.enabled[i] + owed) | (count > running) |
		         (count < seen);

		bad |= (uint32_t)b << i;
		s->seen[i] = b ? seen : count;
	}
	if (bad)
		check_counters(s, sys, bad);
}

void hwperf_inv_check_sys_sum(void)
{
	struct hwperf_core *h = &hwperf_core;

	for (uint32_t m = h->sys.used; m; m &= m - 1) {
		unsigned i = (unsigned)__builtin_ctz(m);
		uint64_t sum = 0;

		for (unsigned c = 0; c < hwperf_env_ncpus(); c++)
			if (h->cpu[c].sys_epoch == h->sys_epoch)
				sum += h->cpu[c].sys.c.count[i];
		if (sum != h->sys.c.count[i])
			violated(&h->sys, "system read", i, "count %llu != %llu, the sum over CPUs",
			         h->sys.c.count[i], sum);
	}
}
