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
	many.checks[0] = (struct bench_check){ .name = "truth", .kind = BENCH_NOTE };
	n.value[BENCH_MAX_CHECKS - 1] = 5001;
	bench_evaluate(&many, 10, &n, &z, &env_all, o);
	/* The truth is printed as measured, and is neither a test nor a cost. */
	assert_int_equal(o[0].verdict, BENCH_NOTED);
	bench_format(line, sizeof(line), false, &many, &many.checks[0], &o[0]);
	assert_string_equal(line, "INFO: bench: many: truth count=5000");
	struct bench_totals t = { 0 };
	bench_tally(&t, &o[0]);
	assert_int_equal(t.tests + t.reported + t.skipped + t.failures, 0);
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

static const struct bench costs = {
	.name = "cost",
	.nchecks = 2,
	.checks = {
		{ .name = "sys", .kind = BENCH_COST },
		{ .name = "tick", .kind = BENCH_COST },
	},
	.subtract_zero_run = true,
};

static void test_cost_per_n_or_per_counted_op(void **state)
{
	(void)state;
	struct bench_sample n, z;
	struct bench_outcome o[2];
	struct bench_totals t = { 0 };
	sample(&n, 5000, 900, 0, 0);
	sample(&z, 1000, 100, 0, 0);
	n.ops[1] = 4;                   /* the workload counted 4 ticks */
	bench_evaluate(&costs, 10, &n, &z, &env_all, o);
	assert_int_equal(o[0].verdict, BENCH_REPORTED);
	assert_int_equal(o[0].count, 4000);
	assert_int_equal(o[0].expected, 10);    /* per n */
	assert_int_equal(o[1].verdict, BENCH_REPORTED);
	assert_int_equal(o[1].count, 800);
	assert_int_equal(o[1].expected, 4);     /* per counted op, less the zero run's */
	bench_tally(&t, &o[0]);
	bench_tally(&t, &o[1]);
	assert_int_equal(t.tests, 0);           /* never a pass */
	assert_int_equal(t.reported, 2);
}

static void test_cost_without_honest_value_skips(void **state)
{
	(void)state;
	struct bench_sample n, z;
	struct bench_outcome o[2];
	sample(&n, 900, 900, 0, 0);
	sample(&z, 1000, 100, 0, 0);
	z.ops[1] = 3;                   /* the zero run did as many as the run at n */
	n.ops[1] = 3;
	bench_evaluate(&costs, 10, &n, &z, &env_all, o);
	assert_int_equal(o[0].verdict, BENCH_SKIP);
	assert_non_null(strstr(o[0].reason, "zero run cost more"));
	assert_int_equal(o[1].verdict, BENCH_SKIP);
	assert_non_null(strstr(o[1].reason, "no operations"));
}

static void test_insns_per_tick(void **state)
{
	(void)state;
	assert_int_equal(bench_insns_per_tick(1000000196), 1);     /* x86 TSC, icount */
	assert_int_equal(bench_insns_per_tick(166666739), 6);      /* Malta Count, icount */
	assert_int_equal(bench_insns_per_tick(999000000), 1);      /* 0.1% off: still 1 */
	assert_int_equal(bench_insns_per_tick(400000000), 0);      /* 2.5 per tick */
	assert_int_equal(bench_insns_per_tick(3000000000ull), 0);  /* faster than 1 GHz */
	assert_int_equal(bench_insns_per_tick(0), 0);
}

static void test_cost_rows(void **state)
{
	(void)state;
	struct bench_sample n, z;
	struct bench_outcome o[2];
	char line[256];
	struct bench_env env = env_all;
	sample(&n, 1234, 0, 0, 0);
	sample(&z, 0, 0, 0, 0);
	bench_evaluate(&costs, 1000, &n, &z, &env, o);
	env.insns_per_tick = 6;
	bench_format_cost_row(line, sizeof(line), false, &costs, &costs.checks[0], &o[0], &env);
	assert_string_equal(line, "COST: bench: cost: sys per_op=7.404 unit=insns n=1000 total=7404");
	bench_format_cost_row(line, sizeof(line), true, &costs, &costs.checks[0], &o[0], &env);
	assert_string_equal(line, "{\"cost\":\"sys\",\"bench\":\"cost\",\"per_op_milli\":7404,"
			    "\"unit\":\"insns\",\"n\":1000,\"total\":7404}");
	env.insns_per_tick = 0;
	bench_format_cost_row(line, sizeof(line), false, &costs, &costs.checks[0], &o[0], &env);
	assert_string_equal(line, "COST: bench: cost: sys per_op=1.234 unit=ticks n=1000 total=1234");
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
		cmocka_unit_test(test_cost_per_n_or_per_counted_op),
		cmocka_unit_test(test_cost_without_honest_value_skips),
		cmocka_unit_test(test_insns_per_tick),
		cmocka_unit_test(test_cost_rows),
	};
	return cmocka_run_group_tests_name("bench_check", tests, NULL, NULL);
}
