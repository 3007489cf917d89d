/*
 * Host tests of arch/mips/pmu/mips32.c and mips_pmu_irq.c against a CP0
 * double (pmu_mips_double.c).
 *
 * Cores: PRId company 0x01 with the implementation numbers of the cores'
 * Software User's Manuals (24K 0x93, 34K 0x95, 74K 0x97, P5600 0xa8);
 * the revision bytes are QEMU 7.2's for its 24Kf (0x00019300), 34Kf
 * (0x00019530), 74Kf (0x00019740) and P5600 (0x0001a800).  Config1 is
 * read for PC (bit 4) only.  IntCtl 0xfc000000 is IPTI = IPPCI = 7 (the
 * counters share the timer's IP7, as on Malta core cards); 0xf8000000 is
 * IPTI 7, IPPCI 6.  The QEMU cases replay platforms.md: Config1.PC = 0 on
 * the 24Kf, and on the P5600 a PerfCtl0 that keeps 11 bits and a PerfCnt0
 * that reads 0xffffffff.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>

#include "arch/mips/pmu/mips_pmu.h"
#include "events/events.h"
#include "pmu_mips_double.h"

#define CONFIG1_PC_M 0x80000010u        /* M (Config2 exists) + PC */
#define CONFIG1_NO_PC 0x80000000u
#define INTCTL_SHARED 0xfc000000u
#define INTCTL_OWN 0xf8000000u
#define WRITABLE 0x3fffffffu

static const struct md_core qemu_24kf = {
	0x00019300, CONFIG1_NO_PC, 0, INTCTL_SHARED, 0x80000000, 0, false,
	false, true, false, WRITABLE };
static const struct md_core qemu_p5600 = {
	0x0001a800, CONFIG1_PC_M, 0, INTCTL_SHARED, 0x80000000, 1, false,
	false, true, false, WRITABLE };
static const struct md_core c24k = {
	0x00019300, CONFIG1_PC_M, 0, INTCTL_SHARED, 0x80000000, 2, false,
	false, false, false, WRITABLE };
static const struct md_core c74k = {
	0x00019740, CONFIG1_PC_M, 0, INTCTL_SHARED, 0x80000000, 4, false,
	false, false, false, WRITABLE };
/* Config3.MT (bit 2); EBase.CPUNum 1: the second VPE. */
static const struct md_core c34k_vpe1 = {
	0x00019530, CONFIG1_PC_M, 0x80000004, INTCTL_OWN, 0x80000001, 2,
	false, false, false, false, WRITABLE };
static const struct md_core p5600 = {
	0x0001a800, CONFIG1_PC_M, 0, INTCTL_SHARED, 0x80000000, 2, false,
	false, false, false, WRITABLE };
/* A core not in the tables, with 64-bit (W) counters. */
static const struct md_core wide_io64 = {
	0x0001a900, CONFIG1_PC_M, 0, INTCTL_SHARED, 0x80000000, 2, true,
	true, false, false, WRITABLE };
static const struct md_core wide_io32 = {
	0x0001a900, CONFIG1_PC_M, 0, INTCTL_SHARED, 0x80000000, 2, true,
	false, false, false, WRITABLE };
static const struct md_core r10000 = {
	0x00000926, 0, 0, 0, 0, 2, false, false, false, true, 0x1ff };

static struct pmu_caps caps;
static char reason[PMU_REASON_MAX];
static unsigned irq_calls;
static uintptr_t irq_pc;

/* What hwperf answers: whether it found an overflowed counter. */
static bool irq_claim = true;

bool pmu_interrupt(uintptr_t pc, uint32_t mode)
{
	(void)mode;
	irq_calls++;
	irq_pc = pc;
	return irq_claim;
}

/* The counters' IP line routed, as integration will do before probing. */
static int setup(void **state)
{
	(void)state;
	irq_calls = 0;
	irq_claim = true;
	mips_pmu_irq_wire(true);
	return 0;
}

static void probe_ok(const struct md_core *core)
{
	md_reset(core);
	assert_int_equal(mips32_pmu_ops.probe(&caps), 0);
	md_log_clear();
}

static unsigned perf_accesses(void)
{
	unsigned n = 0;

	for (unsigned i = 0; i < md_log_len(); i++)
		n += md_log_at(i)->reg == 25;
	return n;
}

