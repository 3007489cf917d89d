/*
 * Host tests of sample records (kernel/hwperf/sample.c, callchain.c and
 * the overflow path's call into the env): the ring's bound and drop
 * count, the line and JSON formats, and both call-chain walks over a fake
 * user memory in which any address may be unreadable.
 */
#include "hwperf_test.h"
#include "hwperf/sample.h"

#define PAGE 4096u

/* ---- the ring ---------------------------------------------------------------- */

static _Alignas(8) unsigned char pg0[PAGE], pg1[PAGE];

static void test_ring_keeps_first_cap_and_counts_drops(void **state)
{
	struct hwperf_sample *pages[2] = { (void *)pg0, (void *)pg1 };
	struct hwperf_ring r;
	uint32_t per = PAGE / sizeof(struct hwperf_sample);
	uint32_t cap = hwperf_ring_capacity(PAGE, 2, 1000);

	(void)state;
	assert_int_equal(cap, 2 * per);
	assert_int_equal(hwperf_ring_capacity(PAGE, 2, 5), 5);
	hwperf_ring_init(&r, pages, PAGE, cap);
	for (uint32_t i = 0; i < cap + 7; i++) {
		struct hwperf_sample *s = hwperf_ring_next(&r);

		if (i < cap) {
			assert_non_null(s);
			s->cycles = i;
		} else {
			assert_null(s);
		}
	}
	assert_int_equal(r.n, cap);
	assert_int_equal(r.dropped, 7);
	/* Kept in order, across the page boundary. */
	for (uint32_t i = 0; i < cap; i++)
		assert_int_equal(hwperf_ring_get(&r, i)->cycles, i);
	assert_ptr_equal(hwperf_ring_get(&r, per), (struct hwperf_sample *)pg1);
	assert_null(hwperf_ring_get(&r, cap));
}

static void test_ring_of_one(void **state)
{
	struct hwperf_sample *pages[1] = { (void *)pg0 };
	struct hwperf_ring r;

	(void)state;
	hwperf_ring_init(&r, pages, PAGE, 1);
	assert_non_null(hwperf_ring_next(&r));
	assert_null(hwperf_ring_next(&r));
	assert_null(hwperf_ring_next(&r));
	assert_int_equal(r.n, 1);
	assert_int_equal(r.dropped, 2);
}

/* ---- formats ------------------------------------------------------------------- */

static void test_line_and_json_formats(void **state)
{
	struct hwperf_sample s = {
		.cycles = 123456789, .pc = 0x400070, .chain = { 0x4000f9, 0x400109 },
		.pid = 3, .cpu = 1, .vctr = 2, .depth = 2,
	};
	char buf[400];
	int n;

	(void)state;
	n = hwperf_sample_format(&s, "cycles:u", false, buf, sizeof(buf));
	assert_string_equal(buf, "sample pid=3 cpu=1 cycles=123456789 vctr=2 "
	                    "event=cycles:u pc=0x400070 chain=0x4000f9,0x400109");
	assert_int_equal(n, (int)strlen(buf));
	hwperf_sample_format(&s, "cycles:u", true, buf, sizeof(buf));
	assert_string_equal(buf, "{\"pid\":3,\"cpu\":1,\"cycles\":123456789,\"vctr\":2,"
	                    "\"event\":\"cycles:u\",\"pc\":\"0x400070\","
	                    "\"chain\":[\"0x4000f9\",\"0x400109\"],\"truncated\":false}");
	s.depth = 0;
	hwperf_sample_format(&s, "syscalls:u", false, buf, sizeof(buf));
	assert_non_null(strstr(buf, " chain=-"));
	s.depth = 1;
	s.flags = HWPERF_SAMPLE_TRUNC;
	hwperf_sample_format(&s, "syscalls:u", false, buf, sizeof(buf));
	assert_non_null(strstr(buf, " chain=0x4000f9,..."));
	hwperf_sample_format(&s, "syscalls:u", true, buf, sizeof(buf));
	assert_non_null(strstr(buf, "\"truncated\":true}"));
	/* Cut short: never past the buffer, the full length returned. */
	char small[16];
	n = hwperf_sample_format(&s, "syscalls:u", false, small, sizeof(small));
	assert_int_equal(strlen(small), sizeof(small) - 1);
	assert_true(n > (int)sizeof(small));
}

/* ---- call chains over fake user memory ---------------------------------------- */

#define MEM_BASE 0x400000u
#define MEM_SIZE 0x20000u
#define TEXT_END 0x401000u
#define STACK_HI (MEM_BASE + MEM_SIZE)

static unsigned char mem[MEM_SIZE];
static unsigned reads;

static int fake_read(void *ctx, uintptr_t addr, void *dst, size_t n)
{
	(void)ctx;
	reads++;
	if (addr < MEM_BASE || addr + n > MEM_BASE + MEM_SIZE || addr + n < addr)
		return -EFAULT;
	memcpy(dst, &mem[addr - MEM_BASE], n);
	return 0;
}

static void put64(uintptr_t a, uint64_t v)
{
	memcpy(&mem[a - MEM_BASE], &v, sizeof(v));
}

