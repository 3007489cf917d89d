/*
 * hwbusy: R4's EBUSY.  A root task that holds USER counters and is
 * running asks, through enable, for system-wide (k mode) counting of a
 * child it spawned.  Enable never forces anyone off a CPU, so the answer
 * is EBUSY, naming the caller itself as the live holder (the console says
 * why: "hwperf: pid P: EBUSY: pid P has USER counters live on cpu 0").
 * Nothing changes: the caller's generation and counting stay as they were.
 *
 *	hwbusy pid=P enable=EBUSY gen=G gen_after=G still_counting=1
 */
#include <stdio.h>

#include "tally.h"
#include "tally_hwperf.h"

#define NAP_MS "50"

static struct hwperf_control ctl;
static struct hwperf_counts counts;

static int enable_spec(int pid, const char *spec)
{
	char why[HWP_WHY_MAX];

	if (hwp_parse(spec, &ctl, why, sizeof(why)) < 0) {
		printf("hwbusy: %s\n", why);
		return -EINVAL;
	}
	return hwp_enable(pid, &ctl);
}

int main(void)
{
	static const char *const nap_args[] = { NAP_MS, NULL };
	int status;

	int gen = enable_spec(0, "syscalls:u");
	if (gen < 0) {
		printf("hwbusy: enable self: %s\n", errno_name(gen));
		return 1;
	}
	int child = spawn("nap", nap_args);
	if (child < 0) {
		printf("hwbusy: spawn: %s\n", errno_name(child));
		return 1;
	}
	int r = enable_spec(child, "syscalls:k");
	hwp_read(0, &counts);
	uint64_t c0 = counts.count[0];
	int after = hwp_read(0, &counts);
	/* Still counting: the second read saw the first one. */
	int kept = after == gen && counts.count[0] == c0 + 1;
	printf("hwbusy pid=%d enable=%s gen=%d gen_after=%d still_counting=%d\n",
	       getpid(), r < 0 ? errno_name(r) : "ok", gen, after, kept);
	waitpid(child, &status, 0);
	hwp_release(0);
	return r == -EBUSY && kept ? 0 : 1;
}
