/*
 * Host tests of kernel/hwperf/spec.c: the event specification syntax
 * shared by the console and the user library.
 */
#include "hwperf_test.h"

static int setup(void **state)
{
	(void)state;
	hwt_setup(1);
	return 0;
}

static int parse(const char *spec, struct hwperf_control *ctl,
                 struct hwperf_reason *why)
{
	return hwperf_spec_parse(spec, hwperf_caps(), ctl, why);
}

static void test_spec_defaults_and_options(void **state)
{
	struct hwperf_control ctl;
	struct hwperf_reason why;

	(void)state;
	assert_int_equal(parse("cycles", &ctl, &why), 0);
	assert_string_equal(ctl.ev[0].name, "cycles");
	assert_int_equal(ctl.ev[0].modes, PMU_MODE_U);
	assert_int_equal(ctl.ev[0].thresh, 0);
	assert_int_equal(ctl.sig, 0);
	assert_int_equal(parse(" cycles:uk , instructions:k:thresh=10 ,"
	                       "branches:thresh=0x20:xs,sig=5", &ctl, &why), 0);
	assert_int_equal(ctl.ev[0].modes, PMU_MODE_U | PMU_MODE_K);
	assert_string_equal(ctl.ev[1].name, "instructions");
	assert_int_equal(ctl.ev[1].modes, PMU_MODE_K);
	assert_int_equal(ctl.ev[1].thresh, 10);
	assert_int_equal(ctl.ev[2].modes, PMU_MODE_X | PMU_MODE_S);
	assert_int_equal(ctl.ev[2].thresh, 0x20);
	assert_int_equal(ctl.sig, 5);
	assert_int_equal(ctl.ev[3].name[0], '\0');
}

static void test_spec_names_ignore_case_and_underscores(void **state)
{
	struct hwperf_control ctl;
	struct hwperf_reason why;
	struct hwperf_counts c;
	struct fake_task *t = fake_spawn(10, USER_UID, 10, 1);

	(void)state;
	assert_int_equal(parse("CYCLES,Instructions:u", &ctl, &why), 0);
	assert_string_equal(ctl.ev[0].name, "CYCLES");
	fake_run(0, t);
	assert_true(hwperf_enable(&t->hw, 0, &ctl, &why) > 0);
	fakepmu_count(0, FK_INSNS, PMU_MODE_U, 3);
	assert_true(hwperf_read(&t->hw, 0, &c, &why) > 0);
	assert_int_equal(c.count[1], 3);
	assert_true(hwperf_name_eq("csw_vol", "CSW-VOL"));
	assert_false(hwperf_name_eq("csw", "csw-vol"));
}

static void test_spec_raw_codes_and_slots(void **state)
{
	struct hwperf_control ctl;
	struct hwperf_reason why;

	(void)state;
	assert_int_equal(parse("r1c0:u", &ctl, &why), 0);
	assert_int_equal(ctl.ev[0].flags, HWPERF_EV_RAW);
	assert_int_equal(ctl.ev[0].code, 0x1c0);
	/* Numbered items are placed first, whatever their position. */
	assert_int_equal(parse("instructions,@0=cycles,@31=branches", &ctl, &why), 0);
	assert_string_equal(ctl.ev[0].name, "cycles");
	assert_string_equal(ctl.ev[1].name, "instructions");
	assert_string_equal(ctl.ev[31].name, "branches");
}

static void test_spec_r10000_layout_picks_a_slot_of_the_right_counter(void **state)
{
	struct fakepmu_cfg cfg;
	struct hwperf_control ctl;
	struct hwperf_reason why;

	(void)state;
	fakepmu_default(&cfg);
	cfg.table = &fakepmu_r10k_table;
	cfg.slots_per_counter = 16;
	hwt_setup_cfg(&cfg, 1);
	assert_int_equal(parse("tlb-misses,cycles,issued-loads", &ctl, &why), 0);
	assert_string_equal(ctl.ev[16].name, "tlb-misses");
	assert_string_equal(ctl.ev[0].name, "cycles");
	assert_string_equal(ctl.ev[1].name, "issued-loads");
}