static void expect_refused(uint32_t hw, uint32_t ev, uint32_t modes,
                           uint32_t flags, uint64_t period, const char *why);

/* ---- probe --------------------------------------------------------------- */

static void test_probe_qemu_24kf_not_present(void **state)
{
	(void)state;
	md_reset(&qemu_24kf);
	assert_int_equal(mips32_pmu_ops.probe(&caps), -ENODEV);
	assert_string_equal(caps.status, "mips32: not present (Config1.PC = 0)");
	assert_int_equal(perf_accesses(), 0);
}

static void test_probe_qemu_p5600_not_counting(void **state)
{
	(void)state;
	md_reset(&qemu_p5600);
	assert_int_equal(mips32_pmu_ops.probe(&caps), 0);
	assert_string_equal(caps.name, "mips-p5600");
	assert_false(caps.counts);
	assert_false(caps.overflow_irq);
	assert_int_equal(caps.ncounters, 1);    /* PerfCtl0.M reads 0 */
	assert_string_equal(caps.status, "mips-p5600: present but not counting "
	                    "(PerfCnt0 write lost, read 0xffffffff); 1 ctrs, "
	                    "IP7=timer");
}

static void test_probe_r10000_is_not_mips32(void **state)
{
	(void)state;
	md_reset(&r10000);
	assert_int_equal(mips32_pmu_ops.probe(&caps), -ENODEV);
	assert_non_null(strstr(caps.status, "pre-MIPS32 part"));
}

static void test_probe_74k(void **state)
{
	(void)state;
	mips_pmu_irq_wire(false);
	md_reset(&c74k);
	assert_int_equal(mips32_pmu_ops.probe(&caps), 0);
	assert_string_equal(caps.status, "mips-74k: counting (PerfCnt0 +100000 "
	                    "in 100000 steps); 4 ctrs, IP7=timer");
	assert_int_equal(caps.ncounters, 4);
	for (unsigned hw = 0; hw < 4; hw++) {
		assert_int_equal(caps.counter[hw].width, 32);
		/* pmu.h: 0 = cannot interrupt (the line is not wired). */
		assert_true(caps.counter[hw].max_period == 0);
		/* PerfCnt is CP0: no user-mode read (the read page refuses). */
		assert_false(caps.counter[hw].user_read);
	}
	assert_int_equal(caps.modes, PMU_MODE_ALL);
	assert_ptr_equal(caps.tables[0], &mips_74k_table);
	assert_true(caps.counts);
	assert_true(caps.cpu_events);   /* hardware events: the hwevents benchmarks run */
	assert_false(caps.overflow_irq);        /* line not wired */
	for (unsigned hw = 0; hw < 4; hw++)
		assert_int_equal(md_control(hw), 0);    /* left off */
	expect_refused(0, 0, PMU_MODE_U, PMU_CTR_IMODE, 10,
	               "counter 0 cannot interrupt");
	mips_pmu_irq_wire(true);
	probe_ok(&c74k);
	assert_true(caps.overflow_irq);
}

static void test_probe_34k_filters_its_vpe(void **state)
{
	struct pmu_control ctl = { .n = 1 };

	(void)state;
	probe_ok(&c34k_vpe1);
	assert_non_null(strstr(caps.status, "2 ctrs, IP6"));
	assert_null(strstr(caps.status, "timer"));
	/* cycles (0), user: U (0x8) | MT_EN 1 << 20 | VPEID 1 << 16
	 *   = 0x00110008 */
	ctl.ctr[0] = (struct pmu_counter_ctl){ .hw = 0, .event = 0,
	                                       .modes = PMU_MODE_U };
	assert_int_equal(mips32_pmu_ops.check(&ctl, false, reason,
	                                      sizeof(reason)), 0);
	assert_true(ctl.ctr[0].evtsel == 0x00110008ull);
}

/* ---- check: encodings worked out from the manuals ------------------------ */

