/*
 * rules_bench.c - the hwperf rules (docs/design/hwperf-semantics.md)
 * played in the kernel against the real hwperf and the active driver,
 * so `selftest` checks them wherever it runs, not only under pytest.
 *
 * Holders are spawned user programs (`nap`, which never gets to run: the
 * console outranks it and does not sleep until the end) and the console
 * itself, which is running, so its counters are live on this CPU.  Each
 * check is named for its rule; its count is what the call returned (an
 * errno as a positive number, 0 for success, a generation, a generation
 * delta) and its expectation is what the rule says:
 *
 *   R4-esrch            enable for a pid that does not exist: ESRCH
 *   R4-einval           an event with no mode bits: EINVAL
 *   R4-gen-first        first enable of a task: generation 1 (R7: a set's
 *                       generation starts at 1, so it is always positive)
 *   R4-ebusy            enable again while enabled: EBUSY
 *   R4-eperm-k          uid 100 asks for k mode on itself: EPERM
 *   R8-eperm            uid 100 in another group reads the holder: EPERM
 *   R8-pgid-ok          uid 100 in the holder's group reads it: 0
 *   R7-setctl-gen       set-control bumps the generation by exactly 1
 *   R4-ebusy-live       system-wide enable while the console's own USER
 *                       counters are live on this CPU: EBUSY
 *   R20-ebusy-names-holder  that refusal names the live holder: pid 1
 *   R5-force            forced system acquire: both USER holders lose
 *                       their counters (2 generations moved)
 *   R6-lost-gen         a holder's generation after the loss: +1
 *   R5-ebusy            forcing again while SYSTEM: EBUSY
 *   R12-cpu-read-0      reading a CPU that does not exist returns 0
 *   R7-sys-setctl-gen   system set-control bumps the system generation by 1
 *   R12-sys-release-0   system release returns 0
 *   R6-not-restarted    after the release nobody counts again: mode FREE (0)
 *   R12-sys-getctl-einval  system get-control outside SYSTEM mode: EINVAL
 *   R16-syscalls-accounted  system calls the kernel accounted to
 *                       `forktree 1` and its two children (reported)
 *   R16-fork-zero       syscalls:u of the tree == that: children start
 *                       from zero (R16) and are added once at wait (R17)
 *   R1-free-after       the PMU is FREE again afterwards (0)
 *
 * It needs the PMU FREE to start with (otherwise every check SKIPs and
 * names the holder) and leaves it FREE.  R16 counts system calls, an
 * event only the software PMU has; elsewhere those two checks SKIP.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "tools/counted_spawn.h"
#include "hwperf/spec.h"
#include "bench_task.h"
#include "proc/proc.h"
#include "proc/signal.h"
#include "proc/task.h"
#include "uabi.h"

#define USER_UID 100u
#define NO_SUCH_PID 0x7fffffff
#define NO_SUCH_CPU HWPERF_MAX_CPUS
#define NAP_MS "60000"                  /* outlives the bench; killed at the end */
#define SPEC_MAX 64
#define HOLDERS_FORCED 2                /* A and B hold USER counters at R5 */
#define FORK_SPEC "syscalls:u"

enum {
	R4_ESRCH, R4_EINVAL, R4_GEN_FIRST, R4_EBUSY, R4_EPERM_K, R8_EPERM,
	R8_PGID_OK, R7_SETCTL_GEN, R4_EBUSY_LIVE, R20_HOLDER, R5_FORCE,
	R6_LOST_GEN, R5_EBUSY, R12_CPU_READ_0, R7_SYS_SETCTL_GEN,
	R12_SYS_RELEASE_0, R6_NOT_RESTARTED, R12_GETCTL_EINVAL,
	R16_TRUTH, R16_FORK_ZERO, R1_FREE_AFTER, NCHECKS
};

/* The tasks of one run: pids, and what the scenario learnt on the way. */
struct cast {
	int a, b;               /* root holders in the console's group */
	int same;               /* uid 100, the console's group */
	int other;              /* uid 100, a group of its own */
	char event[HWPERF_NAME_MAX];
	bool sys_held;          /* we hold SYSTEM mode: release on the way out */
	bool console_held;      /* the console holds USER counters */
};

