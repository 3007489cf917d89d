/*
 * Host tests of kernel/hwperf/ops.c: the one table of hwperf operations
 * that the system call and the `hwperf` console command both read.
 */
#include "hwperf_test.h"

#include "kernel/hwperf/ops.h"

/* HWPERF_OP_MAP's handler lives with the system call (it maps a page in
 * an address space); here it only says it was reached. */
static int map_calls;

int hwperf_op_map(const struct hwperf_call *c, struct hwperf_reason *why)
{
	(void)c;
	(void)why;
	map_calls++;
	return 0;
}

/* The console form of row d: its words, then a word per argument. */
static int console_words(const struct hwperf_op *d, bool self, char **argv, char *buf,
			 size_t len)
{
	int argc = 0;

	snprintf(buf, len, "%s", self ? d->self_name : d->name);
	for (char *p = strtok(buf, " "); p; p = strtok(NULL, " "))
		argv[argc++] = p;
	for (int i = 0; i < hwperf_op_arg_words(d, self); i++)
		argv[argc++] = (char *)"7";
	return argc;
}

static void test_every_op_has_one_row(void **state)
{
	(void)state;
	for (uintptr_t op = 0; op < HWPERF_OP_COUNT; op++) {
		const struct hwperf_op *d = hwperf_op_get(op);

		assert_non_null(d);
		assert_non_null(d->run);
		/* No two rows share a handler: one row per operation. */
		for (uintptr_t o = 0; o < op; o++)
			assert_ptr_not_equal(hwperf_op_get(o)->run, d->run);
	}
	assert_null(hwperf_op_get(HWPERF_OP_COUNT));
	assert_null(hwperf_op_get(UINTPTR_MAX));
}

/* The console's words for an op lead to the row the system call decodes
 * for its number, so both doors call the same handler. */
static void test_console_and_syscall_reach_the_same_row(void **state)
{
	char buf[64], *argv[8];
	int named = 0;

	(void)state;
	for (uintptr_t op = 0; op < HWPERF_OP_COUNT; op++) {
		const struct hwperf_op *d = hwperf_op_get(op);

		for (int s = 0; s < 2; s++) {
			bool self = !s, got_self;
			int words;

			if (!(self ? d->self_name : d->name))
				continue;
			int argc = console_words(d, self, argv, buf, sizeof(buf));
			int m = hwperf_op_match(argc, argv, &got_self, &words);

			assert_int_equal(m, (int)op);
			assert_ptr_equal(hwperf_op_get((uintptr_t)m)->run, d->run);
			assert_int_equal(got_self, self);
			assert_int_equal(words + hwperf_op_arg_words(d, self), argc);
			named++;
		}
	}
	/* Every op but MAP (a page of the caller's own) has console words,
	 * and enable has `sys enable` too. */
	assert_int_equal(named, HWPERF_OP_COUNT - 1 + 1);
	assert_null(hwperf_op_get(HWPERF_OP_MAP)->name);
}

static int match(const char *line, bool *self)
{
	char buf[64], *argv[8];
	int argc = 0, words;

	snprintf(buf, sizeof(buf), "%s", line);
	for (char *p = strtok(buf, " "); p; p = strtok(NULL, " "))
		argv[argc++] = p;
	return hwperf_op_match(argc, argv, self, &words);
}

/* A wrong number of words still finds the op its first words name (its
 * argument check then says what is wrong); the longer name wins only when
 * the whole form fits. */
static void test_console_match_picks_by_words(void **state)
{
	bool self;

	(void)state;
	assert_int_equal(match("read 5", &self), HWPERF_OP_READ);
	assert_int_equal(match("read -r 5", &self), HWPERF_OP_READ_RUSAGE);
	assert_int_equal(match("read -r 5 6", &self), HWPERF_OP_READ);
	assert_int_equal(match("sys read", &self), HWPERF_OP_SYS_READ);
	assert_int_equal(match("sys read --cpu 1", &self), HWPERF_OP_CPU_READ);
	assert_int_equal(match("sys read --cpu", &self), HWPERF_OP_SYS_READ);
	assert_int_equal(match("sys enable cycles:k", &self), HWPERF_OP_ENABLE);
	assert_true(self);
	assert_int_equal(match("enable 5 cycles", &self), HWPERF_OP_ENABLE);
	assert_false(self);
	assert_int_equal(match("sys force x", &self), HWPERF_OP_SYS_ACQUIRE);
	assert_int_equal(match("sys", &self), -1);
	assert_int_equal(match("bogus 1", &self), -1);
	assert_int_equal(match("map", &self), -1);
}

