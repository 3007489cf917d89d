/*
 * stat_cmd.c - `stat [-e SPEC] [-r N] [-a] [-x SEP | --kv | --json] PROG
 * [ARGS...]`: run a built-in program with counters and print what it
 * counted, as `perf stat` does (the output forms: stat_print.c).
 *
 *	ok gen=1                              counters enabled (before it ran)
 *	... the program's own output ...
 *	 Performance counter stats for 'PROG ARGS':  (perf's table; -x: CSV;
 *	...                                          --kv: hwperf read's lines)
 *	exit 0 | signal SIGSEGV
 *
 * Per task (the default), the events count the program in user mode from
 * its first instruction; that is checked (counted_spawn.h): otherwise `err
 * EBUSY` and nothing else.  The final counts are read in the child's
 * on_reap hook (the last moment its counter set exists), and include
 * children it waited for (R17), as perf stat's do.
 *
 * -a counts system-wide while the program runs: the console enables the
 * events for itself with a k-mode event, which R4 makes a system-wide
 * request (root only, EBUSY naming the task and CPU whose USER counters
 * are live, no one forced off), and releases SYSTEM mode after the reap.
 *
 * -r N runs the program N times; counts are then means with perf's spread
 * (the standard deviation of the mean, as a share of it).
 *
 * Each run, from counting on to the reap, is a witness interval
 * (witness.h); with the boot argument `witness` its id is printed as a
 * line `witness id=N` before the counts (JSON: "witness_id").  The boot
 * argument `countbreak=EVENT` reports one more EVENT than was counted, so
 * a test can prove the witness comparison catches a wrong count.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "arch.h"
#include "bootargs.h"
#include "console/cmd.h"
#include "tools/counted_spawn.h"
#include "hwperf/hwperf.h"
#include "hwperf/format.h"
#include "hwperf/hwperf_console.h"
#include "hwperf/spec.h"
#include <stdlib.h>
#include "proc/proc.h"
#include "stat_report.h"
#include "proc/task.h"
#include "witness.h"

#define STAT_USAGE "stat [-e SPEC] [-r N] [-a] [-x SEP | --kv | --json] PROG [ARGS...]"
#define SPEC_TEXT_MAX 256
#define STAT_ENAME_MAX 16         /* "EINVAL" and friends */
#define SEP_MAX 8
/* Default events, most wanted first; only as many as the PMU counts at
 * once are used, so no default count is multiplexed and each is exact. */
static const char *const default_events[] = {
	"syscalls", "cycles", "faults", "tlb-refills",
};
#define N_DEFAULT_EVENTS (sizeof(default_events) / sizeof(default_events[0]))

enum stat_form { FORM_TABLE, FORM_CSV, FORM_KV, FORM_JSON };

struct stat_opts {
	const char *spec;               /* NULL: the defaults */
	enum stat_form form;
	const char *sep;                /* -x */
	unsigned runs;                  /* -r */
	bool system_wide;               /* -a */
	int prog;                       /* argv index of PROG */
};

/* The console runs one command at a time; these are too big for its stack. */
static struct {
	struct hwperf_control ctl;      /* what was asked */
	struct hwperf_control probe;    /* default-event checks */
	struct stat_report rep;
	char spec[SPEC_TEXT_MAX];
	char sep[SEP_MAX];
	unsigned run;                   /* the run under way */
	uint64_t started;               /* its cycle counter at enable */
	bool reaped;
} st;

/* ---- options and spec ------------------------------------------------------- */

static int parse_runs(const char *arg, unsigned *runs)
{
	uint64_t n;

	if (parse_u64(arg, 0, &n) || n < 1 || n > STAT_RUNS_MAX)
		return -EINVAL;
	*runs = (unsigned)n;
	return 0;
}

/* -x's separator: perf takes any string; a console word of 1..7
 * characters that is not a digit or a space (it would merge with the
 * numbers). */
static int parse_sep(const char *arg)
{
	size_t n = strlen(arg);

	if (n == 0 || n >= SEP_MAX)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if ((arg[i] >= '0' && arg[i] <= '9') || arg[i] == '.' || arg[i] == ' ')
			return -EINVAL;
	memcpy(st.sep, arg, n + 1);
	return 0;
}

