/*
 * stat_cmd.c - `stat [-e SPEC] [--json] PROG [ARGS...]`: run a built-in
 * program with counters in user mode and print what it counted, as
 * `perf stat` does.
 *
 *	ok gen=1                              counters enabled (before it ran)
 *	... the program's own output ...
 *	syscalls:u count=1001 enabled=E running=R
 *	cycles:u count=C enabled=E running=R running_pct=50.00 scaled=S
 *	exit 0 | signal SIGSEGV
 *
 * A count line is `hwperf read`'s; an event that was multiplexed (running
 * < enabled) adds the share of time it was on a counter and the scaled
 * estimate count * enabled / running.  --json prints one object instead,
 * after the program ends.  Errors: `err ENAME: reason` (JSON: "error").
 *
 * Counting starts before the program's first instruction, and that is
 * checked (counted_spawn.h): otherwise `err EBUSY` and nothing else.
 *
 * The final counts are read in the child's on_reap hook (the last moment
 * its counter set exists; hwperf's pid lookup no longer sees a zombie).
 * They include children it waited for (R17), as perf stat's do.
 *
 * The run, from counting on to the reap, is a witness interval
 * (witness.h); with the boot argument `witness` its id is printed as a
 * line `witness id=N` before the counts (JSON: "witness_id").  The boot
 * argument `countbreak=EVENT` reports one more EVENT than was counted, so
 * a test can prove the witness comparison catches a wrong count.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bootargs.h"
#include "cmd.h"
#include "counted_spawn.h"
#include "hwperf/hwperf.h"
#include "hwperf/spec.h"
#include "proc.h"
#include "stat_math.h"
#include "task.h"
#include "witness.h"

#define STAT_USAGE "stat [-e SPEC] [--json] PROG [ARGS...]"
#define SPEC_TEXT_MAX 256
#define PCT100_UNIT 100u
#define STAT_ENAME_MAX 16         /* "EINVAL" and friends */
/* Default events, most wanted first; only as many as the PMU counts at
 * once are used, so no default count is multiplexed and each is exact. */
static const char *const default_events[] = {
	"syscalls:u", "cycles:u", "faults:u", "tlb-refills:u",
};
#define N_DEFAULT_EVENTS (sizeof(default_events) / sizeof(default_events[0]))

/* The console runs one command at a time; these are too big for its stack. */
static struct {
	struct hwperf_control ctl;      /* what was asked */
	struct hwperf_control final_ctl;
	struct hwperf_counts counts;
	struct hwperf_control probe;    /* default-event checks */
	char spec[SPEC_TEXT_MAX];
	int final_gen;
	uint32_t witness_id;
	bool reaped;
} st;

struct stat_opts {
	const char *spec;               /* NULL: the defaults */
	bool json;
	int prog;                       /* argv index of PROG */
};

/* ---- options and spec ------------------------------------------------------- */

static int parse_opts(int argc, char **argv, struct stat_opts *o, const char **bad)
{
	int i = 1;

	o->spec = NULL;
	o->json = false;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--json") == 0) {
			o->json = true;
		} else if (strcmp(argv[i], "-e") == 0 && i + 1 < argc) {
			o->spec = argv[++i];
		} else {
			*bad = argv[i];
			return -EINVAL;
		}
	}
	o->prog = i;
	if (i >= argc) {
		*bad = "no program named";
		return -EINVAL;
	}
	return 0;
}

/* The default events the active PMU knows, as many as it counts at once. */
static const char *default_spec(void)
{
	const struct pmu_caps *caps = hwperf_caps();
	size_t used = 0;
	unsigned n = 0;

	st.spec[0] = '\0';
	for (size_t i = 0; i < N_DEFAULT_EVENTS && n < caps->ncounters; i++) {
		if (hwperf_spec_parse(default_events[i], caps, &st.probe, NULL) < 0)
			continue;
		used += (size_t)snprintf(st.spec + used, sizeof(st.spec) - used, "%s%s",
					 n ? "," : "", default_events[i]);
		n++;
	}
	return st.spec;
}

/* stat counts the program, in user mode: other modes would ask for
 * system-wide counting (R3), which is `hwperf sys`'s business. */
