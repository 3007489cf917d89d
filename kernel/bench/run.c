/*
 * run.c - `bench` and `selftest` commands and the one-shot `selftest` boot
 * mode: run registered benchmarks, print one line per check and a summary.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "bench.h"
#include "bootargs.h"
#include "console/cmd.h"
#include "console/console.h"
#include "hwperf/hwperf.h"
#include "version.h"

BOOTARG(selftest, "run `selftest` at boot, then leave QEMU with 0 if nothing failed, else 1");
BOOTARG(benchbreak, "benchbreak=NAME: move that benchmark's expectations past what can hold (proves checks can fail)");
BOOTARG(cpi, "cpi=1: the CPU runs one instruction per cycle (qemu -icount shift=0), so cycle counts are exact");

#define LINE_MAX_OUT 256

struct run_opts {
	bool json;
	bool tap;               /* TAP version 13, for any TAP consumer */
	uint64_t n;             /* 0: each benchmark's default */
};

/*
 * One result line as its format wants it.  TAP takes the plain line: a
 * test (PASS, FAIL, SKIP; number = tests counted so far) becomes `ok N -`
 * or `not ok N -`, a SKIP's reason its SKIP directive, and every other
 * line (INFO, COST, SUMMARY) a comment, so a TAP consumer sees exactly
 * the tests SUMMARY counts.
 */
static void emit(const struct run_opts *o, const struct bench_totals *t, const char *line)
{
	const char *rest = strchr(line, ':');

	if (!o->tap) {
		printf("%s\n", line);
		return;
	}
	if (rest && strncmp(line, "PASS:", 5) == 0) {
		printf("ok %u -%s\n", t->tests, rest + 1);
	} else if (rest && strncmp(line, "FAIL:", 5) == 0) {
		printf("not ok %u -%s\n", t->tests, rest + 1);
	} else if (rest && strncmp(line, "SKIP:", 5) == 0) {
		/* "SKIP: bench: B: C (reason)" -> "ok N - bench: B: C # SKIP reason" */
		const char *why = strstr(rest, " (");
		int head = why ? (int)(why - rest - 1) : (int)strlen(rest + 1);
		const char *r = why ? why + 2 : "";
		int rlen = (int)strlen(r) - (why && r[0] ? 1 : 0);

		printf("ok %u -%.*s # SKIP %.*s\n", t->tests, head, rest + 1,
		       rlen > 0 ? rlen : 0, r);
	} else {
		printf("# %s\n", line);
	}
}

/*
 * Hardware-event checks run only on a hardware driver that passed its
 * liveness probe; otherwise they SKIP with the first hardware driver's
 * own probe line, so the reason is the probe's, not ours.
 */
static void hwpmu_env(struct bench_env *env)
{
	static char reason[BENCH_REASON_MAX];
	const struct pmu_caps *caps = hwperf_caps();
	const char *line = hwperf_cpu_probe_line();

	env->hwpmu_counts = caps && caps->counts && caps->cpu_events;
	env->hwpmu_reason = reason;
	snprintf(reason, sizeof(reason), "%s",
		 line ? line : "no hardware PMU driver on this machine");
}

static void env_now(struct bench_env *env)
{
	env->cpi1 = bootarg_u64("cpi", 0, 0, 1000) == 1;
	hwpmu_env(env);
	env->broken = bootarg_get("benchbreak");
	env->insns_per_tick = env->cpi1 ? bench_insns_per_tick(arch_cycles_hz()) : 0;
}

/* The costs a benchmark reported, as one table after its check lines. */
static void cost_table(const struct bench *b, const struct run_opts *o,
		       const struct bench_env *env, const struct bench_outcome *out)
{
	char line[LINE_MAX_OUT];

	for (unsigned i = 0; i < b->nchecks; i++) {
		if (out[i].verdict != BENCH_REPORTED)
			continue;
		bench_format_cost_row(line, sizeof(line), o->json, b, &b->checks[i], &out[i], env);
		emit(o, NULL, line);
	}
}