static void expect_error(const char *spec, const char *needle)
{
	struct hwperf_control ctl;
	struct hwperf_reason why = { "" };

	if (parse(spec, &ctl, &why) != -EINVAL)
		fail_msg("spec '%s' was accepted", spec);
	if (strncmp(why.text, "EINVAL: ", 8) != 0 || !strstr(why.text, needle))
		fail_msg("spec '%s': reason '%s' lacks '%s'", spec, why.text, needle);
}

static void test_R4_spec_errors_name_the_bad_token(void **state)
{
	(void)state;
	expect_error("cycles,bogus:u", "'bogus'");
	expect_error("cycles:uq", "'uq'");
	expect_error("cycles:u:k", "'k'");
	expect_error("cycles::u", "pmu 'cycles'");	/* libpfm's PMU:: */
	expect_error("cycles:thresh=-5", "negative threshold");
	expect_error("cycles:thresh=abc", "'abc'");
	expect_error("cycles:thresh=99999999999999999999", "cycles:thresh=");
	expect_error("cycles,sig=33", "sig=33");
	expect_error("cycles,sig=-1", "0..32");
	expect_error("@32=cycles", "@32=cycles");
	expect_error("@x=cycles", "@x=cycles");
	expect_error("@3", "missing '='");
	expect_error("@3=cycles,@3=instructions", "counter 3 given twice");
	expect_error("", "no events");
	expect_error("sig=3", "no events");
	expect_error("cycles,,instructions", "empty item");
	expect_error("cy$cles", "'$'");
	expect_error("rzz", "'rzz'");
	expect_error("r123456789", "raw code");
}

static void test_R4_spec_at_most_32_events(void **state)
{
	char spec[400] = "cycles";
	struct hwperf_control ctl;
	struct hwperf_reason why;

	(void)state;
	for (unsigned i = 1; i < HWPERF_NVCTR; i++)
		strcat(spec, ",cycles");
	assert_int_equal(parse(spec, &ctl, &why), 0);
	strcat(spec, ",cycles");
	expect_error(spec, "at most 32");
}

static void test_spec_syntax_only_without_a_pmu(void **state)
{
	struct hwperf_control ctl;
	struct hwperf_reason why;

	(void)state;
	assert_int_equal(hwperf_spec_parse("whatever-event:k", NULL, &ctl, &why), 0);
	assert_string_equal(ctl.ev[0].name, "whatever-event");
	/* Without a pmu any non-mode part is a unit mask (checked later). */
	assert_int_equal(hwperf_spec_parse("x:q", NULL, &ctl, &why), 0);
	assert_string_equal(ctl.ev[0].name, "x:q");
	assert_int_equal(hwperf_spec_parse("x:q=1", NULL, &ctl, &why), -EINVAL);
}

/* Every syntax form, read without a pmu (the user library's view). */
static void test_spec_forms_without_a_pmu(void **state)
{
	struct hwperf_control c;
	struct hwperf_reason why;
	char text[256];

	(void)state;
	assert_int_equal(hwperf_spec_parse("skl::INST_RETIRED:ANY_P:uk,"
	                                   "LONGEST_LAT_CACHE:MISS:c=2:i=1:e=1,"
	                                   "cpu/event=0x3c,umask=0x1,cmask=1,"
	                                   "inv,edge/k,r01c2:u", NULL, &c,
	                                   &why), 0);
	assert_string_equal(c.ev[0].name, "INST_RETIRED:ANY_P");
	assert_int_equal(c.ev[0].modes, PMU_MODE_U | PMU_MODE_K);
	assert_string_equal(c.ev[1].name, "LONGEST_LAT_CACHE:MISS");
	assert_int_equal(c.ev[1].flags, HWPERF_EV_CMASK | HWPERF_EV_INV |
	                 HWPERF_EV_EDGE);
	assert_int_equal(c.ev[1].cmask, 2);
	assert_int_equal(c.ev[1].modes, PMU_MODE_U);
	assert_int_equal(c.ev[2].flags, HWPERF_EV_RAW | HWPERF_EV_EVSEL |
	                 HWPERF_EV_UMASK | HWPERF_EV_CMASK | HWPERF_EV_INV |
	                 HWPERF_EV_EDGE);
	assert_int_equal(c.ev[2].code, 0x3c);
	assert_int_equal(c.ev[2].umask, 1);
	assert_int_equal(c.ev[2].cmask, 1);
	assert_int_equal(c.ev[2].modes, PMU_MODE_K);
	assert_int_equal(c.ev[3].flags, HWPERF_EV_RAW);
	assert_int_equal(c.ev[3].code, 0x1c2);
	/* The printed form reads back to the same control. */
	hwperf_spec_format(&c, text, sizeof(text));
	assert_string_equal(text, "@0=INST_RETIRED:ANY_P:uk,"
	                    "@1=LONGEST_LAT_CACHE:MISS:c=2:i=1:e=1:u,"
	                    "@2=cpu/event=0x3c,umask=0x1,cmask=1,inv,edge/:k,"
	                    "@3=r1c2:u,sig=0");
	/* inv=0 clears what inv set; a unit mask after the modes is refused. */
	assert_int_equal(hwperf_spec_parse("cpu/event=0xc0,inv,inv=0/", NULL,
	                                   &c, &why), 0);
	assert_int_equal(c.ev[0].flags, HWPERF_EV_RAW | HWPERF_EV_EVSEL);
	assert_int_equal(hwperf_spec_parse("X:u:ANY", NULL, &c, &why), -EINVAL);
	assert_non_null(strstr(why.text, "unit mask 'ANY' after the modes"));
}

