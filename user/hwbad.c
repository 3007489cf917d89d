/*
 * hwbad: SYS_hwperf refuses bad pointers with EFAULT and bad ops or
 * arguments with EINVAL, and a refused call changes nothing.  One line
 * per check, then a summary:
 *
 *	hwbad NAME=ENAME ok|FAIL
 *	hwbad failures=0
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "tally.h"
#include "tally_hwperf.h"
#include "user_machdep.h"

#define BAD_LOW ((void *)0x10)          /* below every user mapping */
#define KERNEL_ADDR ((void *)USER_MACHDEP_KERNEL_ADDR)
#define BAD_OP 99
#define CPU_NONE 7

static struct hwperf_control ctl;
static struct hwperf_counts counts;
static struct hwperf_rusage ru;
static int failures;

static void expect(const char *name, long got, long want)
{
	bool ok = got == want;

	printf("hwbad %s=%s %s\n", name, got < 0 ? errno_name((int)got) : "ok",
	       ok ? "ok" : "FAIL");
	if (!ok)
		failures++;
}

static void bad_pointers(void)
{
	expect("enable_null", hwp_enable(0, NULL), -EFAULT);
	expect("enable_low", hwp_enable(0, BAD_LOW), -EFAULT);
	expect("enable_kernel", hwp_enable(0, KERNEL_ADDR), -EFAULT);
	/* Nothing was enabled by the refused calls. */
	expect("getctl_after", hwp_get_control(0, &ctl), -EINVAL);
	expect("read_kernel", hwp_read(0, KERNEL_ADDR), -EFAULT);
	expect("read_text", hwp_read(0, (void *)(uintptr_t)bad_pointers), -EFAULT);
	expect("rusage_bad", hwp_read_rusage(0, &counts, BAD_LOW), -EFAULT);
	expect("sysread_null", hwp_sys_read(NULL), -EFAULT);
}

static void bad_args(void)
{
	expect("op_unknown", hwp_call(BAD_OP, 0, NULL, NULL), -EINVAL);
	expect("op_negative", hwp_call(-1, 0, NULL, NULL), -EINVAL);
	expect("pid_negative", hwp_read(-2, &counts), -EINVAL);
	expect("release_extra_arg", hwp_call(HWPERF_OP_RELEASE, 0, &ctl, NULL), -EINVAL);
	expect("read_extra_arg2", hwp_call(HWPERF_OP_READ, 0, &counts, &ru), -EINVAL);
	expect("sysread_id", hwp_call(HWPERF_OP_SYS_READ, 1, &counts, NULL), -EINVAL);
	expect("cpu_none", hwp_cpu_read(CPU_NONE, &counts), 0);
}

/*
 * The kernel fills a read's buffer in place when it lies in one page, and
 * through a copy when it straddles two: both give the counts, in order
 * (syscalls:u grows by the reads themselves), and a refused read leaves
 * the buffer as it was, byte for byte.
 */
#define NO_SUCH_PID 32000
#define FILL 0xa5
static unsigned char two_pages[3 * PAGE_SIZE];

static long buffer_kept(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != FILL)
			return -EIO;
	return 0;
}

static void read_in_place_or_not(int gen)
{
	/* Two page boundaries inside two_pages: the counts at the first
	 * lie in one page, those 100 bytes before the second straddle two
	 * (and the two never overlap). */
	uintptr_t edge = ((uintptr_t)two_pages + 2 * PAGE_SIZE) & ~(uintptr_t)(PAGE_SIZE - 1);
	struct hwperf_counts *inside = (struct hwperf_counts *)(void *)(edge - PAGE_SIZE);
	struct hwperf_counts *across = (struct hwperf_counts *)(void *)(edge - 100);
	uint64_t before, after;

	memset(inside, FILL, sizeof(*inside));
	expect("read_nopid", hwp_read(NO_SUCH_PID, inside), -ESRCH);
	expect("read_nopid_kept", buffer_kept((const unsigned char *)inside,
					      sizeof(*inside)), 0);
	memset(across, FILL, sizeof(*across));
	expect("read_nopid_across", hwp_read(NO_SUCH_PID, across), -ESRCH);
	expect("read_nopid_across_kept",
	       buffer_kept((const unsigned char *)across, sizeof(*across)), 0);
	/* Back to back, no output between: each read is one system call
	 * more than the one before it. */
	long r0 = hwp_read(0, inside);
	before = inside->count[0];
	long r1 = hwp_read(0, across);
	long r2 = hwp_read(0, inside);
	after = inside->count[0];
	expect("read_inplace", r0, gen);
	expect("read_across", r1, gen);
	expect("read_inplace_again", r2, gen);
	expect("read_across_counts", across->count[0] == before + 1 &&
	       after == before + 2 && across->enabled[0] > 0 &&
	       across->running[0] <= across->enabled[0] ? 0 : -EIO, 0);
}

