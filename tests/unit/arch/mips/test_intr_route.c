/*
 * Host tests of arch/mips/intr_route.c: which handlers one interrupt
 * exception runs, from the CP0 values of each core.
 *
 * The QEMU rows are what `cp0` prints under `make run ARCH=mips CPU=...`
 * (QEMU 7.2): Config, Config1 and IntCtl = 0xe0000000 (IPTI 7, IPPCI 0)
 * on every model; Config1.PC is 0 except on the P5600.  QEMU has no
 * 1004K; its row is the 34K's (the 1004K is a multi-core 34K).  On
 * hardware IPPCI is whatever the core's integrator wired (the cores'
 * SI_IPPCI input), so each core is also played with the counters on its
 * own line (IntCtl 0xf8000000: IPTI 7, IPPCI 6) and sharing the timer's
 * (0xfc000000: both 7), with Config1.PC set.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <string.h>

#include "arch/mips/cp0.h"
#include "arch/mips/intr_route.h"

#define IP(n) (1u << (8 + (n)))
#define INTCTL_QEMU 0xe0000000u
#define INTCTL_SHARED 0xfc000000u
#define INTCTL_OWN 0xf8000000u

struct core {
	const char *name;
	uint32_t config, config1;
};

/* Measured in QEMU 7.2 (cp0). */
static const struct core qemu_cores[] = {
	{ "24Kf", 0x80000482u, 0x9e190c8fu },
	{ "34Kf", 0x80000482u, 0xfe190c8fu },
	{ "74Kf", 0x80000482u, 0x9e190c8fu },
	{ "P5600", 0x80040482u, 0xfea3519bu },
};

/* The same cores as hardware has them: counters present. */
static const struct core hw_cores[] = {
	{ "24K", 0x80000482u, 0x9e190c8fu | CONFIG1_PC },
	{ "34K", 0x80000482u, 0xfe190c8fu | CONFIG1_PC },
	{ "74K", 0x80000482u, 0x9e190c8fu | CONFIG1_PC },
	{ "1004K", 0x80000482u, 0xfe190c8fu | CONFIG1_PC },
	{ "P5600", 0x80040482u, 0xfea3519bu },
};

#define NCORES(a) (sizeof(a) / sizeof((a)[0]))

static void test_qemu_cores_never_dispatch_the_counters(void **state)
{
	struct intr_route r;

	(void)state;
	for (unsigned i = 0; i < NCORES(qemu_cores); i++) {
		const struct core *c = &qemu_cores[i];
		bool pc = (c->config1 & CONFIG1_PC) != 0;

		intr_route_init(&r, c->config, c->config1, INTCTL_QEMU);
		assert_int_equal(r.timer_ip, 7);
		assert_int_equal(r.pci_ip, 0);
		assert_string_equal(r.why, pc ? "IntCtl.IPPCI names no hardware line"
		                              : "Config1.PC = 0: no performance counters");
		/* Even with Cause.PCI set the timer runs alone. */
		assert_int_equal(intr_route_decide(&r, CAUSE_PCI, IP(7)),
		                 INTR_RUN_TIMER);
		assert_int_equal(intr_route_decide(&r, 0, IP(7) | IP(2)),
		                 INTR_RUN_TIMER | INTR_RUN_I8259);
	}
	/* P5600 is the one with counters: only the line is missing. */
	assert_true(qemu_cores[3].config1 & CONFIG1_PC);
	assert_false(qemu_cores[0].config1 & CONFIG1_PC);
}

static void test_shared_with_timer_both_run(void **state)
{
	struct intr_route r;

	(void)state;
	for (unsigned i = 0; i < NCORES(hw_cores); i++) {
		const struct core *c = &hw_cores[i];

		intr_route_init(&r, c->config, c->config1, INTCTL_SHARED);
		assert_int_equal(r.timer_ip, 7);
		assert_int_equal(r.pci_ip, 7);
		assert_string_equal(r.why, "");
		/* Timer due and counter overflowed: neither swallows the other. */
		assert_int_equal(intr_route_decide(&r, CAUSE_PCI | CAUSE_TI, IP(7)),
		                 INTR_RUN_TIMER | INTR_RUN_PMU);
		/* Counter alone: the timer handler still looks (and finds no
		 * deadline passed); the counters run. */
		assert_int_equal(intr_route_decide(&r, CAUSE_PCI, IP(7)),
		                 INTR_RUN_TIMER | INTR_RUN_PMU);
		/* Timer alone: no PCI, no counter handler. */
		assert_int_equal(intr_route_decide(&r, CAUSE_TI, IP(7)),
		                 INTR_RUN_TIMER);
		/* PCI set but the line masked (not in pending): nothing. */
		assert_int_equal(intr_route_decide(&r, CAUSE_PCI, 0), 0);
		assert_int_equal(intr_route_decide(&r, CAUSE_PCI, IP(2)),
		                 INTR_RUN_I8259);
	}
}

