/*
 * stat_report.h - what one `stat` produced, and the four ways it is
 * printed (stat_print.c): perf stat's table, perf stat -x's CSV, Tally's
 * own count lines (--kv) and one JSON object (--json).
 */
#ifndef TALLY_STAT_REPORT_H
#define TALLY_STAT_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "hwperf/hwperf.h"
#include "tools/stat_math.h"

#define STAT_CMDLINE_MAX 128

struct stat_report {
	char cmdline[STAT_CMDLINE_MAX]; /* "sys 1000", for the table's title */
	bool system_wide;               /* -a: SYSTEM counting (R3) */
	unsigned runs;                  /* -r */
	int gen;                        /* the last run's generation */
	int pid;                        /* the last run's program */
	int status;                     /* its wait status */
	uint32_t witness_id;            /* the last run's witness interval */
	uint64_t hz;                    /* cycle-counter rate, for times */
	struct hwperf_control ctl;      /* the events, as the last run had them */
	struct hwperf_counts last;      /* the last run's raw counts */
	/* Per event over the runs: the scaled count (count * enabled /
	 * running) and the two times, in cycle-counter ticks. */
	uint64_t scaled[STAT_RUNS_MAX][HWPERF_NVCTR];
	uint64_t enabled[STAT_RUNS_MAX][HWPERF_NVCTR];
	uint64_t running[STAT_RUNS_MAX][HWPERF_NVCTR];
	uint64_t elapsed[STAT_RUNS_MAX];        /* ticks from start to reap */
};

void stat_print_table(const struct stat_report *r);
void stat_print_csv(const struct stat_report *r, const char *sep);
void stat_print_kv(const struct stat_report *r);
void stat_print_json(const struct stat_report *r, const char *prog);
/* s as a JSON string, quotes included. */
void stat_json_str(const char *s);

#endif
