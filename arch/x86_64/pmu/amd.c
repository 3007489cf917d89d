/*
 * amd.c - the AMD core PMU driver (K7 onwards; families 10h, 15h, 17h+).
 *
 * Layouts from the AMD64 APM vol. 2, section "Performance Counters":
 * four legacy counters, PerfEvtSel0..3 at C001_0000h and PerfCtr0..3 at
 * C001_0004h; with CPUID Fn8000_0001_ECX[PerfCtrExtCore] (bit 23), six
 * core counters with PerfEvtSel at C001_0200h + 2n and PerfCtr at
 * C001_0201h + 2n (the legacy addresses then alias the first four).
 * Counters are 48 bits.  PerfEvtSel ("Core Performance Event-Select
 * Register", figure 13-7): EventSelect[7:0] 7:0, UnitMask 15:8, USR 16,
 * OS 17, Edge 18, INT 20, En 22, Inv 23, CntMask 31:24, EventSelect[11:8]
 * 35:32, GuestOnly 40, HostOnly 41; the rest reserved.  Each counter has
 * its own En bit: there is no global control before PerfMonV2, and no
 * overflow status register either, so overflow is found from the value.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "events/events.h"
#include "lapic_pmi.h"
#include "pmu.h"
#include "x86_pmu.h"
#include "x86_pmu_io.h"

#define MSR_K7_EVNTSEL0 0xc0010000u
#define MSR_K7_PERFCTR0 0xc0010004u
#define MSR_F15H_PERF_CTL0 0xc0010200u
#define MSR_F15H_PERF_CTR0 0xc0010201u
#define MSR_F15H_STRIDE 2u

#define CPUID_80000001_ECX_PERFCTR_CORE 0x00800000u
#define AMD_LEGACY_COUNTERS 4u
#define AMD_CORE_COUNTERS 6u
#define AMD_WIDTH 48u
#define AMD_FAMILY_MIN 6u               /* K7: the first with these MSRs */

#define EVTSEL_USR 0x00010000ull
#define EVTSEL_OS 0x00020000ull
#define EVTSEL_EDGE 0x00040000ull
#define EVTSEL_INT 0x00100000ull
#define EVTSEL_EN 0x00400000ull
#define EVTSEL_EVENT_HI_SHIFT 32u
/* Bits a code carries straight into PerfEvtSel 31:0. */
#define CODE_DIRECT (AMD_CODE_EVENT_LO_MASK | AMD_CODE_UMASK_MASK | \
                     AMD_CODE_INV | AMD_CODE_CMASK_MASK)

/*
 * No status register: an i-mode counter started at ireset has overflowed
 * iff it now reads below ireset.  Periods up to 2^47 keep ireset >= 2^47,
 * so no skid after the wrap can climb back above it.
 */
#define AMD_MAX_PERIOD (1ull << 47)
#define LIVENESS_LOOPS 100000u
#define LIVENESS_EVENT 0x0076u          /* cycles not in halt */
#define WRITE_PROBE 0x5a5a5aull

static struct {
	bool core;                      /* PerfCtrExtCore: six counters */
	bool irq;                       /* counts, and the LAPIC PMI is set */
	unsigned family, ncounters;
} amd;

static uint32_t ctl_msr(unsigned hw)
{
	return amd.core ? MSR_F15H_PERF_CTL0 + MSR_F15H_STRIDE * hw
	                : MSR_K7_EVNTSEL0 + hw;
}

static uint32_t ctr_msr(unsigned hw)
{
	return amd.core ? MSR_F15H_PERF_CTR0 + MSR_F15H_STRIDE * hw
	                : MSR_K7_PERFCTR0 + hw;
}

static uint64_t read_counter(unsigned hw)
{
	return x86_pmu_io->rdmsr(ctr_msr(hw)) & pmu_width_mask(AMD_WIDTH);
}

