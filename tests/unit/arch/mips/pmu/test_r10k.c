/*
 * Host tests of arch/mips/pmu/r10k.c: the only tests this driver has, as
 * no Malta board carries an R10000 or R12000 and QEMU models neither.
 *
 * PRIds: company 0 (pre-MIPS32), implementation 0x09 (R10000) or 0x0e
 * (R12000), revision major.minor in the low byte as IRIX hinv(1) prints
 * it: R10000 revision 2.6 = 0x00000926, revision 3.4 = 0x00000934,
 * R12000 revision 3.5 = 0x00000e35.  The control register keeps bits 8:0
 * (R10000) or 9:0 (R12000), per r10k_evcntrs(5); bits above read 0.
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

static const struct md_core r10000_26 = {
	0x00000926, 0, 0, 0, 0, 2, false, false, false, true, 0x1ff };
static const struct md_core r10000_34 = {
	0x00000934, 0, 0, 0, 0, 2, false, false, false, true, 0x1ff };
static const struct md_core r12000_35 = {
	0x00000e35, 0, 0, 0, 0, 2, false, false, false, true, 0x3ff };
static const struct md_core r10000_dead = {
	0x00000926, 0, 0, 0, 0, 2, false, false, true, true, 0x1ff };
static const struct md_core m24k = {
	0x00019300, 0x80000010, 0, 0xfc000000, 0x80000000, 2, false, false,
	false, false, 0x3fffffff };

static struct pmu_caps caps;
static char reason[PMU_REASON_MAX];
static unsigned irq_calls;

bool pmu_interrupt(uintptr_t pc, uint32_t mode)
{
	(void)pc;
	(void)mode;
	irq_calls++;
	return true;
}

/* IP7 routed to mips_pmu_irq(), as integration will do before probing. */
static int setup(void **state)
{
	(void)state;
	irq_calls = 0;
	mips_pmu_irq_wire(true);
	return 0;
}

static void probe_ok(const struct md_core *core)
{
	md_reset(core);
	assert_int_equal(r10k_pmu_ops.probe(&caps), 0);
	md_log_clear();
}

static void expect_refused(uint32_t hw, uint32_t ev, uint32_t modes,
                           uint32_t flags, uint64_t period, const char *why);

static void test_probe_r10000(void **state)
{
	(void)state;
	md_reset(&r10000_26);
	assert_int_equal(r10k_pmu_ops.probe(&caps), 0);
	assert_string_equal(caps.name, "r10000");
	assert_string_equal(caps.status, "r10000: counting (counter 0 +100000 "
	                    "in 100000 steps); rev 2.6, 2x32, IP7=timer");
	assert_int_equal(caps.ncounters, 2);
	assert_int_equal(caps.slots_per_counter, 16);
	assert_int_equal(caps.counter[1].width, 32);
	assert_true(caps.counter[1].max_period == 0x80000000ull);
	/* CP0 counters: no user-mode read. */
	assert_false(caps.counter[0].user_read);
	assert_false(caps.counter[1].user_read);
	assert_true(caps.overflow_irq);
	assert_int_equal(caps.modes, PMU_MODE_ALL);
	assert_ptr_equal(caps.tables[0], &r10000_table);
	assert_int_equal(md_control(0), 0);
	probe_ok(&r10000_34);
	assert_non_null(strstr(caps.status, "rev 3.4"));
}

static void test_no_imode_unwired(void **state)
{
	(void)state;
	mips_pmu_irq_wire(false);
	probe_ok(&r10000_26);
	assert_false(caps.overflow_irq);
	assert_true(caps.counter[0].max_period == 0);
	expect_refused(0, 0, PMU_MODE_U, PMU_CTR_IMODE, 10,
	               "counter 0 cannot interrupt");
}

static void test_probe_r12000(void **state)
{
	(void)state;
	probe_ok(&r12000_35);
	assert_string_equal(caps.name, "r12000");
	assert_ptr_equal(caps.tables[0], &r12000_table);
	assert_int_equal(caps.slots_per_counter, 16);
}

