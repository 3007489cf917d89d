/*
 * Host tests of arch/x86_64/pmu/intel_arch.c and lapic_pmi.c against a
 * register double (pmu_x86_double.c) that plays back real CPUs' CPUID.
 *
 * CPUs (CPUID values as public CPUID dumps of these parts show them):
 *   Skylake client, Core i7-6700K (06_5EH): CPUID.0AH EAX=0x07300404
 *     (version 4, 4 general counters, 48 bits, EBX length 7), EBX=0,
 *     EDX=0x00000603 (3 fixed, 48 bits); CPUID.01H ECX=0x7ffafbbf (PDCM);
 *     IA32_PERF_CAPABILITIES=0x33c5 (FW_WRITE, bit 13, set).
 *   Core 2 Duo E6600, Conroe (06_0FH): CPUID.0AH EAX=0x07280202 (version
 *     2, 2 counters, 40 bits), EDX=0x00000503 (3 fixed, 40 bits);
 *     CPUID.01H ECX=0x0000e3bd (PDCM); IA32_PERF_CAPABILITIES modelled as
 *     0 (no FW_WRITE: full-width writes came later).
 *   Core Duo T2400, Yonah (06_0EH): CPUID.0AH EAX=0x07280201 (version 1,
 *     2 counters, 40 bits): no fixed counters, no global MSRs;
 *     CPUID.01H ECX modelled without PDCM.
 *   QEMU 7.2 TCG, -cpu Skylake-Client: vendor GenuineIntel, CPUID.0AH all
 *     zero, PMU MSRs read 0 and drop writes (platforms.md).
 * MSR numbers below are typed from the SDM vol. 4 again, on purpose, so
 * that a wrong constant in the driver shows up here.
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
#include "hwperf/spec.h"
#include "pmu_x86_double.h"

#define IA32_PMC0 0xc1u
#define IA32_PERFEVTSEL0 0x186u
#define IA32_FIXED_CTR0 0x309u
#define IA32_PERF_CAPABILITIES 0x345u
#define IA32_FIXED_CTR_CTRL 0x38du
#define IA32_PERF_GLOBAL_STATUS 0x38eu
#define IA32_PERF_GLOBAL_CTRL 0x38fu
#define IA32_PERF_GLOBAL_OVF_CTRL 0x390u
#define IA32_A_PMC0 0x4c1u
#define EN (1ull << 22)

struct intel_cpu {
	uint32_t l1_ecx;
	uint32_t a_eax, a_ebx, a_ecx, a_edx;
	uint64_t perf_caps;
};

static const struct intel_cpu skylake = {
	0x7ffafbbf, 0x07300404, 0, 0, 0x00000603, 0x33c5 };
static const struct intel_cpu conroe = {
	0x0000e3bd, 0x07280202, 0, 0, 0x00000503, 0 };
static const struct intel_cpu yonah = {
	0, 0x07280201, 0, 0, 0, 0 };

/* pmu_interrupt(), as hwperf would get it. */
static unsigned irq_calls;
static uintptr_t irq_pc;
static uint32_t irq_mode;
static unsigned irq_log_pos;

/* What hwperf answers: whether it found an overflowed counter. */
static bool irq_claim;

bool pmu_interrupt(uintptr_t pc, uint32_t mode)
{
	irq_calls++;
	irq_pc = pc;
	irq_mode = mode;
	irq_log_pos = xd_log_len();
	return irq_claim;
}

static void intel_vendor(uint32_t max_leaf)
{
	/* "GenuineIntel" in EBX, EDX, ECX. */
	xd_cpuid(0, 0, max_leaf, 0x756e6547, 0x6c65746e, 0x49656e69);
}

/* The machine the SDM describes, built from the CPUID values alone. */
static void intel_machine(const struct intel_cpu *cpu)
{
	unsigned version = cpu->a_eax & 0xff, ngp = (cpu->a_eax >> 8) & 0xff;
	unsigned w = (cpu->a_eax >> 16) & 0xff;
	unsigned nfixed = version >= 2 ? (cpu->a_edx & 0x1f) : 0;
	unsigned fw = (cpu->a_edx >> 5) & 0xff;
	bool fw_write = (cpu->l1_ecx & 0x8000) && (cpu->perf_caps & 0x2000);

	xd_reset();
	intel_vendor(0x16);
	xd_cpuid(1, 0, 0x000506e3, 0, cpu->l1_ecx, 0);
	xd_cpuid(0xa, 0, cpu->a_eax, cpu->a_ebx, cpu->a_ecx, cpu->a_edx);
	xd_set_msr(IA32_PERF_CAPABILITIES, cpu->perf_caps);
	for (unsigned i = 0; i < ngp; i++) {
		struct xd_ctr c = { IA32_PMC0 + i, fw_write ? IA32_A_PMC0 + i : 0,
		                    w, true, IA32_PERFEVTSEL0 + i, EN, (int)i, 0 };
		xd_add_ctr(&c);
	}
	for (unsigned i = 0; i < nfixed; i++) {
		struct xd_ctr c = { IA32_FIXED_CTR0 + i, 0, fw, false,
		                    IA32_FIXED_CTR_CTRL, 0x3ull << (4 * i),
		                    (int)(32 + i), 0 };
		xd_add_ctr(&c);
	}
	if (version >= 2)
		xd_global(IA32_PERF_GLOBAL_CTRL, IA32_PERF_GLOBAL_STATUS,
		          IA32_PERF_GLOBAL_OVF_CTRL);
}

static struct pmu_caps caps;
static char reason[PMU_REASON_MAX];
static uint32_t lapic_page[1024];

/* The LAPIC's LVT PC programmed, as integration will do before probing. */
static int setup(void **state)
{
	(void)state;
	irq_calls = 0;
	irq_claim = true;
	assert_int_equal(lapic_pmi_init(lapic_xapic_regs(lapic_page), 0xf0), 0);
	memset(reason, 0, sizeof(reason));
	return 0;
}

