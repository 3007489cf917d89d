/*
 * Host tests of arch/x86_64/pmu/amd.c against the register double.
 *
 * CPUs (CPUID values as public CPUID dumps of these parts show them):
 *   Ryzen 7 1800X, Zen (family 17h model 01h): CPUID.01H EAX=0x00800f11
 *     (base family 0xF + extended 0x08 = 0x17), CPUID.80000000H
 *     EAX=0x8000001f, CPUID.80000001H ECX=0x35c233ff (bit 23
 *     PerfCtrExtCore set): six counters at C001_0200h.
 *   Phenom II X4 940, Deneb (family 10h): CPUID.01H EAX=0x00100f42
 *     (0xF + 0x01 = 0x10), CPUID.80000000H EAX=0x8000001b,
 *     CPUID.80000001H ECX=0x000037ff (bit 23 clear): four legacy counters.
 *   QEMU 7.2 TCG, -cpu EPYC: the Zen CPUID above, but PerfEvtSel/PerfCtr
 *     read 0 and drop writes (platforms.md).
 * MSR numbers are typed again from the APM vol. 2 on purpose.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>

#include "arch/x86_64/pmu/lapic_pmi.h"
#include "arch/x86_64/pmu/x86_pmu.h"
#include "events/events.h"
#include "pmu_x86_double.h"

#define PERF_EVTSEL0 0xc0010000u
#define PERF_CTR0 0xc0010004u
#define PERF_CTL_CORE0 0xc0010200u
#define PERF_CTR_CORE0 0xc0010201u
#define EN (1ull << 22)

bool pmu_interrupt(uintptr_t pc, uint32_t mode)
{
	(void)pc;
	(void)mode;
	return true;
}

struct amd_cpu {
	uint32_t sig, ext_max, ext_ecx;
};

static const struct amd_cpu zen = { 0x00800f11, 0x8000001f, 0x35c233ff };
static const struct amd_cpu deneb = { 0x00100f42, 0x8000001b, 0x000037ff };

static struct pmu_caps caps;
static char reason[PMU_REASON_MAX];
static uint32_t lapic_page[1024];

/* The LAPIC's LVT PC programmed, as integration will do before probing. */
static int setup(void **state)
{
	(void)state;
	return lapic_pmi_init(lapic_xapic_regs(lapic_page), 0xf0);
}

static void amd_machine(const struct amd_cpu *cpu)
{
	bool core = cpu->ext_ecx & 0x00800000u;
	unsigned n = core ? 6 : 4;

	xd_reset();
	/* "AuthenticAMD" in EBX, EDX, ECX. */
	xd_cpuid(0, 0, 0xd, 0x68747541, 0x444d4163, 0x69746e65);
	xd_cpuid(1, 0, cpu->sig, 0, 0, 0);
	xd_cpuid(0x80000000u, 0, cpu->ext_max, 0, 0, 0);
	xd_cpuid(0x80000001u, 0, 0, 0, cpu->ext_ecx, 0);
	for (unsigned i = 0; i < n; i++) {
		struct xd_ctr c = {
			core ? PERF_CTR_CORE0 + 2 * i : PERF_CTR0 + i, 0, 48, false,
			core ? PERF_CTL_CORE0 + 2 * i : PERF_EVTSEL0 + i, EN, -1, 0 };
		xd_add_ctr(&c);
	}
}

static void probe_ok(const struct amd_cpu *cpu)
{
	amd_machine(cpu);
	assert_int_equal(amd_ops.probe(&caps), 0);
	xd_log_clear();
}

static void test_probe_zen(void **state)
{
	(void)state;
	amd_machine(&zen);
	assert_int_equal(amd_ops.probe(&caps), 0);
	assert_string_equal(caps.name, "amd-core");
	assert_string_equal(caps.status, "amd-core: counting (PerfCtr0 +100000 "
	                    "in 100000 steps); family 17h, 6x48, pmi 0xf0");
	assert_int_equal(caps.ncounters, 6);
	assert_int_equal(caps.counter[5].width, 48);
	assert_true(caps.counter[5].max_period == (1ull << 47));
	assert_true(caps.counts);
	assert_true(caps.cpu_events);   /* hardware events: the hwevents benchmarks run */
	assert_true(caps.overflow_irq);
	assert_ptr_equal(caps.tables[0], &amd_fam17h_table);
	/* The liveness probe used the core MSRs, not the legacy aliases. */
	assert_int_equal(xd_writes_to(PERF_EVTSEL0), 0);
	assert_int_equal(xd_msr(PERF_CTL_CORE0), 0);
}