static void test_probe_other_cpus(void **state)
{
	(void)state;
	md_reset(&m24k);
	assert_int_equal(r10k_pmu_ops.probe(&caps), -ENODEV);
	assert_string_equal(caps.status, "r10k: not present (PRId 0x00019300 "
	                    "is no R10000/R12000)");
	md_reset(&r10000_dead);
	assert_int_equal(r10k_pmu_ops.probe(&caps), 0);
	assert_false(caps.counts);
	assert_false(caps.overflow_irq);
	assert_non_null(strstr(caps.status, "present but not counting "
	                       "(counter 0 write lost, read 0xffffffff)"));
}

static void check_ok(struct pmu_control *ctl)
{
	assert_int_equal(r10k_pmu_ops.check(ctl, false, reason, sizeof(reason)),
	                 0);
}

static void test_encodings_r10000(void **state)
{
	struct pmu_control ctl = { .n = 2 };

	(void)state;
	probe_ok(&r10000_26);
	/* cycles, IRIX 0, counter 0, k + u: K 0x2 | U 0x8 | 0 << 5 = 0xa */
	ctl.ctr[0] = (struct pmu_counter_ctl){ .hw = 0, .event = 0,
	        .modes = PMU_MODE_K | PMU_MODE_U };
	/* tlb-misses, IRIX 23, counter 1, user: Event = 23 - 16 = 7,
	 *   U 0x8 | 7 << 5 (= 0xe0) = 0xe8 */
	ctl.ctr[1] = (struct pmu_counter_ctl){ .hw = 1, .event = 23,
	                                       .modes = PMU_MODE_U };
	check_ok(&ctl);
	assert_true(ctl.ctr[0].evtsel == 0xa);
	assert_true(ctl.ctr[1].evtsel == 0xe8);
	/* graduated instructions, IRIX 15, all modes, interrupting:
	 *   EXL|K|S|U 0xf | IE 0x10 | 15 << 5 (= 0x1e0) = 0x1ff;
	 *   ireset = 2^31 - 100 = 0x7fffff9c */
	ctl.n = 1;
	ctl.ctr[0] = (struct pmu_counter_ctl){ .hw = 0, .event = 15,
	        .modes = PMU_MODE_ALL, .flags = PMU_CTR_IMODE, .period = 100 };
	check_ok(&ctl);
	assert_true(ctl.ctr[0].evtsel == 0x1ff);
	assert_true(ctl.ctr[0].ireset == 0x7fffff9cull);
}

static void test_encodings_r12000(void **state)
{
	struct pmu_control ctl = { .n = 1 };

	(void)state;
	probe_ok(&r12000_35);
	/* tlb-misses, IRIX 23 on counter 1; the R12000's 5-bit Event field
	 * takes 23 itself: U 0x8 | 23 << 5 (= 0x2e0) = 0x2e8 */
	ctl.ctr[0] = (struct pmu_counter_ctl){ .hw = 1, .event = 23,
	                                       .modes = PMU_MODE_U };
	check_ok(&ctl);
	assert_true(ctl.ctr[0].evtsel == 0x2e8);
}

static void expect_refused(uint32_t hw, uint32_t ev, uint32_t modes,
                           uint32_t flags, uint64_t period, const char *why)
{
	struct pmu_control ctl = { .n = 1 };

	ctl.ctr[0] = (struct pmu_counter_ctl){ .hw = hw, .event = ev,
	        .modes = modes, .flags = flags, .period = period };
	reason[0] = '\0';
	assert_int_equal(r10k_pmu_ops.check(&ctl, false, reason,
	                                    sizeof(reason)), -EINVAL);
	if (!strstr(reason, why))
		fail_msg("reason '%s' lacks '%s'", reason, why);
}