/* Large, and benchmarks run one at a time: off the stack. */
static struct hwperf_control ctl;
static struct hwperf_counts counts;
static struct {
	struct hwperf_control ctl;
	struct hwperf_counts counts;
	struct task_acct acct, child_acct;
	bool reaped;
} tree;

static uint64_t err_of(int r)
{
	return r < 0 ? (uint64_t)-r : 0;
}

/* A return value the rule fixes (0, a generation); a refusal shows as
 * its errno plus this, so it can never look like the expected value. */
#define REFUSED_BASE 1000000u
static uint64_t ret_of(int r)
{
	return r < 0 ? REFUSED_BASE + (uint64_t)-r : (uint64_t)r;
}

static struct hwperf_task *hw_of(int pid)
{
	irqflags_t f = spin_lock_irqsave(&task_table_lock);
	struct task *t = task_find(pid);

	spin_unlock_irqrestore(&task_table_lock, f);
	return t ? &t->hw : NULL;
}

/* ctl = EVENT:MODES on the active PMU; false if it does not parse. */
static bool spec(const struct cast *c, const char *modes)
{
	struct hwperf_reason why;
	char text[SPEC_MAX];

	snprintf(text, sizeof(text), "%s:%s", c->event, modes);
	if (hwperf_spec_parse(text, hwperf_caps(), &ctl, &why) == 0)
		return true;
	printf("bench: rules: %s\n", why.text);
	return false;
}

static int spawn_nap(unsigned uid, int pgid)
{
	char *argv[] = { "nap", NAP_MS, NULL };
	struct spawn_req req = { .prog = "nap", .argc = 2, .argv = argv,
				 .uid = uid, .pgid = pgid };

	return proc_spawn(&req);
}


/* ---- scenarios -------------------------------------------------------------- */

/* R4 refusals, first generation, R8; A enabled, then changed (R7). */
static void user_rules(struct cast *c, struct bench_sample *s)
{
	struct hwperf_reason why;
	int gen;

	spec(c, "u");
	s->value[R4_ESRCH] = err_of(hwperf_enable(NULL, NO_SUCH_PID, &ctl, &why));
	ctl.ev[0].modes = 0;
	s->value[R4_EINVAL] = err_of(hwperf_enable(NULL, c->a, &ctl, &why));
	spec(c, "u");
	gen = hwperf_enable(NULL, c->a, &ctl, &why);
	s->value[R4_GEN_FIRST] = ret_of(gen);
	s->value[R4_EBUSY] = err_of(hwperf_enable(NULL, c->a, &ctl, &why));
	s->value[R8_EPERM] = err_of(hwperf_read(hw_of(c->other), c->a, &counts, &why));
	s->value[R8_PGID_OK] = err_of(hwperf_read(hw_of(c->same), c->a, &counts, &why));
	spec(c, "uk");
	s->value[R4_EPERM_K] = err_of(hwperf_enable(hw_of(c->other), 0, &ctl, &why));
	spec(c, "u");
	ctl.ev[1] = ctl.ev[0];          /* a second slot: a real change */
	s->value[R7_SETCTL_GEN] = ret_of(hwperf_set_control(NULL, c->a, &ctl, &why) - gen);
}

/* Number after the first "pid " in a reason, or 0. */
static uint64_t named_pid(const char *text)
{
	const char *p = strstr(text, "pid ");
	uint64_t v = 0;

	if (!p)
		return 0;
	for (p += strlen("pid "); *p >= '0' && *p <= '9'; p++)
		v = v * 10 + (uint64_t)(*p - '0');
	return v;
}

/* R4: a system-wide enable never forces a live holder off (R20 names it). */
static void live_rule(struct cast *c, struct bench_sample *s)
{
	struct hwperf_reason why = { "" };
	int me = current_task()->pid;

	spec(c, "u");
	c->console_held = hwperf_enable(NULL, me, &ctl, &why) > 0;
	spec(c, "uk");
	s->value[R4_EBUSY_LIVE] = err_of(hwperf_enable(NULL, c->same, &ctl, &why));
	s->value[R20_HOLDER] = named_pid(why.text);
	if (c->console_held && hwperf_release(NULL, me, &why) >= 0)
		c->console_held = false;
}