static void test_own_line(void **state)
{
	struct intr_route r;

	(void)state;
	for (unsigned i = 0; i < NCORES(hw_cores); i++) {
		const struct core *c = &hw_cores[i];

		intr_route_init(&r, c->config, c->config1, INTCTL_OWN);
		assert_int_equal(r.timer_ip, 7);
		assert_int_equal(r.pci_ip, 6);
		assert_int_equal(intr_route_decide(&r, CAUSE_PCI, IP(6)),
		                 INTR_RUN_PMU);
		assert_int_equal(intr_route_decide(&r, CAUSE_PCI, IP(6) | IP(7) | IP(2)),
		                 INTR_RUN_PMU | INTR_RUN_TIMER | INTR_RUN_I8259);
		/* Their line up without PCI is someone else's: stray, masked. */
		assert_int_equal(intr_route_decide(&r, 0, IP(6)), IP(6));
		/* Another line nobody drives stays stray too. */
		assert_int_equal(intr_route_decide(&r, CAUSE_PCI, IP(6) | IP(4)),
		                 INTR_RUN_PMU | IP(4));
	}
}

/* Release 1 (Config.AR 0): no IntCtl to read, no Cause.PCI; whatever the
 * IntCtl argument holds is ignored. */
static void test_release1_never_dispatches(void **state)
{
	struct intr_route r;

	(void)state;
	intr_route_init(&r, 0x80000082u, 0x9e190c9fu, INTCTL_OWN);
	assert_int_equal(r.timer_ip, 7);
	assert_int_equal(r.pci_ip, 0);
	assert_string_equal(r.why, "Release 1 core: no IntCtl, no Cause.PCI");
	assert_int_equal(intr_route_decide(&r, CAUSE_PCI, IP(7)), INTR_RUN_TIMER);
	assert_int_equal(intr_route_decide(&r, CAUSE_PCI, IP(6)), IP(6));
}

/* IPTI naming a software line means no usable value: IP7, as timer.c. */
static void test_timer_line_from_intctl(void **state)
{
	struct intr_route r;

	(void)state;
	intr_route_init(&r, 0x80000482u, 0x9e190c9fu, 0xbc000000u);  /* 5, 7 */
	assert_int_equal(r.timer_ip, 5);
	assert_int_equal(r.pci_ip, 7);
	assert_int_equal(intr_route_decide(&r, CAUSE_PCI, IP(5) | IP(7)),
	                 INTR_RUN_TIMER | INTR_RUN_PMU);
	intr_route_init(&r, 0x80000482u, 0x9e190c9fu, 0x3c000000u);  /* 1, 7 */
	assert_int_equal(r.timer_ip, 7);
}

/*
 * The tick's shortcut (intr.c) runs the timer's handler alone when
 * intr_route_timer_alone says so: that must be exactly what the general
 * decision says, for every pending set, with Cause.PCI set or clear, on
 * every core and line layout, and it must say so for a plain tick.
 */
static void check_timer_alone(const struct intr_route *r)
{
	uint32_t timer = CAUSE_IP(r->timer_ip);

	for (uint32_t lines = 0; lines < 256; lines++) {
		uint32_t pending = lines << CAUSE_IP_SHIFT;

		for (int pci = 0; pci < 2; pci++) {
			uint32_t cause = pending | (pci ? CAUSE_PCI : 0);

			if (intr_route_timer_alone(timer, cause, pending))
				assert_int_equal(intr_route_decide(r, cause, pending),
				                 INTR_RUN_TIMER);
		}
	}
	assert_true(intr_route_timer_alone(timer, CAUSE_TI | timer, timer));
	/* Anything more, or PCI, takes the general way. */
	assert_false(intr_route_timer_alone(timer, CAUSE_PCI | timer, timer));
	assert_false(intr_route_timer_alone(timer, timer | IP(2), timer | IP(2)));
	assert_false(intr_route_timer_alone(timer, 0, 0));
}

static void test_timer_alone_agrees_with_decide(void **state)
{
	static const uint32_t intctls[] = {
		INTCTL_QEMU, INTCTL_SHARED, INTCTL_OWN, 0xbc000000u,
	};
	struct intr_route r;

	(void)state;
	for (unsigned k = 0; k < sizeof(intctls) / sizeof(intctls[0]); k++) {
		for (unsigned i = 0; i < NCORES(qemu_cores); i++) {
			intr_route_init(&r, qemu_cores[i].config, qemu_cores[i].config1,
			                intctls[k]);
			check_timer_alone(&r);
		}
		for (unsigned i = 0; i < NCORES(hw_cores); i++) {
			intr_route_init(&r, hw_cores[i].config, hw_cores[i].config1,
			                intctls[k]);
			check_timer_alone(&r);
		}
	}
	intr_route_init(&r, 0x80000082u, 0x9e190c9fu, INTCTL_OWN);   /* Release 1 */
	check_timer_alone(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qemu_cores_never_dispatch_the_counters),
		cmocka_unit_test(test_shared_with_timer_both_run),
		cmocka_unit_test(test_own_line),
		cmocka_unit_test(test_release1_never_dispatches),
		cmocka_unit_test(test_timer_line_from_intctl),
		cmocka_unit_test(test_timer_alone_agrees_with_decide),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
