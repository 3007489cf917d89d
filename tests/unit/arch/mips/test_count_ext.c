/*
 * Host tests of arch/mips/count_ext.c: Count extended to 64 bits per CPU,
 * and a second CPU's extension started from the first's value.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "arch/mips/count_ext.h"

#define WRAP 0x100000000ull

static void test_read_counts_wraps(void **state)
{
	(void)state;
	struct count_ext e = { 0 };

	/* Readings less than half the range apart, as the tick keeps them. */
	assert_int_equal(count_ext_read(&e, 5), 5);
	assert_int_equal(count_ext_read(&e, 0x7ffffff8u), 0x7ffffff8u);
	assert_int_equal(count_ext_read(&e, 0xfffffff0u), 0xfffffff0u);
	/* Below the last reading: one wrap. */
	assert_int_equal(count_ext_read(&e, 3), WRAP + 3);
	assert_int_equal(count_ext_read(&e, 3), WRAP + 3);
	assert_int_equal(count_ext_read(&e, 0x80000000u), WRAP + 0x80000000u);
	assert_int_equal(count_ext_read(&e, 0xc0000000u), WRAP + 0xc0000000u);
	assert_int_equal(count_ext_read(&e, 1), 2 * WRAP + 1);
	assert_int_equal(e.behind, 0);
}

/*
 * A VPE's Count under QEMU without -icount was seen to step back (issue
 * 13, docs/design/platforms.md: by 265,514 and by 299,508,936 ticks on
 * one VPE, readings tagged with EBase.CPUNum).  Taken for a wrap, each
 * step added 2^32 cycles to that CPU's clock (one VPE's extension stood
 * five wraps ahead of the other's).  A reading behind the last is no
 * wrap: counted, and the clock holds until Count is past last again.
 */
static void test_read_behind_is_no_wrap(void **state)
{
	(void)state;
	struct count_ext e;

	count_ext_seed(&e, 2472129368u, 2472129368u);
	assert_int_equal(count_ext_read(&e, 2471863854u), 2472129368u);
	assert_int_equal(e.behind, 1);
	assert_int_equal(count_ext_read(&e, 2472000000u), 2472129368u);
	assert_int_equal(e.behind, 2);
	assert_int_equal(count_ext_read(&e, 2472129400u), 2472129400u);
	assert_int_equal(e.high, 0);

	/* A step back of 299,508,936 ticks, then on from there. */
	count_ext_seed(&e, WRAP + 2200783441u, 2200783441u);
	assert_int_equal(count_ext_read(&e, 1901276553u), WRAP + 2200783441u);
	assert_int_equal(count_ext_read(&e, 2200783442u), WRAP + 2200783442u);
	assert_int_equal(e.behind, 1);

	/* Behind across a wrap point: last just past a wrap, Count back to
	 * just before it.  Neither a wrap nor 2^32 ahead. */
	count_ext_seed(&e, 3 * WRAP + 0x10, 0x10);
	assert_int_equal(count_ext_read(&e, 0xffffff00u), 3 * WRAP + 0x10);
	assert_int_equal(count_ext_read(&e, 0x20), 3 * WRAP + 0x20);
	assert_int_equal(e.behind, 1);

	/* The fast reader sends every such reading to count_ext_read. */
	uint64_t v = 0;

	assert_false(count_ext_peek(0x10, 3, 0xffffff00u, &v));
	assert_false(count_ext_peek(2472129368u, 0, 2471863854u, &v));
	assert_true(count_ext_peek(0x10, 3, 0x7fffff00u, &v));
	assert_int_equal(v, 3 * WRAP + 0x7fffff00u);
}

static void test_seed_takes_the_nearest_value(void **state)
{
	(void)state;
	struct count_ext e;
	uint64_t ref = 3 * WRAP + 1000;

	/* Read a little after ref: the same wrap. */
	count_ext_seed(&e, ref, 1500);
	assert_int_equal(count_ext_read(&e, 1600), 3 * WRAP + 1600);

	/* A Count that lags ref a little is no wrap (a shared pair would
	 * have counted one: 2^32 cycles of time gained). */
	count_ext_seed(&e, ref, 900);
	assert_int_equal(count_ext_read(&e, 950), 3 * WRAP + 950);

	/* ref just before a wrap, the reading just after: the next wrap. */
	count_ext_seed(&e, 4 * WRAP - 10, 20);
	assert_int_equal(count_ext_read(&e, 30), 4 * WRAP + 30);

	/* ref just after a wrap, a lagging reading just before it. */
	count_ext_seed(&e, 4 * WRAP + 5, 0xfffffff0u);
	assert_int_equal(count_ext_read(&e, 0xfffffff8u), 4 * WRAP - 8);
	assert_int_equal(count_ext_read(&e, 2), 4 * WRAP + 2);
}