/* pid's generation, read without touching the control being built. */
static int gen_of(int pid)
{
	static struct hwperf_control seen;
	struct hwperf_reason why;

	return hwperf_get_control(NULL, pid, &seen, &why);
}

/* R5 force, R6 loss, R12 reads, R7 system generation, release. */
static void system_rules(struct cast *c, struct bench_sample *s)
{
	struct hwperf_reason why;
	int ga, gb, sysgen;

	spec(c, "u");
	hwperf_enable(NULL, c->b, &ctl, &why);
	ga = gen_of(c->a);
	gb = gen_of(c->b);
	spec(c, "uk");
	sysgen = hwperf_sys_acquire(NULL, &ctl, &why);
	c->sys_held = sysgen > 0;
	s->value[R6_LOST_GEN] = ret_of(gen_of(c->a) - ga);
	s->value[R5_FORCE] = (uint64_t)(gen_of(c->a) == ga + 1) + (uint64_t)(gen_of(c->b) == gb + 1);
	s->value[R5_EBUSY] = err_of(hwperf_sys_acquire(NULL, &ctl, &why));
	s->value[R12_CPU_READ_0] = ret_of(hwperf_cpu_read(NULL, NO_SUCH_CPU, &counts, &why));
	spec(c, "uk");
	s->value[R7_SYS_SETCTL_GEN] = ret_of(hwperf_sys_set_control(NULL, &ctl, &why) - sysgen);
	int r = hwperf_sys_release(NULL, &why);
	if (r == 0)
		c->sys_held = false;
	s->value[R12_SYS_RELEASE_0] = ret_of(r);
	s->value[R6_NOT_RESTARTED] = (uint64_t)hwperf_mode();
	s->value[R12_GETCTL_EINVAL] = err_of(hwperf_sys_get_control(NULL, &ctl, &why));
}

/* ---- R16/R17: a forking program under counters -------------------------------- */

static void tree_reaped(struct task *t, void *arg)
{
	(void)arg;
	hwperf_task_final(&t->hw, &tree.ctl, &tree.counts);
	tree.acct = t->acct;
	tree.child_acct = t->child_acct;
	tree.reaped = true;
}

static int fork_rule(struct bench_sample *s)
{
	static const uint32_t bits = (1u << R16_TRUTH) | (1u << R16_FORK_ZERO);
	struct counted_run run = { .ctl = &ctl, .on_reap = tree_reaped };
	struct hwperf_reason why;
	char *argv[] = { "forktree", "1", NULL };
	int gen, status;

	if (hwperf_spec_parse(FORK_SPEC, hwperf_caps(), &ctl, &why) < 0) {
		s->skip_checks |= bits;
		snprintf(s->skip_checks_why, sizeof(s->skip_checks_why),
			 "the active PMU has no %s: %s", FORK_SPEC, why.text);
		return 0;
	}
	memset(&tree, 0, sizeof(tree));
	int pid = counted_spawn(2, argv, &run, &gen, &why);
	if (pid < 0 || proc_waitpid(pid, &status, 0, NULL) < 0 || !tree.reaped) {
		printf("bench: rules: forktree: %s\n", pid < 0 ? why.text : "not reaped");
		return pid < 0 ? pid : -ECHILD;
	}
	s->value[R16_TRUTH] = tree.acct.syscalls + tree.child_acct.syscalls;
	s->value[R16_FORK_ZERO] = tree.counts.count[0];
	return 0;
}

/* ---- the run ------------------------------------------------------------------ */

static int cast_up(struct cast *c)
{
	const struct pmu_caps *caps = hwperf_caps();
	int pg = current_task()->pgid;

	memset(c, 0, sizeof(*c));
	strlcpy(c->event, caps->tables[0]->events[0].name, sizeof(c->event));
	c->a = spawn_nap(0, pg);
	c->b = spawn_nap(0, pg);
	c->same = spawn_nap(USER_UID, pg);
	c->other = spawn_nap(USER_UID, 0);
	if (c->a < 0 || c->b < 0 || c->same < 0 || c->other < 0)
		return c->a < 0 ? c->a : c->b < 0 ? c->b : c->same < 0 ? c->same : c->other;
	return 0;
}

