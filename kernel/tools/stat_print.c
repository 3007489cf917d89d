/*
 * stat_print.c - `stat`'s output forms (see stat_report.h).
 *
 * The table and the CSV are perf stat's, so that a person's eye and a
 * script's parser trained on perf read Tally the same way:
 *
 *	 Performance counter stats for 'sys 1000' (5 runs):
 *
 *	             1,001      syscalls:u                #   12.345 K/sec   ( +-  0.00% )
 *	        12,345,678      cycles:u                  #    1.234 GHz     (66.67%)
 *
 *	       0.012345678 +- 0.000012345 seconds time elapsed  ( +-  0.10% )
 *
 * and with -x SEP, one line per event:
 *	count SEP unit SEP event [SEP noise%] SEP run-time-ns SEP running% SEP metric SEP metric-unit
 *
 * A count is the mean over the runs of count * enabled / running (the
 * scaled count, which is the count itself when the event was never
 * multiplexed).  Rates are per second of elapsed time (start of the
 * program to its reap), since Tally has no task-clock event; cycles
 * show as GHz over that time.
 *
 * This file works out what each line holds (means, spread, metrics); the
 * counter's name and the line itself are kernel/hwperf/format.c's, the
 * same as `hwperf read`'s.
 */
#include <stdio.h>

#include "hwperf/format.h"
#include "proc/proc.h"
#include "proc/signal.h"
#include "stat_report.h"
#include "witness.h"

#define PCT100_UNIT 100u
#define MILLI 1000u
#define NS_PER_S 1000000000ull
/* A JSON string of a reason: every character escaped at worst (\u00XX). */
#define JSON_STR_MAX (6 * HWPERF_REASON_MAX + 3)

/* ---- figures over the runs ------------------------------------------------------ */

static uint64_t column_mean(const uint64_t (*v)[HWPERF_NVCTR], unsigned runs, unsigned i)
{
	uint64_t col[STAT_RUNS_MAX];

	for (unsigned k = 0; k < runs; k++)
		col[k] = v[k][i];
	return stat_mean(col, runs);
}

static unsigned column_noise(const struct stat_report *r, unsigned i)
{
	uint64_t col[STAT_RUNS_MAX];

	for (unsigned k = 0; k < r->runs; k++)
		col[k] = r->scaled[k][i];
	return stat_noise_pct100(col, r->runs);
}

static uint64_t mean_count(const struct stat_report *r, unsigned i)
{
	return column_mean(r->scaled, r->runs, i);
}

static uint64_t ticks_to_ns(const struct stat_report *r, uint64_t ticks)
{
	return r->hz ? stat_muldiv(ticks, NS_PER_S, r->hz) : 0;
}

/* ---- derived metrics ---------------------------------------------------------------- */

/* The slot counting event `name` in the same modes as slot i, or -1. */
static int partner(const struct hwperf_control *ctl, unsigned i, const char *name)
{
	for (unsigned j = 0; j < HWPERF_NVCTR; j++)
		if (hwperf_slot_used(&ctl->ev[j]) && !(ctl->ev[j].flags & HWPERF_EV_RAW) &&
		    ctl->ev[j].modes == ctl->ev[i].modes && hwperf_name_eq(ctl->ev[j].name, name))
			return (int)j;
	return -1;
}

static bool named(const struct hwperf_event *ev, const char *a, const char *b)
{
	if (ev->flags & HWPERF_EV_RAW)
		return false;
	return hwperf_name_eq(ev->name, a) || (b && hwperf_name_eq(ev->name, b));
}

/* A ratio of two counted events, as perf shows them (insn per cycle, %
 * of all branches): true with *milli (thousandths) and *unit filled. */
