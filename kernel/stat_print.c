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
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "hwperf/hwperf_console.h"
#include "proc/proc.h"
#include "proc/signal.h"
#include "stat_report.h"
#include "witness.h"

#define PCT100_UNIT 100u
#define MILLI 1000u
#define NS_PER_S 1000000000ull
#define NAME_LEN (HWPERF_NAME_MAX + 16)
#define TABLE_LINE_MAX 160

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

/* Appends to a line buffer; a full buffer drops the rest. */
static void put(char *line, size_t *used, const char *fmt, ...)
{
	va_list ap;

	if (*used >= TABLE_LINE_MAX)
		return;
	va_start(ap, fmt);
	int n = vsnprintf(line + *used, TABLE_LINE_MAX - *used, fmt, ap);
	va_end(ap);
	*used += n > 0 ? (size_t)n : 0;
	if (*used >= TABLE_LINE_MAX)
		*used = TABLE_LINE_MAX - 1;
}

static void table_line(const struct stat_report *r, unsigned i)
{
	char name[NAME_LEN], num[STAT_COMMAS_LEN], m[32], line[TABLE_LINE_MAX];
	uint64_t milli, running = column_mean(r->running, r->runs, i);
	uint64_t enabled = column_mean(r->enabled, r->runs, i);
	const char *unit;
	size_t used = 0;

	hwperf_counter_name(&r->ctl, i, name, sizeof(name));
	if (running == 0) {
		put(line, &used, "%18s      %-26s", "<not counted>", name);
	} else {
		put(line, &used, "%18s      %-26s", stat_commas(mean_count(r, i), num, sizeof(num)),
		    name);
		if (metric(r, i, &milli, &unit)) {
			snprintf(m, sizeof(m), "%llu.%03llu", (unsigned long long)(milli / MILLI),
				 (unsigned long long)(milli % MILLI));
			put(line, &used, "#  %9s %-18s", m, unit);
		}
		if (r->runs > 1) {
			unsigned n = column_noise(r, i);
			put(line, &used, "  ( +- %2u.%02u%% )", n / PCT100_UNIT, n % PCT100_UNIT);
		}
		if (running < enabled) {
			unsigned p = stat_running_pct100(running, enabled);
			put(line, &used, "  (%u.%02u%%)", p / PCT100_UNIT, p % PCT100_UNIT);
		}
	}
	/* The columns pad; the line's end does not. */
	while (used && line[used - 1] == ' ')
		used--;
	line[used] = '\0';
	printf("%s\n", line);
}

void stat_print_table(const struct stat_report *r)
{
	uint64_t el[STAT_RUNS_MAX];

	printf("\n Performance counter stats for '%s'", r->system_wide ? "system wide" : r->cmdline);
	if (r->runs > 1)
		printf(" (%u runs)", r->runs);
	printf(":\n\n");
	for (unsigned i = 0; i < HWPERF_NVCTR; i++)
		if (hwperf_slot_used(&r->ctl.ev[i]))
			table_line(r, i);
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
	char name[NAME_LEN];

	for (unsigned i = 0; i < HWPERF_NVCTR; i++) {
		if (!hwperf_slot_used(&r->ctl.ev[i]))
			continue;
		uint64_t running = column_mean(r->running, r->runs, i);
		uint64_t enabled = column_mean(r->enabled, r->runs, i);
		unsigned p = stat_running_pct100(running, enabled);
		uint64_t milli;
		const char *unit;

		hwperf_counter_name(&r->ctl, i, name, sizeof(name));
		if (running == 0)
			printf("<not counted>%s%s%s", sep, sep, name);
		else
			printf("%llu%s%s%s", (unsigned long long)mean_count(r, i), sep, sep, name);
		if (r->runs > 1) {
			unsigned n = column_noise(r, i);
			printf("%s%u.%02u%%", sep, n / PCT100_UNIT, n % PCT100_UNIT);
		}
		printf("%s%llu%s%u.%02u", sep, (unsigned long long)ticks_to_ns(r, running), sep,
		       p / PCT100_UNIT, p % PCT100_UNIT);
		if (running && metric(r, i, &milli, &unit))
			printf("%s%llu.%03llu%s%s\n", sep, (unsigned long long)(milli / MILLI),
			       (unsigned long long)(milli % MILLI), sep, unit);
		else
			printf("%s%s\n", sep, sep);
	}
}