/* A refused set-control leaves the generation and events alone. */
static void unchanged_after_refusal(void)
{
	char why[HWP_WHY_MAX];

	if (hwp_parse("syscalls:u", &ctl, why, sizeof(why)) < 0) {
		printf("hwbad: %s\n", why);
		failures++;
		return;
	}
	int gen = hwp_enable(0, &ctl);
	expect("enable_good", gen < 0 ? gen : 0, 0);
	expect("setctl_bad", hwp_set_control(0, KERNEL_ADDR), -EFAULT);
	expect("setctl_gen_kept", hwp_get_control(0, &ctl), gen);
	read_in_place_or_not(gen);
	hwp_release(0);
}

/*
 * A full set (32 counters, nothing settled yet) leaves through the
 * arch's fastest copy: on Malta the FPU's 64-bit loads and stores into
 * an 8-aligned buffer, a word at a time into one that is only 4-aligned
 * (arch/mips/copy64.c).  Read three times, FPU, words, FPU: every value
 * must come out whole and in order, which a half of a word misplaced
 * (endianness), a third swapped or a counter shifted would break.
 */
static bool full_reads_agree(const struct hwperf_counts *r, unsigned n)
{
	for (unsigned k = 0; k < n; k++)
		for (unsigned i = 0; i < HWPERF_NVCTR; i++) {
			const struct hwperf_counts *c = &r[k];

			if (c->enabled[i] != c->enabled[0] || c->enabled[i] == 0 ||
			    c->running[i] > c->enabled[i])
				return false;
			if (k && (c->count[i] < r[k - 1].count[i] ||
				  c->enabled[i] < r[k - 1].enabled[i] ||
				  c->running[i] < r[k - 1].running[i] ||
				  c->enabled[i] - r[k - 1].enabled[i] > 0xffffffffu))
				return false;
		}
	return true;
}

static void full_set_reads(void)
{
	static char spec[HWPERF_NVCTR * sizeof("syscalls:u,")];
	static struct hwperf_counts r[3];
	char why[HWP_WHY_MAX];
	/* 4-aligned, not 8: the word-at-a-time way; in one page (1,024
	 * aligned, 776 bytes), so the read is in place. */
	static uint64_t words[sizeof(struct hwperf_counts) / 8 + 1]
		__attribute__((aligned(1024)));
	struct hwperf_counts *odd = (struct hwperf_counts *)(void *)((char *)words + 4);
	long g[3];

	for (unsigned i = 0, at = 0; i < HWPERF_NVCTR; i++) {
		const char *e = i ? ",syscalls:u" : "syscalls:u";

		memcpy(spec + at, e, strlen(e) + 1);
		at += (unsigned)strlen(e);
	}
	if (hwp_parse(spec, &ctl, why, sizeof(why)) < 0) {
		printf("hwbad: %s\n", why);
		failures++;
		return;
	}
	int gen = hwp_enable(0, &ctl);
	expect("enable_full", gen < 0 ? gen : 0, 0);
	g[0] = hwp_read(0, &r[0]);
	g[1] = hwp_read(0, odd);
	g[2] = hwp_read(0, &r[2]);
	memcpy(&r[1], odd, sizeof(r[1]));
	expect("read_full", g[0] == gen && g[1] == gen && g[2] == gen ? 0 : -EIO, 0);
	expect("read_full_whole", full_reads_agree(r, 3) ? 0 : -EIO, 0);
	hwp_release(0);
}

int main(void)
{
	bad_pointers();
	bad_args();
	unchanged_after_refusal();
	full_set_reads();
	printf("hwbad failures=%d\n", failures);
	return failures ? 1 : 0;
}
