/*
 * cmd.c - the `hwperf` console command: every hwperf operation, run as the
 * console's caller (root, unless `as UID` says otherwise), in one
 * parseable format (issue 4):
 *
 *	ok gen=3                       success and the generation it returns
 *	ok 0                           success where the rule returns 0
 *	err EBUSY: pid 7 holds ...     refusal: errno name and why (R20)
 *	cycles:u count=1234 enabled=5000 running=2500
 *	placed cpu=0 pid=7 counter=1 hw=0 event=loads:u   (status: on the PMU now)
 *	kevents cpu=1 kinds=cycles,syscalls   (status: what CPU 1's hooks pass on)
 *
 * The first line is always `ok ...` or `err ...`; data lines follow.  A
 * counter's NAME is its event in spec syntax (`syscalls:uk`), with the
 * virtual counter as `@I=` in front when the same event appears twice.
 * Times are cycle-counter ticks.  Numbers are decimal.
 *
 * The operations the system call also offers are the rows of ops.c's
 * table: their words are matched there and their handlers are the system
 * call's; this file only parses the words into the call and prints the
 * answer (count lines through format.c).  `status`, `parse`, `soft`,
 * `samples` and `profile -r` are the console's own.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console/cmd.h"
#include "env.h"
#include "format.h"
#include "hwperf.h"
#include "hwperf_console.h"
#include "internal.h"
#include "ops.h"
#include "pmu/soft/softpmu.h"
#include "pmu_kevent.h"
#include "tools/prof_sample.h"
#include "spec.h"

#define SPEC_TEXT_MAX 1024
#define PROBE_LINES_MAX 16

/*
 * The shell runs one command at a time, and these are too big for a
 * one-page kernel stack, so they live here.
 */
static struct {
	struct hwperf_control ctl;
	struct hwperf_counts counts;
	struct hwperf_pctr pctr;
	struct hwperf_rusage ru;
	char text[SPEC_TEXT_MAX];
} scratch;

static const char usage[] =
	"hwperf status                    mode, holders, generations, PMU drivers, placement,\n"
	"                                 each CPU's kernel events (kevents)\n"
	"hwperf enable PID SPEC           start counting for task PID (k mode: system-wide)\n"
	"hwperf profile PID SPEC          count, and profile the user PC at each threshold\n"
	"hwperf profile -r N PID SPEC     ... keeping one sample record per hit (ring of N)\n"
	"hwperf samples [--json]          the records of the last profile -r, so far\n"
	"hwperf read [-r] PID             counts of PID (-r: with resource usage)\n"
	"hwperf getctl PID                PID's events, in spec syntax\n"
	"hwperf setctl PID SPEC           change PID's events (bumps its generation)\n"
	"hwperf release PID               stop counting for PID; counts stay readable\n"
	"hwperf savechild PID CHILD       CHILD's counts go to its parent PID at exit\n"
	"hwperf pause PID                 stop PID's counting, keep its counters (gen kept)\n"
	"hwperf resume PID                count again from the paused values (gen kept)\n"
	"hwperf reset PID                 PID's counts and times to 0 (bumps its gen)\n"
	"hwperf pctr PID                  counts, cycle counter and idle count in one read\n"
	"hwperf sys enable SPEC           system-wide counting; EBUSY if USER counters are live\n"
	"hwperf sys force SPEC            take SYSTEM mode from every USER holder (root)\n"
	"hwperf sys read [--cpu N]        system counts, all CPUs added, or CPU N's\n"
	"hwperf sys getctl                SYSTEM events (EINVAL unless in SYSTEM mode)\n"
	"hwperf sys setctl SPEC           change SYSTEM events (root)\n"
	"hwperf sys release               leave SYSTEM mode (root)\n"
	"hwperf parse SPEC                check SPEC, print it back\n"
	"hwperf ops                       the operation table: SYS_hwperf op numbers, console\n"
	"                                 words, arguments, and who may ask\n"
	"hwperf soft [counters=N] [width=W]  show or change the software PMU (FREE only)\n"
	"SPEC: NAME[:ukxs][:thresh=N],...[,sig=N]; rHEX raw codes; @I=NAME for a slot\n"
	"First line: `ok gen=N`, `ok 0` or `err ENAME: reason`";