/* Whatever happened above, leave nothing held and nobody behind. */
static void cast_down(struct cast *c)
{
	struct hwperf_reason why;

	if (c->sys_held)
		hwperf_sys_release(NULL, &why);
	if (c->console_held)
		hwperf_release(NULL, current_task()->pid, &why);
	bench_end_task(c->a);
	bench_end_task(c->b);
	bench_end_task(c->same);
	bench_end_task(c->other);
}

static bool pmu_free(struct bench_sample *s)
{
	const struct pmu_caps *caps = hwperf_caps();

	if (!caps->ntables || !caps->tables[0]->count) {
		snprintf(s->skip, sizeof(s->skip), "no PMU driver with events is active");
		return false;
	}
	if (hwperf_mode() == HWPERF_FREE)
		return true;
	snprintf(s->skip, sizeof(s->skip), "the PMU is not FREE (mode %s): see hwperf status",
		 hwperf_mode_name(hwperf_mode()));
	return false;
}

static int measure(uint64_t n, struct bench_sample *s)
{
	static struct cast c;

	(void)n;
	if (!pmu_free(s))
		return 0;
	int r = cast_up(&c);
	if (r == 0) {
		user_rules(&c, s);
		live_rule(&c, s);
		system_rules(&c, s);
	}
	cast_down(&c);
	if (r == 0)
		r = fork_rule(s);
	s->value[R1_FREE_AFTER] = (uint64_t)hwperf_mode();
	return r;
}

#define IS(nm, v) { .name = nm, .kind = BENCH_EXACT, .extra = (v) }

static const struct bench rules_bench = {
	.name = "rules",
	.desc = "hwperf rules R1..R20 played in the kernel on the active PMU",
	.default_n = 1,
	.nchecks = NCHECKS,
	.checks = {
		[R4_ESRCH] = IS("R4-esrch", ESRCH),
		[R4_EINVAL] = IS("R4-einval", EINVAL),
		[R4_GEN_FIRST] = IS("R4-gen-first", 1),
		[R4_EBUSY] = IS("R4-ebusy", EBUSY),
		[R4_EPERM_K] = IS("R4-eperm-k", EPERM),
		[R8_EPERM] = IS("R8-eperm", EPERM),
		[R8_PGID_OK] = IS("R8-pgid-ok", 0),
		[R7_SETCTL_GEN] = IS("R7-setctl-gen", 1),
		[R4_EBUSY_LIVE] = IS("R4-ebusy-live", EBUSY),
		[R20_HOLDER] = IS("R20-ebusy-names-holder", PID_CONSOLE),
		[R5_FORCE] = IS("R5-force", HOLDERS_FORCED),
		[R6_LOST_GEN] = IS("R6-lost-gen", 1),
		[R5_EBUSY] = IS("R5-ebusy", EBUSY),
		[R12_CPU_READ_0] = IS("R12-cpu-read-0", 0),
		[R7_SYS_SETCTL_GEN] = IS("R7-sys-setctl-gen", 1),
		[R12_SYS_RELEASE_0] = IS("R12-sys-release-0", 0),
		[R6_NOT_RESTARTED] = IS("R6-not-restarted", HWPERF_FREE),
		[R12_GETCTL_EINVAL] = IS("R12-sys-getctl-einval", EINVAL),
		[R16_TRUTH] = { .name = "R16-syscalls-accounted", .kind = BENCH_NOTE },
		[R16_FORK_ZERO] = { .name = "R16-fork-zero", .kind = BENCH_SAME,
				    .ratio_of = R16_TRUTH },
		[R1_FREE_AFTER] = IS("R1-free-after", HWPERF_FREE),
	},
	.measure = measure,
	.subtract_zero_run = false,
};
BENCH(rules, &rules_bench);
