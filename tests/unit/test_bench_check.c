/* Host tests of kernel/bench/check.c: deciding and printing checks. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "bench/bench.h"

static const struct bench loop = {
	.name = "loop",
	.nchecks = 4,
	.checks = {
		{ .name = "cycles", .kind = BENCH_EXACT, .per_iter = 2, .needs = BENCH_NEEDS_CPI1 },
		{ .name = "ticks", .kind = BENCH_RANGE, .min_milli = 1000, .max_milli = 1000,
		  .extra = -1, .extra_max = 1 },
		{ .name = "branches", .kind = BENCH_RANGE, .min_milli = 1000, .max_milli = 1100,
		  .needs = BENCH_NEEDS_HWPMU },
		{ .name = "ipc", .kind = BENCH_RATIO, .ratio_of = 0, .min_milli = 450, .max_milli = 550 },
	},
	.subtract_zero_run = true,
};

static struct bench_env env_all = { .cpi1 = true, .hwpmu_counts = true };

static void sample(struct bench_sample *s, uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
	memset(s, 0, sizeof(*s));
	s->value[0] = a;
	s->value[1] = b;
	s->value[2] = c;
	s->value[3] = d;
}

static void test_exact_subtracts_zero_run(void **state)
{
	(void)state;
	struct bench_sample n, z;
	struct bench_outcome o[4];
	sample(&n, 2000 + 37, 1000, 1050, 1037);
	sample(&z, 37, 0, 0, 37);
	bench_evaluate(&loop, 1000, &n, &z, &env_all, o);
	assert_int_equal(o[0].verdict, BENCH_PASS);
	assert_int_equal(o[0].count, 2000);
	assert_int_equal(o[0].expected, 2000);
	assert_int_equal(o[1].verdict, BENCH_PASS);
	assert_int_equal(o[2].verdict, BENCH_PASS);
	assert_int_equal(o[3].verdict, BENCH_PASS);   /* 1000/2000 = 0.5 */
}

static void test_off_by_one_fails(void **state)
{
	(void)state;
	struct bench_sample n, z;
	struct bench_outcome o[4];
	sample(&n, 2001 + 37, 1002, 1101, 1037);
	sample(&z, 37, 0, 0, 37);
	bench_evaluate(&loop, 1000, &n, &z, &env_all, o);
	assert_int_equal(o[0].verdict, BENCH_FAIL);
	assert_int_equal(o[1].verdict, BENCH_FAIL);   /* 1002 > 1001 */
	assert_int_equal(o[2].verdict, BENCH_FAIL);   /* 1101 > 1100 */
}

static void test_conditions_skip_with_reason(void **state)
{
	(void)state;
	struct bench_sample n, z;
	struct bench_outcome o[4];
	struct bench_env env = { .cpi1 = false, .hwpmu_counts = false,
				 .hwpmu_reason = "intel-arch: not present (CPUID.0AH version 0)" };
	sample(&n, 5, 1000, 0, 0);
	sample(&z, 0, 0, 0, 0);
	bench_evaluate(&loop, 1000, &n, &z, &env, o);
	assert_int_equal(o[0].verdict, BENCH_SKIP);
	assert_non_null(strstr(o[0].reason, "cpi=1"));
	assert_int_equal(o[1].verdict, BENCH_PASS);
	assert_int_equal(o[2].verdict, BENCH_SKIP);
	assert_string_equal(o[2].reason, "intel-arch: not present (CPUID.0AH version 0)");
}

static void test_ratio_of_zero_fails(void **state)
{
	(void)state;
	struct bench_sample n, z;
	struct bench_outcome o[4];
	sample(&n, 0, 1000, 1000, 10);
	sample(&z, 0, 0, 0, 0);
	bench_evaluate(&loop, 1000, &n, &z, &env_all, o);
	assert_int_equal(o[3].verdict, BENCH_FAIL);
}

static void test_workload_skip_skips_all(void **state)
{
	(void)state;
	struct bench_sample n, z;
	struct bench_outcome o[4];
	sample(&n, 2000, 1000, 1000, 1000);
	sample(&z, 0, 0, 0, 0);
	strcpy(n.skip, "no user tasks");
	bench_evaluate(&loop, 1000, &n, &z, &env_all, o);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(o[i].verdict, BENCH_SKIP);
		assert_string_equal(o[i].reason, "no user tasks");
	}
}

static void test_benchbreak_fails_passing_checks(void **state)
{
	(void)state;
	struct bench_sample n, z;
	struct bench_outcome o[4];
	struct bench_env env = env_all;
	env.broken = "loop";
	sample(&n, 2000, 1000, 1050, 1000);
	sample(&z, 0, 0, 0, 0);
	bench_evaluate(&loop, 1000, &n, &z, &env, o);
	for (int i = 0; i < 4; i++)
		assert_int_equal(o[i].verdict, BENCH_FAIL);
	assert_int_equal(o[0].expected, 2001);
	env.broken = "other";
	bench_evaluate(&loop, 1000, &n, &z, &env, o);
	assert_int_equal(o[0].verdict, BENCH_PASS);
}

