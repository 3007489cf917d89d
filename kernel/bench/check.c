/*
 * check.c - deciding and printing benchmark checks.  Pure functions: the
 * host unit tests feed them samples and compare the lines they print.
 *
 * Line formats (scripts read them):
 *   PASS: bench: NAME: CHECK count=C expected=E
 *   PASS: bench: NAME: CHECK count=C expected=[MIN,MAX]
 *   FAIL: bench: NAME: CHECK count=C expected=E (reason)
 *   SKIP: bench: NAME: CHECK (reason)
 *   INFO: bench: NAME: CHECK per_iter=C.ddd n=N total=T
 *   INFO: bench: NAME: CHECK count=C            (a NOTE: a measured truth)
 *   COST: bench: NAME: CHECK per_op=X.ddd unit=insns|ticks n=N total=T
 * With --json, one object per check with the same fields.
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"

#define NS_PER_S 1000000000ull
/* A counter rate within 1/200 (0.5%) of 1 GHz / k runs k instructions per
 * tick under cpi=1. */
#define RATE_TOLERANCE_DIV 200u

static void skip(struct bench_outcome *o, const char *why)
{
	o->verdict = BENCH_SKIP;
	strlcpy(o->reason, why, sizeof(o->reason));
}

/* The measured quantity: the run at n, less the zero-iteration run. */
static uint64_t measured(const struct bench *b, unsigned i,
			 const struct bench_sample *at_n, const struct bench_sample *at_0)
{
	if (!b->subtract_zero_run)
		return at_n->value[i];
	return at_n->value[i] - at_0->value[i];
}

static void decide_exact(const struct bench_check *c, uint64_t n, struct bench_outcome *o)
{
	o->expected = c->per_iter * (int64_t)n + c->extra;
	o->verdict = (int64_t)o->count == o->expected ? BENCH_PASS : BENCH_FAIL;
}

static void decide_range(const struct bench_check *c, uint64_t n, struct bench_outcome *o)
{
	o->min = c->min_milli * (int64_t)n / 1000 + c->extra;
	o->max = c->max_milli * (int64_t)n / 1000 + c->extra_max;
	o->verdict = ((int64_t)o->count >= o->min && (int64_t)o->count <= o->max)
		     ? BENCH_PASS : BENCH_FAIL;
}

static void decide_ratio(const struct bench_check *c, uint64_t other, struct bench_outcome *o)
{
	o->min = c->min_milli;
	o->max = c->max_milli;
	if (other == 0) {
		o->verdict = BENCH_FAIL;
		strlcpy(o->reason, "the count it is a ratio of is zero", sizeof(o->reason));
		return;
	}
	int64_t milli = (int64_t)(o->count * 1000 / other);
	o->verdict = (milli >= o->min && milli <= o->max) ? BENCH_PASS : BENCH_FAIL;
}

/*
 * A cost is reported per operation: the workload's own operation count
 * when it kept one (less the zero run's), else n.  A zero run that cost
 * more than the run at n (noise, without cpi=1) has no honest value.
 */
static void decide_cost(const struct bench *b, unsigned i, uint64_t n,
			const struct bench_sample *at_n, const struct bench_sample *at_0,
			struct bench_outcome *o)
{
	bool kept = at_n->ops[i] || at_0->ops[i];
	bool sub = b->subtract_zero_run;
	uint64_t ops = n;

	if (sub && at_n->value[i] < at_0->value[i]) {
		skip(o, "the zero run cost more than the run at n (cycle counter noise)");
		return;
	}
	if (kept) {
		if ((sub && at_n->ops[i] <= at_0->ops[i]) || at_n->ops[i] == 0) {
			skip(o, "the workload counted no operations");
			return;
		}
		ops = sub ? at_n->ops[i] - at_0->ops[i] : at_n->ops[i];
	}
	o->verdict = BENCH_REPORTED;
	o->expected = (int64_t)ops;
}