static void write_counter(unsigned hw, uint64_t v)
{
	x86_pmu_io->wrmsr(ctr_msr(hw), v & pmu_width_mask(AMD_WIDTH));
}

/* Tally's AMD code (events.h) -> PerfEvtSel event bits. */
static uint64_t encode(uint32_t code)
{
	uint64_t sel = code & CODE_DIRECT;

	sel |= (uint64_t)((code & AMD_CODE_EVENT_HI_MASK) >>
	                  AMD_CODE_EVENT_HI_SHIFT) << EVTSEL_EVENT_HI_SHIFT;
	if (code & AMD_CODE_EDGE)
		sel |= EVTSEL_EDGE;
	return sel;
}

/* ---- probe --------------------------------------------------------------- */

static bool vendor_amd(struct x86_cpuid v)
{
	return v.ebx == CPUID_VENDOR_AMD_EBX && v.edx == CPUID_VENDOR_AMD_EDX &&
	       v.ecx == CPUID_VENDOR_AMD_ECX;
}

static bool has_perfctr_core(void)
{
	struct x86_cpuid m = x86_pmu_io->cpuid(CPUID_LEAF_EXT_MAX, 0);

	if (m.eax < CPUID_LEAF_EXT_FEATURES)
		return false;
	return (x86_pmu_io->cpuid(CPUID_LEAF_EXT_FEATURES, 0).ecx &
	        CPUID_80000001_ECX_PERFCTR_CORE) != 0;
}

static void quiesce(void)
{
	for (unsigned hw = 0; hw < amd.ncounters; hw++)
		x86_pmu_io->wrmsr(ctl_msr(hw), 0);
}

static bool liveness(char *why, size_t len)
{
	uint64_t back, after;

	x86_pmu_io->wrmsr(ctl_msr(0), 0);
	write_counter(0, WRITE_PROBE);
	back = read_counter(0);
	if (back != WRITE_PROBE) {
		snprintf(why, len, "PerfCtr0 write lost, read 0x%llx",
		         (unsigned long long)back);
		return false;
	}
	write_counter(0, 0);
	x86_pmu_io->wrmsr(ctl_msr(0), encode(LIVENESS_EVENT) | EVTSEL_USR |
	                  EVTSEL_OS | EVTSEL_EN);
	x86_pmu_io->spin(LIVENESS_LOOPS);
	after = read_counter(0);
	quiesce();
	if (after == 0) {
		snprintf(why, len, "PerfCtr0 did not advance");
		return false;
	}
	snprintf(why, len, "PerfCtr0 +%llu in %u steps",
	         (unsigned long long)after, LIVENESS_LOOPS);
	return true;
}

static void fill_caps(struct pmu_caps *caps)
{
	caps->ncounters = amd.ncounters;
	for (unsigned hw = 0; hw < amd.ncounters; hw++) {
		caps->counter[hw].width = AMD_WIDTH;
		/* 0 when no interrupt can come, as pmu.h defines it. */
		caps->counter[hw].max_period = amd.irq ? AMD_MAX_PERIOD : 0;
		/* RDPMC's ECX names a legacy or core counter by its number. */
		caps->counter[hw].user_read = true;
		caps->counter[hw].user_index = hw;
	}
	caps->modes = PMU_MODE_K | PMU_MODE_U;
	caps->ntables = 1;
	/* The family's table model (kernel/events/amd_table.c): 10h, 17h or 19h. */
	{
		const struct ev_model *m = amd_model_of_family(amd.family);

		caps->tables[0] = m->tables[0];
		caps->umask_sets = m->umask_sets;
		caps->numask_sets = m->numask_sets;
	}
	caps->fields = PMU_FIELD_EVSEL | PMU_FIELD_UMASK | PMU_FIELD_CMASK |
	               PMU_FIELD_INV | PMU_FIELD_EDGE;
	caps->cmask_max = AMD_CODE_CMASK_MASK >> AMD_CODE_CMASK_SHIFT;
}

