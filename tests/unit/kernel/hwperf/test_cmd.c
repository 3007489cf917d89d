/*
 * Host tests of kernel/hwperf/cmd.c: the `hwperf` console command and its
 * parseable output.  The command file is included whole, with printf
 * pointed at a buffer, so its static handler can be called and its output
 * read back.
 */
#include "hwperf_test.h"

#define OUT_MAX 4096

static char out[OUT_MAX];
static size_t out_len;

__attribute__((format(printf, 1, 2)))
static int capture(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out + out_len, sizeof(out) - out_len, fmt, ap);
	va_end(ap);
	if (n > 0)
		out_len += (size_t)n < sizeof(out) - out_len ?
		           (size_t)n : sizeof(out) - out_len - 1;
	return n;
}

/* Headers with printf-format attributes come in before printf is renamed. */
#include "kernel/hwperf/internal.h"
#include "kernel/hwperf/hwperf_console.h"
#include "kernel/hwperf/env.h"
#include "kernel/hwperf/spec.h"
#include "console/cmd.h"
#define printf capture
#include "kernel/hwperf/cmd.c"
#undef printf

static struct fake_task *a, *b;

/* The console's own task in these tests: hwperf sys enable targets it. */
int hwperf_console_pid(void)
{
	return 1;
}

/* Who the console is (console_identity.c is kernel-only): root (NULL)
 * unless a test plays `as UID` by naming a task. */
static struct hwperf_task *console_as;

struct hwperf_task *hwperf_console_caller(void)
{
	return console_as;
}

/* HWPERF_OP_MAP's handler is the system call's (it maps a page); the
 * console has no words for it. */
int hwperf_op_map(const struct hwperf_call *c, struct hwperf_reason *why)
{
	(void)c;
	(void)why;
	fail_msg("the console reached HWPERF_OP_MAP");
	return -EINVAL;
}

/* kernel/tools/prof_sample.c is kernel-only (task table, pages): the console
 * ring's calls are recorded here, and answer what a test sets. */
static struct {
	int arm_calls, arm_pid, arm_rc, disarm_calls, print_calls, print_rc;
	uint32_t arm_n;
	bool print_json;
} ring;

int prof_console_arm(int pid, uint32_t n, const struct hwperf_control *ctl,
                     struct hwperf_reason *why)
{
	(void)ctl;
	ring.arm_calls++;
	ring.arm_pid = pid;
	ring.arm_n = n;
	if (ring.arm_rc < 0)
		snprintf(why->text, sizeof(why->text), "ESRCH: no user task with pid %d", pid);
	return ring.arm_rc;
}

void prof_console_disarm(void)
{
	ring.disarm_calls++;
}

int prof_console_print(bool json)
{
	ring.print_calls++;
	ring.print_json = json;
	return ring.print_rc;
}

/* boot.c is kernel-only; status prints no probe lines here. */
unsigned hwperf_probe_lines(const char **lines, unsigned max)
{
	(void)lines;
	(void)max;
	return 0;
}

static int run(const char *line)
{
	char buf[256], *argv[CMD_ARGV_MAX];
	int argc = 0;

	strncpy(buf, line, sizeof(buf) - 1);
	buf[sizeof(buf) - 1] = '\0';
	for (char *p = strtok(buf, " "); p && argc < CMD_ARGV_MAX - 1;
	     p = strtok(NULL, " "))
		argv[argc++] = p;
	argv[argc] = NULL;
	out_len = 0;
	out[0] = '\0';
	return cmd_hwperf(argc, argv);
}

static void has(const char *needle)
{
	if (!strstr(out, needle))
		fail_msg("output lacks '%s':\n%s", needle, out);
}

/* Every hwperf command's first line is `ok ...` or `err ...` (issue 4). */
static void first_line(const char *want)
{
	size_t n = strlen(want);
	if (strncmp(out, want, n) != 0)
		fail_msg("first line does not start '%s':\n%s", want, out);
}

