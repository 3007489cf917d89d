/*
 * uread.c - reading the caller's counters from its read page, without a
 * system call (the page and its protocol: kernel/hwperf/abi.h).
 *
 * The kernel rewrites the page only while this task is not in user mode,
 * so on one CPU a reader never sees a half-written page; the sequence
 * check is what catches the kernel having run between two of the
 * reader's loads (then the sums, the start values and the cycle counter
 * may belong to different moments).  The fences keep the compiler (and a
 * weakly ordered CPU) from moving the loads out of the window.
 */
#include "tally.h"
#include "tally_hwperf.h"

#define SEQ_WRITING 1u

static const volatile struct hwperf_upage *const page =
	(const volatile struct hwperf_upage *)(uintptr_t)HWPERF_UPAGE_ADDR;
static int mapped;

int hwp_map(void)
{
	int r = (int)hwp_call(HWPERF_OP_MAP, 0, NULL, NULL);

	if (r >= 0)
		mapped = 1;
	return r;
}

static uint64_t width_mask(uint32_t width)
{
	return width >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << width) - 1);
}

/* Counter i as of cycle-counter value cc (read once per pass), or of
 * its hardware counter by rdpmc index; the caller checks seq.  The
 * difference is masked to the counter's width: a 32-bit Count and a
 * 48-bit PMC wrap below the 64 bits the reads return. */
static uint64_t value(unsigned i, uint64_t cc)
{
	uint64_t sum = page->c[i].sum;
	uint32_t how = page->c[i].how;

	if (how == HWPERF_UREAD_CYCLES)
		return sum + ((cc - page->ucycles_start) &
		              width_mask(page->c[i].width));
	if (how != HWPERF_UREAD_RDPMC)
		return sum;
	return sum + ((hwp_urdpmc(page->uindex[i]) - page->c[i].start) &
	              width_mask(page->c[i].width));
}

int hwp_uread(struct hwp_uread *r)
{
	if (!mapped)
		return -EINVAL;
	for (;; r->retries++) {
		uint32_t seq = page->seq;

		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		if (seq & SEQ_WRITING)
			continue;
		if (page->flags & HWPERF_UPAGE_SYSCALL_ONLY)
			return -ENODEV;
		uint64_t cc = hwp_ucycles();
		uint32_t used = page->used;
		int gen = (int)page->gen;

		/* Only the counters in use: a read costs what it reads. */
		for (uint32_t m = used; m; m &= m - 1) {
			unsigned i = (unsigned)__builtin_ctz(m);

			r->count[i] = value(i, cc);
		}
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		if (page->seq == seq) {
			r->used = used;
			r->seq = seq;
			return gen;
		}
	}
}