/* ---- Tally's own lines (hwperf read's) ------------------------------------------------------ */

void stat_print_kv(const struct stat_report *r)
{
	const struct hwperf_counts *c = &r->last;
	char name[NAME_LEN];

	for (unsigned i = 0; i < HWPERF_NVCTR; i++) {
		if (!hwperf_slot_used(&r->ctl.ev[i]))
			continue;
		hwperf_counter_name(&r->ctl, i, name, sizeof(name));
		printf("%s count=%llu enabled=%llu running=%llu", name,
		       (unsigned long long)c->count[i], (unsigned long long)c->enabled[i],
		       (unsigned long long)c->running[i]);
		if (c->running[i] < c->enabled[i]) {
			unsigned p = stat_running_pct100(c->running[i], c->enabled[i]);
			printf(" running_pct=%u.%02u scaled=%llu", p / PCT100_UNIT,
			       p % PCT100_UNIT, (unsigned long long)stat_scaled(
				       c->count[i], c->enabled[i], c->running[i]));
		}
		printf("\n");
	}
}

/* ---- JSON --------------------------------------------------------------------------------- */

/* A JSON string: the reason texts quote with ' but may hold anything. */
void stat_json_str(const char *s)
{
	printf("\"");
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < ' ')
			printf("\\u%04x", (unsigned)(unsigned char)*s);
		else
			printf("%c", *s);
	}
	printf("\"");
}

static void json_event(const struct stat_report *r, unsigned i, bool first)
{
	const struct hwperf_counts *c = &r->last;
	char name[NAME_LEN];
	unsigned p = stat_running_pct100(c->running[i], c->enabled[i]);

	hwperf_counter_name(&r->ctl, i, name, sizeof(name));
	printf("%s{\"name\":", first ? "" : ",");
	stat_json_str(name);
	printf(",\"count\":%llu,\"enabled\":%llu,\"running\":%llu,"
	       "\"running_pct\":%u.%02u,\"scaled\":%llu",
	       (unsigned long long)c->count[i], (unsigned long long)c->enabled[i],
	       (unsigned long long)c->running[i], p / PCT100_UNIT, p % PCT100_UNIT,
	       (unsigned long long)stat_scaled(c->count[i], c->enabled[i], c->running[i]));
	if (r->runs > 1) {
		unsigned n = column_noise(r, i);
		printf(",\"mean\":%llu,\"noise_pct\":%u.%02u", (unsigned long long)mean_count(r, i),
		       n / PCT100_UNIT, n % PCT100_UNIT);
	}
	printf("}");
}

void stat_print_json(const struct stat_report *r, const char *prog)
{
	bool first = true;

	printf("{\"ok\":true,\"gen\":%d,\"pid\":%d,\"prog\":", r->gen, r->pid);
	stat_json_str(prog);
	printf(",\"runs\":%u,\"system_wide\":%s,\"elapsed_ns\":%llu", r->runs,
	       r->system_wide ? "true" : "false",
	       (unsigned long long)ticks_to_ns(r, r->elapsed[r->runs - 1]));
	if (witness_show())
		printf(",\"witness_id\":%u", (unsigned)r->witness_id);
	printf(",\"events\":[");
	for (unsigned i = 0; i < HWPERF_NVCTR; i++) {
		if (!hwperf_slot_used(&r->ctl.ev[i]))
			continue;
		json_event(r, i, first);
		first = false;
	}
	if (WIFSIGNALED(r->status)) {
		printf("],\"signal\":");
		stat_json_str(signal_name(WTERMSIG(r->status)));
		printf("}\n");
	} else {
		printf("],\"exit\":%d}\n", WEXITSTATUS(r->status));
	}
}