static int setup(void **state)
{
	(void)state;
	hwt_setup(2);
	fake_spawn(1, 0, 1, 0);                 /* the console, root */
	a = fake_spawn(10, USER_UID, 10, 1);
	b = fake_spawn(11, USER_UID, 10, 10);
	fake_run(0, a);
	memset(&ring, 0, sizeof(ring));
	console_as = NULL;
	return 0;
}

static void test_cmd_status(void **state)
{
	(void)state;
	assert_int_equal(run("hwperf status"), 0);
	first_line("ok gen=");
	has("mode FREE\n");
	has("driver fake counters=2 width=32 counts=1\n");
	assert_int_equal(run("hwperf enable 10 cycles"), 0);
	assert_int_equal(run("hwperf"), 0);
	has("mode USER\n");
	has("holder pid=10 cpu=0 gen=1 lost=0\n");
	assert_int_equal(run("hwperf parse cycles:uk,sig=3"), 0);
	first_line("ok 0");
	has("spec @0=cycles:uk,sig=3\n");
}

/* Status shows where each virtual counter sits, as the engine of
 * kernel/events/place.h put it: loads (counter 0 only) before cycles. */
static void test_cmd_status_shows_placement(void **state)
{
	(void)state;
	assert_int_equal(run("hwperf enable 10 cycles,loads"), 0);
	fake_tick(0);
	assert_int_equal(run("hwperf status"), 0);
	has("\nplaced cpu=0 pid=10 counter=1 hw=0 event=loads:u\n");
	has("\nplaced cpu=0 pid=10 counter=0 hw=1 event=cycles:u\n");
	assert_int_equal(run("hwperf sys force @0=stores:k,@1=stores:k"), 0);
	fake_tick(0);
	fake_tick(1);
	assert_int_equal(run("hwperf status"), 0);
	assert_null(strstr(out, "placed cpu=0 pid=10 "));
	has("\nplaced cpu=0 pid=-1 counter=0 hw=1 event=@0=stores:k\n");
	has("\nplaced cpu=1 pid=-1 counter=0 hw=1 event=@0=stores:k\n");
	assert_null(strstr(out, "counter=1 hw="));
}

/* Status names the kernel events each CPU's hooks pass on (the driver's
 * word per CPU, pmu_kevent.h), in the kinds' order; none says so. */
static void test_cmd_status_shows_each_cpus_kevents(void **state)
{
	(void)state;
	assert_int_equal(run("hwperf status"), 0);
	has("\nkevents cpu=0 kinds=none\n");
	has("\nkevents cpu=1 kinds=none\n");
	pmu_kevents_want(1, PMU_KEV_BIT(PMU_KEV_SYSCALLS) | PMU_KEV_BIT(PMU_KEV_CYCLES) |
			 PMU_KEV_BIT(PMU_KEV_SIGNALS));
	assert_int_equal(run("hwperf status"), 0);
	has("\nkevents cpu=0 kinds=none\n");
	has("\nkevents cpu=1 kinds=cycles,syscalls,signals\n");
	pmu_kevents_want(1, 0);
}

static void test_cmd_task_lifecycle_prints_counts(void **state)
{
	(void)state;
	assert_int_equal(run("hwperf enable 10 instructions,@4=branches:u:thresh=9"), 0);
	first_line("ok gen=1\n");
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 42);
	fakepmu_clock += 500;
	assert_int_equal(run("hwperf read 10"), 0);
	first_line("ok gen=1");
	has("\ninstructions:u count=42 enabled=500 running=500\n");
	has("\nbranches:u count=0 enabled=500 running=500\n");
	assert_int_equal(run("hwperf getctl 10"), 0);
	first_line("ok gen=1");
	has("spec @0=instructions:u,@4=branches:u:thresh=9,sig=0");
	assert_int_equal(run("hwperf setctl 10 misses"), 0);
	first_line("ok gen=2");
	assert_int_equal(run("hwperf read -r 10"), 0);
	first_line("ok gen=2");
	has("rusage utime_ns=0 ");
	assert_int_equal(run("hwperf release 10"), 0);
	assert_int_equal(run("hwperf release 10"), CMD_ERR_REPORTED);
	first_line("err EINVAL");
	has("err EINVAL: pid 10 has no counters to release\n");
}