static int check_user_only(const struct hwperf_control *ctl, struct hwperf_reason *why)
{
	for (unsigned i = 0; i < HWPERF_NVCTR; i++) {
		const struct hwperf_event *ev = &ctl->ev[i];
		if ((ev->name[0] || (ev->flags & HWPERF_EV_RAW)) && ev->modes != PMU_MODE_U) {
			snprintf(why->text, sizeof(why->text), "EINVAL: stat counts the "
				 "program in user mode only; '%s' asks for more",
				 ev->name[0] ? ev->name : "raw event");
			return -EINVAL;
		}
	}
	return 0;
}

/* ---- running the program ------------------------------------------------------ */

BOOTARG(countbreak, "countbreak=EVENT: stat reports one more EVENT than counted "
	"(proves the outside witness's comparison fails, tests/system/test_witness.py)");

static bool slot_used(const struct hwperf_event *ev);

/* countbreak=EVENT: one more than was counted, in every slot of EVENT. */
static void break_count(void)
{
	const char *name = bootarg_get("countbreak");

	for (unsigned i = 0; name && i < HWPERF_NVCTR; i++)
		if (slot_used(&st.final_ctl.ev[i]) && hwperf_name_eq(st.final_ctl.ev[i].name, name))
			st.counts.count[i]++;
}

static void on_reap(struct task *t, void *arg)
{
	(void)arg;
	st.final_gen = hwperf_task_final(&t->hw, &st.final_ctl, &st.counts);
	if (st.final_gen >= 0)
		break_count();
	st.reaped = true;
}

/* ---- output ---------------------------------------------------------------------- */

static bool slot_used(const struct hwperf_event *ev)
{
	return ev->name[0] != '\0' || (ev->flags & HWPERF_EV_RAW);
}

/* "syscalls:u", "r1c0:u", with "@I=" when the event is in two slots. */
static void event_name(const struct hwperf_control *ctl, unsigned i, char *buf, size_t len)
{
	const struct hwperf_event *ev = &ctl->ev[i];
	char modes[8];
	int n = 0;

	for (unsigned j = 0; j < HWPERF_NVCTR; j++)
		if (j != i && slot_used(&ctl->ev[j]) && ctl->ev[j].modes == ev->modes &&
		    ctl->ev[j].flags == ev->flags && ctl->ev[j].code == ev->code &&
		    hwperf_name_eq(ctl->ev[j].name, ev->name))
			n = snprintf(buf, len, "@%u=", i);
	hwperf_modes_str(ev->modes, modes, sizeof(modes));
	if (ev->flags & HWPERF_EV_RAW)
		snprintf(buf + n, len - (size_t)n, "r%x:%s", (unsigned)ev->code, modes);
	else
		snprintf(buf + n, len - (size_t)n, "%s:%s", ev->name, modes);
}

