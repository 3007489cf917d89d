/*
 * hwperf_test.h - shared set-up for the host tests of kernel/hwperf:
 * fake tasks (hwperf_fake_env.h), the PMU double (hwperf_fakepmu.h) and
 * small builders for control sets.
 */
#ifndef TALLY_HWPERF_TEST_H
#define TALLY_HWPERF_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include <errno.h>

#include "hwperf/hwperf.h"
#include "hwperf/spec.h"
#include "hwperf_fake_env.h"
#include "hwperf_fakepmu.h"

#define ROOT 0u
#define USER_UID 100u
#define OTHER_UID 200u

/* One CPU, the default double, hwperf up. */
static inline void hwt_setup_cfg(const struct fakepmu_cfg *cfg, unsigned ncpus)
{
	struct hwperf_reason why;

	fake_env_reset(ncpus);
	fakepmu_setup(cfg);
	assert_int_equal(hwperf_init(&fakepmu_ops, &why), 0);
}

static inline void hwt_setup(unsigned ncpus)
{
	struct fakepmu_cfg cfg;

	fakepmu_default(&cfg);
	hwt_setup_cfg(&cfg, ncpus);
}

/* Parse spec against the active PMU; the test fails on a parse error. */
static inline struct hwperf_control hwt_ctl(const char *spec)
{
	struct hwperf_control ctl;
	struct hwperf_reason why = { "" };
	int r = hwperf_spec_parse(spec, hwperf_caps(), &ctl, &why);

	if (r != 0)
		fail_msg("spec '%s': %s", spec, why.text);
	return ctl;
}

static inline int hwt_enable(struct fake_task *caller, int pid, const char *spec,
                             struct hwperf_reason *why)
{
	struct hwperf_control ctl = hwt_ctl(spec);

	return hwperf_enable(caller ? &caller->hw : NULL, pid, &ctl, why);
}

static inline int hwt_acquire(struct fake_task *caller, const char *spec,
                              struct hwperf_reason *why)
{
	struct hwperf_control ctl = hwt_ctl(spec);

	return hwperf_sys_acquire(caller ? &caller->hw : NULL, &ctl, why);
}

/* Count of virtual counter i of pid, read by the kernel (root). */
static inline uint64_t hwt_count(int pid, unsigned i)
{
	struct hwperf_counts c;
	struct hwperf_reason why;

	assert_true(hwperf_read(NULL, pid, &c, &why) > 0);
	return c.count[i];
}

static inline int hwt_gen(int pid)
{
	struct hwperf_counts c;
	struct hwperf_reason why;

	return hwperf_read(NULL, pid, &c, &why);
}

static inline uint64_t hwt_sys_count(unsigned i)
{
	struct hwperf_counts c;
	struct hwperf_reason why;

	assert_true(hwperf_sys_read(NULL, &c, &why) > 0);
	return c.count[i];
}

static inline void hwt_has(const struct hwperf_reason *why, const char *needle)
{
	if (!strstr(why->text, needle))
		fail_msg("reason '%s' lacks '%s'", why->text, needle);
}

#endif