static void test_cmd_pause_resume_reset_pctr(void **state)
{
	(void)state;
	assert_int_equal(run("hwperf enable 10 instructions"), 0);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 42);
	assert_int_equal(run("hwperf pause 10"), 0);
	first_line("ok gen=1\n");
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 1000);
	assert_int_equal(run("hwperf read 10"), 0);
	has("\ninstructions:u count=42 ");
	assert_int_equal(run("hwperf resume 10"), 0);
	first_line("ok gen=1\n");
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 1);
	assert_int_equal(run("hwperf read 10"), 0);
	has("\ninstructions:u count=43 ");
	assert_int_equal(run("hwperf reset 10"), 0);
	first_line("ok gen=2\n");
	fake_cycles = 5000;
	fake_idle_cycles = 1200;
	fake_idle_iterations = 7;
	assert_int_equal(run("hwperf pctr 10"), 0);
	first_line("ok gen=2\n");
	has("\npctr cycles=5000 idle_cycles=1200 idle_iterations=7 ncpus=2\n");
	has("\ninstructions:u count=0 enabled=0 running=0\n");
	/* Refusals name the errno; bad words are EINVAL. */
	assert_int_equal(run("hwperf pause 99"), CMD_ERR_REPORTED);
	first_line("err ESRCH");
	assert_int_equal(run("hwperf pctr x"), CMD_ERR_REPORTED);
	first_line("err EINVAL");
	assert_int_equal(run("hwperf reset 10 11"), CMD_ERR_REPORTED);
	first_line("err EINVAL");
	assert_int_equal(run("hwperf release 10"), 0);
	assert_int_equal(run("hwperf resume 10"), CMD_ERR_REPORTED);
	has("err EINVAL: pid 10 has no counters to resume (use enable)\n");
}

static void test_cmd_profile_records_and_samples(void **state)
{
	(void)state;
	assert_int_equal(run("hwperf profile -r 16 10 instructions:thresh=5"), 0);
	first_line("ok gen=1\n");
	assert_int_equal(ring.arm_calls, 1);
	assert_int_equal(ring.arm_pid, 10);
	assert_int_equal(ring.arm_n, 16);
	assert_int_equal(ring.disarm_calls, 0);
	/* The ring size and the spec are checked before anything is armed. */
	assert_int_equal(run("hwperf profile -r 0 10 instructions:thresh=5"), CMD_ERR_REPORTED);
	first_line("err EINVAL: ring size");
	assert_int_equal(run("hwperf profile -r 2049 10 instructions:thresh=5"), CMD_ERR_REPORTED);
	assert_int_equal(run("hwperf profile -r 4 10 nosuchevent:thresh=5"), CMD_ERR_REPORTED);
	assert_int_equal(ring.arm_calls, 1);
	/* A refused enable takes the ring back. */
	assert_int_equal(run("hwperf profile -r 4 11 instructions"), CMD_ERR_REPORTED);
	first_line("err EINVAL: profiling needs a threshold");
	assert_int_equal(ring.arm_calls, 2);
	assert_int_equal(ring.disarm_calls, 1);
	/* A refused arm: its reason, and no enable. */
	ring.arm_rc = -ESRCH;
	assert_int_equal(run("hwperf profile -r 4 11 instructions:thresh=5"), CMD_ERR_REPORTED);
	first_line("err ESRCH: no user task with pid 11");
	assert_int_equal(run("hwperf getctl 11"), CMD_ERR_REPORTED);
	assert_int_equal(run("hwperf samples --json"), 0);
	first_line("ok 0\n");
	assert_int_equal(ring.print_calls, 1);
	assert_true(ring.print_json);
	ring.print_rc = -ENOENT;
	assert_int_equal(run("hwperf samples"), 0);
	has("samples none");
	assert_int_equal(run("hwperf samples --xml"), CMD_ERR_REPORTED);
}