static void test_probe_deneb_legacy(void **state)
{
	(void)state;
	amd_machine(&deneb);
	assert_int_equal(amd_ops.probe(&caps), 0);
	assert_string_equal(caps.name, "amd-legacy");
	assert_int_equal(caps.ncounters, 4);
	assert_ptr_equal(caps.tables[0], &amd_fam10h_table);
	assert_int_equal(xd_writes_to(PERF_CTL_CORE0), 0);
}

/* rdpmc's ECX on AMD names a counter by its number: 0-5 for the core
 * counters (PerfCtrExtCore), 0-3 for the legacy ones. */
static void test_user_index_is_the_counter_number(void **state)
{
	(void)state;
	amd_machine(&zen);
	assert_int_equal(amd_ops.probe(&caps), 0);
	for (unsigned hw = 0; hw < 6; hw++) {
		assert_true(caps.counter[hw].user_read);
		assert_int_equal(caps.counter[hw].user_index, hw);
	}
	amd_machine(&deneb);
	assert_int_equal(amd_ops.probe(&caps), 0);
	for (unsigned hw = 0; hw < 4; hw++) {
		assert_true(caps.counter[hw].user_read);
		assert_int_equal(caps.counter[hw].user_index, hw);
	}
}

static void test_probe_qemu_epyc_not_counting(void **state)
{
	(void)state;
	amd_machine(&zen);
	xd_dead(true);
	assert_int_equal(amd_ops.probe(&caps), 0);
	assert_false(caps.counts);
	assert_string_equal(caps.status, "amd-core: present but not counting "
	                    "(PerfCtr0 write lost, read 0x0); family 17h, 6x48, pmi 0xf0");
}

static void test_probe_not_advancing(void **state)
{
	(void)state;
	amd_machine(&deneb);
	xd_spin_rate(0);
	assert_int_equal(amd_ops.probe(&caps), 0);
	assert_false(caps.counts);
	assert_string_equal(caps.status, "amd-legacy: present but not counting "
	                    "(PerfCtr0 did not advance); family 10h, 4x48, pmi 0xf0");
}

static void test_probe_intel_cpu(void **state)
{
	(void)state;
	xd_reset();
	xd_cpuid(0, 0, 0x16, 0x756e6547, 0x6c65746e, 0x49656e69);
	assert_int_equal(amd_ops.probe(&caps), -ENODEV);
	assert_non_null(strstr(caps.status, "not present"));
}

static void test_no_imode_without_lapic(void **state)
{
	struct pmu_control ctl = { .n = 1 };

	(void)state;
	lapic_pmi_disable();
	probe_ok(&zen);
	assert_false(caps.overflow_irq);
	assert_true(caps.counter[0].max_period == 0);
	ctl.ctr[0] = (struct pmu_counter_ctl){ .hw = 0, .event = 0xc0,
	        .modes = PMU_MODE_U, .flags = PMU_CTR_IMODE, .period = 10 };
	assert_int_equal(amd_ops.check(&ctl, false, reason, sizeof(reason)),
	                 -EINVAL);
	assert_non_null(strstr(reason, "counter 0 cannot interrupt"));
}

/*
 * Parts into PerfEvtSel (APM vol. 2, "Performance Event-Select
 * Registers"): EventSelect 7:0 and 35:32, UnitMask 15:8, USR 16, Edge 18,
 * En 22, Inv 23, CntMask 31:24.
 */