static void probe_ok(const struct intel_cpu *cpu)
{
	intel_machine(cpu);
	assert_int_equal(intel_arch_ops.probe(&caps), 0);
	xd_log_clear();
}

static bool logged_read(uint32_t msr)
{
	for (unsigned i = 0; i < xd_log_len(); i++)
		if (xd_log_at(i)->op == 'R' && xd_log_at(i)->msr == msr)
			return true;
	return false;
}

static uint32_t mask_of(const char *name)
{
	uint32_t m = 0;

	for (unsigned t = 0; t < caps.ntables; t++)
		for (unsigned e = 0; e < caps.tables[t]->count; e++)
			if (strcmp(caps.tables[t]->events[e].name, name) == 0)
				m |= caps.tables[t]->events[e].counters;
	return m;
}

/* ---- probe --------------------------------------------------------------- */

static void test_probe_skylake(void **state)
{
	(void)state;
	intel_machine(&skylake);
	assert_int_equal(intel_arch_ops.probe(&caps), 0);
	assert_string_equal(caps.name, "intel-arch");
	assert_string_equal(caps.status, "intel-arch v4: counting (PMC0 "
	                    "+100000 in 100000 steps); 4x48 + 3x48, fw-write, pmi 0xf0");
	assert_int_equal(caps.ncounters, 7);
	for (unsigned hw = 0; hw < 7; hw++) {
		assert_int_equal(caps.counter[hw].width, 48);
		assert_int_equal(caps.counter[hw].fixed, hw >= 4);
		/* Full-width writes: any period up to 2^48 - 1. */
		assert_true(caps.counter[hw].max_period == 0xffffffffffffull);
	}
	assert_true(caps.counts);
	assert_true(caps.cpu_events);   /* hardware events: the hwevents benchmarks run */
	assert_true(caps.overflow_irq);
	assert_int_equal(caps.modes, PMU_MODE_K | PMU_MODE_U);
	/* cycles: general 0-3 (0x0f) and fixed 1 = hw 4 + 1 (0x20). */
	assert_int_equal(mask_of("cycles"), 0x2f);
	assert_int_equal(mask_of("instructions"), 0x1f);
	assert_int_equal(mask_of("ref-cycles"), 0x40);
	assert_int_equal(mask_of("llc-misses"), 0x0f);
	/* EBX is only 7 long on Skylake: no topdown-slots. */
	assert_int_equal(mask_of("topdown-slots"), 0);
	/* Probing leaves the PMU off. */
	assert_int_equal(xd_msr(IA32_PERF_GLOBAL_CTRL), 0);
	assert_int_equal(xd_msr(IA32_PERFEVTSEL0), 0);
}

/*
 * Parts of an event into IA32_PERFEVTSELx (SDM vol. 3B, "Architectural
 * Performance Monitoring Version 1"): event select 7:0, unit mask 15:8,
 * USR 16, E 18, EN 22, INV 23, CMASK 31:24.
 */
#define SDM_EVTSEL(ev, um, cm) ((uint32_t)(ev) | (uint32_t)(um) << 8 | \
                                (uint32_t)(cm) << 24)
#define SDM_E (1u << 18)
#define SDM_INV (1u << 23)
#define SDM_USR_EN ((1u << 16) | (1u << 22))

static void test_encode_fields_where_the_sdm_has_them(void **state)
{
	struct pmu_encoding enc = {
		.fields = PMU_FIELD_EVSEL | PMU_FIELD_UMASK | PMU_FIELD_CMASK |
		          PMU_FIELD_INV | PMU_FIELD_EDGE,
		.evsel = 0xc0, .umask = 0x01, .cmask = 3,
	};
	struct pmu_control ctl = { .n = 1 };
	uint32_t code = 0;

	(void)state;
	intel_machine(&skylake);
	assert_int_equal(intel_arch_ops.probe(&caps), 0);
	assert_int_equal(caps.fields, enc.fields);
	assert_int_equal(caps.cmask_max, 255);
	assert_int_equal(intel_arch_ops.encode(&enc, &code, reason,
	                                       sizeof(reason)), 0);
	assert_int_equal(code, SDM_EVTSEL(0xc0, 0x01, 3) | SDM_E | SDM_INV);
	ctl.ctr[0] = (struct pmu_counter_ctl){ .hw = 1, .event = code,
	        .modes = PMU_MODE_U };
	assert_int_equal(intel_arch_ops.check(&ctl, false, reason,
	                                      sizeof(reason)), 0);
	assert_int_equal(ctl.ctr[0].evtsel, SDM_EVTSEL(0xc0, 0x01, 3) | SDM_E |
	                 SDM_INV | SDM_USR_EN);
	/* A unit mask replaces the table code's: LLC misses from references. */
	enc = (struct pmu_encoding){ .code = 0x4f2e, .fields = PMU_FIELD_UMASK,
	                             .umask = 0x41 };
	assert_int_equal(intel_arch_ops.encode(&enc, &code, reason,
	                                       sizeof(reason)), 0);
	assert_int_equal(code, SDM_EVTSEL(0x2e, 0x41, 0));
	/* Each field is 8 bits; the refusal names the part. */
	enc = (struct pmu_encoding){ .fields = PMU_FIELD_EVSEL, .evsel = 0x100 };
	assert_int_equal(intel_arch_ops.encode(&enc, &code, reason,
	                                       sizeof(reason)), -EINVAL);
	assert_string_equal(reason, "event=0x100: intel-arch takes 0..0xff");
	enc = (struct pmu_encoding){ .fields = PMU_FIELD_UMASK, .umask = 0x1ff };
	assert_int_equal(intel_arch_ops.encode(&enc, &code, reason,
	                                       sizeof(reason)), -EINVAL);
	assert_non_null(strstr(reason, "umask=0x1ff"));
	enc = (struct pmu_encoding){ .fields = PMU_FIELD_CMASK, .cmask = 256 };
	assert_int_equal(intel_arch_ops.encode(&enc, &code, reason,
	                                       sizeof(reason)), -EINVAL);
	assert_non_null(strstr(reason, "cmask=0x100"));
}