static void test_cmd_duplicate_events_are_named_by_slot(void **state)
{
	(void)state;
	assert_int_equal(run("hwperf enable 10 @0=cycles,@1=cycles"), 0);
	assert_int_equal(run("hwperf read 10"), 0);
	has("\n@0=cycles:u count=");
	has("\n@1=cycles:u count=");
}

static void test_cmd_savechild(void **state)
{
	(void)state;
	assert_int_equal(run("hwperf savechild 10 11"), 0);
	first_line("ok gen=");
	assert_int_equal(run("hwperf savechild 11 10"), CMD_ERR_REPORTED);
	has("err EINVAL: pid 10 is not a child of pid 11\n");
}

static void test_R20_cmd_prints_the_reason(void **state)
{
	(void)state;
	assert_int_equal(run("hwperf enable 99 cycles"), CMD_ERR_REPORTED);
	has("err ESRCH: no task with pid 99\n");
	assert_int_equal(run("hwperf enable 10 cycles:q"), CMD_ERR_REPORTED);
	has("err EINVAL: bad modes 'q' in 'cycles:q'");
	assert_int_equal(run("hwperf enable x cycles"), CMD_ERR_REPORTED);
	has("err EINVAL: bad pid 'x'\n");
	assert_int_equal(run("hwperf sys force cycles:k"), 0);
	assert_int_equal(run("hwperf enable 10 cycles"), CMD_ERR_REPORTED);
	has("err EBUSY: the kernel holds the counters in SYSTEM mode on all 2 cpus\n");
	assert_int_equal(run("hwperf bogus"), CMD_ERR_REPORTED);
	has("err EINVAL: bad hwperf command");
}

/* The table's console door reads the words as the old per-op parsers
 * did: a task's pid before the word count, then the rest in order. */
static void test_cmd_words_are_checked_in_order(void **state)
{
	(void)state;
	assert_int_equal(run("hwperf frob x"), CMD_ERR_REPORTED);
	has("err EINVAL: bad pid 'x'\n");
	assert_int_equal(run("hwperf frob 5"), CMD_ERR_REPORTED);
	has("err EINVAL: bad hwperf command");
	assert_int_equal(run("hwperf read -r x"), CMD_ERR_REPORTED);
	has("err EINVAL: bad pid 'x'\n");
	assert_int_equal(run("hwperf enable x"), CMD_ERR_REPORTED);
	has("err EINVAL: bad pid 'x'\n");
	assert_int_equal(run("hwperf enable 10 cycles extra"), CMD_ERR_REPORTED);
	has("err EINVAL: bad hwperf command");
	assert_int_equal(run("hwperf savechild 11 x"), CMD_ERR_REPORTED);
	has("err EINVAL: bad child pid 'x'\n");
	assert_int_equal(run("hwperf sys read --cpu x"), CMD_ERR_REPORTED);
	has("err EINVAL: bad cpu 'x'\n");
	assert_int_equal(run("hwperf sys read --cpu"), CMD_ERR_REPORTED);
	has("err EINVAL: bad hwperf command");
	assert_int_equal(run("hwperf sys"), CMD_ERR_REPORTED);
	has("err EINVAL: bad hwperf command");
	/* R12: a CPU that does not exist answers 0 and no counts. */
	assert_int_equal(run("hwperf sys read --cpu 9"), 0);
	assert_string_equal(out, "ok 0\n");
}

/* `as UID`: the console asks as its own task, an ordinary user. */
static void test_cmd_asks_as_the_console_caller(void **state)
{
	(void)state;
	console_as = &a->hw;
	assert_int_equal(run("hwperf enable 10 cycles:k"), CMD_ERR_REPORTED);
	has("err EPERM: modes k, s and x need root; pid 10 has uid 100\n");
	assert_int_equal(run("hwperf sys force cycles:k"), CMD_ERR_REPORTED);
	has("err EPERM: forced system acquire needs root");
	console_as = NULL;
	assert_int_equal(run("hwperf enable 10 cycles:k"), 0);
}