static void decide(const struct bench *b, unsigned i, uint64_t n,
		   const struct bench_sample *at_n, const struct bench_sample *at_0,
		   const struct bench_env *env, struct bench_outcome *o)
{
	const struct bench_check *c = &b->checks[i];

	memset(o, 0, sizeof(*o));
	if (at_n->skip[0] || at_0->skip[0]) {
		skip(o, at_n->skip[0] ? at_n->skip : at_0->skip);
		return;
	}
	if ((at_n->skip_checks | at_0->skip_checks) & (1u << i)) {
		skip(o, at_n->skip_checks_why[0] ? at_n->skip_checks_why : at_0->skip_checks_why);
		return;
	}
	if ((c->needs & BENCH_NEEDS_CPI1) && !env->cpi1) {
		skip(o, "needs boot argument cpi=1 (qemu -icount shift=0)");
		return;
	}
	if ((c->needs & BENCH_NEEDS_HWPMU) && !env->hwpmu_counts) {
		skip(o, env->hwpmu_reason ? env->hwpmu_reason : "no counting hardware PMU");
		return;
	}
	o->count = measured(b, i, at_n, at_0);
	switch (c->kind) {
	case BENCH_EXACT:
		decide_exact(c, n, o);
		break;
	case BENCH_RANGE:
		decide_range(c, n, o);
		break;
	case BENCH_RATIO:
		decide_ratio(c, measured(b, c->ratio_of, at_n, at_0), o);
		break;
	case BENCH_SAME:
		o->expected = (int64_t)measured(b, c->ratio_of, at_n, at_0);
		o->verdict = (int64_t)o->count == o->expected ? BENCH_PASS : BENCH_FAIL;
		break;
	case BENCH_COST:
		decide_cost(b, i, n, at_n, at_0, o);
		break;
	case BENCH_NOTE:
		o->verdict = BENCH_NOTED;
		break;
	}
}

/* benchbreak: expect one more than the check allows, then decide again. */
static void break_check(const struct bench_check *c, uint64_t n, struct bench_outcome *o)
{
	if (o->verdict != BENCH_PASS && o->verdict != BENCH_FAIL)
		return;
	if (c->kind == BENCH_EXACT || c->kind == BENCH_SAME) {
		o->expected += 1;
		o->verdict = (int64_t)o->count == o->expected ? BENCH_PASS : BENCH_FAIL;
	} else {
		o->min = o->max + 1;
		o->max = o->min;
		o->verdict = BENCH_FAIL;
	}
	(void)n;
	strlcpy(o->reason, "expectation broken on purpose by benchbreak", sizeof(o->reason));
}

void bench_evaluate(const struct bench *b, uint64_t n,
		    const struct bench_sample *at_n, const struct bench_sample *at_0,
		    const struct bench_env *env, struct bench_outcome *out)
{
	bool broken = env->broken && strcmp(env->broken, b->name) == 0;

	for (unsigned i = 0; i < b->nchecks; i++) {
		decide(b, i, n, at_n, at_0, env, &out[i]);
		if (broken)
			break_check(&b->checks[i], n, &out[i]);
	}
}

static const char *verdict_word(enum bench_verdict v)
{
	switch (v) {
	case BENCH_PASS:
		return "PASS";
	case BENCH_FAIL:
		return "FAIL";
	case BENCH_SKIP:
		return "SKIP";
	default:
		return "INFO";
	}
}

static int format_expected(char *buf, size_t len, const struct bench_check *c,
			   const struct bench_outcome *o)
{
	if (c->kind == BENCH_EXACT || c->kind == BENCH_SAME)
		return snprintf(buf, len, "%lld", (long long)o->expected);
	if (c->kind == BENCH_RATIO)
		return snprintf(buf, len, "[%lld.%03lld,%lld.%03lld]x",
				(long long)(o->min / 1000), (long long)(o->min % 1000),
				(long long)(o->max / 1000), (long long)(o->max % 1000));
	return snprintf(buf, len, "[%lld,%lld]", (long long)o->min, (long long)o->max);
}

/* Cost per iteration with three decimals; n is kept in o->expected. */
static int format_cost(char *buf, size_t len, bool json, const struct bench *b,
		       const struct bench_check *c, const struct bench_outcome *o)
{
	uint64_t n = o->expected > 0 ? (uint64_t)o->expected : 1;
	uint64_t milli = o->count * 1000 / n;

	if (json)
		return snprintf(buf, len,
				"{\"result\":\"INFO\",\"bench\":\"%s\",\"check\":\"%s\","
				"\"total\":%llu,\"n\":%llu,\"per_iter_milli\":%llu}",
				b->name, c->name, (unsigned long long)o->count,
				(unsigned long long)n, (unsigned long long)milli);
	return snprintf(buf, len, "INFO: bench: %s: %s per_iter=%llu.%03llu n=%llu total=%llu",
			b->name, c->name, (unsigned long long)(milli / 1000),
			(unsigned long long)(milli % 1000), (unsigned long long)n,
			(unsigned long long)o->count);
}