/* The probed PMU takes the libpfm names with unit masks and perf's terms,
 * the parser checks them against its tables, and refuses by the part. */
static void test_spec_forms_on_intel(void **state)
{
	struct hwperf_control ctl;
	struct hwperf_reason why;
	struct hwperf_lookup lk;

	(void)state;
	intel_machine(&skylake);
	assert_int_equal(intel_arch_ops.probe(&caps), 0);
	assert_int_equal(hwperf_spec_parse("INST_RETIRED:ANY_P,"
	                                   "cpu/event=0xc0,umask=0x0/,"
	                                   "intel-arch::LONGEST_LAT_CACHE:MISS:uk",
	                                   &caps, &ctl, &why), 0);
	assert_string_equal(ctl.ev[0].name, "INST_RETIRED:ANY_P");
	assert_int_equal(ctl.ev[1].code, 0xc0);
	assert_int_equal(ctl.ev[2].modes, PMU_MODE_U | PMU_MODE_K);
	assert_int_equal(hwperf_lookup(&caps, &ctl.ev[2], &lk, &why), 0);
	assert_true(lk.has_umask);
	assert_int_equal(lk.umask, 0x41);
	/* Unit masks and fields go on general counters only (0-3). */
	assert_int_equal(lk.hwmask, 0x0f);
	assert_int_equal(hwperf_spec_parse("INST_RETIRED:BOGUS", &caps, &ctl,
	                                   &why), -EINVAL);
	assert_string_equal(why.text, "EINVAL: unit mask 'BOGUS' of "
	                    "INST_RETIRED: unknown; INST_RETIRED has: any-p");
	assert_int_equal(hwperf_spec_parse("cycles:any-p", &caps, &ctl, &why),
	                 -EINVAL);
	assert_non_null(strstr(why.text, "unit mask 'any-p': event cycles "
	                       "takes none"));
	assert_int_equal(hwperf_spec_parse("cycles:c=256", &caps, &ctl, &why),
	                 -EINVAL);
	assert_non_null(strstr(why.text, "c=256"));
}

/* rdpmc's ECX (SDM vol. 2, RDPMC): general counter i is i, fixed counter
 * j is bit 30 | j.  Skylake: hw 0-3 general, hw 4-6 fixed 0-2. */
#define SDM_RDPMC_FIXED 0x40000000u

static void test_user_index_encoding(void **state)
{
	(void)state;
	intel_machine(&skylake);
	assert_int_equal(intel_arch_ops.probe(&caps), 0);
	for (unsigned hw = 0; hw < 4; hw++) {
		assert_true(caps.counter[hw].user_read);
		assert_int_equal(caps.counter[hw].user_index, hw);
	}
	for (unsigned j = 0; j < 3; j++) {
		assert_true(caps.counter[4 + j].user_read);
		assert_int_equal(caps.counter[4 + j].user_index,
		                 SDM_RDPMC_FIXED | j);
	}
	/* Conroe: 2 general, so fixed 0 is hw 2. */
	intel_machine(&conroe);
	assert_int_equal(intel_arch_ops.probe(&caps), 0);
	assert_int_equal(caps.counter[1].user_index, 1);
	assert_int_equal(caps.counter[2].user_index, SDM_RDPMC_FIXED);
	assert_int_equal(caps.counter[4].user_index, SDM_RDPMC_FIXED | 2);
}

static void test_probe_qemu_tcg_not_present(void **state)
{
	(void)state;
	xd_reset();
	intel_vendor(0xd);
	xd_dead(true);
	assert_int_equal(intel_arch_ops.probe(&caps), -ENODEV);
	assert_string_equal(caps.status,
	                    "intel-arch v0: not present (CPUID.0AH version 0)");
	assert_false(caps.counts);
	assert_int_equal(xd_log_len(), 0);      /* not one MSR touched */
}

static void test_probe_emulator_dropping_writes(void **state)
{
	(void)state;
	intel_machine(&skylake);
	xd_dead(true);
	assert_int_equal(intel_arch_ops.probe(&caps), 0);
	assert_false(caps.counts);
	assert_false(caps.overflow_irq);
	assert_non_null(strstr(caps.status, "present but not counting "
	                       "(PMC0 write lost, read 0x0)"));
}

static void test_probe_counter_that_does_not_advance(void **state)
{
	(void)state;
	intel_machine(&skylake);
	xd_spin_rate(0);
	assert_int_equal(intel_arch_ops.probe(&caps), 0);
	assert_false(caps.counts);
	assert_non_null(strstr(caps.status, "present but not counting (PMC0 "
	                       "did not advance)"));
}

static void test_probe_other_vendor(void **state)
{
	(void)state;
	xd_reset();
	/* "AuthenticAMD" */
	xd_cpuid(0, 0, 0xd, 0x68747541, 0x444d4163, 0x69746e65);
	assert_int_equal(intel_arch_ops.probe(&caps), -ENODEV);
	assert_string_equal(caps.status, "intel-arch v0: not present "
	                    "(not a GenuineIntel CPU)");
}

static void test_probe_conroe_legacy_writes(void **state)
{
	(void)state;
	intel_machine(&conroe);
	assert_int_equal(intel_arch_ops.probe(&caps), 0);
	assert_int_equal(caps.ncounters, 5);
	assert_int_equal(caps.counter[0].width, 40);
	/* 32-bit writes sign-extend: periods up to 2^31 only. */
	assert_true(caps.counter[0].max_period == 0x80000000ull);
	assert_true(caps.counter[2].max_period == 0x80000000ull);
	assert_string_equal(caps.status, "intel-arch v2: counting (PMC0 "
	                    "+100000 in 100000 steps); 2x40 + 3x40, 32-bit writes, pmi 0xf0");
}

