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
 *
 * The first line is always `ok ...` or `err ...`; data lines follow.  A
 * counter's NAME is its event in spec syntax (`syscalls:uk`), with the
 * virtual counter as `@I=` in front when the same event appears twice.
 * Times are cycle-counter ticks.  Numbers are decimal.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "console/cmd.h"
#include "env.h"
#include "hwperf.h"
#include "hwperf_console.h"
#include "internal.h"
#include "pmu/soft/softpmu.h"
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
	"hwperf status                    mode, holders, generations, PMU drivers, placement\n"
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
	"hwperf soft [counters=N] [width=W]  show or change the software PMU (FREE only)\n"
	"SPEC: NAME[:ukxs][:thresh=N],...[,sig=N]; rHEX raw codes; @I=NAME for a slot\n"
	"First line: `ok gen=N`, `ok 0` or `err ENAME: reason`";

/* ---- the caller: the console is root unless `as` changed it ---------------- */

static struct hwperf_task *caller;

void hwperf_console_set_caller(struct hwperf_task *t)
{
	caller = t;
}

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

/* "cycles:u", or "@3=cycles:u" when the same event is in another slot. */
void hwperf_counter_name(const struct hwperf_control *ctl, unsigned i,
			 char *buf, size_t len)
{
	const struct hwperf_event *ev = &ctl->ev[i];
	char modes[8];
	bool dup = false;

	for (unsigned j = 0; j < HWPERF_NVCTR; j++)
		if (j != i && ev->flags == ctl->ev[j].flags && ev->code == ctl->ev[j].code &&
		    ev->modes == ctl->ev[j].modes && strcmp(ev->name, ctl->ev[j].name) == 0)
			dup = true;
	hwperf_modes_str(ev->modes, modes, sizeof(modes));
	int n = dup ? snprintf(buf, len, "@%u=", i) : 0;
	if (ev->flags & HWPERF_EV_RAW)
		snprintf(buf + n, len - (size_t)n, "r%x:%s", (unsigned)ev->code, modes);
	else
		snprintf(buf + n, len - (size_t)n, "%s:%s", ev->name, modes);
}

bool hwperf_slot_used(const struct hwperf_event *ev)
{
	return ev->name[0] != '\0' || (ev->flags & HWPERF_EV_RAW);
}

