/*
 * Host tests of kernel/hwperf/format.c: counter names and the count line
 * in each form (`hwperf read`'s, stat's table, CSV, --kv and JSON).
 */
#include "hwperf_test.h"

#include "kernel/hwperf/format.h"

static char line[HWPERF_COUNT_LINE_MAX];

static const char *fmt_row(const struct hwperf_count_row *row, enum hwperf_count_form form,
			   bool kv_scaled)
{
	struct hwperf_count_fmt f = { .form = form, .sep = ";", .kv_scaled = kv_scaled };
	size_t n = hwperf_count_line(line, sizeof(line), row, &f);

	assert_int_equal(n, strlen(line));
	return line;
}

static void test_counter_names(void **state)
{
	char name[HWPERF_COUNTER_NAME_MAX];
	struct hwperf_control ctl;

	(void)state;
	hwt_setup(1);
	ctl = hwt_ctl("cycles:u,loads:uk,cycles:u");
	hwperf_counter_name(&ctl, 1, name, sizeof(name));
	assert_string_equal(name, "loads:uk");
	/* The same event twice: each is named by its slot. */
	hwperf_counter_name(&ctl, 0, name, sizeof(name));
	assert_string_equal(name, "@0=cycles:u");
	hwperf_counter_name(&ctl, 2, name, sizeof(name));
	assert_string_equal(name, "@2=cycles:u");
	/* A sample record carries its slot: no prefix. */
	hwperf_event_name(&ctl.ev[2], name, sizeof(name));
	assert_string_equal(name, "cycles:u");
	assert_true(hwperf_slot_used(&ctl.ev[2]));
	assert_false(hwperf_slot_used(&ctl.ev[3]));

	ctl.ev[1].flags |= HWPERF_EV_RAW;
	ctl.ev[1].code = 0x1c0;
	hwperf_counter_name(&ctl, 1, name, sizeof(name));
	assert_string_equal(name, "r1c0:uk");
	memset(&ctl.ev[1], 0, sizeof(ctl.ev[1]));
	ctl.ev[1].modes = PMU_MODE_U;
	hwperf_event_name(&ctl.ev[1], name, sizeof(name));
	assert_string_equal(name, "?:u");
	/* A short buffer cuts the name, never overruns. */
	hwperf_counter_name(&ctl, 0, name, 3);
	assert_string_equal(name, "@0");
}

static void test_kv_line(void **state)
{
	struct hwperf_count_row r = { .name = "cycles:u", .count = 1000, .enabled = 400,
				      .running = 100 };

	(void)state;
	assert_string_equal(fmt_row(&r, HWPERF_FORM_KV, false),
			    "cycles:u count=1000 enabled=400 running=100");
	/* stat --kv: a multiplexed counter also shows its share and scaled count. */
	assert_string_equal(fmt_row(&r, HWPERF_FORM_KV, true),
			    "cycles:u count=1000 enabled=400 running=100 running_pct=25.00 "
			    "scaled=4000");
	r.running = r.enabled;
	assert_string_equal(fmt_row(&r, HWPERF_FORM_KV, true),
			    "cycles:u count=1000 enabled=400 running=400");
}

static void test_table_line(void **state)
{
	struct hwperf_count_row r = { .name = "cycles:u", .count = 1234567, .enabled = 300,
				      .running = 300 };

	(void)state;
	assert_string_equal(fmt_row(&r, HWPERF_FORM_TABLE, false),
			    "         1,234,567      cycles:u");
	r.metric_unit = "GHz";
	r.metric_milli = 1234;
	r.spread = true;
	r.noise_pct100 = 5;
	r.running = 100;
	assert_string_equal(fmt_row(&r, HWPERF_FORM_TABLE, false),
			    "         1,234,567      cycles:u                  #      1.234 GHz"
			    "                 ( +-  0.05% )  (33.33%)");
	r.running = 0;
	assert_string_equal(fmt_row(&r, HWPERF_FORM_TABLE, false),
			    "     <not counted>      cycles:u");
}

static void test_csv_line(void **state)
{
	struct hwperf_count_row r = { .name = "faults:u", .count = 42, .enabled = 100,
				      .running = 50, .run_ns = 777 };

	(void)state;
	assert_string_equal(fmt_row(&r, HWPERF_FORM_CSV, false), "42;;faults:u;777;50.00;;");
	r.metric_unit = "K/sec";
	r.metric_milli = 12500;
	r.spread = true;
	r.noise_pct100 = 123;
	assert_string_equal(fmt_row(&r, HWPERF_FORM_CSV, false),
			    "42;;faults:u;1.23%;777;50.00;12.500;K/sec");
	r.running = 0;
	assert_string_equal(fmt_row(&r, HWPERF_FORM_CSV, false),
			    "<not counted>;;faults:u;1.23%;777;0.00;;");
}

static void test_json_line(void **state)
{
	struct hwperf_count_row r = { .name = "x\"y", .count = 10, .enabled = 20,
				      .running = 10 };

	(void)state;
	assert_string_equal(fmt_row(&r, HWPERF_FORM_JSON, false),
			    "{\"name\":\"x\\\"y\",\"count\":10,\"enabled\":20,\"running\":10,"
			    "\"running_pct\":50.00,\"scaled\":20}");
	r.spread = true;
	r.mean = 19;
	r.noise_pct100 = 1000;
	assert_string_equal(fmt_row(&r, HWPERF_FORM_JSON, false),
			    "{\"name\":\"x\\\"y\",\"count\":10,\"enabled\":20,\"running\":10,"
			    "\"running_pct\":50.00,\"scaled\":20,\"mean\":19,\"noise_pct\":10.00}");
}

static void test_json_str_escapes_and_cuts(void **state)
{
	char buf[16];

	(void)state;
	assert_int_equal(hwperf_json_str(buf, sizeof(buf), "a\\b\n"), 12);
	assert_string_equal(buf, "\"a\\\\b\\u000a\"");
	/* Too long: cut, terminated, the length what was kept. */
	assert_int_equal(hwperf_json_str(buf, 8, "abcdefghij"), 7);
	assert_string_equal(buf, "\"abcdef");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counter_names),
		cmocka_unit_test(test_kv_line),
		cmocka_unit_test(test_table_line),
		cmocka_unit_test(test_csv_line),
		cmocka_unit_test(test_json_line),
		cmocka_unit_test(test_json_str_escapes_and_cuts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