static void test_probe_without_pdcm_never_reads_perf_capabilities(void **state)
{
	struct intel_cpu no_pdcm = skylake;

	(void)state;
	no_pdcm.l1_ecx &= ~0x8000u;
	intel_machine(&no_pdcm);
	assert_int_equal(intel_arch_ops.probe(&caps), 0);
	/* Reading a missing MSR faults (#GP) on hardware. */
	assert_false(logged_read(IA32_PERF_CAPABILITIES));
	assert_true(caps.counter[0].max_period == 0x80000000ull);
}

static void test_probe_masks_unavailable_events(void **state)
{
	struct intel_cpu no_llc = skylake;

	(void)state;
	no_llc.a_ebx = 0x18;    /* bits 3, 4: LLC reference and miss absent */
	intel_machine(&no_llc);
	assert_int_equal(intel_arch_ops.probe(&caps), 0);
	assert_int_equal(mask_of("llc-misses"), 0);
	assert_int_equal(mask_of("cache-references"), 0);
	assert_int_equal(mask_of("branches"), 0x0f);
}

/* ---- check: encodings worked out by hand from the SDM -------------------- */

static void test_encodings_skylake(void **state)
{
	struct pmu_control ctl;

	(void)state;
	probe_ok(&skylake);
	memset(&ctl, 0, sizeof(ctl));
	ctl.n = 4;
	/* instructions (C0H) on PMC0, user only:
	 *   0xc0 | USR (1 << 16 = 0x10000) | EN (1 << 22 = 0x400000)
	 *   = 0x004100c0 */
	ctl.ctr[0] = (struct pmu_counter_ctl){ .hw = 0, .event = 0x00c0,
	                                       .modes = PMU_MODE_U };
	/* llc-misses (2EH, umask 41H) on PMC1, user+kernel, interrupting:
	 *   0x412e | USR 0x10000 | OS 0x20000 | INT 0x100000 | EN 0x400000
	 *   = 0x0053412e; ireset = 2^48 - 1000 = 0xfffffffffc18 */
	ctl.ctr[1] = (struct pmu_counter_ctl){ .hw = 1, .event = 0x412e,
	        .modes = PMU_MODE_U | PMU_MODE_K, .flags = PMU_CTR_IMODE,
	        .period = 1000 };
	/* raw C2H umask 01H, INV (bit 23), CMASK 1 (bits 31:24), user:
	 *   code 0x018001c2 | USR 0x10000 | EN 0x400000 = 0x01c101c2 */
	ctl.ctr[2] = (struct pmu_counter_ctl){ .hw = 2, .event = 0x018001c2,
	                                       .modes = PMU_MODE_U };
	/* cycles on fixed counter 1 = hw 4 + 1, kernel only, interrupting:
	 *   field OS (0x1) | PMI (0x8) = 0x9, at bits 7:4 -> 0x90 */
	ctl.ctr[3] = (struct pmu_counter_ctl){ .hw = 5, .event = 0x003c,
	        .modes = PMU_MODE_K, .flags = PMU_CTR_IMODE, .period = 500 };
	assert_int_equal(intel_arch_ops.check(&ctl, false, reason,
	                                      sizeof(reason)), 0);
	assert_true(ctl.ctr[0].evtsel == 0x004100c0ull);
	assert_true(ctl.ctr[1].evtsel == 0x0053412eull);
	assert_true(ctl.ctr[1].ireset == 0xfffffffffc18ull);
	assert_true(ctl.ctr[2].evtsel == 0x01c101c2ull);
	assert_true(ctl.ctr[3].evtsel == 0x9ull);
	assert_true(ctl.global[0] == 0x90ull);
	/* GLOBAL_CTRL: PMC0..2 (bits 0-2 = 0x7) + fixed 1 (bit 33):
	 *   0x7 | 0x200000000 = 0x200000007 */
	assert_true(ctl.global[1] == 0x200000007ull);
}

static void test_anythread(void **state)
{
	struct pmu_control ctl = { .n = 1 };

	(void)state;
	probe_ok(&skylake);
	/* AnyThread (bit 21) on a v4 part, system-wide:
	 *   0x2000c0 | USR 0x10000 | EN 0x400000 = 0x006100c0 */
	ctl.ctr[0] = (struct pmu_counter_ctl){ .hw = 0, .event = 0x2000c0,
	                                       .modes = PMU_MODE_U };
	assert_int_equal(intel_arch_ops.check(&ctl, true, reason,
	                                      sizeof(reason)), 0);
	assert_true(ctl.ctr[0].evtsel == 0x006100c0ull);
	assert_int_equal(intel_arch_ops.check(&ctl, false, reason,
	                                      sizeof(reason)), -EINVAL);
	assert_non_null(strstr(reason, "system-wide only"));
	probe_ok(&conroe);
	assert_int_equal(intel_arch_ops.check(&ctl, true, reason,
	                                      sizeof(reason)), -EINVAL);
	assert_non_null(strstr(reason, "needs version 3"));
}

static void expect_refused(struct pmu_counter_ctl c, const char *why)
{
	struct pmu_control ctl = { .n = 1 };

	ctl.ctr[0] = c;
	reason[0] = '\0';
	assert_int_equal(intel_arch_ops.check(&ctl, false, reason,
	                                      sizeof(reason)), -EINVAL);
	if (!strstr(reason, why))
		fail_msg("reason '%s' lacks '%s'", reason, why);
}