/* ---- output ------------------------------------------------------------------ */

static int report_err(const struct hwperf_reason *why)
{
	printf("err %s\n", why->text);
	return CMD_ERR_REPORTED;
}

static int report_bad(int err, const char *what, const char *arg)
{
	printf("err %s: %s '%s'\n", errno_name(err), what, arg);
	return CMD_ERR_REPORTED;
}

static int ok_gen(int rc, const struct hwperf_reason *why)
{
	if (rc < 0)
		return report_err(why);
	if (rc == 0)
		printf("ok 0\n");
	else
		printf("ok gen=%d\n", rc);
	return 0;
}

/* One `NAME count=C enabled=E running=R` line per counter in use. */
static void print_counts(const struct hwperf_control *ctl, const struct hwperf_counts *c)
{
	static const struct hwperf_count_fmt kv = { .form = HWPERF_FORM_KV };
	char name[HWPERF_COUNTER_NAME_MAX], line[HWPERF_COUNT_LINE_MAX];

	for (unsigned i = 0; i < HWPERF_NVCTR; i++) {
		if (!hwperf_slot_used(&ctl->ev[i]))
			continue;
		hwperf_counter_name(ctl, i, name, sizeof(name));
		struct hwperf_count_row row = {
			.name = name, .count = c->count[i], .enabled = c->enabled[i],
			.running = c->running[i],
		};
		hwperf_count_line(line, sizeof(line), &row, &kv);
		printf("%s\n", line);
	}
}

static void print_rusage(const struct hwperf_rusage *ru)
{
	printf("rusage utime_ns=%llu stime_ns=%llu utime_cycles=%llu stime_cycles=%llu "
	       "faults=%llu tlb_refills=%llu signals=%llu vcsw=%llu ivcsw=%llu syscalls=%llu\n",
	       (unsigned long long)ru->utime_ns, (unsigned long long)ru->stime_ns,
	       (unsigned long long)ru->utime_cycles, (unsigned long long)ru->stime_cycles,
	       (unsigned long long)ru->faults, (unsigned long long)ru->tlb_refills,
	       (unsigned long long)ru->signals, (unsigned long long)ru->vcsw,
	       (unsigned long long)ru->ivcsw, (unsigned long long)ru->syscalls);
}

static void print_spec(const struct hwperf_control *ctl)
{
	hwperf_spec_format(ctl, scratch.text, sizeof(scratch.text));
	printf("spec %s\n", scratch.text);
}

/* ---- argument parsing ---------------------------------------------------------- */

static int parse_int(const char *s, const char *what, int *out)
{
	int64_t v = 0;

	if (parse_i64(s, 0, &v) < 0 || v < 0 || v > INT32_MAX)
		return report_bad(EINVAL, what, s);
	*out = (int)v;
	return 0;
}

static int parse_spec(const char *spec, struct hwperf_control *ctl)
{
	struct hwperf_reason why;

	if (hwperf_spec_parse(spec, hwperf_caps(), ctl, &why) < 0)
		return report_err(&why);
	return 0;
}

/* ---- hwperf status ---------------------------------------------------------------- */

/* Every task that holds counters, or held them until SYSTEM mode took
 * them (R6): both are what a person asking "who has the PMU" needs. */
static void print_holder(struct hwperf_task *h, void *arg)
{
	(void)arg;
	if (!(h->flags & (HWPERF_TF_ENABLED | HWPERF_TF_LOST)))
		return;
	printf("holder pid=%d cpu=%d gen=%u lost=%d\n", hwperf_env_pid(h),
	       hwperf_env_task_cpu(h), (unsigned)h->set.gen,
	       (h->flags & HWPERF_TF_LOST) ? 1 : 0);
}