static void run_one(const struct bench *b, const struct run_opts *o,
		    const struct bench_env *env, struct bench_totals *t)
{
	/* Too big for a one-page stack; benchmarks run one at a time. */
	static struct bench_sample at_n, at_0;
	static struct bench_outcome out[BENCH_MAX_CHECKS];
	char line[LINE_MAX_OUT];
	uint64_t n = o->n ? o->n : b->default_n;
	int err = 0;

	memset(&at_n, 0, sizeof(at_n));
	memset(&at_0, 0, sizeof(at_0));
	if (b->subtract_zero_run)
		err = b->measure(0, &at_0);
	if (!err)
		err = b->measure(n, &at_n);
	if (err) {
		snprintf(at_n.skip, sizeof(at_n.skip), "could not measure: %s", errno_name(err));
		for (unsigned i = 0; i < b->nchecks; i++) {
			t->tests++;
			t->failures++;
			snprintf(line, sizeof(line), "FAIL: bench: %s: %s (%s)", b->name,
				 b->checks[i].name, at_n.skip);
			emit(o, t, line);
		}
		return;
	}
	bench_evaluate(b, n, &at_n, &at_0, env, out);
	for (unsigned i = 0; i < b->nchecks; i++) {
		bench_format(line, sizeof(line), o->json, b, &b->checks[i], &out[i]);
		bench_tally(t, &out[i]);
		emit(o, t, line);
	}
	cost_table(b, o, env, out);
}

static void summary(const struct bench_totals *t, bool json, bool tap)
{
	unsigned passed = t->tests - t->failures - t->skipped;

	if (tap) {
		/* The plan at the end, as TAP allows: tests are counted as run. */
		printf("1..%u\n# SUMMARY: %u tests, %u failures, %u skipped\n",
		       t->tests, t->tests, t->failures, t->skipped);
		if (t->reported)
			printf("# REPORTED: %u costs, not counted as tests\n", t->reported);
		return;
	}
	if (json) {
		printf("{\"summary\":{\"tests\":%u,\"failures\":%u,\"skipped\":%u}}\n",
		       t->tests, t->failures, t->skipped);
	} else {
		printf("SUMMARY: %u tests, %u failures, %u skipped\n",
		       t->tests, t->failures, t->skipped);
	}
	/* Costs are measurements, not tests: never counted as passed. */
	if (t->reported)
		printf(json ? "{\"reported\":%u}\n" : "REPORTED: %u costs, not counted as tests\n",
		       t->reported);
	printf("%u passed, %u failed, %u skipped\n", passed, t->failures, t->skipped);
}

static const struct bench *find(const char *name)
{
	const struct bench *const *b;

	SET_FOREACH(b, bench) {
		if (strcmp((*b)->name, name) == 0)
			return *b;
	}
	return NULL;
}

/*
 * Every read the benchmarks made was checked by hwperf against the count
 * invariants (hwperf.h hwperf_invariants); a run passes this check only
 * if none of its reads broke one.  first_bench names the benchmark during
 * which the first new violation appeared.
 */
static void invariants_check(const struct hwperf_inv_report *before,
			     const char *first_bench, const struct run_opts *o,
			     const struct bench_env *env, struct bench_totals *t)
{
	struct hwperf_inv_report now;
	char why[BENCH_REASON_MAX + HWPERF_REASON_MAX];
	uint64_t reads, bad;
	bool broken = env->broken && strcmp(env->broken, "invariants") == 0;

	hwperf_invariants(&now);
	reads = now.reads - before->reads;
	bad = now.violations - before->violations;
	/* A run that read no count has nothing to check (e.g. hardware-event
	 * benchmarks that SKIP where nothing counts). */
	if (reads == 0 && !broken)
		return;
	t->tests++;
	/* benchbreak=invariants: expect one violation, which never happens
	 * in a correct kernel, to prove this check can fail. */
	if (bad == (broken ? 1u : 0u)) {
		snprintf(why, sizeof(why), "%llu reads, none broke an invariant",
			 (unsigned long long)reads);
	} else {
		t->failures++;
		if (broken)
			snprintf(why, sizeof(why), "expectation broken on purpose by benchbreak");
		else
			snprintf(why, sizeof(why), "%llu violations in %llu reads, the first "
				 "during %s; the last: %s", (unsigned long long)bad,
				 (unsigned long long)reads, first_bench ? first_bench : "?",
				 now.last);
	}
	char line[LINE_MAX_OUT + HWPERF_REASON_MAX];
	const char *verdict = bad == (broken ? 1u : 0u) ? "PASS" : "FAIL";

	if (o->json)
		snprintf(line, sizeof(line), "{\"result\":\"%s\",\"bench\":\"invariants\","
			 "\"check\":\"reads\",\"reads\":%llu,\"violations\":%llu,"
			 "\"reason\":\"%s\"}", verdict, (unsigned long long)reads,
			 (unsigned long long)bad, why);
	else
		snprintf(line, sizeof(line), "%s: bench: invariants: reads (%s)", verdict, why);
	emit(o, t, line);
}