static void test_reserved_and_bad_refused(void **state)
{
	(void)state;
	probe_ok(&skylake);
	/* USR (16), OS (17), PC (19), INT (20), EN (22) are not a code's. */
	expect_refused((struct pmu_counter_ctl){ 0, 0x100c0, PMU_MODE_U, 0, 0, 0, 0 },
	               "bits 0x10000 are reserved");
	expect_refused((struct pmu_counter_ctl){ 0, 0x200c0, PMU_MODE_U, 0, 0, 0, 0 },
	               "bits 0x20000");
	expect_refused((struct pmu_counter_ctl){ 0, 0x800c0, PMU_MODE_U, 0, 0, 0, 0 },
	               "bits 0x80000");
	expect_refused((struct pmu_counter_ctl){ 0, 0x1000c0, PMU_MODE_U, 0, 0, 0, 0 },
	               "bits 0x100000");
	expect_refused((struct pmu_counter_ctl){ 0, 0x4000c0, PMU_MODE_U, 0, 0, 0, 0 },
	               "bits 0x400000");
	/* The fixed-only pseudo-codes on a general counter. */
	expect_refused((struct pmu_counter_ctl){ 1, 0x0300, PMU_MODE_U, 0, 0, 0, 0 },
	               "fixed counter only");
	/* A fixed counter counts its one event. */
	expect_refused((struct pmu_counter_ctl){ 4, 0x003c, PMU_MODE_U, 0, 0, 0, 0 },
	               "fixed counter 0 counts only code 0xc0");
	expect_refused((struct pmu_counter_ctl){ 7, 0x00c0, PMU_MODE_U, 0, 0, 0, 0 },
	               "counter 7 out of range");
	expect_refused((struct pmu_counter_ctl){ 0, 0x00c0, 0, 0, 0, 0, 0 },
	               "filters u and k only");
	expect_refused((struct pmu_counter_ctl){ 0, 0x00c0, PMU_MODE_X, 0, 0, 0, 0 },
	               "filters u and k only");
	expect_refused((struct pmu_counter_ctl){ 0, 0x00c0, PMU_MODE_U,
	                                         PMU_CTR_IMODE, 0, 0, 0 },
	               "period out of 1..max_period");
}

static void test_counter_used_twice(void **state)
{
	struct pmu_control ctl = { .n = 2 };

	(void)state;
	probe_ok(&skylake);
	ctl.ctr[0] = (struct pmu_counter_ctl){ .hw = 1, .event = 0xc0,
	                                       .modes = PMU_MODE_U };
	ctl.ctr[1] = ctl.ctr[0];
	assert_int_equal(intel_arch_ops.check(&ctl, false, reason,
	                                      sizeof(reason)), -EINVAL);
	assert_non_null(strstr(reason, "counter 1 used twice"));
}

/* ---- running ------------------------------------------------------------- */

static void test_fold_at_48_bit_wrap(void **state)
{
	struct pmu_state st;

	(void)state;
	probe_ok(&skylake);
	memset(&st, 0, sizeof(st));
	st.ctl.n = 1;
	st.ctl.ctr[0] = (struct pmu_counter_ctl){ .hw = 0, .event = 0x3c,
	                                          .modes = PMU_MODE_U };
	assert_int_equal(intel_arch_ops.check(&st.ctl, false, reason,
	                                      sizeof(reason)), 0);
	xd_set_ctr(0, 0xffffffffff00ull);       /* 256 below the wrap */
	intel_arch_ops.resume(&st);
	assert_true(st.ctr[0].start == 0xffffffffff00ull);
	assert_true(xd_msr(IA32_PERF_GLOBAL_CTRL) == 0x1);
	xd_count(0, 0x200);                     /* wraps to 0x100 */
	xd_log_clear();
	intel_arch_ops.suspend(&st);
	/* (0x100 - 0xffffffffff00) mod 2^48 = 0x200 */
	assert_true(st.ctr[0].sum == 0x200);
	assert_true(st.ctr[0].start == 0x100);
	/* Stopped before read: GLOBAL_CTRL = 0 is the first access. */
	assert_int_equal(xd_log_at(0)->op, 'W');
	assert_int_equal(xd_log_at(0)->msr, IA32_PERF_GLOBAL_CTRL);
	assert_true(xd_log_at(0)->value == 0);
	assert_true(st.cycles_sum > 0);
}

/* Time-enabled starts before any counter can count: every write that
 * enables one comes after the TSC reading that starts the set's time. */
static void test_resume_starts_time_before_counting(void **state)
{
	struct pmu_state st;

	(void)state;
	probe_ok(&skylake);
	memset(&st, 0, sizeof(st));
	st.ctl.n = 2;
	st.ctl.ctr[0] = (struct pmu_counter_ctl){ .hw = 0, .event = 0x3c,
	                                          .modes = PMU_MODE_U };
	st.ctl.ctr[1] = (struct pmu_counter_ctl){ .hw = 1, .event = 0xc0,
	                                          .modes = PMU_MODE_U };
	assert_int_equal(intel_arch_ops.check(&st.ctl, false, reason,
	                                      sizeof(reason)), 0);
	xd_log_clear();
	intel_arch_ops.resume(&st);
	assert_true(xd_log_len() > 0);
	for (unsigned i = 0; i < xd_log_len(); i++)
		if (xd_log_at(i)->op == 'W')
			assert_true(xd_log_at(i)->tsc >= st.cycles_start);
}

static void test_legacy_write_sign_extends(void **state)
{
	struct pmu_state st;
	uint64_t v;

	(void)state;
	probe_ok(&conroe);
	memset(&st, 0, sizeof(st));
	st.ctl.n = 1;
	st.ctl.ctr[0] = (struct pmu_counter_ctl){ .hw = 0, .event = 0xc0,
	        .modes = PMU_MODE_U, .flags = PMU_CTR_IMODE, .period = 1000 };
	assert_int_equal(intel_arch_ops.check(&st.ctl, false, reason,
	                                      sizeof(reason)), 0);
	intel_arch_ops.ireload(&st);
	/* 2^40 - 1000 = 0xfffffffc18; EAX 0xfffffc18 sign-extends to it. */
	assert_true(st.ctl.ctr[0].ireset == 0xfffffffc18ull);
	intel_arch_ops.resume(&st);
	assert_true(xd_last_write(IA32_PMC0, &v));
	assert_int_equal(xd_writes_to(IA32_A_PMC0), 0);
	assert_true(xd_ctr_value(0) == 0xfffffffc18ull);
	/* The longest period: 2^40 - 2^31 = 0xff80000000, EAX 0x80000000. */
	st.ctl.ctr[0].period = 0x80000000ull;
	assert_int_equal(intel_arch_ops.check(&st.ctl, false, reason,
	                                      sizeof(reason)), 0);
	intel_arch_ops.ireload(&st);
	intel_arch_ops.resume(&st);
	assert_true(xd_ctr_value(0) == 0xff80000000ull);
	st.ctl.ctr[0].period = 0x80000001ull;
	assert_int_equal(intel_arch_ops.check(&st.ctl, false, reason,
	                                      sizeof(reason)), -EINVAL);
}