unsigned bench_insns_per_tick(uint64_t hz)
{
	if (hz == 0)
		return 0;
	uint64_t ratio = (NS_PER_S + hz / 2) / hz;      /* nearest whole number */

	if (ratio == 0)
		return 0;
	uint64_t off = ratio * hz > NS_PER_S ? ratio * hz - NS_PER_S : NS_PER_S - ratio * hz;

	/* The measured rate carries the i8254 calibration's error; a ratio
	 * further than that from a whole number is not one. */
	return off * RATE_TOLERANCE_DIV <= NS_PER_S ? (unsigned)ratio : 0;
}

int bench_format_cost_row(char *buf, size_t len, bool json, const struct bench *b,
			  const struct bench_check *c, const struct bench_outcome *o,
			  const struct bench_env *env)
{
	uint64_t ops = o->expected > 0 ? (uint64_t)o->expected : 1;
	uint64_t scale = env->insns_per_tick ? env->insns_per_tick : 1;
	uint64_t total = o->count * scale;
	uint64_t milli = total * 1000 / ops;
	const char *unit = env->insns_per_tick ? "insns" : "ticks";

	if (json)
		return snprintf(buf, len,
				"{\"cost\":\"%s\",\"bench\":\"%s\",\"per_op_milli\":%llu,"
				"\"unit\":\"%s\",\"n\":%llu,\"total\":%llu}",
				c->name, b->name, (unsigned long long)milli, unit,
				(unsigned long long)ops, (unsigned long long)total);
	return snprintf(buf, len, "COST: bench: %s: %s per_op=%llu.%03llu unit=%s n=%llu total=%llu",
			b->name, c->name, (unsigned long long)(milli / 1000),
			(unsigned long long)(milli % 1000), unit, (unsigned long long)ops,
			(unsigned long long)total);
}

int bench_format(char *buf, size_t len, bool json, const struct bench *b,
		 const struct bench_check *c, const struct bench_outcome *o)
{
	char exp[64];

	if (o->verdict == BENCH_REPORTED)
		return format_cost(buf, len, json, b, c, o);
	if (o->verdict == BENCH_NOTED)
		return json ? snprintf(buf, len,
				       "{\"result\":\"INFO\",\"bench\":\"%s\",\"check\":\"%s\","
				       "\"count\":%llu}", b->name, c->name,
				       (unsigned long long)o->count)
			    : snprintf(buf, len, "INFO: bench: %s: %s count=%llu",
				       b->name, c->name, (unsigned long long)o->count);
	if (o->verdict == BENCH_SKIP)
		return json ? snprintf(buf, len,
				       "{\"result\":\"SKIP\",\"bench\":\"%s\",\"check\":\"%s\","
				       "\"reason\":\"%s\"}", b->name, c->name, o->reason)
			    : snprintf(buf, len, "SKIP: bench: %s: %s (%s)",
				       b->name, c->name, o->reason);
	format_expected(exp, sizeof(exp), c, o);
	if (json)
		return snprintf(buf, len,
				"{\"result\":\"%s\",\"bench\":\"%s\",\"check\":\"%s\","
				"\"count\":%llu,\"expected\":\"%s\",\"reason\":\"%s\"}",
				verdict_word(o->verdict), b->name, c->name,
				(unsigned long long)o->count, exp, o->reason);
	return snprintf(buf, len, "%s: bench: %s: %s count=%llu expected=%s%s%s%s",
			verdict_word(o->verdict), b->name, c->name,
			(unsigned long long)o->count, exp,
			o->reason[0] ? " (" : "", o->reason, o->reason[0] ? ")" : "");
}

void bench_tally(struct bench_totals *t, const struct bench_outcome *o)
{
	switch (o->verdict) {
	case BENCH_REPORTED:
		t->reported++;
		return;
	case BENCH_NOTED:
		return;
	case BENCH_SKIP:
		t->skipped++;
		break;
	case BENCH_FAIL:
		t->failures++;
		break;
	case BENCH_PASS:
		break;
	}
	t->tests++;
}