void hwperf_print_counts(const struct hwperf_control *ctl, const struct hwperf_counts *c)
{
	char name[HWPERF_NAME_MAX + 16];

	for (unsigned i = 0; i < HWPERF_NVCTR; i++) {
		if (!hwperf_slot_used(&ctl->ev[i]))
			continue;
		hwperf_counter_name(ctl, i, name, sizeof(name));
		printf("%s count=%llu enabled=%llu running=%llu\n", name,
		       (unsigned long long)c->count[i],
		       (unsigned long long)c->enabled[i],
		       (unsigned long long)c->running[i]);
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
	unsigned long f = hwperf_env_lock();

	hwperf_env_foreach(print_holder, NULL);
	if (hwperf_core.mode == HWPERF_SYSTEM)
		printf("system holder pid=%d cpus=%u\n", hwperf_core.sys_pid,
		       hwperf_env_ncpus());
	hwperf_env_unlock(f);
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

/*
 * What each CPU's PMU holds now, virtual counter -> hardware counter:
 * `events EV...` says the same for the same events in the same order.
 */
static void print_placed(void)
{
	char name[HWPERF_NAME_MAX + 16];
	unsigned long f = hwperf_env_lock();

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
	hwperf_env_unlock(f);
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
	print_invariants();
	return 0;
}

/* ---- per-task operations ------------------------------------------------------------ */

static int task_read(int pid, bool with_rusage)
{
	struct hwperf_reason why;
	int gen = with_rusage ? hwperf_read_rusage(caller, pid, &scratch.counts, &scratch.ru, &why)
			      : hwperf_read(caller, pid, &scratch.counts, &why);

	if (gen < 0)
		return report_err(&why);
	if (hwperf_get_control(caller, pid, &scratch.ctl, &why) < 0)
		memset(&scratch.ctl, 0, sizeof(scratch.ctl));
	ok_gen(gen, &why);
	hwperf_print_counts(&scratch.ctl, &scratch.counts);
	if (with_rusage)
		print_rusage(&scratch.ru);
	return 0;
}

/* pctr's PCIOCRD: everything in one read, the counts as `read` prints them. */
static int task_pctr(int pid)
{
	struct hwperf_reason why;
	int gen = hwperf_pctr_read(caller, pid, &scratch.pctr, &why);

	if (gen < 0)
		return report_err(&why);
	if (hwperf_get_control(caller, pid, &scratch.ctl, &why) < 0)
		memset(&scratch.ctl, 0, sizeof(scratch.ctl));
	ok_gen(gen, &why);
	printf("pctr cycles=%llu idle_cycles=%llu idle_iterations=%llu ncpus=%u\n",
	       (unsigned long long)scratch.pctr.cycles,
	       (unsigned long long)scratch.pctr.idle_cycles,
	       (unsigned long long)scratch.pctr.idle_iterations,
	       (unsigned)scratch.pctr.ncpus);
	hwperf_print_counts(&scratch.ctl, &scratch.pctr.counts);
	return 0;
}

static int task_op(int argc, char **argv)
{
	struct hwperf_reason why;
	const char *op = argv[0];
	int pid, child, rc;

	if (strcmp(op, "read") == 0 && (argc == 2 || (argc == 3 && strcmp(argv[1], "-r") == 0))) {
		if ((rc = parse_int(argv[argc - 1], "bad pid", &pid)) < 0)
			return rc;
		return task_read(pid, argc == 3);
	}
	if (argc < 2)
		return -EINVAL;
	if ((rc = parse_int(argv[1], "bad pid", &pid)) < 0)
		return rc;
	if (argc == 3 && (strcmp(op, "enable") == 0 || strcmp(op, "profile") == 0 ||
			  strcmp(op, "setctl") == 0)) {
		if ((rc = parse_spec(argv[2], &scratch.ctl)) < 0)
			return rc;
		if (op[0] == 'e')
			rc = hwperf_enable(caller, pid, &scratch.ctl, &why);
		else if (op[0] == 'p')
			rc = hwperf_profile_enable(caller, pid, &scratch.ctl, &why);
		else
			rc = hwperf_set_control(caller, pid, &scratch.ctl, &why);
		return ok_gen(rc, &why);
	}
	if (argc == 2 && strcmp(op, "getctl") == 0) {
		rc = hwperf_get_control(caller, pid, &scratch.ctl, &why);
		if (rc < 0)
			return report_err(&why);
		ok_gen(rc, &why);
		print_spec(&scratch.ctl);
		return 0;
	}
	if (argc == 2 && strcmp(op, "release") == 0)
		return ok_gen(hwperf_release(caller, pid, &why), &why);
	if (argc == 2 && strcmp(op, "pause") == 0)
		return ok_gen(hwperf_pause(caller, pid, &why), &why);
	if (argc == 2 && strcmp(op, "resume") == 0)
		return ok_gen(hwperf_resume(caller, pid, &why), &why);
	if (argc == 2 && strcmp(op, "reset") == 0)
		return ok_gen(hwperf_reset(caller, pid, &why), &why);
	if (argc == 2 && strcmp(op, "pctr") == 0)
		return task_pctr(pid);
	if (argc == 3 && strcmp(op, "savechild") == 0) {
		if ((rc = parse_int(argv[2], "bad child pid", &child)) < 0)
			return rc;
		if (hwperf_env_lookup(child) && hwperf_env_parent(hwperf_env_lookup(child)) &&
		    hwperf_env_pid(hwperf_env_parent(hwperf_env_lookup(child))) != pid) {
			printf("err EINVAL: pid %d is not a child of pid %d\n", child, pid);
			return CMD_ERR_REPORTED;
		}
		return ok_gen(hwperf_save_child(caller, child, &why), &why);
	}
	return -EINVAL;
}

/* ---- system operations ------------------------------------------------------------------ */

static int sys_read(int argc, char **argv)
{
	struct hwperf_reason why, ignored;
	int rc, cpu;

	if (argc == 1) {
		rc = hwperf_sys_read(caller, &scratch.counts, &why);
	} else if (argc == 3 && strcmp(argv[1], "--cpu") == 0) {
		if ((rc = parse_int(argv[2], "bad cpu", &cpu)) < 0)
			return rc;
		rc = hwperf_cpu_read(caller, cpu, &scratch.counts, &why);
		if (rc == 0) {          /* R12: 0, not a generation: no such CPU */
			printf("ok 0\n");
			return 0;
		}
	} else {
		return -EINVAL;
	}
	if (rc < 0)
		return report_err(&why);
	if (hwperf_sys_get_control(caller, &scratch.ctl, &ignored) < 0)
		memset(&scratch.ctl, 0, sizeof(scratch.ctl));
	ok_gen(rc, &why);
	hwperf_print_counts(&scratch.ctl, &scratch.counts);
	return 0;
}

static int sys_op(int argc, char **argv)
{
	struct hwperf_reason why;
	const char *op = argc > 0 ? argv[0] : "";
	int rc;

	if (strcmp(op, "read") == 0)
		return sys_read(argc, argv);
	if (argc == 1 && strcmp(op, "getctl") == 0) {
		rc = hwperf_sys_get_control(caller, &scratch.ctl, &why);
		if (rc < 0)
			return report_err(&why);
		ok_gen(rc, &why);
		print_spec(&scratch.ctl);
		return 0;
	}
	if (argc == 1 && strcmp(op, "release") == 0)
		return ok_gen(hwperf_sys_release(caller, &why), &why);
	if (argc != 2 || (strcmp(op, "enable") && strcmp(op, "force") && strcmp(op, "setctl")))
		return -EINVAL;
	if ((rc = parse_spec(argv[1], &scratch.ctl)) < 0)
		return rc;
	if (op[0] == 'e')       /* PIOCENEVCTRS for the caller, k mode: R4 */
		rc = hwperf_enable(caller, hwperf_console_pid(), &scratch.ctl, &why);
	else if (op[0] == 'f')  /* HWPERF_ENSYSCNTRS: R5 */
		rc = hwperf_sys_acquire(caller, &scratch.ctl, &why);
	else
		rc = hwperf_sys_set_control(caller, &scratch.ctl, &why);
	return ok_gen(rc, &why);
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
		rc = hwperf_soft_configure(caller, cfg.ncounters, cfg.width, &why);
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
	rc = hwperf_profile_enable(caller, pid, &scratch.ctl, &why);
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
	if (argc >= 2 && strcmp(argv[1], "soft") == 0)
		return soft_op(argc - 2, argv + 2);
	if (argc >= 3 && strcmp(argv[1], "profile") == 0 && strcmp(argv[2], "-r") == 0)
		rc = profile_records(argc - 1, argv + 1);
	else if (argc >= 2 && strcmp(argv[1], "samples") == 0)
		rc = show_samples(argc, argv);
	else if (argc >= 2 && strcmp(argv[1], "sys") == 0)
		rc = sys_op(argc - 2, argv + 2);
	else
		rc = argc >= 2 ? task_op(argc - 1, argv + 1) : -EINVAL;
	if (rc == -EINVAL) {
		printf("err EINVAL: bad hwperf command (try help hwperf)\n");
		return CMD_ERR_REPORTED;
	}
	return rc;
}

CONSOLE_CMD(hwperf, "performance counters: ownership, events, counts (first line ok/err)",
	    usage, cmd_hwperf);