static void test_full_width_write_through_alias(void **state)
{
	struct pmu_state st;

	(void)state;
	probe_ok(&skylake);
	memset(&st, 0, sizeof(st));
	st.ctl.n = 1;
	/* 2^40 events: more than a 32-bit write could express. */
	st.ctl.ctr[0] = (struct pmu_counter_ctl){ .hw = 0, .event = 0xc0,
	        .modes = PMU_MODE_U, .flags = PMU_CTR_IMODE,
	        .period = 1ull << 40 };
	assert_int_equal(intel_arch_ops.check(&st.ctl, false, reason,
	                                      sizeof(reason)), 0);
	intel_arch_ops.ireload(&st);
	intel_arch_ops.resume(&st);
	/* 2^48 - 2^40 = 0xff0000000000, written at IA32_A_PMC0. */
	assert_int_equal(xd_writes_to(IA32_A_PMC0), 1);
	assert_int_equal(xd_writes_to(IA32_PMC0), 0);
	assert_true(xd_ctr_value(0) == 0xff0000000000ull);
}

static void test_overflow_identify_and_reload(void **state)
{
	struct pmu_state st;
	uint64_t v;

	(void)state;
	probe_ok(&skylake);
	memset(&st, 0, sizeof(st));
	st.ctl.n = 3;
	st.ctl.ctr[0] = (struct pmu_counter_ctl){ .hw = 0, .event = 0x3c,
	                                          .modes = PMU_MODE_U };
	st.ctl.ctr[1] = (struct pmu_counter_ctl){ .hw = 1, .event = 0xc0,
	        .modes = PMU_MODE_U, .flags = PMU_CTR_IMODE, .period = 1000 };
	st.ctl.ctr[2] = (struct pmu_counter_ctl){ .hw = 5, .event = 0x3c,
	        .modes = PMU_MODE_K, .flags = PMU_CTR_IMODE, .period = 500 };
	assert_int_equal(intel_arch_ops.check(&st.ctl, false, reason,
	                                      sizeof(reason)), 0);
	intel_arch_ops.ireload(&st);
	intel_arch_ops.resume(&st);
	assert_true(xd_ctr_value(1) == 0xfffffffffc18ull);
	assert_true(xd_msr(IA32_FIXED_CTR_CTRL) == 0x90);
	xd_count(0, 7000);
	xd_count(1, 1005);                      /* 5 past the overflow */
	xd_count(5, 499);                       /* fixed 1: one short */
	assert_true(xd_msr(IA32_PERF_GLOBAL_STATUS) == 0x2);
	intel_arch_ops.suspend(&st);
	assert_true(st.ctr[1].sum == 1005);
	assert_int_equal(intel_arch_ops.identify_overflow(&st), 0x2);
	assert_true(st.ctr[1].start == st.ctl.ctr[1].ireset);
	assert_true(st.ctr[2].start == 0xfffffffffe0cull + 499);
	/* Status cleared by writing the bits read to OVF_CTRL. */
	assert_true(xd_msr(IA32_PERF_GLOBAL_STATUS) == 0);
	/* Bits OVF_CTRL does not define (60: ASCI) are never written back. */
	xd_set_msr(IA32_PERF_GLOBAL_STATUS, (1ull << 60) | (1ull << 63) | 0x1);
	xd_log_clear();
	assert_int_equal(intel_arch_ops.identify_overflow(&st), 0);
	assert_true(xd_last_write(IA32_PERF_GLOBAL_OVF_CTRL, &v));
	assert_true(v == ((1ull << 63) | 0x1));
	xd_set_msr(IA32_PERF_GLOBAL_STATUS, 0);
	/* hwperf asks for a new period; the next resume starts it. */
	st.ctl.ctr[1].period = 2000;
	intel_arch_ops.ireload(&st);
	intel_arch_ops.resume(&st);
	assert_true(xd_ctr_value(1) == 0xfffffffff830ull);      /* 2^48-2000 */
	/* ireload starts every i-mode slot afresh: 2^48 - 500 again. */
	assert_true(xd_ctr_value(5) == 0xfffffffffe0cull);
	xd_count(5, 500);
	intel_arch_ops.suspend(&st);
	assert_int_equal(intel_arch_ops.identify_overflow(&st), 0x4);
	assert_true(st.ctr[2].sum == 999);
}

static void test_version1_overflow_by_value(void **state)
{
	struct pmu_state st;

	(void)state;
	probe_ok(&yonah);
	assert_int_equal(caps.ncounters, 2);
	memset(&st, 0, sizeof(st));
	st.ctl.n = 2;
	st.ctl.ctr[0] = (struct pmu_counter_ctl){ .hw = 0, .event = 0xc0,
	        .modes = PMU_MODE_U, .flags = PMU_CTR_IMODE, .period = 100 };
	st.ctl.ctr[1] = (struct pmu_counter_ctl){ .hw = 1, .event = 0x3c,
	        .modes = PMU_MODE_U, .flags = PMU_CTR_IMODE, .period = 100 };
	assert_int_equal(intel_arch_ops.check(&st.ctl, false, reason,
	                                      sizeof(reason)), 0);
	intel_arch_ops.ireload(&st);
	xd_log_clear();
	intel_arch_ops.resume(&st);
	assert_int_equal(xd_writes_to(IA32_PERF_GLOBAL_CTRL), 0);
	xd_count(0, 101);
	xd_count(1, 99);
	xd_log_clear();
	intel_arch_ops.suspend(&st);
	/* No global control: each PERFEVTSEL is cleared instead. */
	assert_int_equal(xd_writes_to(IA32_PERFEVTSEL0), 1);
	assert_int_equal(xd_writes_to(IA32_PERFEVTSEL0 + 1), 1);
	assert_int_equal(intel_arch_ops.identify_overflow(&st), 0x1);
	assert_false(logged_read(IA32_PERF_GLOBAL_STATUS));
}