static int set_form(struct stat_opts *o, enum stat_form f, const char **bad)
{
	if (o->form != FORM_TABLE && o->form != f) {
		*bad = "choose one of -x, --kv and --json";
		return -EINVAL;
	}
	o->form = f;
	return 0;
}

static int parse_opts(int argc, char **argv, struct stat_opts *o, const char **bad)
{
	int i = 1;

	*o = (struct stat_opts){ .form = FORM_TABLE, .runs = 1 };
	for (; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "--json") == 0 || strcmp(a, "--kv") == 0) {
			if (set_form(o, a[2] == 'j' ? FORM_JSON : FORM_KV, bad) < 0)
				return -EINVAL;
		} else if (strcmp(a, "-a") == 0) {
			o->system_wide = true;
		} else if (strcmp(a, "-e") == 0 && next) {
			o->spec = argv[++i];
		} else if (strcmp(a, "-r") == 0 && next) {
			if (parse_runs(next, &o->runs) < 0) {
				*bad = "-r needs a number of runs 1..100";
				return -EINVAL;
			}
			i++;
		} else if (strncmp(a, "-x", 2) == 0 && (a[2] || next)) {
			/* perf's -x, as well as -x , */
			if (parse_sep(a[2] ? a + 2 : next) < 0) {
				*bad = "-x needs a separator of 1..7 characters, no digits, '.' or spaces";
				return -EINVAL;
			}
			if (set_form(o, FORM_CSV, bad) < 0)
				return -EINVAL;
			o->sep = st.sep;
			i += a[2] ? 0 : 1;
		} else {
			*bad = a;
			return -EINVAL;
		}
	}
	o->prog = i;
	if (i >= argc) {
		*bad = "no program named";
		return -EINVAL;
	}
	if (o->form == FORM_KV && o->runs > 1) {
		*bad = "--kv prints one run's counts; with -r use the table, -x or --json";
		return -EINVAL;
	}
	return 0;
}

/* The default events the active PMU knows, as many as it counts at once,
 * in user mode (with -a, user and kernel). */
static const char *default_spec(bool system_wide)
{
	const struct pmu_caps *caps = hwperf_caps();
	const char *modes = system_wide ? "uk" : "u";
	char one[HWPERF_NAME_MAX + 4];
	size_t used = 0;
	unsigned n = 0;

	st.spec[0] = '\0';
	for (size_t i = 0; i < N_DEFAULT_EVENTS && n < caps->ncounters; i++) {
		snprintf(one, sizeof(one), "%s:%s", default_events[i], modes);
		if (hwperf_spec_parse(one, caps, &st.probe, NULL) < 0)
			continue;
		used += (size_t)snprintf(st.spec + used, sizeof(st.spec) - used, "%s%s",
					 n ? "," : "", one);
		n++;
	}
	return st.spec;
}

static bool any_mode(const struct hwperf_control *ctl, uint32_t modes)
{
	for (unsigned i = 0; i < HWPERF_NVCTR; i++)
		if (hwperf_slot_used(&ctl->ev[i]) && (ctl->ev[i].modes & modes))
			return true;
	return false;
}

/* Per task, stat counts the program in user mode: other modes are
 * system-wide counting (R3, R4), which -a asks for by name.  -a needs a
 * k-mode event, as SYSTEM mode does (R3). */
static int check_modes(const struct hwperf_control *ctl, bool system_wide,
		       struct hwperf_reason *why)
{
	if (system_wide) {
		if (any_mode(ctl, PMU_MODE_K))
			return 0;
		snprintf(why->text, sizeof(why->text), "EINVAL: stat -a counts system-wide, "
			 "which needs a k-mode event (R3): add :k or :uk to an event");
		return -EINVAL;
	}
	for (unsigned i = 0; i < HWPERF_NVCTR; i++) {
		const struct hwperf_event *ev = &ctl->ev[i];
		if (hwperf_slot_used(ev) && ev->modes != PMU_MODE_U) {
			snprintf(why->text, sizeof(why->text), "EINVAL: stat counts the "
				 "program in user mode only; '%s' asks for more (system-wide: "
				 "stat -a, as root)", ev->name[0] ? ev->name : "raw event");
			return -EINVAL;
		}
	}
	return 0;
}