static int amd_probe(struct pmu_caps *caps)
{
	struct x86_cpuid v = x86_pmu_io->cpuid(CPUID_LEAF_VENDOR, 0);
	char why[PMU_STATUS_MAX];

	memset(caps, 0, sizeof(*caps));
	memset(&amd, 0, sizeof(amd));
	snprintf(caps->name, sizeof(caps->name), "amd-legacy");
	if (!vendor_amd(v)) {
		snprintf(caps->status, sizeof(caps->status),
		         "amd: not present (not an AuthenticAMD CPU)");
		return -ENODEV;
	}
	amd.family = x86_cpu_family(x86_pmu_io->cpuid(CPUID_LEAF_FEATURES, 0).eax);
	if (amd.family < AMD_FAMILY_MIN) {
		snprintf(caps->status, sizeof(caps->status),
		         "amd: not present (family %u has no PerfEvtSel MSRs)",
		         amd.family);
		return -ENODEV;
	}
	amd.core = has_perfctr_core();
	amd.ncounters = amd.core ? AMD_CORE_COUNTERS : AMD_LEGACY_COUNTERS;
	if (amd.core)
		snprintf(caps->name, sizeof(caps->name), "amd-core");
	caps->counts = liveness(why, sizeof(why));
	caps->cpu_events = true;        /* the CPU's own events, not kernel-seen ones */
	amd.irq = caps->counts && lapic_pmi_ready();
	caps->overflow_irq = amd.irq;
	fill_caps(caps);
	/* The verdict first: a long line loses the layout, never the why. */
	snprintf(caps->status, sizeof(caps->status),
	         "%s: %s (%s); family %xh, %ux48, %s", caps->name,
	         caps->counts ? "counting" : "present but not counting", why,
	         amd.family, amd.ncounters, lapic_pmi_describe());
	return 0;
}

/* ---- check --------------------------------------------------------------- */