/* ---- the LAPIC's LVT PC -------------------------------------------------- */

static void test_lapic_x2apic(void **state)
{
	(void)state;
	lapic_pmi_disable();
	xd_reset();
	assert_int_equal(lapic_pmi_init(&lapic_x2apic_regs, 15), -EINVAL);
	assert_false(lapic_pmi_ready());
	/* Vector 0xf0, fixed delivery, unmasked -> 0x000000f0 at MSR 834H. */
	assert_int_equal(lapic_pmi_init(&lapic_x2apic_regs, 0xf0), 0);
	assert_true(xd_msr(0x834) == 0xf0);
	assert_true(lapic_pmi_ready());
	/* The CPU masks LVT PC when it delivers the interrupt. */
	xd_set_msr(0x834, 0xf0 | LVT_MASKED);
	xd_log_clear();
	lapic_pmi_interrupt(0x401000, PMU_MODE_U);
	assert_int_equal(irq_calls, 1);
	assert_true(irq_pc == 0x401000);
	assert_int_equal(irq_mode, PMU_MODE_U);
	/* After hwperf ran: unmask, then EOI (MSR 80BH). */
	assert_int_equal(irq_log_pos, 0);
	assert_int_equal(xd_log_len(), 2);
	assert_int_equal(xd_log_at(0)->msr, 0x834);
	assert_true(xd_log_at(0)->value == 0xf0);
	assert_int_equal(xd_log_at(1)->msr, 0x80b);
	assert_true(xd_log_at(1)->value == 0);
	lapic_pmi_disable();
	assert_true(xd_msr(0x834) == (0xf0 | LVT_MASKED));
	assert_false(lapic_pmi_ready());
}

static void test_lapic_xapic_page(void **state)
{
	static uint32_t page[1024];
	const struct lapic_regs *r;

	(void)state;
	memset(page, 0, sizeof(page));
	r = lapic_xapic_regs(page);
	assert_int_equal(lapic_pmi_init(r, 0xee), 0);
	assert_int_equal(page[0x340 / 4], 0xee);
	page[0x340 / 4] |= LVT_MASKED;
	page[0xb0 / 4] = 0xdead;
	lapic_pmi_interrupt(0, PMU_MODE_K);
	assert_int_equal(page[0x340 / 4], 0xee);
	assert_int_equal(page[0xb0 / 4], 0);
	lapic_pmi_disable();
}

/* An AP's LVT PC gets CPU 0's entry; before CPU 0 has one, nothing. */
static void test_lapic_ap_gets_cpu0_entry(void **state)
{
	static uint32_t page[1024];

	(void)state;
	memset(page, 0, sizeof(page));
	lapic_pmi_disable();
	assert_int_equal(lapic_pmi_init_cpu(), -ENODEV);
	assert_int_equal(lapic_pmi_init(lapic_xapic_regs(page), 0xee), 0);
	page[0x340 / 4] = LVT_MASKED;           /* the AP's reset value */
	assert_int_equal(lapic_pmi_init_cpu(), 0);
	assert_int_equal(page[0x340 / 4], 0xee);
	lapic_pmi_disable();
}

/*
 * A PMI with nothing overflowed -- what a self-IPI on the vector is -- is
 * counted and counted spurious, and still unmasks LVT PC and signals EOI;
 * one that hwperf claims is counted only.
 */
static void test_lapic_spurious_counted(void **state)
{
	static uint32_t page[1024];
	unsigned long n0, s0;

	(void)state;
	memset(page, 0, sizeof(page));
	assert_int_equal(lapic_pmi_init(lapic_xapic_regs(page), 0xf0), 0);
	n0 = lapic_pmi_count();
	s0 = lapic_pmi_spurious();
	irq_claim = false;
	page[0x340 / 4] = 0xf0 | LVT_MASKED;
	page[0xb0 / 4] = 0xdead;
	lapic_pmi_interrupt(0x401000, PMU_MODE_U);
	assert_int_equal(irq_calls, 1);
	assert_int_equal(lapic_pmi_count(), n0 + 1);
	assert_int_equal(lapic_pmi_spurious(), s0 + 1);
	assert_int_equal(page[0x340 / 4], 0xf0);
	assert_int_equal(page[0xb0 / 4], 0);
	irq_claim = true;
	page[0x340 / 4] = 0xf0 | LVT_MASKED;
	lapic_pmi_interrupt(0x401000, PMU_MODE_U);
	assert_int_equal(lapic_pmi_count(), n0 + 2);
	assert_int_equal(lapic_pmi_spurious(), s0 + 1);
	assert_int_equal(page[0x340 / 4], 0xf0);
	/* Disabled while one was in flight: EOI, but the entry stays masked. */
	lapic_pmi_disable();
	page[0xb0 / 4] = 0xdead;
	lapic_pmi_interrupt(0, PMU_MODE_K);
	assert_int_equal(page[0x340 / 4], 0xf0 | LVT_MASKED);
	assert_int_equal(page[0xb0 / 4], 0);
}

/* A spurious PMI reaches identify_overflow with nothing loaded: the
 * status bits still set are read and cleared, no slot is reported. */