static void put32(uintptr_t a, uint32_t v)
{
	memcpy(&mem[a - MEM_BASE], &v, sizeof(v));
}

static struct hwperf_uregs regs(uintptr_t pc, uintptr_t sp, uintptr_t fp, uintptr_t ra)
{
	return (struct hwperf_uregs){ .pc = pc, .sp = sp, .fp = fp, .ra = ra,
	                              .text_lo = MEM_BASE, .text_hi = TEXT_END,
	                              .stack_hi = STACK_HI };
}

static int setup_mem(void **state)
{
	(void)state;
	memset(mem, 0, sizeof(mem));
	reads = 0;
	return 0;
}

/* x86-64: frames at rising addresses, [fp] = caller's fp, [fp+8] = ret. */
static void test_fp64_walks_to_the_end(void **state)
{
	uint64_t out[HWPERF_SAMPLE_DEPTH];
	bool cut;

	(void)state;
	put64(0x410000, 0x410040); put64(0x410008, 0x400100);
	put64(0x410040, 0x410080); put64(0x410048, 0x400200);
	put64(0x410080, 0);        put64(0x410088, 0x400300);
	struct hwperf_uregs r = regs(0x400050, 0x40fff0, 0x410000, 0);
	unsigned n = hwperf_callchain(HWPERF_UNWIND_FP64, &r, fake_read, NULL, out,
	                              HWPERF_SAMPLE_DEPTH, &cut);
	assert_int_equal(n, 3);
	assert_false(cut);
	assert_int_equal(out[0], 0x400100);
	assert_int_equal(out[1], 0x400200);
	assert_int_equal(out[2], 0x400300);
}

static void test_fp64_stops_at_anything_wrong(void **state)
{
	uint64_t out[HWPERF_SAMPLE_DEPTH];
	bool cut;
	struct hwperf_uregs r;

	(void)state;
	/* A frame pointer into unreadable memory: no fault, no chain. */
	r = regs(0x400050, 0x40fff0, 0xdead0000, 0);
	assert_int_equal(hwperf_callchain(HWPERF_UNWIND_FP64, &r, fake_read, NULL, out,
	                                  HWPERF_SAMPLE_DEPTH, &cut), 0);
	/* Below the stack pointer, misaligned, or at the very top. */
	r = regs(0x400050, 0x410000, 0x40fff0, 0);
	assert_int_equal(hwperf_callchain(HWPERF_UNWIND_FP64, &r, fake_read, NULL, out, 4, &cut), 0);
	r = regs(0x400050, 0x40fff0, 0x410004, 0);
	assert_int_equal(hwperf_callchain(HWPERF_UNWIND_FP64, &r, fake_read, NULL, out, 4, &cut), 0);
	r = regs(0x400050, 0x40fff0, STACK_HI - 8, 0);
	assert_int_equal(hwperf_callchain(HWPERF_UNWIND_FP64, &r, fake_read, NULL, out, 4, &cut), 0);
	/* A return address outside the text ends the walk. */
	put64(0x410000, 0x410040); put64(0x410008, 0x400100);
	put64(0x410040, 0x410080); put64(0x410048, 0x7fff0000);
	r = regs(0x400050, 0x40fff0, 0x410000, 0);
	assert_int_equal(hwperf_callchain(HWPERF_UNWIND_FP64, &r, fake_read, NULL, out, 4, &cut), 1);
	/* A loop (fp pointing back down) ends it too. */
	put64(0x410040, 0x410000); put64(0x410048, 0x400200);
	assert_int_equal(hwperf_callchain(HWPERF_UNWIND_FP64, &r, fake_read, NULL, out, 12, &cut), 2);
	assert_true(reads < 20);
}

static void test_fp64_depth_cap(void **state)
{
	uint64_t out[3];
	bool cut;

	(void)state;
	for (uintptr_t f = 0x410000; f < 0x410400; f += 0x40) {
		put64(f, f + 0x40);
		put64(f + 8, 0x400100 + (f - 0x410000));
	}
	struct hwperf_uregs r = regs(0x400050, 0x40fff0, 0x410000, 0);
	assert_int_equal(hwperf_callchain(HWPERF_UNWIND_FP64, &r, fake_read, NULL, out, 3, &cut), 3);
	assert_true(cut);
	assert_int_equal(out[2], 0x400180);
}

/* MIPS O32 prologue words (clang's shape: allocate, save ra, save fp). */
#define ADDIU_SP(n) (0x27bd0000u | ((uint32_t)(-(n)) & 0xffffu))
#define SW_RA(off) (0xafbf0000u | (off))
#define SW_FP(off) (0xafbe0000u | (off))
#define MOVE_FP_SP 0x03a0f025u
#define NOP 0u

/* Function at fn: frame of size bytes, ra saved at size - 4. */
static void mips_fn(uintptr_t fn, uint32_t size)
{
	put32(fn, ADDIU_SP(size));
	put32(fn + 4, SW_RA(size - 4));
	put32(fn + 8, SW_FP(size - 8));
	put32(fn + 12, MOVE_FP_SP);
}

