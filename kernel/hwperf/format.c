/*
 * format.c - counter names and count lines (format.h).
 *
 * The KV line is the console's parseable form (issue 4), the table and
 * the CSV are perf stat's (so an eye or a parser trained on perf reads
 * Tally the same way), JSON is one object a script can load.  Percentages
 * are hundredths printed as P.PP; metrics thousandths printed as M.MMM.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "format.h"
#include "spec.h"
#include "tools/stat_math.h"

#define PCT100_UNIT 100u
#define MILLI 1000u

bool hwperf_slot_used(const struct hwperf_event *ev)
{
	return ev->name[0] != '\0' || (ev->flags & HWPERF_EV_RAW);
}

void hwperf_event_name(const struct hwperf_event *ev, char *buf, size_t len)
{
	char modes[8];

	hwperf_modes_str(ev->modes, modes, sizeof(modes));
	if (ev->flags & HWPERF_EV_RAW)
		snprintf(buf, len, "r%x:%s", (unsigned)ev->code, modes);
	else
		snprintf(buf, len, "%s:%s", ev->name[0] ? ev->name : "?", modes);
}

static bool same_event(const struct hwperf_event *a, const struct hwperf_event *b)
{
	return a->flags == b->flags && a->code == b->code && a->modes == b->modes &&
	       strcmp(a->name, b->name) == 0;
}

void hwperf_counter_name(const struct hwperf_control *ctl, unsigned i,
			 char *buf, size_t len)
{
	bool dup = false;
	int n = 0;

	for (unsigned j = 0; j < HWPERF_NVCTR; j++)
		if (j != i && same_event(&ctl->ev[i], &ctl->ev[j]))
			dup = true;
	if (dup)
		n = snprintf(buf, len, "@%u=", i);
	if (n < 0 || (size_t)n >= len)
		return;
	hwperf_event_name(&ctl->ev[i], buf + n, len - (size_t)n);
}

/* ---- a line in a buffer ------------------------------------------------------- */

struct line {
	char *buf;
	size_t len, used;
};

/* Appends; a full buffer drops the rest, and stays terminated. */
__attribute__((format(printf, 2, 3)))
static void put(struct line *l, const char *fmt, ...)
{
	va_list ap;

	if (l->used + 1 >= l->len)
		return;
	va_start(ap, fmt);
	int n = vsnprintf(l->buf + l->used, l->len - l->used, fmt, ap);
	va_end(ap);
	l->used += n > 0 ? (size_t)n : 0;
	if (l->used >= l->len)
		l->used = l->len - 1;
}

static void put_json_str(struct line *l, const char *s)
{
	put(l, "\"");
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			put(l, "\\%c", *s);
		else if ((unsigned char)*s < ' ')
			put(l, "\\u%04x", (unsigned)(unsigned char)*s);
		else
			put(l, "%c", *s);
	}
	put(l, "\"");
}

size_t hwperf_json_str(char *buf, size_t len, const char *s)
{
	struct line l = { buf, len, 0 };

	if (len)
		buf[0] = '\0';
	put_json_str(&l, s);
	return l.used;
}

/* ---- the forms ---------------------------------------------------------------- */

static void put_pct(struct line *l, const char *before, unsigned p, const char *after)
{
	put(l, "%s%u.%02u%s", before, p / PCT100_UNIT, p % PCT100_UNIT, after);
}

static void kv_line(struct line *l, const struct hwperf_count_row *r, bool scaled)
{
	put(l, "%s count=%llu enabled=%llu running=%llu", r->name,
	    (unsigned long long)r->count, (unsigned long long)r->enabled,
	    (unsigned long long)r->running);
	if (scaled && r->running < r->enabled) {
		put_pct(l, " running_pct=", stat_running_pct100(r->running, r->enabled), "");
		put(l, " scaled=%llu",
		    (unsigned long long)stat_scaled(r->count, r->enabled, r->running));
	}
}

static void table_line(struct line *l, const struct hwperf_count_row *r)
{
	char num[STAT_COMMAS_LEN], m[32];

	if (r->running == 0) {
		put(l, "%18s      %-26s", "<not counted>", r->name);
	} else {
		put(l, "%18s      %-26s", stat_commas(r->count, num, sizeof(num)), r->name);
		if (r->metric_unit) {
			snprintf(m, sizeof(m), "%llu.%03llu",
				 (unsigned long long)(r->metric_milli / MILLI),
				 (unsigned long long)(r->metric_milli % MILLI));
			put(l, "#  %9s %-18s", m, r->metric_unit);
		}
		if (r->spread)
			put(l, "  ( +- %2u.%02u%% )", r->noise_pct100 / PCT100_UNIT,
			    r->noise_pct100 % PCT100_UNIT);
		if (r->running < r->enabled)
			put_pct(l, "  (", stat_running_pct100(r->running, r->enabled), "%)");
	}
	/* The columns pad; the line's end does not. */
	while (l->used && l->buf[l->used - 1] == ' ')
		l->used--;
	l->buf[l->used] = '\0';
}

static void csv_line(struct line *l, const struct hwperf_count_row *r, const char *sep)
{
	if (r->running == 0)
		put(l, "<not counted>%s%s%s", sep, sep, r->name);
	else
		put(l, "%llu%s%s%s", (unsigned long long)r->count, sep, sep, r->name);
	if (r->spread)
		put(l, "%s%u.%02u%%", sep, r->noise_pct100 / PCT100_UNIT,
		    r->noise_pct100 % PCT100_UNIT);
	put(l, "%s%llu", sep, (unsigned long long)r->run_ns);
	put_pct(l, sep, stat_running_pct100(r->running, r->enabled), "");
	if (r->running && r->metric_unit)
		put(l, "%s%llu.%03llu%s%s", sep, (unsigned long long)(r->metric_milli / MILLI),
		    (unsigned long long)(r->metric_milli % MILLI), sep, r->metric_unit);
	else
		put(l, "%s%s", sep, sep);
}

static void json_line(struct line *l, const struct hwperf_count_row *r)
{
	put(l, "{\"name\":");
	put_json_str(l, r->name);
	put(l, ",\"count\":%llu,\"enabled\":%llu,\"running\":%llu,",
	    (unsigned long long)r->count, (unsigned long long)r->enabled,
	    (unsigned long long)r->running);
	put_pct(l, "\"running_pct\":", stat_running_pct100(r->running, r->enabled), "");
	put(l, ",\"scaled\":%llu",
	    (unsigned long long)stat_scaled(r->count, r->enabled, r->running));
	if (r->spread)
		put(l, ",\"mean\":%llu,\"noise_pct\":%u.%02u", (unsigned long long)r->mean,
		    r->noise_pct100 / PCT100_UNIT, r->noise_pct100 % PCT100_UNIT);
	put(l, "}");
}

size_t hwperf_count_line(char *buf, size_t len, const struct hwperf_count_row *row,
			 const struct hwperf_count_fmt *fmt)
{
	struct line l = { buf, len, 0 };

	if (len == 0)
		return 0;
	buf[0] = '\0';
	switch (fmt->form) {
	case HWPERF_FORM_TABLE: table_line(&l, row); break;
	case HWPERF_FORM_CSV: csv_line(&l, row, fmt->sep ? fmt->sep : ","); break;
	case HWPERF_FORM_JSON: json_line(&l, row); break;
	default: kv_line(&l, row, fmt->kv_scaled); break;
	}
	return l.used;
}