/* The system call's argument rules, per what the row takes. */
static void test_syscall_args_follow_the_row(void **state)
{
	(void)state;
	for (uintptr_t op = 0; op < HWPERF_OP_COUNT; op++) {
		const struct hwperf_op *d = hwperf_op_get(op);
		bool uses = d->arg != HWPERF_ARG_NONE, uses2 = d->arg == HWPERF_ARG_COUNTS_RU;
		uintptr_t p = uses ? 0x1000 : 0, p2 = uses2 ? 0x2000 : 0;

		assert_int_equal(hwperf_op_check(d, 0, p, p2), 0);
		assert_int_equal(hwperf_op_check(d, -1, p, p2), -EINVAL);
		assert_int_equal(hwperf_op_check(d, 3, p, p2),
				 d->id == HWPERF_ID_ZERO ? -EINVAL : 0);
		assert_int_equal(hwperf_op_check(d, 0, uses ? 0 : 0x1000, p2),
				 uses ? -EFAULT : -EINVAL);
		assert_int_equal(hwperf_op_check(d, 0, p, uses2 ? 0 : 0x2000),
				 uses2 ? -EFAULT : -EINVAL);
	}
}

/* ---- each row's permission is the one hwperf enforces ---------------------- */

static struct fake_task *user, *other, *child;
static struct hwperf_control ctl;
static struct hwperf_counts counts;
static struct hwperf_rusage ru;
static struct hwperf_pctr pctr;

static int perm_setup(void **state)
{
	struct hwperf_reason why;

	(void)state;
	hwt_setup(2);
	fake_spawn(1, ROOT, 1, 0);                      /* the console */
	user = fake_spawn(10, USER_UID, 10, 1);
	other = fake_spawn(20, OTHER_UID, 20, 1);
	/* other's child, in user's group: user may touch it, but is not
	 * its parent. */
	child = fake_spawn(21, OTHER_UID, 10, 20);
	fake_run(0, user);
	assert_true(hwt_enable(NULL, 20, "cycles:u", &why) > 0);
	assert_true(hwt_enable(NULL, 21, "cycles:u", &why) > 0);
	map_calls = 0;
	return 0;
}

/* Row d called by caller with id, with a control of spec. */
static int call(const struct hwperf_op *d, struct fake_task *caller, int id, const char *spec)
{
	struct hwperf_reason why;

	ctl = hwt_ctl(spec);
	struct hwperf_call c = {
		.caller = caller ? &caller->hw : NULL, .id = id, .ctl = &ctl,
		.counts = &counts, .ru = &ru, .pctr = &pctr,
	};
	return d->run(&c, &why);
}

static void test_each_row_is_refused_as_its_permission_says(void **state)
{
	(void)state;
	for (uintptr_t op = 0; op < HWPERF_OP_COUNT; op++) {
		const struct hwperf_op *d = hwperf_op_get(op);

		switch (d->perm) {
		case HWPERF_PERM_TARGET:
			assert_int_equal(call(d, user, 20, "cycles:u"), -EPERM);
			break;
		case HWPERF_PERM_MODES:
			assert_int_equal(call(d, user, 20, "cycles:u"), -EPERM);
			assert_int_equal(call(d, user, 10, "cycles:k"), -EPERM);
			break;
		case HWPERF_PERM_PARENT:
			assert_int_equal(call(d, user, 20, "cycles:u"), -EPERM);
			assert_int_equal(call(d, user, 21, "cycles:u"), -EPERM);
			break;
		case HWPERF_PERM_ROOT:
			assert_int_equal(call(d, user, 0, "cycles:k"), -EPERM);
			break;
		default:
			assert_int_equal(d->perm, HWPERF_PERM_ANY);
			assert_int_not_equal(call(d, user, 0, "cycles:u"), -EPERM);
			break;
		}
	}
	/* MAP's handler is the system call's: the table names it. */
	assert_int_equal(map_calls, 1);
}

/* Root is refused nothing by any row's permission. */
static void test_root_passes_every_permission(void **state)
{
	(void)state;
	for (uintptr_t op = 0; op < HWPERF_OP_COUNT; op++) {
		const struct hwperf_op *d = hwperf_op_get(op);
		int id = d->id == HWPERF_ID_ZERO ? 0 : d->id == HWPERF_ID_CPU ? 1 : 21;

		assert_int_not_equal(call(d, NULL, id, "cycles:u"), -EPERM);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_op_has_one_row),
		cmocka_unit_test(test_console_and_syscall_reach_the_same_row),
		cmocka_unit_test(test_console_match_picks_by_words),
		cmocka_unit_test(test_syscall_args_follow_the_row),
		cmocka_unit_test_setup(test_each_row_is_refused_as_its_permission_says,
				       perm_setup),
		cmocka_unit_test_setup(test_root_passes_every_permission, perm_setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