/*
 * arch_cycles without masking interrupts (timer.c): the reader loads
 * last, then high, then reads Count; the tick (count_ext_read) may run
 * before, between or after those steps, or not at all.  Played over
 * Count values around a wrap, whatever the interleaving the reader
 * either gets the true 64-bit time or is sent to the slow way, which
 * records the wrap (count_ext_read, as interrupts-off code) and gets it.
 */
static void reader(struct count_ext *e, uint64_t t_tick, uint64_t t_read, int tick_at)
{
	uint32_t last = 0, high = 0;
	uint64_t v, latest = t_read;

	for (int step = 0; step < 4; step++) {
		if (step == tick_at) {
			(void)count_ext_read(e, (uint32_t)t_tick);
			if (t_tick > latest)
				latest = t_tick;
		}
		if (step == 0) {
			last = e->last;
		} else if (step == 1) {
			high = e->high;
		} else if (step == 2 && count_ext_peek(last, high, (uint32_t)t_read, &v)) {
			assert_int_equal(v, t_read);
			return;
		}
	}
	/* The slow way reads Count again, with interrupts off: later than
	 * the reader's first reading and than any tick that ran. */
	assert_int_equal(count_ext_read(e, (uint32_t)(latest + 1)), latest + 1);
}

static void test_peek_with_a_tick_anywhere(void **state)
{
	static const uint64_t offsets[] = { 1, 100, 4000, 0x7fff0000ull };

	(void)state;
	for (unsigned a = 0; a < sizeof(offsets) / sizeof(offsets[0]); a++) {
		for (uint64_t before = 0; before < 64; before += 7) {
			/* The state's last read at 3 * WRAP - before - offsets[a]. */
			uint64_t t0 = 3 * WRAP - before - offsets[a];

			for (uint64_t d = 0; d < 2 * offsets[a] + 200; d += 1 + offsets[a] / 16) {
				/* The reader's Count at t0 + d; a tick at or before it.
				 * Every reading less than half the range past the
				 * last one (count_ext.h), the slow way's too. */
				uint64_t t_read = t0 + d;

				if (d + 8 >= WRAP / 2)
					break;

				for (int tick_at = 0; tick_at <= 4; tick_at++) {
					struct count_ext e;
					uint64_t t_tick = tick_at <= 2 ? t0 + d / 2 : t_read + 3;

					count_ext_seed(&e, t0, (uint32_t)t0);
					reader(&e, t_tick, t_read, tick_at);
				}
			}
		}
	}
	/* The answer without a wrap, and the refusal with one. */
	uint64_t v = 0;

	assert_true(count_ext_peek(10, 2, 10, &v));
	assert_int_equal(v, 2 * WRAP + 10);
	assert_false(count_ext_peek(10, 2, 9, &v));
}

/*
 * The user interval's stamps on the 64-bit clock (count_ext_span), as
 * issue 13 saw them on CPU 0: since 7,202,695,100 (2^32 + 2,907,727,804),
 * exit stamp 2,907,732,148, entry stamp 2,907,725,058, the entry 7,090
 * ticks behind the exit after Count stepped back.  Unsigned, the span
 * was 2^32 - 7,090 cycles, which a cycles:u counter counted; signed, the
 * entry stays behind the exit and the cuts' guards see it.
 */
static void test_span_keeps_stamps_in_their_order(void **state)
{
	(void)state;
	uint64_t since = WRAP + 2907727804u, left, back;

	count_ext_span(since, 2907732148u, 2907725058u, &left, &back);
	assert_int_equal(left, WRAP + 2907732148u);
	assert_int_equal(back, WRAP + 2907725058u);
	assert_true(back < left);

	/* In order, across a wrap of the low word: after since, on. */
	count_ext_span(2 * WRAP - 100, 50, 900, &left, &back);
	assert_int_equal(left, 2 * WRAP + 50);
	assert_int_equal(back, 2 * WRAP + 900);

	/* An exit stamp behind since stays behind it (the kernel span's
	 * guard), also across a wrap. */
	count_ext_span(2 * WRAP + 10, 0xfffffff0u, 20, &left, &back);
	assert_int_equal(left, 2 * WRAP - 16);
	assert_int_equal(back, 2 * WRAP + 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_counts_wraps),
		cmocka_unit_test(test_seed_takes_the_nearest_value),
		cmocka_unit_test(test_read_behind_is_no_wrap),
		cmocka_unit_test(test_span_keeps_stamps_in_their_order),
		cmocka_unit_test(test_peek_with_a_tick_anywhere),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