static void test_spurious_pmi_clears_global_status(void **state)
{
	struct pmu_state idle;
	uint64_t v;

	(void)state;
	probe_ok(&skylake);
	memset(&idle, 0, sizeof(idle));
	xd_set_msr(IA32_PERF_GLOBAL_STATUS, (1ull << 32) | 0x1);
	assert_int_equal(intel_arch_ops.identify_overflow(&idle), 0);
	assert_true(logged_read(IA32_PERF_GLOBAL_STATUS));
	assert_true(xd_last_write(IA32_PERF_GLOBAL_OVF_CTRL, &v));
	assert_true(v == ((1ull << 32) | 0x1));
	assert_true(xd_msr(IA32_PERF_GLOBAL_STATUS) == 0);
}

/* The self-IPI: ICR low = vector, fixed, level assert, shorthand self
 * (SDM vol. 3A, 10.6.1), after the previous IPI left the APIC. */
static void test_lapic_self_ipi(void **state)
{
	static uint32_t page[1024];

	(void)state;
	lapic_pmi_disable();
	assert_int_equal(lapic_pmi_self_ipi(), -ENODEV);
	assert_string_equal(lapic_pmi_describe(), "no pmi");
	memset(page, 0, sizeof(page));
	assert_int_equal(lapic_pmi_init(lapic_xapic_regs(page), 0x3e), 0);
	assert_int_equal(lapic_pmi_vector(), 0x3e);
	assert_string_equal(lapic_pmi_describe(), "pmi 0x3e");
	assert_int_equal(lapic_pmi_self_ipi(), 0);
	assert_int_equal(page[0x300 / 4], 0x3e | 0x4000 | 0x40000);
	/* Send pending that never clears: give up, write nothing. */
	page[0x300 / 4] = 0x1000;
	assert_int_equal(lapic_pmi_self_ipi(), -EBUSY);
	assert_int_equal(page[0x300 / 4], 0x1000);
	/* x2APIC: the ICR is MSR 830H. */
	xd_reset();
	assert_int_equal(lapic_pmi_init(&lapic_x2apic_regs, 0x3e), 0);
	assert_int_equal(lapic_pmi_self_ipi(), 0);
	assert_true(xd_msr(0x830) == (0x3e | 0x4000 | 0x40000));
	lapic_pmi_disable();
}

/* pmu.h: max_period 0 means "cannot interrupt"; hwperf reads it so. */
static void test_no_imode_without_lapic_or_counting(void **state)
{
	struct pmu_control ctl = { .n = 1 };

	(void)state;
	lapic_pmi_disable();
	probe_ok(&skylake);
	assert_true(caps.counts);
	assert_false(caps.overflow_irq);
	for (unsigned hw = 0; hw < caps.ncounters; hw++)
		assert_true(caps.counter[hw].max_period == 0);
	ctl.ctr[0] = (struct pmu_counter_ctl){ .hw = 0, .event = 0xc0,
	        .modes = PMU_MODE_U, .flags = PMU_CTR_IMODE, .period = 10 };
	assert_int_equal(intel_arch_ops.check(&ctl, false, reason,
	                                      sizeof(reason)), -EINVAL);
	assert_non_null(strstr(reason, "counter 0 cannot interrupt"));
	ctl.ctr[0].flags = 0;
	assert_int_equal(intel_arch_ops.check(&ctl, false, reason,
	                                      sizeof(reason)), 0);
	/* Wired, but nothing counts (an emulator): no i-mode either. */
	assert_int_equal(lapic_pmi_init(lapic_xapic_regs(lapic_page), 0xf0), 0);
	intel_machine(&skylake);
	xd_dead(true);
	assert_int_equal(intel_arch_ops.probe(&caps), 0);
	assert_false(caps.overflow_irq);
	assert_true(caps.counter[0].max_period == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_probe_skylake, setup),
		cmocka_unit_test_setup(test_user_index_encoding, setup),
		cmocka_unit_test_setup(test_probe_qemu_tcg_not_present, setup),
		cmocka_unit_test_setup(test_probe_emulator_dropping_writes, setup),
		cmocka_unit_test_setup(test_probe_counter_that_does_not_advance, setup),
		cmocka_unit_test_setup(test_probe_other_vendor, setup),
		cmocka_unit_test_setup(test_probe_conroe_legacy_writes, setup),
		cmocka_unit_test_setup(test_probe_without_pdcm_never_reads_perf_capabilities, setup),
		cmocka_unit_test_setup(test_probe_masks_unavailable_events, setup),
		cmocka_unit_test_setup(test_encodings_skylake, setup),
		cmocka_unit_test_setup(test_anythread, setup),
		cmocka_unit_test_setup(test_reserved_and_bad_refused, setup),
		cmocka_unit_test_setup(test_counter_used_twice, setup),
		cmocka_unit_test_setup(test_resume_starts_time_before_counting, setup),
		cmocka_unit_test_setup(test_fold_at_48_bit_wrap, setup),
		cmocka_unit_test_setup(test_legacy_write_sign_extends, setup),
		cmocka_unit_test_setup(test_full_width_write_through_alias, setup),
		cmocka_unit_test_setup(test_overflow_identify_and_reload, setup),
		cmocka_unit_test_setup(test_version1_overflow_by_value, setup),
		cmocka_unit_test_setup(test_lapic_x2apic, setup),
		cmocka_unit_test_setup(test_lapic_xapic_page, setup),
		cmocka_unit_test_setup(test_lapic_ap_gets_cpu0_entry, setup),
		cmocka_unit_test_setup(test_lapic_spurious_counted, setup),
		cmocka_unit_test_setup(test_spurious_pmi_clears_global_status, setup),
		cmocka_unit_test_setup(test_lapic_self_ipi, setup),
		cmocka_unit_test_setup(test_no_imode_without_lapic_or_counting, setup),
		cmocka_unit_test_setup(test_encode_fields_where_the_sdm_has_them, setup),
		cmocka_unit_test_setup(test_spec_forms_on_intel, setup),
	};
	return cmocka_run_group_tests_name("pmu_intel", tests, NULL, NULL);
}
