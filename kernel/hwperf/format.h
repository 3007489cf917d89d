/*
 * format.h - the one place that names counters and writes a count line,
 * for every console command that shows counts: `hwperf read` (and pctr,
 * sys read), `stat` in its four forms, and `prof`'s sample records.
 *
 * The callers differ only in what they put in a row (one read's counts,
 * or means over runs with their spread and a derived metric) and in the
 * form they ask for; the line itself is written here.  Lines go to a
 * buffer, so the callers print them (and host tests read them back).
 */
#ifndef TALLY_HWPERF_FORMAT_H
#define TALLY_HWPERF_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwperf.h"

/* A counter name's longest form: "@I=" + event + ":" + modes. */
#define HWPERF_COUNTER_NAME_MAX (HWPERF_NAME_MAX + 16)
/* Room for any count line (JSON's, with five 20-digit numbers, is the
 * longest, about 230 characters). */
#define HWPERF_COUNT_LINE_MAX 320

/* Whether slot ev names an event (by name or raw code). */
bool hwperf_slot_used(const struct hwperf_event *ev);

/* ev in spec syntax, "cycles:u" or "r1c0:u"; "?" for a slot with no
 * name.  What a sample record shows (it carries its slot separately). */
void hwperf_event_name(const struct hwperf_event *ev, char *buf, size_t len);

/* Slot i's name in spec syntax, with "@I=" in front when the same event is
 * in two slots: what every count line shows. */
void hwperf_counter_name(const struct hwperf_control *ctl, unsigned i,
			 char *buf, size_t len);

enum hwperf_count_form {
	HWPERF_FORM_KV,         /* NAME count=C enabled=E running=R */
	HWPERF_FORM_TABLE,      /* perf stat's table line */
	HWPERF_FORM_CSV,        /* perf stat -x's line */
	HWPERF_FORM_JSON,       /* one {"name":...} object */
};

struct hwperf_count_fmt {
	enum hwperf_count_form form;
	const char *sep;        /* CSV: the separator */
	/* KV: add " running_pct=P scaled=S" when the counter was
	 * multiplexed (running < enabled), as stat --kv does. */
	bool kv_scaled;
};

/* One counter's figures.  KV and JSON show one read (count, enabled,
 * running as read); the table and CSV show means over the runs, a count
 * of `<not counted>` when it never ran. */
struct hwperf_count_row {
	const char *name;
	uint64_t count, enabled, running;       /* cycle-counter ticks */
	bool spread;            /* several runs: noise_pct100 (and JSON's mean) */
	unsigned noise_pct100;
	uint64_t mean;          /* JSON: the mean scaled count over the runs */
	uint64_t run_ns;        /* CSV: running time in ns */
	const char *metric_unit;        /* NULL: no derived metric */
	uint64_t metric_milli;  /* its value, in thousandths */
};

/* The row as one line of the form, without a newline; JSON without the
 * comma between objects.  Returns the line's length (cut to fit len). */
size_t hwperf_count_line(char *buf, size_t len, const struct hwperf_count_row *row,
			 const struct hwperf_count_fmt *fmt);

/* s as a JSON string, quotes included, cut to fit len; returns its length. */
size_t hwperf_json_str(char *buf, size_t len, const char *s);

#endif