static void print_holders(void)
{
	unsigned cpu = hwperf_env_this_cpu();
	unsigned long f = hwperf_lock(cpu);

	hwperf_env_foreach(print_holder, NULL);
	if (hwperf_core.mode == HWPERF_SYSTEM)
		printf("system holder pid=%d cpus=%u\n", hwperf_core.sys_pid,
		       hwperf_env_ncpus());
	hwperf_unlock(cpu, f);
}

/* The reads checked against the invariants so far (invariant.c). */
static void print_invariants(void)
{
	struct hwperf_inv_report inv;

	hwperf_invariants(&inv);
	printf("invariants reads=%llu violations=%llu%s%s\n",
	       (unsigned long long)inv.reads, (unsigned long long)inv.violations,
	       inv.violations ? " first=" : "", inv.violations ? inv.first : "");
}

/* Cross-calls to other CPUs' PMUs so far (xcall.c): run, run from a
 * waiting CPU's poll rather than its IPI, given up (ETIMEDOUT), and
 * rung again after the target refused a ring as busy. */
static void print_xcalls(void)
{
	printf("xcalls served=%u polled=%u timeouts=%u rerung=%u\n",
	       (unsigned)__atomic_load_n(&hwperf_xcall_stats.served, __ATOMIC_RELAXED),
	       (unsigned)__atomic_load_n(&hwperf_xcall_stats.polled, __ATOMIC_RELAXED),
	       (unsigned)__atomic_load_n(&hwperf_xcall_stats.timeouts, __ATOMIC_RELAXED),
	       (unsigned)__atomic_load_n(&hwperf_xcall_stats.rerung, __ATOMIC_RELAXED));
}

/*
 * What each CPU's PMU holds now, virtual counter -> hardware counter:
 * `events EV...` says the same for the same events in the same order.
 */
static void print_placed(void)
{
	char name[HWPERF_COUNTER_NAME_MAX];
	unsigned me = hwperf_env_this_cpu();
	unsigned long f = hwperf_lock(me);

	for (unsigned cpu = 0; cpu < hwperf_env_ncpus(); cpu++) {
		const struct hwperf_cpu *c = &hwperf_core.cpu[cpu];
		const struct hwperf_set *s = c->loaded;
		int pid = c->task ? hwperf_env_pid(c->task) : hwperf_core.sys_pid;

		for (unsigned k = 0; s && k < s->pst.ctl.n; k++) {
			hwperf_counter_name(&s->ctl, s->slot_vctr[k], name, sizeof(name));
			printf("placed cpu=%u pid=%d counter=%u hw=%u event=%s\n", cpu,
			       pid, (unsigned)s->slot_vctr[k],
			       (unsigned)s->pst.ctl.ctr[k].hw, name);
		}
	}
	hwperf_unlock(me, f);
}

/*
 * The kernel events each CPU's hooks pass on (pmu_kevent.h), from what
 * its loaded counters count: which CPUs pay for the counting, and which
 * ones run the bare paths.
 */
static void print_kevents(void)
{
	char names[128];

	for (unsigned cpu = 0; cpu < hwperf_env_ncpus(); cpu++) {
		uint32_t kinds = pmu_kevents_of(cpu);
		size_t len = 0;

		names[0] = '\0';
		for (unsigned k = 0; k < PMU_KEV_COUNT && len < sizeof(names); k++) {
			if (kinds & PMU_KEV_BIT(k))
				len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s",
							len ? "," : "", pmu_kevent_name(k));
		}
		/* One printf a line: another CPU's output never splits it. */
		printf("kevents cpu=%u kinds=%s\n", cpu, kinds ? names : "none");
	}
}

static int show_status(void)
{
	const struct pmu_caps *caps = hwperf_caps();
	const char *lines[PROBE_LINES_MAX];
	unsigned n = hwperf_probe_lines(lines, PROBE_LINES_MAX);

	printf("ok gen=%u\n", (unsigned)hwperf_core.sys.gen);
	printf("mode %s\n", hwperf_mode_name(hwperf_mode()));
	printf("sysgen %u\n", (unsigned)hwperf_core.sys.gen);
	printf("driver %s counters=%u width=%u counts=%d\n", caps->name, caps->ncounters,
	       caps->ncounters ? caps->counter[0].width : 0, caps->counts ? 1 : 0);
	for (unsigned i = 0; i < n; i++)
		printf("pmu %s\n", lines[i]);
	print_holders();
	print_placed();
	print_kevents();
	print_invariants();
	print_xcalls();
	return 0;
}