static bool pair_metric(const struct stat_report *r, unsigned i, uint64_t *milli,
			const char **unit)
{
	const struct hwperf_event *ev = &r->ctl.ev[i];
	int j = -1;
	bool pct = true;

	if (named(ev, "instructions", NULL)) {
		j = partner(&r->ctl, i, "cycles");
		*unit = "insn per cycle";
		pct = false;
	} else if (named(ev, "branch-misses", NULL)) {
		j = partner(&r->ctl, i, "branches");
		*unit = "of all branches";
	} else if (named(ev, "cache-misses", NULL)) {
		j = partner(&r->ctl, i, "cache-references");
		*unit = "of all cache refs";
	}
	if (j < 0)
		return false;
	uint64_t den = mean_count(r, (unsigned)j), num = mean_count(r, i);
	if (den == 0)
		return false;
	*milli = pct ? stat_muldiv(num, 100 * MILLI, den) : stat_ratio_milli(num, den);
	return *milli != UINT64_MAX;
}

/* Events per second of elapsed time, or GHz for cycles, scaled into
 * perf's units; unit points at a static string. */
static bool rate_metric(const struct stat_report *r, unsigned i, uint64_t *milli,
			const char **unit)
{
	static const char *const units[] = { "/sec", "K/sec", "M/sec", "G/sec" };
	uint64_t elapsed = stat_mean(r->elapsed, r->runs);
	unsigned u = 0;

	if (elapsed == 0 || r->hz == 0)
		return false;
	/* per second, in thousandths: count * hz * 1000 / elapsed */
	uint64_t per_s_milli = stat_muldiv(mean_count(r, i), r->hz * MILLI, elapsed);
	if (per_s_milli == UINT64_MAX)
		return false;
	if (named(&r->ctl.ev[i], "cycles", "cpu-cycles")) {
		*milli = per_s_milli / NS_PER_S;        /* thousandths of GHz */
		*unit = "GHz";
		return true;
	}
	while (u + 1 < sizeof(units) / sizeof(units[0]) && per_s_milli >= MILLI * MILLI) {
		per_s_milli /= MILLI;
		u++;
	}
	*milli = per_s_milli;
	*unit = units[u];
	return true;
}

static bool metric(const struct stat_report *r, unsigned i, uint64_t *milli, const char **unit)
{
	return pair_metric(r, i, milli, unit) || rate_metric(r, i, milli, unit);
}

/* ---- perf's table ----------------------------------------------------------------------- */

static void print_seconds(uint64_t ns)
{
	printf("%llu.%09llu", (unsigned long long)(ns / NS_PER_S),
	       (unsigned long long)(ns % NS_PER_S));
}

/* Counter i over the runs, as the table and the CSV show it: the mean
 * scaled count and times, the spread, and the metric when it counted. */
static void mean_row(const struct stat_report *r, unsigned i, char *name,
		     struct hwperf_count_row *row)
{
	hwperf_counter_name(&r->ctl, i, name, HWPERF_COUNTER_NAME_MAX);
	*row = (struct hwperf_count_row){
		.name = name, .count = mean_count(r, i),
		.enabled = column_mean(r->enabled, r->runs, i),
		.running = column_mean(r->running, r->runs, i),
		.spread = r->runs > 1,
	};
	row->run_ns = ticks_to_ns(r, row->running);
	if (row->spread)
		row->noise_pct100 = column_noise(r, i);
	if (row->running && !metric(r, i, &row->metric_milli, &row->metric_unit))
		row->metric_unit = NULL;
}

/* Counter i of the last run, as --kv and JSON show it (JSON adds the
 * spread over the runs). */
static void last_row(const struct stat_report *r, unsigned i, char *name,
		     struct hwperf_count_row *row)
{
	const struct hwperf_counts *c = &r->last;

	hwperf_counter_name(&r->ctl, i, name, HWPERF_COUNTER_NAME_MAX);
	*row = (struct hwperf_count_row){
		.name = name, .count = c->count[i], .enabled = c->enabled[i],
		.running = c->running[i], .spread = r->runs > 1,
	};
	if (row->spread) {
		row->mean = mean_count(r, i);
		row->noise_pct100 = column_noise(r, i);
	}
}