/* ---- one run ------------------------------------------------------------------------ */

BOOTARG(countbreak, "countbreak=EVENT: stat reports one more EVENT than counted "
	"(proves the outside witness's comparison fails, tests/system/test_witness.py)");

/* countbreak=EVENT: one more than was counted, in every slot of EVENT. */
static void break_count(struct hwperf_counts *c)
{
	const char *name = bootarg_get("countbreak");

	for (unsigned i = 0; name && i < HWPERF_NVCTR; i++)
		if (hwperf_slot_used(&st.rep.ctl.ev[i]) && hwperf_name_eq(st.rep.ctl.ev[i].name, name))
			c->count[i]++;
}

/* The run's counts into the report: raw for --kv and JSON, scaled and
 * timed for the means. */
static void record_run(uint64_t end)
{
	struct stat_report *r = &st.rep;
	const struct hwperf_counts *c = &r->last;

	for (unsigned i = 0; i < HWPERF_NVCTR; i++) {
		r->scaled[st.run][i] = stat_scaled(c->count[i], c->enabled[i], c->running[i]);
		r->enabled[st.run][i] = c->enabled[i];
		r->running[st.run][i] = c->running[i];
	}
	r->elapsed[st.run] = end - st.started;
}

static void on_reap(struct task *t, void *arg)
{
	(void)arg;
	uint64_t end = arch_cycles();

	st.rep.gen = hwperf_task_final(&t->hw, &st.rep.ctl, &st.rep.last);
	if (st.rep.gen >= 0) {
		break_count(&st.rep.last);
		record_run(end);
	}
	st.reaped = true;
}

/* -a: SYSTEM counting from before the spawn to after the reap. */
static int system_begin(struct hwperf_reason *why)
{
	int gen = hwperf_enable(hwperf_console_caller(), hwperf_console_pid(), &st.ctl, why);

	st.started = arch_cycles();
	return gen;
}

static int system_end(struct hwperf_reason *why)
{
	uint64_t end = arch_cycles();
	int gen = hwperf_sys_read(hwperf_console_caller(), &st.rep.last, why);

	if (gen >= 0 && hwperf_sys_get_control(hwperf_console_caller(), &st.rep.ctl, why) >= 0) {
		st.rep.gen = gen;
		break_count(&st.rep.last);
		record_run(end);
	}
	hwperf_sys_release(hwperf_console_caller(), why);
	return gen;
}

/* One run of the program: 0, -EINTR (Ctrl-C: said so, nothing to print)
 * or -errno with why filled. */
static int one_run(int argc, char **argv, const struct stat_opts *o, struct hwperf_reason *why)
{
	struct counted_run run = { .ctl = o->system_wide ? NULL : &st.ctl, .on_reap = on_reap };
	int gen = 0, pid, r;

	if (o->system_wide && (gen = system_begin(why)) < 0)
		return gen;
	st.reaped = false;
	if (!o->system_wide)
		st.started = arch_cycles();
	pid = counted_spawn(argc, argv, &run, o->system_wide ? NULL : &gen, why);
	if (pid < 0) {
		if (o->system_wide)
			hwperf_sys_release(hwperf_console_caller(), why);
		return pid;
	}
	st.rep.witness_id = witness_begin();
	if (st.run == 0 && o->form != FORM_JSON)
		printf("ok gen=%d\n", gen);
	r = counted_wait(pid, &st.rep.status);
	witness_end();
	if (o->system_wide) {
		struct hwperf_reason ignored;
		if (r >= 0 && st.reaped && system_end(why) < 0)
			return -EIO;
		if (r < 0 || !st.reaped)
			hwperf_sys_release(hwperf_console_caller(), &ignored);
	}
	if (r == -EINTR)
		return r;
	if (r < 0 || !st.reaped) {
		snprintf(why->text, sizeof(why->text), "%s: waiting for pid %d failed",
			 errno_name(r < 0 ? r : -ECHILD), pid);
		return r < 0 ? r : -ECHILD;
	}
	st.rep.pid = pid;
	return 0;
}

/* ---- the command ----------------------------------------------------------------- */