/* ---- the operations of the table (ops.c), from words --------------------------------- */

/* `savechild PID CHILD`: CHILD must be PID's child, as far as the console
 * can tell (a task hwperf does not know is left to it to refuse). */
static int parse_child(int pid, const char *word, int *child)
{
	struct hwperf_task *t, *parent;
	int rc;

	if ((rc = parse_int(word, "bad child pid", child)) < 0)
		return rc;
	t = hwperf_env_lookup(*child);
	parent = t ? hwperf_env_parent(t) : NULL;
	if (parent && hwperf_env_pid(parent) != pid) {
		printf("err EINVAL: pid %d is not a child of pid %d\n", *child, pid);
		return CMD_ERR_REPORTED;
	}
	return 0;
}

/* The words after the op's name into the call: a task's pid is read
 * before the number of words is checked, then the rest in order. */
static int parse_call(const struct hwperf_op *d, bool self, int argc, char **argv,
		      struct hwperf_call *c)
{
	int want = hwperf_op_arg_words(d, self), rc;
	bool task = !self && (d->id == HWPERF_ID_PID || d->id == HWPERF_ID_CHILD);

	if (self)
		c->id = hwperf_console_pid();
	if (task && (argc < 1 || (rc = parse_int(argv[0], "bad pid", &c->id)) < 0))
		return argc < 1 ? -EINVAL : rc;
	if (argc != want)
		return -EINVAL;
	if (!self && d->id == HWPERF_ID_CPU && (rc = parse_int(argv[0], "bad cpu", &c->id)) < 0)
		return rc;
	if (!self && d->id == HWPERF_ID_CHILD && (rc = parse_child(c->id, argv[1], &c->id)) < 0)
		return rc;
	if (d->arg == HWPERF_ARG_CTL_IN && (rc = parse_spec(argv[want - 1], c->ctl)) < 0)
		return rc;
	return 0;
}

/* Counts are named by the events that made them: the task's control, or
 * the system's. */
static void counts_control(const struct hwperf_op *d, struct hwperf_call *c)
{
	struct hwperf_reason ignored;
	const struct hwperf_op *get = hwperf_op_get(d->id == HWPERF_ID_PID
						    ? HWPERF_OP_GET_CONTROL
						    : HWPERF_OP_SYS_GET_CONTROL);

	if (get->run(c, &ignored) < 0)
		memset(c->ctl, 0, sizeof(*c->ctl));
}

/* What the op answered, by what it gives back. */
static int print_result(const struct hwperf_op *d, struct hwperf_call *c, int rc,
			const struct hwperf_reason *why)
{
	if (d->arg == HWPERF_ARG_NONE || d->arg == HWPERF_ARG_CTL_IN)
		return ok_gen(rc, why);
	if (d->id == HWPERF_ID_CPU && rc == 0) {        /* R12: 0, not a generation: no such CPU */
		printf("ok 0\n");
		return 0;
	}
	if (rc < 0)
		return report_err(why);
	if (d->arg == HWPERF_ARG_CTL_OUT) {
		ok_gen(rc, why);
		print_spec(c->ctl);
		return 0;
	}
	counts_control(d, c);
	ok_gen(rc, why);
	if (d->arg == HWPERF_ARG_PCTR_OUT) {
		printf("pctr cycles=%llu idle_cycles=%llu idle_iterations=%llu ncpus=%u\n",
		       (unsigned long long)c->pctr->cycles,
		       (unsigned long long)c->pctr->idle_cycles,
		       (unsigned long long)c->pctr->idle_iterations,
		       (unsigned)c->pctr->ncpus);
		print_counts(c->ctl, &c->pctr->counts);
		return 0;
	}
	print_counts(c->ctl, c->counts);
	if (d->arg == HWPERF_ARG_COUNTS_RU)
		print_rusage(c->ru);
	return 0;
}