static void test_mips32_reads_prologues(void **state)
{
	uint64_t out[HWPERF_SAMPLE_DEPTH];
	bool cut;

	(void)state;
	/* main (0x400200, 32) -> mid (0x400100, 24) -> leaf (0x400050, 8) */
	mips_fn(0x400200, 32);
	mips_fn(0x400100, 24);
	mips_fn(0x400050, 8);
	uintptr_t sp_leaf = 0x41f000, sp_mid = sp_leaf + 8, sp_main = sp_mid + 24;
	put32(sp_leaf + 4, 0x400128);           /* leaf's saved ra: into mid */
	put32(sp_mid + 20, 0x400238);           /* mid's: into main */
	put32(sp_main + 28, 0x7f000000);        /* main's: outside the text */
	struct hwperf_uregs r = regs(0x400070, sp_leaf, sp_leaf, 0x400128);
	unsigned n = hwperf_callchain(HWPERF_UNWIND_MIPS32, &r, fake_read, NULL, out,
	                              HWPERF_SAMPLE_DEPTH, &cut);
	assert_int_equal(n, 2);
	assert_int_equal(out[0], 0x400128);
	assert_int_equal(out[1], 0x400238);
}

static void test_mips32_in_the_prologue_uses_ra(void **state)
{
	uint64_t out[HWPERF_SAMPLE_DEPTH];
	bool cut;

	(void)state;
	mips_fn(0x400100, 24);
	mips_fn(0x400050, 8);
	uintptr_t sp = 0x41f000;
	put32(sp + 20, 0);                      /* mid's frame ends the walk */
	/* Stopped on leaf's addiu: no frame yet, ra holds the return. */
	struct hwperf_uregs r = regs(0x400050, sp - 8 + 8, 0, 0x400128);
	r.sp = sp;
	put32(sp + 20, 0x7f000000);
	assert_int_equal(hwperf_callchain(HWPERF_UNWIND_MIPS32, &r, fake_read, NULL, out, 4, &cut), 1);
	assert_int_equal(out[0], 0x400128);
	/* After the addiu, before sw ra: frame exists, ra still in ra. */
	r = regs(0x400054, sp - 8, 0, 0x400128);
	assert_int_equal(hwperf_callchain(HWPERF_UNWIND_MIPS32, &r, fake_read, NULL, out, 4, &cut), 1);
	assert_int_equal(out[0], 0x400128);
}

static void test_mips32_stops_safely(void **state)
{
	uint64_t out[HWPERF_SAMPLE_DEPTH];
	bool cut;
	struct hwperf_uregs r;

	(void)state;
	/* No prologue anywhere before the PC: nothing. */
	r = regs(0x400050, 0x41f000, 0, 0x400128);
	assert_int_equal(hwperf_callchain(HWPERF_UNWIND_MIPS32, &r, fake_read, NULL, out, 4, &cut), 0);
	/* A PC outside the text: nothing read from it. */
	r = regs(0x7f000000, 0x41f000, 0, 0x400128);
	assert_int_equal(hwperf_callchain(HWPERF_UNWIND_MIPS32, &r, fake_read, NULL, out, 4, &cut), 0);
	/* A stack pointer into unreadable memory ends the walk. */
	mips_fn(0x400050, 8);
	r = regs(0x400070, 0xdead0000, 0, 0);
	assert_int_equal(hwperf_callchain(HWPERF_UNWIND_MIPS32, &r, fake_read, NULL, out, 4, &cut), 0);
}

/* ---- the overflow path hands each hit to the env with its counter ---------- */

static void test_R15_profile_hit_makes_a_sample_naming_the_counter(void **state)
{
	struct hwperf_reason why;
	struct fake_task *t;

	(void)state;
	hwt_setup(1);
	t = fake_spawn(10, USER_UID, 10, 1);
	fake_run(0, t);
	struct hwperf_control ctl = hwt_ctl("cycles,instructions:thresh=10");
	assert_true(hwperf_profile_enable(&t->hw, 0, &ctl, &why) > 0);
	fakepmu_pc = 0x400123;
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 35);
	assert_int_equal(t->prof_hits, 3);
	assert_int_equal(t->samples, 3);
	assert_int_equal(t->last_sample_vctr, 1);
	assert_int_equal(t->last_sample_pc, 0x400123);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring_keeps_first_cap_and_counts_drops),
		cmocka_unit_test(test_ring_of_one),
		cmocka_unit_test(test_line_and_json_formats),
		cmocka_unit_test_setup(test_fp64_walks_to_the_end, setup_mem),
		cmocka_unit_test_setup(test_fp64_stops_at_anything_wrong, setup_mem),
		cmocka_unit_test_setup(test_fp64_depth_cap, setup_mem),
		cmocka_unit_test_setup(test_mips32_reads_prologues, setup_mem),
		cmocka_unit_test_setup(test_mips32_in_the_prologue_uses_ra, setup_mem),
		cmocka_unit_test_setup(test_mips32_stops_safely, setup_mem),
		cmocka_unit_test(test_R15_profile_hit_makes_a_sample_naming_the_counter),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