static void print_text_counts(void)
{
	const struct hwperf_counts *c = &st.counts;
	char name[HWPERF_NAME_MAX + 16];

	for (unsigned i = 0; i < HWPERF_NVCTR; i++) {
		if (!slot_used(&st.final_ctl.ev[i]))
			continue;
		event_name(&st.final_ctl, i, name, sizeof(name));
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

static void print_text_end(int status)
{
	if (WIFSIGNALED(status))
		printf("signal %s\n", signal_name(WTERMSIG(status)));
	else
		printf("exit %d\n", WEXITSTATUS(status));
}

/* A JSON string: the reason texts quote with ' but may hold anything. */
static void json_str(const char *s)
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

static void print_json_event(unsigned i, bool first)
{
	const struct hwperf_counts *c = &st.counts;
	char name[HWPERF_NAME_MAX + 16];
	unsigned p = stat_running_pct100(c->running[i], c->enabled[i]);

	event_name(&st.final_ctl, i, name, sizeof(name));
	printf("%s{\"name\":", first ? "" : ",");
	json_str(name);
	printf(",\"count\":%llu,\"enabled\":%llu,\"running\":%llu,"
	       "\"running_pct\":%u.%02u,\"scaled\":%llu}",
	       (unsigned long long)c->count[i], (unsigned long long)c->enabled[i],
	       (unsigned long long)c->running[i], p / PCT100_UNIT, p % PCT100_UNIT,
	       (unsigned long long)stat_scaled(c->count[i], c->enabled[i], c->running[i]));
}

static void print_json(int pid, const char *prog, int status)
{
	bool first = true;

	printf("{\"ok\":true,\"gen\":%d,\"pid\":%d,\"prog\":", st.final_gen, pid);
	json_str(prog);
	if (witness_show())
		printf(",\"witness_id\":%u", (unsigned)st.witness_id);
	printf(",\"events\":[");
	for (unsigned i = 0; i < HWPERF_NVCTR; i++) {
		if (!slot_used(&st.final_ctl.ev[i]))
			continue;
		print_json_event(i, first);
		first = false;
	}
	if (WIFSIGNALED(status)) {
		printf("],\"signal\":");
		json_str(signal_name(WTERMSIG(status)));
		printf("}\n");
	} else {
		printf("],\"exit\":%d}\n", WEXITSTATUS(status));
	}
}

static int report_err(const struct hwperf_reason *why, bool json)
{
	if (json) {
		const char *colon = strchr(why->text, ':');
		size_t n = colon ? (size_t)(colon - why->text) : strlen(why->text);
		char ename[STAT_ENAME_MAX];

		snprintf(ename, sizeof(ename), "%.*s", (int)n, why->text);
		printf("{\"ok\":false,\"error\":");
		json_str(ename);
		printf(",\"reason\":");
		json_str(why->text);
		printf("}\n");
	} else {
		printf("err %s\n", why->text);
	}
	return CMD_ERR_REPORTED;
}

/* ---- the command ----------------------------------------------------------------- */

static int cmd_stat(int argc, char **argv)
{
	struct hwperf_reason why;
	struct stat_opts o;
	const char *bad = "";
	int status, gen;

	if (parse_opts(argc, argv, &o, &bad) < 0) {
		snprintf(why.text, sizeof(why.text), "EINVAL: %s (usage: %s)", bad, STAT_USAGE);
		return report_err(&why, o.json);
	}
	const char *spec = o.spec ? o.spec : default_spec();
	if (hwperf_spec_parse(spec, hwperf_caps(), &st.ctl, &why) < 0 ||
	    check_user_only(&st.ctl, &why) < 0)
		return report_err(&why, o.json);
	struct counted_run run = { .ctl = &st.ctl, .on_reap = on_reap };

	st.reaped = false;
	int pid = counted_spawn(argc - o.prog, argv + o.prog, &run, &gen, &why);
	if (pid < 0)
		return report_err(&why, o.json);
	st.witness_id = witness_begin();
	if (!o.json)
		printf("ok gen=%d\n", gen);
	int r = counted_wait(pid, &status);
	witness_end();
	if (r == -EINTR)
		return 0;
	if (r < 0 || !st.reaped) {
		snprintf(why.text, sizeof(why.text), "%s: waiting for pid %d failed",
			 errno_name(r < 0 ? r : -ECHILD), pid);
		return report_err(&why, o.json);
	}
	if (o.json) {
		print_json(pid, argv[o.prog], status);
	} else {
		if (witness_show())
			printf("witness id=%u\n", (unsigned)st.witness_id);
		print_text_counts();
		print_text_end(status);
	}
	return 0;
}
CONSOLE_CMD(stat, "run a program with counters and print its counts, like perf stat",
	    STAT_USAGE "\n"
	    "  -e SPEC   events (default: the PMU's soft events that fit at once,\n"
	    "            from syscalls:u,cycles:u,faults:u,tlb-refills:u); u mode only\n"
	    "  --json    one JSON object after the program ends\n"
	    "First line `ok gen=N` or `err ENAME: reason`; then the program's output;\n"
	    "then `NAME count=C enabled=E running=R [running_pct=P scaled=S]` per event\n"
	    "(the extra two when multiplexed); then `exit N` or `signal NAME`.\n"
	    "With boot argument `witness`, a line `witness id=N` (the run's interval for\n"
	    "the outside witness, tests/witness) comes before the counts.",
	    cmd_stat);