static void test_encode_fields_where_the_apm_has_them(void **state)
{
	struct pmu_encoding enc = {
		.fields = PMU_FIELD_EVSEL | PMU_FIELD_UMASK | PMU_FIELD_CMASK |
		          PMU_FIELD_INV | PMU_FIELD_EDGE,
		.evsel = 0x1c2, .umask = 0x0f, .cmask = 2,
	};
	struct pmu_control ctl = { .n = 1 };
	uint32_t code = 0;

	(void)state;
	probe_ok(&zen);
	assert_int_equal(caps.fields, enc.fields);
	assert_ptr_equal(caps.umask_sets, amd_fam17h_umasks);
	assert_int_equal(amd_ops.encode(&enc, &code, reason, sizeof(reason)), 0);
	ctl.ctr[0] = (struct pmu_counter_ctl){ .hw = 0, .event = code,
	        .modes = PMU_MODE_U };
	assert_int_equal(amd_ops.check(&ctl, false, reason, sizeof(reason)), 0);
	assert_true(ctl.ctr[0].evtsel == (0xc2ull | 0x0full << 8 | 1ull << 16 |
	                                  1ull << 18 | 1ull << 22 | 1ull << 23 |
	                                  2ull << 24 | 1ull << 32));
	enc = (struct pmu_encoding){ .fields = PMU_FIELD_EVSEL, .evsel = 0x1000 };
	assert_int_equal(amd_ops.encode(&enc, &code, reason, sizeof(reason)),
	                 -EINVAL);
	assert_string_equal(reason, "event=0x1000: amd takes 0..0xfff");
	enc = (struct pmu_encoding){ .fields = PMU_FIELD_CMASK, .cmask = 300 };
	assert_int_equal(amd_ops.encode(&enc, &code, reason, sizeof(reason)),
	                 -EINVAL);
	assert_non_null(strstr(reason, "cmask=300"));
}

static void test_encodings(void **state)
{
	struct pmu_control ctl = { .n = 3 };

	(void)state;
	probe_ok(&zen);
	/* instructions (C0h), user:
	 *   0xc0 | USR (0x10000) | En (0x400000) = 0x004100c0 */
	ctl.ctr[0] = (struct pmu_counter_ctl){ .hw = 2, .event = 0xc0,
	                                       .modes = PMU_MODE_U };
	/* EventSelect 1C0h: code 0xc0 | 1 << 16 (EventSelect[11:8] in code
	 * 19:16), kernel:
	 *   0xc0 | OS (0x20000) | En (0x400000) | 1 << 32 = 0x1004200c0 */
	ctl.ctr[1] = (struct pmu_counter_ctl){ .hw = 0, .event = 0x000100c0,
	                                       .modes = PMU_MODE_K };
	/* 7Dh umask 07h, edge (code bit 20 -> PerfEvtSel 18), cmask 2, both
	 * modes, interrupting:
	 *   0x077d | cmask 0x02000000 = 0x0200077d; | Edge 0x40000 |
	 *   USR+OS 0x30000 = 0x0207077d; | INT 0x100000 | En 0x400000
	 *   = 0x0257077d */
	ctl.ctr[2] = (struct pmu_counter_ctl){ .hw = 5, .event = 0x0210077d,
	        .modes = PMU_MODE_U | PMU_MODE_K, .flags = PMU_CTR_IMODE,
	        .period = 100 };
	assert_int_equal(amd_ops.check(&ctl, false, reason, sizeof(reason)), 0);
	assert_true(ctl.ctr[0].evtsel == 0x004100c0ull);
	assert_true(ctl.ctr[1].evtsel == 0x1004200c0ull);
	assert_true(ctl.ctr[2].evtsel == 0x0257077dull);
	/* 2^48 - 100 = 0xffffffffff9c */
	assert_true(ctl.ctr[2].ireset == 0xffffffffff9cull);
}

static void expect_refused(uint32_t hw, uint32_t code, uint32_t modes,
                           const char *why)
{
	struct pmu_control ctl = { .n = 1 };

	ctl.ctr[0] = (struct pmu_counter_ctl){ .hw = hw, .event = code,
	                                       .modes = modes };
	reason[0] = '\0';
	assert_int_equal(amd_ops.check(&ctl, false, reason, sizeof(reason)),
	                 -EINVAL);
	if (!strstr(reason, why))
		fail_msg("reason '%s' lacks '%s'", reason, why);
}

static void test_reserved_and_bad_refused(void **state)
{
	(void)state;
	probe_ok(&deneb);
	/* Code bits 21 and 22 are outside Tally's AMD layout. */
	expect_refused(0, 0x002000c0, PMU_MODE_U, "bits 0x200000 are reserved");
	expect_refused(0, 0x004000c0, PMU_MODE_U, "bits 0x400000 are reserved");
	expect_refused(4, 0xc0, PMU_MODE_U, "counter 4 out of range (4)");
	expect_refused(0, 0xc0, PMU_MODE_X, "filters u and k only");
	expect_refused(0, 0xc0, 0, "filters u and k only");
}