/* A word that names no operation: as ever, with a word after it that
 * word is read as a pid first (`hwperf frob x` says the pid is bad). */
static int no_such_op(int argc, char **argv)
{
	int pid, rc;

	if (argc >= 2 && strcmp(argv[0], "sys") != 0 &&
	    (rc = parse_int(argv[1], "bad pid", &pid)) < 0)
		return rc;
	return -EINVAL;
}

static int table_op(int argc, char **argv)
{
	struct hwperf_call c = {
		.caller = hwperf_console_caller(), .ctl = &scratch.ctl,
		.counts = &scratch.counts, .ru = &scratch.ru, .pctr = &scratch.pctr,
	};
	struct hwperf_reason why;
	bool self;
	int words, rc;
	int op = hwperf_op_match(argc, argv, &self, &words);

	if (op < 0)
		return no_such_op(argc, argv);
	const struct hwperf_op *d = hwperf_op_get((uintptr_t)op);
	if ((rc = parse_call(d, self, argc - words, argv + words, &c)) < 0)
		return rc;
	rc = d->run(&c, &why);
	return print_result(d, &c, rc, &why);
}

/* ---- hwperf soft: the software PMU's shape ------------------------------------------ */

static void print_soft(void)
{
	struct softpmu_config cfg;

	softpmu_get_config(&cfg);
	printf("soft counters=%u width=%u\n", cfg.ncounters, cfg.width);
}

/* KEY=NUMBER into *out; the console's words are trusted for nothing. */
static int parse_soft_arg(const char *arg, const char *key, unsigned *out, bool *seen)
{
	size_t klen = strlen(key);
	uint64_t v;

	if (strncmp(arg, key, klen) != 0 || arg[klen] != '=')
		return 1;               /* not this key */
	if (*seen || parse_u64(arg + klen + 1, 0, &v) < 0 || v > UINT32_MAX)
		return report_bad(EINVAL, "bad or repeated argument", arg);
	*out = (unsigned)v;
	*seen = true;
	return 0;
}

static int soft_op(int argc, char **argv)
{
	struct softpmu_config cfg;
	struct hwperf_reason why;
	bool seen_n = false, seen_w = false;
	int rc;

	softpmu_get_config(&cfg);
	for (int i = 0; i < argc; i++) {
		rc = parse_soft_arg(argv[i], "counters", &cfg.ncounters, &seen_n);
		if (rc > 0)
			rc = parse_soft_arg(argv[i], "width", &cfg.width, &seen_w);
		if (rc > 0)
			return report_bad(EINVAL, "expected counters=N or width=W, not", argv[i]);
		if (rc < 0)
			return rc;
	}
	if (argc > 0) {
		rc = hwperf_soft_configure(hwperf_console_caller(), cfg.ncounters,
					   cfg.width, &why);
		if (rc < 0)
			return report_err(&why);
	}
	printf("ok 0\n");
	print_soft();
	return 0;
}

/*
 * `hwperf profile -r N PID SPEC`: the console's record ring goes to PID
 * (taken back from the task that had it), then profiling starts as
 * `hwperf profile` does.  A refused enable takes the ring back.
 */
static int profile_records(int argc, char **argv)
{
	struct hwperf_reason why;
	uint64_t n;
	int pid, rc;

	if (argc != 5)
		return -EINVAL;
	if (parse_u64(argv[2], 0, &n) < 0 || n < PROF_RING_MIN || n > PROF_RING_MAX)
		return report_bad(EINVAL, "ring size must be 1..2048, not", argv[2]);
	if ((rc = parse_int(argv[3], "bad pid", &pid)) < 0 ||
	    (rc = parse_spec(argv[4], &scratch.ctl)) < 0)
		return rc;
	if (prof_console_arm(pid, (uint32_t)n, &scratch.ctl, &why) < 0)
		return report_err(&why);
	rc = hwperf_op_get(HWPERF_OP_PROFILE)->run(&(struct hwperf_call){
		.caller = hwperf_console_caller(), .id = pid, .ctl = &scratch.ctl }, &why);
	if (rc < 0)
		prof_console_disarm();
	return ok_gen(rc, &why);
}