/* Every counter in use as one line of fmt's form. */
static void print_rows(const struct stat_report *r, const struct hwperf_count_fmt *fmt,
		       bool means)
{
	char name[HWPERF_COUNTER_NAME_MAX], line[HWPERF_COUNT_LINE_MAX];
	struct hwperf_count_row row;
	bool first = true;

	for (unsigned i = 0; i < HWPERF_NVCTR; i++) {
		if (!hwperf_slot_used(&r->ctl.ev[i]))
			continue;
		if (means)
			mean_row(r, i, name, &row);
		else
			last_row(r, i, name, &row);
		hwperf_count_line(line, sizeof(line), &row, fmt);
		if (fmt->form == HWPERF_FORM_JSON)
			printf("%s%s", first ? "" : ",", line);
		else
			printf("%s\n", line);
		first = false;
	}
}

void stat_print_table(const struct stat_report *r)
{
	uint64_t el[STAT_RUNS_MAX];

	printf("\n Performance counter stats for '%s'", r->system_wide ? "system wide" : r->cmdline);
	if (r->runs > 1)
		printf(" (%u runs)", r->runs);
	printf(":\n\n");
	print_rows(r, &(const struct hwperf_count_fmt){ .form = HWPERF_FORM_TABLE }, true);
	for (unsigned k = 0; k < r->runs; k++)
		el[k] = ticks_to_ns(r, r->elapsed[k]);
	printf("\n%8s", "");
	print_seconds(stat_mean(el, r->runs));
	if (r->runs > 1) {
		unsigned n = stat_noise_pct100(el, r->runs);
		uint64_t mean = stat_mean(el, r->runs);
		printf(" +- ");
		print_seconds(stat_muldiv(mean, n, PCT100_UNIT * PCT100_UNIT));
		printf(" seconds time elapsed  ( +- %2u.%02u%% )\n\n", n / PCT100_UNIT,
		       n % PCT100_UNIT);
	} else {
		printf(" seconds time elapsed\n\n");
	}
}

/* ---- perf stat -x ------------------------------------------------------------------------- */

void stat_print_csv(const struct stat_report *r, const char *sep)
{
	print_rows(r, &(const struct hwperf_count_fmt){ .form = HWPERF_FORM_CSV, .sep = sep },
		   true);
}

/* ---- Tally's own lines (hwperf read's) ------------------------------------------------------ */

void stat_print_kv(const struct stat_report *r)
{
	print_rows(r, &(const struct hwperf_count_fmt){ .form = HWPERF_FORM_KV,
							.kv_scaled = true }, false);
}

/* ---- JSON --------------------------------------------------------------------------------- */

/* A JSON string: the reason texts quote with ' but may hold anything.
 * The console runs one command at a time, so the buffer is static. */
void stat_json_str(const char *s)
{
	static char buf[JSON_STR_MAX];

	hwperf_json_str(buf, sizeof(buf), s);
	printf("%s", buf);
}

void stat_print_json(const struct stat_report *r, const char *prog)
{
	printf("{\"ok\":true,\"gen\":%d,\"pid\":%d,\"prog\":", r->gen, r->pid);
	stat_json_str(prog);
	printf(",\"runs\":%u,\"system_wide\":%s,\"elapsed_ns\":%llu", r->runs,
	       r->system_wide ? "true" : "false",
	       (unsigned long long)ticks_to_ns(r, r->elapsed[r->runs - 1]));
	if (witness_show())
		printf(",\"witness_id\":%u", (unsigned)r->witness_id);
	printf(",\"events\":[");
	print_rows(r, &(const struct hwperf_count_fmt){ .form = HWPERF_FORM_JSON }, false);
	if (WIFSIGNALED(r->status)) {
		printf("],\"signal\":");
		stat_json_str(signal_name(WTERMSIG(r->status)));
		printf("}\n");
	} else {
		printf("],\"exit\":%d}\n", WEXITSTATUS(r->status));
	}
}