static int refuse(char *reason, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int refuse(char *reason, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int check_one(struct pmu_counter_ctl *c, uint32_t *seen, char *reason,
                     size_t len)
{
	uint32_t bad = c->event & ~AMD_CODE_VALID;

	if (c->hw >= amd.ncounters || (*seen & (1u << c->hw)))
		return refuse(reason, len, "counter %u out of range (%u) or used "
		              "twice", (unsigned)c->hw, amd.ncounters);
	*seen |= 1u << c->hw;
	if (bad)
		return refuse(reason, len, "amd code 0x%x: bits 0x%x are reserved "
		              "(code layout: event 7:0, umask 15:8, event 11:8 at "
		              "19:16, edge 20, inv 23, cmask 31:24)",
		              (unsigned)c->event, (unsigned)bad);
	if (!c->modes || (c->modes & ~(PMU_MODE_K | PMU_MODE_U)))
		return refuse(reason, len, "amd filters u and k only, not modes "
		              "0x%x (counter %u)", (unsigned)c->modes,
		              (unsigned)c->hw);
	if ((c->flags & PMU_CTR_IMODE) && !amd.irq)
		return refuse(reason, len, "counter %u cannot interrupt: no "
		              "counting PMU with a LAPIC LVT PC vector",
		              (unsigned)c->hw);
	if ((c->flags & PMU_CTR_IMODE) &&
	    (c->period == 0 || c->period > AMD_MAX_PERIOD))
		return refuse(reason, len, "period out of 1..2^47 on counter %u",
		              (unsigned)c->hw);
	return 0;
}

static int amd_check(struct pmu_control *ctl, bool global, char *reason,
                     size_t len)
{
	uint32_t seen = 0;

	(void)global;
	if (ctl->n > amd.ncounters)
		return refuse(reason, len, "%u counters asked, %u here", ctl->n,
		              amd.ncounters);
	for (unsigned k = 0; k < ctl->n; k++) {
		struct pmu_counter_ctl *c = &ctl->ctr[k];
		int err = check_one(c, &seen, reason, len);

		if (err)
			return err;
		c->evtsel = encode(c->event) | EVTSEL_EN;
		c->evtsel |= c->modes & PMU_MODE_U ? EVTSEL_USR : 0;
		c->evtsel |= c->modes & PMU_MODE_K ? EVTSEL_OS : 0;
		if (c->flags & PMU_CTR_IMODE) {
			c->evtsel |= EVTSEL_INT;
			c->ireset = pmu_ireset_wrap(c->period, AMD_WIDTH);
		}
	}
	memset(ctl->global, 0, sizeof(ctl->global));
	return 0;
}

/* ---- running ------------------------------------------------------------- */

static void amd_resume(struct pmu_state *st)
{
	/* Time-enabled starts before the first counter can count, so no
	 * count ever runs ahead of the time it was enabled for. */
	st->cycles_start = x86_pmu_io->rdtsc();
	for (unsigned k = 0; k < st->ctl.n; k++) {
		const struct pmu_counter_ctl *c = &st->ctl.ctr[k];

		if (c->flags & PMU_CTR_IMODE)
			write_counter(c->hw, st->ctr[k].start);
		else
			st->ctr[k].start = read_counter(c->hw);
		x86_pmu_io->wrmsr(ctl_msr(c->hw), c->evtsel);
	}
}

static void amd_suspend(struct pmu_state *st)
{
	uint64_t now;

	for (unsigned k = 0; k < st->ctl.n; k++)
		x86_pmu_io->wrmsr(ctl_msr(st->ctl.ctr[k].hw), 0);
	for (unsigned k = 0; k < st->ctl.n; k++) {
		uint64_t v = read_counter(st->ctl.ctr[k].hw);

		st->ctr[k].sum += pmu_delta(st->ctr[k].start, v, AMD_WIDTH);
		st->ctr[k].start = v;
	}
	now = x86_pmu_io->rdtsc();
	st->cycles_sum += now - st->cycles_start;
	st->cycles_start = now;
}

static uint32_t amd_identify_overflow(struct pmu_state *st)
{
	uint32_t slots = 0;

	for (unsigned k = 0; k < st->ctl.n; k++) {
		const struct pmu_counter_ctl *c = &st->ctl.ctr[k];

		if (!(c->flags & PMU_CTR_IMODE) || st->ctr[k].start >= c->ireset)
			continue;
		slots |= 1u << k;
		st->ctr[k].start = c->ireset;
	}
	return slots;
}

static void amd_ireload(struct pmu_state *st)
{
	for (unsigned k = 0; k < st->ctl.n; k++) {
		struct pmu_counter_ctl *c = &st->ctl.ctr[k];

		if (!(c->flags & PMU_CTR_IMODE))
			continue;
		c->ireset = pmu_ireset_wrap(c->period, AMD_WIDTH);
		c->evtsel |= EVTSEL_INT;
		st->ctr[k].start = c->ireset;
	}
}

/*
 * A code (Tally's AMD layout) from parts: EventSelect is 12 bits, split
 * into code bits 7:0 and 19:16; UnitMask and CntMask 8 bits each.
 */
/* Codes from parts: events_amd_encode (kernel/events/encode.c), shared
 * with the AMD models so they encode as this driver does. */

static uint64_t amd_read_cycles(void)
{
	return x86_pmu_io->rdtsc();
}

const struct pmu_ops amd_ops = {
	.name = "amd",
	.probe = amd_probe,
	.check = amd_check,
	.encode = events_amd_encode,
	.resume = amd_resume,
	.suspend = amd_suspend,
	.identify_overflow = amd_identify_overflow,
	.ireload = amd_ireload,
	.read_cycles = amd_read_cycles,
};

PMU_DRIVER(amd, PMU_RANK_ARCH, &amd_ops);