static void test_encodings(void **state)
{
	struct pmu_control ctl = { .n = 2 };

	(void)state;
	probe_ok(&c74k);
	/* 74K branch-misses, event 39 = 0x27 on an odd counter, user:
	 *   U 0x8 | 39 << 5 (= 0x4e0) = 0x4e8 */
	ctl.ctr[0] = (struct pmu_counter_ctl){ .hw = 1, .event = 39,
	                                       .modes = PMU_MODE_U };
	/* 74K icache-accesses, event 6 on counter 2, k + exl, interrupting:
	 *   EXL 0x1 | K 0x2 | IE 0x10 | 6 << 5 (= 0xc0) = 0xd3;
	 *   ireset = 2^31 - 1000 = 0x7ffffc18 */
	ctl.ctr[1] = (struct pmu_counter_ctl){ .hw = 2, .event = 6,
	        .modes = PMU_MODE_K | PMU_MODE_X, .flags = PMU_CTR_IMODE,
	        .period = 1000 };
	assert_int_equal(mips32_pmu_ops.check(&ctl, false, reason,
	                                      sizeof(reason)), 0);
	assert_true(ctl.ctr[0].evtsel == 0x4e8);
	assert_true(ctl.ctr[1].evtsel == 0xd3);
	assert_true(ctl.ctr[1].ireset == 0x7ffffc18ull);

	probe_ok(&c24k);
	/* 24K dcache-misses, event 11, counter 0, all four modes:
	 *   0xf | 11 << 5 (= 0x160) = 0x16f */
	ctl.n = 1;
	ctl.ctr[0] = (struct pmu_counter_ctl){ .hw = 0, .event = 11,
	                                       .modes = PMU_MODE_ALL };
	assert_int_equal(mips32_pmu_ops.check(&ctl, false, reason,
	                                      sizeof(reason)), 0);
	assert_true(ctl.ctr[0].evtsel == 0x16f);
}

static void expect_refused(uint32_t hw, uint32_t ev, uint32_t modes,
                           uint32_t flags, uint64_t period, const char *why)
{
	struct pmu_control ctl = { .n = 1 };

	ctl.ctr[0] = (struct pmu_counter_ctl){ .hw = hw, .event = ev,
	        .modes = modes, .flags = flags, .period = period };
	reason[0] = '\0';
	assert_int_equal(mips32_pmu_ops.check(&ctl, false, reason,
	                                      sizeof(reason)), -EINVAL);
	if (!strstr(reason, why))
		fail_msg("reason '%s' lacks '%s'", reason, why);
}

static void test_reserved_and_bad_refused(void **state)
{
	(void)state;
	probe_ok(&c74k);
	/* The 74K's Event field is bits 10:5: 0..0x3f. */
	expect_refused(0, 0x40, PMU_MODE_U, 0, 0,
	               "event 0x40 beyond the mips-74k Event field (max 0x3f)");
	expect_refused(4, 0, PMU_MODE_U, 0, 0, "counter 4 out of range (4)");
	expect_refused(0, 0, 0, 0, 0, "need some of x k s u");
	expect_refused(0, 0, 0x10, 0, 0, "need some of x k s u");
	expect_refused(0, 0, PMU_MODE_U, PMU_CTR_IMODE, 0x80000001ull,
	               "period out of 1..2^31");
	expect_refused(0, 0, PMU_MODE_U, PMU_CTR_IMODE, 0,
	               "period out of 1..2^31");
	probe_ok(&p5600);
	/* P5600: Event + EventExt, 10 bits. */
	expect_refused(0, 0x400, PMU_MODE_U, 0, 0, "(max 0x3ff)");
}

static void test_p5600_extended_event_accepted(void **state)
{
	struct pmu_control ctl = { .n = 1 };

	(void)state;
	probe_ok(&p5600);
	/* event 0x3ff, user: 0x8 | 0x3ff << 5 (= 0x7fe0) = 0x7fe8 */
	ctl.ctr[0] = (struct pmu_counter_ctl){ .hw = 1, .event = 0x3ff,
	                                       .modes = PMU_MODE_U };
	assert_int_equal(mips32_pmu_ops.check(&ctl, false, reason,
	                                      sizeof(reason)), 0);
	assert_true(ctl.ctr[0].evtsel == 0x7fe8);
}

/* ---- running ------------------------------------------------------------- */