static void test_period_limits(void **state)
{
	struct pmu_control ctl = { .n = 1 };

	(void)state;
	probe_ok(&zen);
	ctl.ctr[0] = (struct pmu_counter_ctl){ .hw = 0, .event = 0xc0,
	        .modes = PMU_MODE_U, .flags = PMU_CTR_IMODE,
	        .period = (1ull << 47) };
	assert_int_equal(amd_ops.check(&ctl, false, reason, sizeof(reason)), 0);
	assert_true(ctl.ctr[0].ireset == (1ull << 47));
	ctl.ctr[0].period++;
	assert_int_equal(amd_ops.check(&ctl, false, reason, sizeof(reason)),
	                 -EINVAL);
	ctl.ctr[0].period = 0;
	assert_int_equal(amd_ops.check(&ctl, false, reason, sizeof(reason)),
	                 -EINVAL);
}

static void test_fold_and_legacy_addresses(void **state)
{
	struct pmu_state st;

	(void)state;
	probe_ok(&deneb);
	memset(&st, 0, sizeof(st));
	st.ctl.n = 1;
	st.ctl.ctr[0] = (struct pmu_counter_ctl){ .hw = 3, .event = 0x76,
	                                          .modes = PMU_MODE_U };
	assert_int_equal(amd_ops.check(&st.ctl, false, reason, sizeof(reason)), 0);
	xd_set_ctr(3, 0xfffffffffff0ull);
	amd_ops.resume(&st);
	/* Counter 3's control is C001_0003h: 0x76 | USR | En = 0x410076. */
	assert_true(xd_msr(PERF_EVTSEL0 + 3) == 0x410076);
	assert_true(st.ctr[0].start == 0xfffffffffff0ull);
	xd_count(3, 0x30);
	amd_ops.suspend(&st);
	/* (0x20 - 0xfffffffffff0) mod 2^48 = 0x30 */
	assert_true(st.ctr[0].sum == 0x30);
	assert_true(xd_msr(PERF_EVTSEL0 + 3) == 0);     /* stopped */
}

static void test_overflow_by_value_and_reload(void **state)
{
	struct pmu_state st;

	(void)state;
	probe_ok(&zen);
	memset(&st, 0, sizeof(st));
	st.ctl.n = 2;
	st.ctl.ctr[0] = (struct pmu_counter_ctl){ .hw = 1, .event = 0xc0,
	        .modes = PMU_MODE_U, .flags = PMU_CTR_IMODE, .period = 100 };
	st.ctl.ctr[1] = (struct pmu_counter_ctl){ .hw = 4, .event = 0x76,
	        .modes = PMU_MODE_U, .flags = PMU_CTR_IMODE, .period = 100 };
	assert_int_equal(amd_ops.check(&st.ctl, false, reason, sizeof(reason)), 0);
	amd_ops.ireload(&st);
	amd_ops.resume(&st);
	/* Core counter 1 lives at C001_0203h. */
	assert_true(xd_msr(PERF_CTR_CORE0 + 2) == 0xffffffffff9cull);
	xd_count(1, 150);       /* 50 past the wrap */
	xd_count(4, 99);        /* one short */
	amd_ops.suspend(&st);
	assert_true(st.ctr[0].sum == 150);
	assert_int_equal(amd_ops.identify_overflow(&st), 0x1);
	assert_true(st.ctr[0].start == 0xffffffffff9cull);
	assert_true(st.ctr[1].start == 0xffffffffff9cull + 99);
	amd_ops.resume(&st);
	assert_true(xd_msr(PERF_CTR_CORE0 + 2) == 0xffffffffff9cull);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_probe_zen, setup),
		cmocka_unit_test_setup(test_probe_deneb_legacy, setup),
		cmocka_unit_test_setup(test_user_index_is_the_counter_number, setup),
		cmocka_unit_test_setup(test_probe_qemu_epyc_not_counting, setup),
		cmocka_unit_test_setup(test_probe_not_advancing, setup),
		cmocka_unit_test_setup(test_probe_intel_cpu, setup),
		cmocka_unit_test_setup(test_no_imode_without_lapic, setup),
		cmocka_unit_test_setup(test_encodings, setup),
		cmocka_unit_test_setup(test_reserved_and_bad_refused, setup),
		cmocka_unit_test_setup(test_period_limits, setup),
		cmocka_unit_test_setup(test_fold_and_legacy_addresses, setup),
		cmocka_unit_test_setup(test_overflow_by_value_and_reload, setup),
		cmocka_unit_test_setup(test_encode_fields_where_the_apm_has_them, setup),
	};
	return cmocka_run_group_tests_name("pmu_amd", tests, NULL, NULL);
}