static void test_R4_cmd_sys_enable_is_busy_while_user_counters_run(void **state)
{
	(void)state;
	assert_int_equal(run("hwperf enable 10 cycles"), 0);   /* 10 runs on cpu 0 */
	assert_int_equal(run("hwperf sys enable cycles:k"), CMD_ERR_REPORTED);
	has("err EBUSY: pid 10 has USER counters live on cpu 0\n");
}

static void test_cmd_system_mode(void **state)
{
	(void)state;
	assert_int_equal(run("hwperf sys getctl"), CMD_ERR_REPORTED);
	first_line("err EINVAL");
	has("not in SYSTEM mode");
	assert_int_equal(run("hwperf sys force instructions:k"), 0);
	first_line("ok gen=1");
	fake_tick(1);
	fakepmu_count(0, FK_INSNS, PMU_MODE_K, 3);
	fakepmu_count(1, FK_INSNS, PMU_MODE_K, 4);
	fake_tick(1);
	assert_int_equal(run("hwperf sys read"), 0);
	has("\ninstructions:k count=7 ");
	assert_int_equal(run("hwperf sys read --cpu 1"), 0);
	has("\ninstructions:k count=4 ");
	assert_int_equal(run("hwperf sys read --cpu 9"), 0);
	first_line("ok 0");
	assert_int_equal(run("hwperf sys setctl cycles:k"), 0);
	first_line("ok gen=2");
	assert_int_equal(run("hwperf"), 0);
	has("mode SYSTEM");
	assert_int_equal(run("hwperf sys release"), 0);
	first_line("ok 0");
}

/* hwperf soft: shows the soft PMU's shape; bad words are refused before
 * anything is asked; a request on another driver is ENODEV. */
static void test_cmd_soft(void **state)
{
	static const char *const bad[][2] = {
		{ "hwperf soft counters=x", "err EINVAL: bad or repeated argument 'counters=x'" },
		{ "hwperf soft width=8 width=9", "err EINVAL: bad or repeated argument 'width=9'" },
		{ "hwperf soft depth=2", "err EINVAL: expected counters=N or width=W, not 'depth=2'" },
		{ "hwperf soft counters=99999999999", "err EINVAL: bad or repeated argument" },
	};

	(void)state;
	assert_int_equal(run("hwperf soft"), 0);
	first_line("ok 0\n");
	has("soft counters=2 width=32\n");
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(run(bad[i][0]), CMD_ERR_REPORTED);
		first_line(bad[i][1]);
	}
	assert_int_equal(run("hwperf soft counters=4"), CMD_ERR_REPORTED);
	first_line("err ENODEV: the active PMU is fake, which cannot be reshaped");
	assert_int_equal(run("hwperf soft"), 0);
	has("soft counters=2 width=32\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_cmd_status, setup),
		cmocka_unit_test_setup(test_cmd_status_shows_placement, setup),
		cmocka_unit_test_setup(test_cmd_status_shows_each_cpus_kevents, setup),
		cmocka_unit_test_setup(test_cmd_soft, setup),
		cmocka_unit_test_setup(test_cmd_task_lifecycle_prints_counts, setup),
		cmocka_unit_test_setup(test_cmd_duplicate_events_are_named_by_slot, setup),
		cmocka_unit_test_setup(test_cmd_savechild, setup),
		cmocka_unit_test_setup(test_cmd_pause_resume_reset_pctr, setup),
		cmocka_unit_test_setup(test_cmd_profile_records_and_samples, setup),
		cmocka_unit_test_setup(test_R20_cmd_prints_the_reason, setup),
		cmocka_unit_test_setup(test_R4_cmd_sys_enable_is_busy_while_user_counters_run, setup),
		cmocka_unit_test_setup(test_cmd_system_mode, setup),
		cmocka_unit_test_setup(test_cmd_words_are_checked_in_order, setup),
		cmocka_unit_test_setup(test_cmd_asks_as_the_console_caller, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