static void test_spec_new_forms_name_their_part(void **state)
{
	(void)state;
	/* The fake pmu, like the software PMU, has no fields at all. */
	expect_error("INST_RETIRED:ANY_P", "unknown event 'INST_RETIRED'");
	expect_error("INST_RETIRED:ANY_P", "fake has: cycles, ");
	expect_error("cpu/event=0xc0,umask=0x0/",
	             "event= of cpu/../: pmu fake has no event-select numbers");
	expect_error("cycles:c=1", "cmask= of cycles: pmu fake has no counter");
	expect_error("cycles:i=1", "inv of cycles");
	expect_error("cycles:e=1", "edge of cycles");
	expect_error("cycles:any", "bad modes 'any' in 'cycles:any' (use u, k, "
	             "s, x once; pmu fake has no unit masks)");
	expect_error("cpu/event=0xc0,foo=1/", "term 'foo=1'");
	expect_error("cpu/event=0xc0", "missing closing '/'");
	expect_error("cpu/umask=1/", "no event= term");
	expect_error("cpu/event=0xc0,cmask=256/", "cmask=256");
	expect_error("ibs/event=1/", "pmu 'ibs'");
	expect_error("other::cycles", "pmu 'other'");
	expect_error("cycles:c=x", "c=x");
	expect_error("cycles:zz=1", "modifier 'zz=1'");
}

static void test_spec_format_round_trips(void **state)
{
	struct hwperf_control a, b;
	struct hwperf_reason why;
	char text[512];
	int n;

	(void)state;
	assert_int_equal(parse("cycles:uk,r1c0:x:thresh=7,@20=branches,sig=9",
	                       &a, &why), 0);
	n = hwperf_spec_format(&a, text, sizeof(text));
	assert_int_equal((size_t)n, strlen(text));
	assert_string_equal(text, "@0=cycles:uk,@1=r1c0:x:thresh=7,"
	                          "@20=branches:u,sig=9");
	assert_int_equal(parse(text, &b, &why), 0);
	assert_memory_equal(&a, &b, sizeof(a));
	/* Truncation still reports the full length. */
	assert_int_equal(hwperf_spec_format(&a, text, 5), n);
	assert_int_equal(strlen(text), 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_spec_defaults_and_options, setup),
		cmocka_unit_test_setup(test_spec_names_ignore_case_and_underscores, setup),
		cmocka_unit_test_setup(test_spec_raw_codes_and_slots, setup),
		cmocka_unit_test_setup(test_spec_r10000_layout_picks_a_slot_of_the_right_counter, setup),
		cmocka_unit_test_setup(test_R4_spec_errors_name_the_bad_token, setup),
		cmocka_unit_test_setup(test_R4_spec_at_most_32_events, setup),
		cmocka_unit_test_setup(test_spec_syntax_only_without_a_pmu, setup),
		cmocka_unit_test_setup(test_spec_format_round_trips, setup),
		cmocka_unit_test_setup(test_spec_forms_without_a_pmu, setup),
		cmocka_unit_test_setup(test_spec_new_forms_name_their_part, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