static void test_refused(void **state)
{
	(void)state;
	probe_ok(&r10000_26);
	expect_refused(0, 17, PMU_MODE_U, 0, 0,
	               "event 17 counts on counter 1, not 0");
	expect_refused(1, 3, PMU_MODE_U, 0, 0,
	               "event 3 counts on counter 0, not 1");
	expect_refused(1, 32, PMU_MODE_U, 0, 0, "IRIX events are 0..31");
	expect_refused(2, 0, PMU_MODE_U, 0, 0, "counter 2 out of range");
	expect_refused(0, 0, 0, 0, 0, "need some of x k s u");
	expect_refused(0, 0, PMU_MODE_U, PMU_CTR_IMODE, 0x80000001ull,
	               "period out of 1..2^31");
}

static void test_fold_at_wrap(void **state)
{
	struct pmu_state st;

	(void)state;
	probe_ok(&r10000_26);
	memset(&st, 0, sizeof(st));
	st.ctl.n = 1;
	st.ctl.ctr[0] = (struct pmu_counter_ctl){ .hw = 1, .event = 16,
	                                          .modes = PMU_MODE_U };
	check_ok(&st.ctl);
	md_set_counter(1, 0xfffffff0u);
	r10k_pmu_ops.resume(&st);
	assert_int_equal(md_control(1), 0x8);   /* U, Event 16 - 16 = 0 */
	md_count(1, 0x40);
	r10k_pmu_ops.suspend(&st);
	/* (0x30 - 0xfffffff0) mod 2^32 = 0x40 */
	assert_true(st.ctr[0].sum == 0x40);
	assert_int_equal(md_control(1), 0);
}

static void test_overflow(void **state)
{
	struct pmu_state st;

	(void)state;
	probe_ok(&r10000_26);
	assert_true(caps.overflow_irq);
	memset(&st, 0, sizeof(st));
	st.ctl.n = 2;
	/* slot 0 on counter 0 (IRIX 0-15), slot 1 on counter 1 (16-31). */
	st.ctl.ctr[0] = (struct pmu_counter_ctl){ .hw = 0, .event = 0,
	        .modes = PMU_MODE_U, .flags = PMU_CTR_IMODE, .period = 100 };
	st.ctl.ctr[1] = (struct pmu_counter_ctl){ .hw = 1, .event = 24,
	                                          .modes = PMU_MODE_U };
	check_ok(&st.ctl);
	r10k_pmu_ops.ireload(&st);
	r10k_pmu_ops.resume(&st);
	assert_true(md_counter(0) == 0x7fffff9cu);
	md_count(0, 99);
	assert_false(mips_pmu_irq(0, PMU_MODE_U));
	/* An a-mode counter past bit 31 does not interrupt (no IE). */
	md_set_counter(1, 0x80000000u);
	assert_false(mips_pmu_irq(0, PMU_MODE_U));
	md_count(0, 3);                 /* 2 past the overflow */
	assert_true(mips_pmu_irq(0x9fc00000, PMU_MODE_U));
	assert_int_equal(irq_calls, 1);
	r10k_pmu_ops.suspend(&st);
	assert_false(mips_pmu_irq(0, PMU_MODE_U));
	assert_true(st.ctr[0].sum == 102);
	assert_int_equal(r10k_pmu_ops.identify_overflow(&st), 0x1);
	assert_true(st.ctr[0].start == 0x7fffff9cu);
	r10k_pmu_ops.resume(&st);
	assert_true(md_counter(0) == 0x7fffff9cu);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_probe_r10000, setup),
		cmocka_unit_test_setup(test_no_imode_unwired, setup),
		cmocka_unit_test_setup(test_probe_r12000, setup),
		cmocka_unit_test_setup(test_probe_other_cpus, setup),
		cmocka_unit_test_setup(test_encodings_r10000, setup),
		cmocka_unit_test_setup(test_encodings_r12000, setup),
		cmocka_unit_test_setup(test_refused, setup),
		cmocka_unit_test_setup(test_fold_at_wrap, setup),
		cmocka_unit_test_setup(test_overflow, setup),
	};
	return cmocka_run_group_tests_name("pmu_r10k", tests, NULL, NULL);
}
