/*
 * Host test of the x86 drivers' choice of model table, against the
 * register double: the intel-arch driver adds the Skylake events when
 * CPUID.01H names family 6 and a Skylake-era model, and only then; the
 * AMD driver takes the 10h, 17h or 19h table by family.  The codes a
 * driver then builds come from the same encoder a model uses
 * (events/encode.c), so `events --model skylake --resolve` answers for
 * the driver too.
 *
 * CPUID.01H EAX values as public CPUID dumps show them: Core i7-6700K
 * 0x000506e3 (06_5EH), Core i7-8700K 0x000906ea (06_9EH), Core i7-4770
 * 0x000306c3 (06_3CH, Haswell: no table), Ryzen 7 1800X 0x00800f11
 * (17h), Ryzen 9 5950X 0x00a20f10 (19h), Phenom II 0x00100f42 (10h).
 * CPUID.0AH is the i7-6700K's (v4, 4 x 48 bits, 3 fixed) throughout.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "arch/x86_64/pmu/lapic_pmi.h"
#include "arch/x86_64/pmu/x86_pmu.h"
#include "events/events.h"
#include "pmu_x86_double.h"

#define IA32_PMC0 0xc1u
#define IA32_PERFEVTSEL0 0x186u
#define IA32_FIXED_CTR0 0x309u
#define IA32_FIXED_CTR_CTRL 0x38du
#define IA32_PERF_GLOBAL_STATUS 0x38eu
#define IA32_PERF_GLOBAL_CTRL 0x38fu
#define IA32_PERF_GLOBAL_OVF_CTRL 0x390u
#define AMD_PERF_CTL_CORE0 0xc0010200u
#define AMD_PERF_CTR_CORE0 0xc0010201u
#define EN (1ull << 22)

bool pmu_interrupt(uintptr_t pc, uint32_t mode)
{
	(void)pc;
	(void)mode;
	return true;
}

static struct pmu_caps caps;
static uint32_t lapic_page[1024];

static int setup(void **state)
{
	(void)state;
	return lapic_pmi_init(lapic_xapic_regs(lapic_page), 0xf0);
}

static void intel_machine(uint32_t sig)
{
	xd_reset();
	xd_cpuid(0, 0, 0x16, 0x756e6547, 0x6c65746e, 0x49656e69);
	xd_cpuid(1, 0, sig, 0, 0, 0);
	xd_cpuid(0xa, 0, 0x07300404, 0, 0, 0x00000603);
	for (unsigned i = 0; i < 4; i++) {
		struct xd_ctr c = { IA32_PMC0 + i, 0, 48, true,
		                    IA32_PERFEVTSEL0 + i, EN, (int)i, 0 };
		xd_add_ctr(&c);
	}
	for (unsigned i = 0; i < 3; i++) {
		struct xd_ctr c = { IA32_FIXED_CTR0 + i, 0, 48, false,
		                    IA32_FIXED_CTR_CTRL, 0x3ull << (4 * i),
		                    (int)(32 + i), 0 };
		xd_add_ctr(&c);
	}
	xd_global(IA32_PERF_GLOBAL_CTRL, IA32_PERF_GLOBAL_STATUS,
	          IA32_PERF_GLOBAL_OVF_CTRL);
	assert_int_equal(intel_arch_ops.probe(&caps), 0);
}

static const struct pmu_event *find(const char *name)
{
	for (unsigned t = 0; t < caps.ntables; t++)
		for (unsigned e = 0; e < caps.tables[t]->count; e++)
			if (strcmp(caps.tables[t]->events[e].name, name) == 0)
				return &caps.tables[t]->events[e];
	return NULL;
}

static void test_intel_skylake_models_get_the_skl_table(void **state)
{
	static const uint32_t sigs[] = { 0x000506e3, 0x000906ea };
	const struct pmu_event *ev;
	uint32_t code;
	char why[PMU_REASON_MAX];
	struct pmu_encoding enc = { .code = 0, .fields = PMU_FIELD_EVSEL |
	                            PMU_FIELD_UMASK, .evsel = 0xd1, .umask = 0x08 };

	(void)state;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		intel_machine(sigs[i]);
		assert_int_equal(caps.ntables, 2);
		assert_string_equal(caps.tables[0]->name, "intel-arch");
		assert_string_equal(caps.tables[1]->name, "skl");
		ev = find("mem-load-retired");
		assert_non_null(ev);
		assert_int_equal(ev->code, 0x00d1);
		assert_int_equal(ev->counters, 0xf);    /* general, not fixed */
		ev = find("cycle-activity.stalls-l1d-miss");
		assert_non_null(ev);
		assert_int_equal(ev->counters, 0x4);
		/* The model's unit masks, the architectural ones among them. */
		assert_ptr_equal(caps.umask_sets,
		                 ev_model_intel_skylake.umask_sets);
	}
	assert_ptr_equal(intel_arch_ops.encode, events_intel_encode);
	assert_int_equal(intel_arch_ops.encode(&enc, &code, why, sizeof(why)),
	                 0);
	assert_int_equal(code, 0x08d1);
}

static void test_intel_other_models_keep_the_arch_table(void **state)
{
	(void)state;
	intel_machine(0x000306c3);              /* Haswell */
	assert_int_equal(caps.ntables, 1);
	assert_null(find("mem-load-retired"));
	assert_non_null(find("inst-retired"));
	assert_ptr_equal(caps.umask_sets, intel_arch_umasks);
}

static void amd_machine(uint32_t sig)
{
	xd_reset();
	xd_cpuid(0, 0, 0xd, 0x68747541, 0x444d4163, 0x69746e65);
	xd_cpuid(1, 0, sig, 0, 0, 0);
	xd_cpuid(0x80000000u, 0, 0x80000020u, 0, 0, 0);
	xd_cpuid(0x80000001u, 0, 0, 0, 0x00800000u, 0);
	for (unsigned i = 0; i < 6; i++) {
		struct xd_ctr c = { AMD_PERF_CTR_CORE0 + 2 * i, 0, 48, false,
		                    AMD_PERF_CTL_CORE0 + 2 * i, EN, -1, 0 };
		xd_add_ctr(&c);
	}
	assert_int_equal(amd_ops.probe(&caps), 0);
}

static void test_amd_table_by_family(void **state)
{
	(void)state;
	amd_machine(0x00a20f10);                /* 19h */
	assert_ptr_equal(caps.tables[0], &amd_fam19h_table);
	assert_ptr_equal(caps.umask_sets, amd_fam19h_umasks);
	assert_int_equal(caps.numask_sets, amd_fam19h_numasks);
	amd_machine(0x00800f11);                /* 17h */
	assert_ptr_equal(caps.tables[0], &amd_fam17h_table);
	assert_ptr_equal(caps.umask_sets, amd_fam17h_umasks);
	amd_machine(0x00100f42);                /* 10h */
	assert_ptr_equal(caps.tables[0], &amd_fam10h_table);
	assert_ptr_equal(amd_ops.encode, events_amd_encode);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_intel_skylake_models_get_the_skl_table,
		                       setup),
		cmocka_unit_test_setup(test_intel_other_models_keep_the_arch_table,
		                       setup),
		cmocka_unit_test_setup(test_amd_table_by_family, setup),
	};
	return cmocka_run_group_tests_name("events_x86_pick", tests, NULL, NULL);
}