static void test_fold_at_32_bit_wrap(void **state)
{
	struct pmu_state st;

	(void)state;
	probe_ok(&c24k);
	memset(&st, 0, sizeof(st));
	st.ctl.n = 1;
	st.ctl.ctr[0] = (struct pmu_counter_ctl){ .hw = 1, .event = 1,
	                                          .modes = PMU_MODE_U };
	assert_int_equal(mips32_pmu_ops.check(&st.ctl, false, reason,
	                                      sizeof(reason)), 0);
	md_set_counter(1, 0xffffff00u);
	mips32_pmu_ops.resume(&st);
	assert_int_equal(md_control(1), 0x28);  /* U | 1 << 5 */
	md_count(1, 0x200);
	mips32_pmu_ops.suspend(&st);
	/* (0x100 - 0xffffff00) mod 2^32 = 0x200 */
	assert_true(st.ctr[0].sum == 0x200);
	assert_true(st.ctr[0].start == 0x100);
	assert_int_equal(md_control(1), 0);
	assert_true(st.cycles_sum == 600);
}

static void test_overflow_interrupt_identify_reload(void **state)
{
	struct pmu_state st;

	(void)state;
	probe_ok(&c74k);
	assert_true(caps.overflow_irq);
	memset(&st, 0, sizeof(st));
	st.ctl.n = 2;
	st.ctl.ctr[0] = (struct pmu_counter_ctl){ .hw = 0, .event = 0,
	        .modes = PMU_MODE_U, .flags = PMU_CTR_IMODE, .period = 1000 };
	st.ctl.ctr[1] = (struct pmu_counter_ctl){ .hw = 3, .event = 1,
	        .modes = PMU_MODE_U, .flags = PMU_CTR_IMODE, .period = 1000 };
	assert_int_equal(mips32_pmu_ops.check(&st.ctl, false, reason,
	                                      sizeof(reason)), 0);
	mips32_pmu_ops.ireload(&st);
	mips32_pmu_ops.resume(&st);
	assert_true(md_counter(0) == 0x7ffffc18u);
	assert_false(mips_pmu_irq(0x80001000, PMU_MODE_U));
	md_count(0, 999);
	assert_false(mips_pmu_irq(0x80001000, PMU_MODE_U));
	md_count(0, 1);                 /* bit 31 set: Cause.PCI */
	md_count(3, 999);
	assert_true(mips_pmu_irq(0x80001000, PMU_MODE_U));
	assert_int_equal(irq_calls, 1);
	assert_true(irq_pc == 0x80001000);
	/* What hwperf does in pmu_interrupt(): */
	mips32_pmu_ops.suspend(&st);
	assert_false(mips_pmu_irq(0, PMU_MODE_U));     /* IE off: line drops */
	assert_true(st.ctr[0].sum == 1000);
	assert_int_equal(mips32_pmu_ops.identify_overflow(&st), 0x1);
	assert_true(st.ctr[0].start == 0x7ffffc18u);
	assert_true(st.ctr[1].start == 0x7ffffc18u + 999);
	mips32_pmu_ops.resume(&st);
	assert_true(md_counter(0) == 0x7ffffc18u);
	assert_true(md_counter(3) == 0x7ffffc18u + 999);
	assert_false(mips_pmu_irq(0, PMU_MODE_U));
}

/*
 * Every call (the line and Cause.PCI said the counters asked) is counted;
 * spurious when the driver sees no counter interrupting or hwperf finds
 * none overflowed.  QEMU's P5600 counts nothing, so its probe names no
 * source and every call is spurious.
 */
static void test_irq_counts_spurious(void **state)
{
	struct pmu_state st;
	unsigned long n0, s0;

	(void)state;
	probe_ok(&c24k);
	memset(&st, 0, sizeof(st));
	st.ctl.n = 1;
	st.ctl.ctr[0] = (struct pmu_counter_ctl){ .hw = 0, .event = 0,
	        .modes = PMU_MODE_U, .flags = PMU_CTR_IMODE, .period = 10 };
	assert_int_equal(mips32_pmu_ops.check(&st.ctl, false, reason,
	                                      sizeof(reason)), 0);
	mips32_pmu_ops.ireload(&st);
	mips32_pmu_ops.resume(&st);
	n0 = mips_pmu_irq_count();
	s0 = mips_pmu_irq_spurious();
	assert_false(mips_pmu_irq(0, PMU_MODE_K));      /* nothing pending */
	assert_int_equal(irq_calls, 0);
	assert_int_equal(mips_pmu_irq_count(), n0 + 1);
	assert_int_equal(mips_pmu_irq_spurious(), s0 + 1);
	md_count(0, 10);
	assert_true(mips_pmu_irq(0, PMU_MODE_U));
	assert_int_equal(mips_pmu_irq_count(), n0 + 2);
	assert_int_equal(mips_pmu_irq_spurious(), s0 + 1);
	irq_claim = false;                      /* hwperf: none overflowed */
	assert_false(mips_pmu_irq(0, PMU_MODE_U));
	assert_int_equal(irq_calls, 2);
	assert_int_equal(mips_pmu_irq_spurious(), s0 + 2);
	mips32_pmu_ops.suspend(&st);
	md_reset(&qemu_p5600);
	assert_int_equal(mips32_pmu_ops.probe(&caps), 0);
	assert_false(caps.counts);
	irq_claim = true;
	assert_false(mips_pmu_irq(0, PMU_MODE_U));
	assert_int_equal(irq_calls, 2);
	assert_int_equal(mips_pmu_irq_spurious(), s0 + 3);
}