static int show_samples(int argc, char **argv)
{
	bool json = argc == 3 && strcmp(argv[2], "--json") == 0;

	if (argc > 3 || (argc == 3 && !json))
		return -EINVAL;
	printf("ok 0\n");
	if (prof_console_print(json) == -ENOENT)
		printf("samples none (use hwperf profile -r N PID SPEC)\n");
	return 0;
}

/* ---- hwperf ops: the table both doors use, for people and for scripts ---- */

static const char *const arg_names[] = {
	[HWPERF_ARG_NONE] = "none", [HWPERF_ARG_CTL_IN] = "ctl-in",
	[HWPERF_ARG_CTL_OUT] = "ctl-out", [HWPERF_ARG_COUNTS_OUT] = "counts-out",
	[HWPERF_ARG_COUNTS_RU] = "counts-rusage-out", [HWPERF_ARG_PCTR_OUT] = "pctr-out",
};
static const char *const id_names[] = {
	[HWPERF_ID_PID] = "pid", [HWPERF_ID_CHILD] = "child",
	[HWPERF_ID_CPU] = "cpu", [HWPERF_ID_ZERO] = "none",
};
static const char *const perm_names[] = {
	[HWPERF_PERM_TARGET] = "target", [HWPERF_PERM_MODES] = "target+root-for-kxs",
	[HWPERF_PERM_PARENT] = "target+parent", [HWPERF_PERM_ROOT] = "root",
	[HWPERF_PERM_ANY] = "any",
};

_Static_assert(sizeof(arg_names) / sizeof(arg_names[0]) == HWPERF_ARG_PCTR_OUT + 1,
	       "a name for every argument kind");
_Static_assert(sizeof(id_names) / sizeof(id_names[0]) == HWPERF_ID_ZERO + 1,
	       "a name for every id kind");
_Static_assert(sizeof(perm_names) / sizeof(perm_names[0]) == HWPERF_PERM_ANY + 1,
	       "a name for every permission");

static int show_ops(void)
{
	printf("ok 0\n");
	for (int op = 0; op < HWPERF_OP_COUNT; op++) {
		const struct hwperf_op *d = hwperf_op_get((uintptr_t)op);

		printf("op %d console=\"%s\"", op, d->name ? d->name : "");
		if (d->self_name)
			printf(" self=\"%s\"", d->self_name);
		printf(" id=%s arg=%s perm=%s\n", id_names[d->id], arg_names[d->arg],
		       perm_names[d->perm]);
	}
	return 0;
}

static int cmd_hwperf(int argc, char **argv)
{
	int rc;

	if (argc == 1 || (argc == 2 && strcmp(argv[1], "status") == 0))
		return show_status();
	if (argc == 3 && strcmp(argv[1], "parse") == 0) {
		if ((rc = parse_spec(argv[2], &scratch.ctl)) < 0)
			return rc;
		printf("ok 0\n");
		print_spec(&scratch.ctl);
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "ops") == 0)
		return show_ops();
	if (argc >= 2 && strcmp(argv[1], "soft") == 0)
		return soft_op(argc - 2, argv + 2);
	if (argc >= 3 && strcmp(argv[1], "profile") == 0 && strcmp(argv[2], "-r") == 0)
		rc = profile_records(argc - 1, argv + 1);
	else if (argc >= 2 && strcmp(argv[1], "samples") == 0)
		rc = show_samples(argc, argv);
	else
		rc = table_op(argc - 1, argv + 1);
	if (rc == -EINVAL) {
		printf("err EINVAL: bad hwperf command (try help hwperf)\n");
		return CMD_ERR_REPORTED;
	}
	return rc;
}

CONSOLE_CMD(hwperf, "performance counters: ownership, events, counts (first line ok/err)",
	    usage, cmd_hwperf);