/* Runs one benchmark or all; returns the number of failures. */
static unsigned run_set(const char *which, const struct run_opts *o)
{
	const struct bench *const *b;
	struct bench_totals t = { 0 };
	struct bench_env env;
	struct hwperf_inv_report start, seen;
	const char *first_bench = NULL;

	console_intr_watch();
	env_now(&env);
	if (o->tap)
		printf("TAP version 13\n");
	hwperf_invariants(&start);
	SET_FOREACH(b, bench) {
		if (which && strcmp(which, (*b)->name) != 0)
			continue;
		run_one(*b, o, &env, &t);
		hwperf_invariants(&seen);
		if (!first_bench && seen.violations != start.violations)
			first_bench = (*b)->name;
		/* A benchmark's own waits are not interrupted: it ends
		 * clean, and Ctrl-C stops the set after it. */
		if (console_intr_pending()) {
			printf("interrupted: stopped after benchmark %s; the "
			       "rest did not run\n", (*b)->name);
			break;
		}
	}
	invariants_check(&start, first_bench, o, &env, &t);
	summary(&t, o->json, o->tap);
	return t.failures;
}

static int parse_opts(int argc, char **argv, int first, struct run_opts *o,
		      const char **which)
{
	memset(o, 0, sizeof(*o));
	for (int i = first; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0) {
			o->json = true;
		} else if (strcmp(argv[i], "--tap") == 0) {
			o->tap = true;
		} else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) {
			if (parse_u64(argv[++i], 0, &o->n) || o->n == 0) {
				printf("error: bench: -n needs a positive number, not '%s'\n", argv[i]);
				return CMD_ERR_REPORTED;
			}
		} else if (which && !*which && argv[i][0] != '-') {
			*which = argv[i];
		} else {
			printf("error: bench: unexpected '%s' (try help bench)\n", argv[i]);
			return CMD_ERR_REPORTED;
		}
	}
	if (o->json && o->tap) {
		printf("error: bench: --json and --tap are two formats; choose one\n");
		return CMD_ERR_REPORTED;
	}
	return 0;
}

static int cmd_bench(int argc, char **argv)
{
	const struct bench *const *b;
	const char *which = NULL;
	struct run_opts o;

	if (argc == 2 && strcmp(argv[1], "list") == 0) {
		SET_FOREACH(b, bench)
			printf("  %-18s n=%-9llu %s\n", (*b)->name,
			       (unsigned long long)(*b)->default_n, (*b)->desc);
		return 0;
	}
	if (argc < 3 || strcmp(argv[1], "run") != 0) {
		printf("error: usage: bench list | bench run NAME|all [--json|--tap] [-n LOOPS]\n");
		return CMD_ERR_REPORTED;
	}
	int r = parse_opts(argc, argv, 2, &o, &which);
	if (r)
		return r;
	if (!which) {
		printf("error: usage: bench run NAME|all [--json|--tap] [-n LOOPS] (no benchmark named)\n");
		return CMD_ERR_REPORTED;
	}
	if (strcmp(which, "all") == 0)
		which = NULL;
	else if (!find(which)) {
		printf("error: bench: no benchmark '%s' (try bench list)\n", which);
		return CMD_ERR_REPORTED;
	}
	run_set(which, &o);
	return 0;
}
CONSOLE_CMD(bench, "self-checking microbenchmarks: list or run them",
	    "bench list | bench run NAME|all [--json|--tap] [-n LOOPS]", cmd_bench);

static int cmd_selftest(int argc, char **argv)
{
	struct run_opts o;
	int r = parse_opts(argc, argv, 1, &o, NULL);

	if (r)
		return r;
	run_set(NULL, &o);
	return 0;
}
CONSOLE_CMD(selftest, "every benchmark and in-kernel check; a summary line at the end",
	    "selftest [--json|--tap] [-n LOOPS]", cmd_selftest);

/* Boot argument `selftest`: one-shot mode for CI and board labs. */
static void selftest_at_boot(void)
{
	struct run_opts o = { 0 };

	if (!bootarg_present("selftest"))
		return;
	printf("selftest: running at boot\n");
	unsigned failures = run_set(NULL, &o);
	arch_exit(failures ? 1 : 0);
}
BOOT_HOOK(selftest, selftest_at_boot);