static void test_wide_counters(void **state)
{
	struct pmu_control ctl = { .n = 1 };
	struct pmu_state st;

	(void)state;
	probe_ok(&wide_io64);
	assert_string_equal(caps.name, "mips32");       /* not in the tables */
	assert_int_equal(caps.ntables, 0);
	assert_int_equal(caps.counter[1].width, 64);
	assert_true(caps.counter[1].max_period == (1ull << 63));
	ctl.ctr[0] = (struct pmu_counter_ctl){ .hw = 1, .event = 0,
	        .modes = PMU_MODE_U, .flags = PMU_CTR_IMODE, .period = 1000 };
	assert_int_equal(mips32_pmu_ops.check(&ctl, false, reason,
	                                      sizeof(reason)), 0);
	/* 2^63 - 1000 */
	assert_true(ctl.ctr[0].ireset == 0x7ffffffffffffc18ull);

	/* Without DMFC0 the low half folds fine, but bit 63 is out of view. */
	/* Config reads 0 here (AR = Release 1): no IntCtl to name a line,
	 * no Cause.PCI; the pending test reads the counters instead. */
	assert_non_null(strstr(caps.status, "irq line unknown (Release 1)"));
	memset(&st, 0, sizeof(st));
	st.ctl = ctl;
	mips32_pmu_ops.ireload(&st);
	mips32_pmu_ops.resume(&st);
	assert_true(md_counter(1) == 0x7ffffffffffffc18ull);
	md_count(1, 999);
	assert_false(mips_pmu_irq(0, PMU_MODE_U));
	md_count(1, 1);
	assert_true(mips_pmu_irq(0, PMU_MODE_U));
	mips32_pmu_ops.suspend(&st);
	assert_int_equal(mips32_pmu_ops.identify_overflow(&st), 0x1);

	probe_ok(&wide_io32);
	assert_int_equal(caps.counter[1].width, 32);
	assert_true(caps.counter[1].max_period == 0);
	expect_refused(1, 0, PMU_MODE_U, PMU_CTR_IMODE, 1000,
	               "sees only its low half");
	ctl.ctr[0].flags = 0;
	assert_int_equal(mips32_pmu_ops.check(&ctl, false, reason,
	                                      sizeof(reason)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_probe_qemu_24kf_not_present, setup),
		cmocka_unit_test_setup(test_probe_qemu_p5600_not_counting, setup),
		cmocka_unit_test_setup(test_probe_r10000_is_not_mips32, setup),
		cmocka_unit_test_setup(test_probe_74k, setup),
		cmocka_unit_test_setup(test_probe_34k_filters_its_vpe, setup),
		cmocka_unit_test_setup(test_encodings, setup),
		cmocka_unit_test_setup(test_reserved_and_bad_refused, setup),
		cmocka_unit_test_setup(test_p5600_extended_event_accepted, setup),
		cmocka_unit_test_setup(test_fold_at_32_bit_wrap, setup),
		cmocka_unit_test_setup(test_overflow_interrupt_identify_reload, setup),
		cmocka_unit_test_setup(test_irq_counts_spurious, setup),
		cmocka_unit_test_setup(test_wide_counters, setup),
	};
	return cmocka_run_group_tests_name("pmu_mips32", tests, NULL, NULL);
}