static int report_err(const struct hwperf_reason *why, bool json)
{
	if (json) {
		const char *colon = strchr(why->text, ':');
		size_t n = colon ? (size_t)(colon - why->text) : strlen(why->text);
		char ename[STAT_ENAME_MAX];

		snprintf(ename, sizeof(ename), "%.*s", (int)n, why->text);
		printf("{\"ok\":false,\"error\":");
		stat_json_str(ename);
		printf(",\"reason\":");
		stat_json_str(why->text);
		printf("}\n");
	} else {
		printf("err %s\n", why->text);
	}
	return CMD_ERR_REPORTED;
}

static void set_cmdline(int argc, char **argv)
{
	size_t used = 0;

	st.rep.cmdline[0] = '\0';
	for (int i = 0; i < argc && used < sizeof(st.rep.cmdline); i++)
		used += (size_t)snprintf(st.rep.cmdline + used, sizeof(st.rep.cmdline) - used,
					 "%s%s", i ? " " : "", argv[i]);
}

static void print_report(const struct stat_opts *o, const char *prog)
{
	if (o->form == FORM_JSON) {
		stat_print_json(&st.rep, prog);
		return;
	}
	if (witness_show())
		printf("witness id=%u\n", (unsigned)st.rep.witness_id);
	if (o->form == FORM_CSV)
		stat_print_csv(&st.rep, o->sep);
	else if (o->form == FORM_KV)
		stat_print_kv(&st.rep);
	else
		stat_print_table(&st.rep);
	char how[WAIT_TEXT_MAX];

	wait_status_text(st.rep.status, how, sizeof(how));
	printf("%s\n", how);
}

static int cmd_stat(int argc, char **argv)
{
	struct hwperf_reason why;
	struct stat_opts o;
	const char *bad = "";

	if (parse_opts(argc, argv, &o, &bad) < 0) {
		/* A word stat does not know gets the usage; a known option
		 * with a bad value, the reason alone (the usage would cut it). */
		if (bad[0] == '-' && bad[1] != 'x' && bad[1] != 'r')
			snprintf(why.text, sizeof(why.text), "EINVAL: %s (usage: %s)", bad, STAT_USAGE);
		else
			snprintf(why.text, sizeof(why.text), "EINVAL: %s", bad);
		return report_err(&why, o.form == FORM_JSON);
	}
	const char *spec = o.spec ? o.spec : default_spec(o.system_wide);
	if (hwperf_spec_parse(spec, hwperf_caps(), &st.ctl, &why) < 0 ||
	    check_modes(&st.ctl, o.system_wide, &why) < 0)
		return report_err(&why, o.form == FORM_JSON);
	set_cmdline(argc - o.prog, argv + o.prog);
	st.rep.system_wide = o.system_wide;
	st.rep.hz = arch_cycles_hz();
	for (st.run = 0; st.run < o.runs; st.run++) {
		int r = one_run(argc - o.prog, argv + o.prog, &o, &why);
		if (r == -EINTR)
			return 0;
		if (r < 0)
			return report_err(&why, o.form == FORM_JSON);
	}
	st.rep.runs = o.runs;
	print_report(&o, argv[o.prog]);
	return 0;
}
CONSOLE_CMD(stat, "run a program with counters and print its counts, like perf stat",
	    STAT_USAGE "\n"
	    "  -e SPEC   events (default: the PMU's soft events that fit at once,\n"
	    "            from syscalls,cycles,faults,tlb-refills; :u, with -a :uk)\n"
	    "  -r N      run N times (1..100): means, and perf's +- spread\n"
	    "  -a        count system-wide while it runs (root; a k-mode event; R3/R4)\n"
	    "  -x SEP    perf stat -x CSV: count,unit,event[,spread],run-ns,running%,metric,unit\n"
	    "  --kv      hwperf read's lines: NAME count=C enabled=E running=R\n"
	    "            [running_pct=P scaled=S]\n"
	    "  --json    one JSON object after the program ends\n"
	    "First line `ok gen=N` or `err ENAME: reason`; then the program's output;\n"
	    "then perf stat's table (or -x, --kv); then `exit N` or `signal NAME`.\n"
	    "With boot argument `witness`, a line `witness id=N` (the run's interval for\n"
	    "the outside witness, tests/witness) comes before the counts.",
	    cmd_stat);