static void test_line_formats(void **state)
{
	(void)state;
	struct bench_sample n, z;
	struct bench_outcome o[4];
	char line[256];
	struct bench_env env = { .cpi1 = true, .hwpmu_counts = false, .hwpmu_reason = "no pmu" };
	sample(&n, 2000, 1003, 0, 1000);
	sample(&z, 0, 0, 0, 0);
	bench_evaluate(&loop, 1000, &n, &z, &env, o);
	bench_format(line, sizeof(line), false, &loop, &loop.checks[0], &o[0]);
	assert_string_equal(line, "PASS: bench: loop: cycles count=2000 expected=2000");
	bench_format(line, sizeof(line), false, &loop, &loop.checks[1], &o[1]);
	assert_string_equal(line, "FAIL: bench: loop: ticks count=1003 expected=[999,1001]");
	bench_format(line, sizeof(line), false, &loop, &loop.checks[2], &o[2]);
	assert_string_equal(line, "SKIP: bench: loop: branches (no pmu)");
	bench_format(line, sizeof(line), false, &loop, &loop.checks[3], &o[3]);
	assert_string_equal(line, "PASS: bench: loop: ipc count=1000 expected=[0.450,0.550]x");
	bench_format(line, sizeof(line), true, &loop, &loop.checks[0], &o[0]);
	assert_string_equal(line, "{\"result\":\"PASS\",\"bench\":\"loop\",\"check\":\"cycles\","
			    "\"count\":2000,\"expected\":\"2000\",\"reason\":\"\"}");
}

static void test_tally(void **state)
{
	(void)state;
	struct bench_totals t = { 0 };
	struct bench_outcome o = { .verdict = BENCH_PASS };
	bench_tally(&t, &o);
	o.verdict = BENCH_FAIL;
	bench_tally(&t, &o);
	o.verdict = BENCH_SKIP;
	bench_tally(&t, &o);
	o.verdict = BENCH_REPORTED;
	bench_tally(&t, &o);
	assert_int_equal(t.tests, 3);
	assert_int_equal(t.failures, 1);
	assert_int_equal(t.skipped, 1);
	assert_int_equal(t.reported, 1);
}

/* SAME: a count equals a truth measured in the same run, to the unit;
 * benchbreak moves the expectation by one.  More than eight checks fit. */
static void test_same_as_measured_truth(void **state)
{
	static struct bench many = {
		.name = "many", .nchecks = BENCH_MAX_CHECKS, .subtract_zero_run = false,
	};
	struct bench_sample n, z;
	struct bench_outcome o[BENCH_MAX_CHECKS];
	struct bench_env broken = env_all;
	char line[160];

	(void)state;
	assert_true(BENCH_MAX_CHECKS > 16);
	memset(&n, 0, sizeof(n));
	memset(&z, 0, sizeof(z));
	for (unsigned i = 0; i < BENCH_MAX_CHECKS; i++) {
		many.checks[i] = (struct bench_check){ .name = "est", .kind = BENCH_SAME,
						       .ratio_of = 0 };
		n.value[i] = 5000;
	}
	many.checks[0] = (struct bench_check){ .name = "truth", .kind = BENCH_COST };
	n.value[BENCH_MAX_CHECKS - 1] = 5001;
	bench_evaluate(&many, 10, &n, &z, &env_all, o);
	assert_int_equal(o[0].verdict, BENCH_REPORTED);
	for (unsigned i = 1; i < BENCH_MAX_CHECKS - 1; i++) {
		assert_int_equal(o[i].verdict, BENCH_PASS);
		assert_int_equal(o[i].expected, 5000);
	}
	assert_int_equal(o[BENCH_MAX_CHECKS - 1].verdict, BENCH_FAIL);
	bench_format(line, sizeof(line), false, &many, &many.checks[1], &o[1]);
	assert_string_equal(line, "PASS: bench: many: est count=5000 expected=5000");
	broken.broken = "many";
	bench_evaluate(&many, 10, &n, &z, &broken, o);
	assert_int_equal(o[1].verdict, BENCH_FAIL);
	assert_int_equal(o[1].expected, 5001);
	bench_format(line, sizeof(line), false, &many, &many.checks[1], &o[1]);
	assert_string_equal(line, "FAIL: bench: many: est count=5000 expected=5001 "
			    "(expectation broken on purpose by benchbreak)");
}

/* A workload may skip single checks; the rest are decided as usual. */
static void test_single_check_skip(void **state)
{
	(void)state;
	struct bench_sample n, z;
	struct bench_outcome o[4];
	sample(&n, 2000 + 37, 1000, 1050, 1037);
	sample(&z, 37, 0, 0, 37);
	n.skip_checks = 1u << 2;
	strcpy(n.skip_checks_why, "no such event on this PMU");
	bench_evaluate(&loop, 1000, &n, &z, &env_all, o);
	assert_int_equal(o[0].verdict, BENCH_PASS);
	assert_int_equal(o[1].verdict, BENCH_PASS);
	assert_int_equal(o[2].verdict, BENCH_SKIP);
	assert_string_equal(o[2].reason, "no such event on this PMU");
	assert_int_equal(o[3].verdict, BENCH_PASS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_subtracts_zero_run),
		cmocka_unit_test(test_off_by_one_fails),
		cmocka_unit_test(test_conditions_skip_with_reason),
		cmocka_unit_test(test_ratio_of_zero_fails),
		cmocka_unit_test(test_workload_skip_skips_all),
		cmocka_unit_test(test_benchbreak_fails_passing_checks),
		cmocka_unit_test(test_line_formats),
		cmocka_unit_test(test_tally),
		cmocka_unit_test(test_same_as_measured_truth),
		cmocka_unit_test(test_single_check_skip),
	};
	return cmocka_run_group_tests_name("bench_check", tests, NULL, NULL);
}
