/*
 * intel_arch.c - the Intel architectural PMU driver.
 *
 * Layouts from the Intel SDM vol. 3B, chapter "Performance Monitoring",
 * sections "Architectural Performance Monitoring Version 1" (CPUID.0AH,
 * IA32_PERFEVTSELx, IA32_PMCx), "... Version 2" (fixed counters,
 * IA32_FIXED_CTR_CTRL, IA32_PERF_GLOBAL_CTRL/STATUS/OVF_CTRL), "... Version
 * 3" (AnyThread) and "Full-Width Writes to Performance Counter Registers"
 * (IA32_A_PMCx, IA32_PERF_CAPABILITIES.FW_WRITE); MSR addresses from vol. 4.
 *
 * Counters: general 0..ngp-1, then fixed ngp..ngp+nfixed-1.  A code is
 * IA32_PERFEVTSELx bits 31:0 without the bits the driver owns (USR, OS,
 * INT, EN) and without pin control, which Tally never drives.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "events/events.h"
#include "x86_pmu.h"
#include "lapic_pmi.h"
#include "pmu.h"
#include "x86_pmu_io.h"

/* ---- MSRs (SDM vol. 4, "Architectural MSRs") ----------------------------- */
#define MSR_IA32_PMC0 0x0c1u
#define MSR_IA32_PERFEVTSEL0 0x186u
#define MSR_IA32_FIXED_CTR0 0x309u
#define MSR_IA32_PERF_CAPABILITIES 0x345u
#define MSR_IA32_FIXED_CTR_CTRL 0x38du
#define MSR_IA32_PERF_GLOBAL_STATUS 0x38eu
#define MSR_IA32_PERF_GLOBAL_CTRL 0x38fu
#define MSR_IA32_PERF_GLOBAL_OVF_CTRL 0x390u   /* STATUS_RESET from v4 */
#define MSR_IA32_A_PMC0 0x4c1u
/* IA32_PERFEVTSEL0..7 and IA32_PMC0..7 are the architectural range. */
#define INTEL_GP_MAX 8u

/* ---- CPUID.0AH ----------------------------------------------------------- */
#define ARCH_EAX_VERSION(a) ((a) & 0xffu)
#define ARCH_EAX_NGP(a) (((a) >> 8) & 0xffu)
#define ARCH_EAX_GP_WIDTH(a) (((a) >> 16) & 0xffu)
#define ARCH_EAX_EBX_LEN(a) (((a) >> 24) & 0xffu)
#define ARCH_EDX_NFIXED(d) ((d) & 0x1fu)
#define ARCH_EDX_FIXED_WIDTH(d) (((d) >> 5) & 0xffu)
#define ARCH_EDX_ANYTHREAD_DEPRECATED 0x00008000u
#define ARCH_VERSION_GLOBAL 2u          /* global ctrl/status, fixed ctrs */
#define ARCH_VERSION_ANYTHREAD 3u
#define ARCH_VERSION_FIXED_BITMAP 5u    /* ECX lists fixed counters */
#define CPUID_01_ECX_PDCM 0x00008000u   /* IA32_PERF_CAPABILITIES exists */
#define PERF_CAP_FW_WRITE 0x00002000ull /* bit 13 */

/* ---- IA32_PERFEVTSELx ---------------------------------------------------- */
#define EVTSEL_EVENT 0x000000ffull
#define EVTSEL_UMASK 0x0000ff00ull
#define EVTSEL_USR 0x00010000ull
#define EVTSEL_OS 0x00020000ull
#define EVTSEL_EDGE 0x00040000ull
#define EVTSEL_PC 0x00080000ull
#define EVTSEL_INT 0x00100000ull
#define EVTSEL_ANY 0x00200000ull
#define EVTSEL_EN 0x00400000ull
#define EVTSEL_INV 0x00800000ull
#define EVTSEL_CMASK 0xff000000ull
#define EVTSEL_UMASK_SHIFT 8u
#define EVTSEL_CMASK_SHIFT 24u
/* What a code may carry; the rest is the driver's or reserved. */
#define CODE_VALID (EVTSEL_EVENT | EVTSEL_UMASK | EVTSEL_EDGE | EVTSEL_ANY | \
                    EVTSEL_INV | EVTSEL_CMASK)

/* ---- IA32_FIXED_CTR_CTRL: 4 bits per fixed counter ----------------------- */
#define FIXED_CTRL_OS 0x1u
#define FIXED_CTRL_USR 0x2u
#define FIXED_CTRL_ANY 0x4u
#define FIXED_CTRL_PMI 0x8u
#define FIXED_CTRL_SHIFT(i) (4u * (i))
/* ---- IA32_PERF_GLOBAL_* bit of each counter ------------------------------ */
#define GLOBAL_FIXED_SHIFT 32u
/* Status bits OVF_CTRL clears since version 2, besides the counters. */
#define GLOBAL_STATUS_OVF_BUF (1ull << 62)
#define GLOBAL_STATUS_COND_CHGD (1ull << 63)

/* pmu_control.global[] as this driver uses it. */
#define G_FIXED_CTRL 0
#define G_GLOBAL_CTRL 1

/* Without full-width writes a counter takes EAX sign-extended, so the
 * reset value -period must have bits 31..width-1 equal: period <= 2^31. */
#define LEGACY_MAX_PERIOD (1ull << 31)
#define LIVENESS_LOOPS 100000u
#define WRITE_PROBE 0x5a5a5aull         /* bit 31 clear: any write path */

static struct {
	unsigned version, ngp, nfixed, gp_width, fixed_width;
	bool fw_write, any_ok;
	bool irq;                       /* counts, and the LAPIC PMI is set */
	uint32_t ebx_unavail;
	unsigned ebx_len;
	struct pmu_event events[INTEL_ARCH_TABLE_MAX];
	struct pmu_event_table table;
	/* The model's own events (kernel/events/intel_skl_table.c), after the
	 * architectural ones, when CPUID names a model Tally has. */
	const struct intel_model *model;
	struct pmu_event mevents[INTEL_MODEL_TABLE_MAX];
	struct pmu_event_table mtable;
} pmu;

/* ---- counter addressing -------------------------------------------------- */

static bool is_fixed(unsigned hw)
{
	return hw >= pmu.ngp;
}

static unsigned width_of(unsigned hw)
{
	return is_fixed(hw) ? pmu.fixed_width : pmu.gp_width;
}

static uint32_t counter_msr(unsigned hw)
{
	return is_fixed(hw) ? MSR_IA32_FIXED_CTR0 + (hw - pmu.ngp)
	                    : MSR_IA32_PMC0 + hw;
}

static uint64_t global_bit(unsigned hw)
{
	return is_fixed(hw) ? 1ull << (GLOBAL_FIXED_SHIFT + hw - pmu.ngp)
	                    : 1ull << hw;
}

/* RDPMC's ECX (SDM vol. 2, RDPMC): a general counter by its number, a
 * fixed counter by its number with this bit set. */
#define RDPMC_FIXED (UINT32_C(1) << 30)

static uint32_t rdpmc_index(unsigned hw)
{
	return is_fixed(hw) ? RDPMC_FIXED | (hw - pmu.ngp) : hw;
}

static uint64_t read_counter(unsigned hw)
{
	return x86_pmu_io->rdmsr(counter_msr(hw)) & pmu_width_mask(width_of(hw));
}

/*
 * General counters through IA32_A_PMCx when FW_WRITE says so.  Otherwise
 * the legacy address keeps EAX sign-extended; check() limits periods so
 * that every value written here survives that (bits 31 and up all equal).
 */
static void write_counter(unsigned hw, uint64_t value)
{
	uint32_t msr = counter_msr(hw);

	if (!is_fixed(hw) && pmu.fw_write)
		msr = MSR_IA32_A_PMC0 + hw;
	x86_pmu_io->wrmsr(msr, value & pmu_width_mask(width_of(hw)));
}

/* 0 when no interrupt can come: pmu_counter_caps.max_period's meaning. */
static uint64_t max_period(unsigned width)
{
	uint64_t m = pmu_width_mask(width);

	if (!pmu.irq)
		return 0;
	return pmu.fw_write || m < LEGACY_MAX_PERIOD ? m : LEGACY_MAX_PERIOD;
}

/* ---- probe --------------------------------------------------------------- */

static bool vendor_intel(struct x86_cpuid v)
{
	return v.ebx == CPUID_VENDOR_INTEL_EBX && v.edx == CPUID_VENDOR_INTEL_EDX &&
	       v.ecx == CPUID_VENDOR_INTEL_ECX;
}

/* Fixed counters present from 0 up without a gap (version 5 may list some
 * in ECX beyond EDX's count). */
static unsigned fixed_count(struct x86_cpuid a)
{
	uint32_t present = (uint32_t)pmu_width_mask(ARCH_EDX_NFIXED(a.edx));
	unsigned n = 0;

	if (pmu.version < ARCH_VERSION_GLOBAL)
		return 0;
	if (pmu.version >= ARCH_VERSION_FIXED_BITMAP)
		present |= a.ecx;
	while (n < INTEL_ARCH_NFIXED_MAX && (present & (1u << n)))
		n++;
	return n;
}

static void decode_leaf_0a(struct x86_cpuid a)
{
	pmu.version = ARCH_EAX_VERSION(a.eax);
	pmu.ngp = ARCH_EAX_NGP(a.eax);
	if (pmu.ngp > INTEL_GP_MAX)
		pmu.ngp = INTEL_GP_MAX;
	pmu.gp_width = ARCH_EAX_GP_WIDTH(a.eax);
	pmu.ebx_len = ARCH_EAX_EBX_LEN(a.eax);
	pmu.ebx_unavail = a.ebx;
	pmu.nfixed = fixed_count(a);
	pmu.fixed_width = ARCH_EDX_FIXED_WIDTH(a.edx);
	pmu.any_ok = pmu.version >= ARCH_VERSION_ANYTHREAD &&
	             !(a.edx & ARCH_EDX_ANYTHREAD_DEPRECATED);
}

static bool width_ok(unsigned w)
{
	return w >= 8 && w <= 64;
}

static bool read_fw_write(void)
{
	struct x86_cpuid f = x86_pmu_io->cpuid(CPUID_LEAF_FEATURES, 0);

	if (!(f.ecx & CPUID_01_ECX_PDCM))
		return false;
	return (x86_pmu_io->rdmsr(MSR_IA32_PERF_CAPABILITIES) &
	        PERF_CAP_FW_WRITE) != 0;
}

/* Everything off: no counter enabled, no overflow left pending. */
static void quiesce(void)
{
	if (pmu.version >= ARCH_VERSION_GLOBAL) {
		x86_pmu_io->wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 0);
		x86_pmu_io->wrmsr(MSR_IA32_FIXED_CTR_CTRL, 0);
	}
	for (unsigned i = 0; i < pmu.ngp; i++)
		x86_pmu_io->wrmsr(MSR_IA32_PERFEVTSEL0 + i, 0);
}

/* Architectural events 0 (core cycles) and 1 (instructions retired). */
#define ARCH_EV_CYCLES_BIT 0x1u
#define ARCH_EV_CYCLES_CODE 0x003cu
#define ARCH_EV_INSTRUCTIONS_CODE 0x00c0u

static uint32_t liveness_event(void)
{
	if (pmu.ebx_len > 0 && !(pmu.ebx_unavail & ARCH_EV_CYCLES_BIT))
		return ARCH_EV_CYCLES_CODE;
	return ARCH_EV_INSTRUCTIONS_CODE;
}

/*
 * Does PMC0 hold a written value, and advance while a known loop runs?
 * Emulators that accept the MSRs but count nothing fail one or the other.
 */
static bool liveness(char *why, size_t len)
{
	uint64_t back, after;

	x86_pmu_io->wrmsr(MSR_IA32_PERFEVTSEL0, 0);
	write_counter(0, WRITE_PROBE);
	back = read_counter(0);
	if (back != WRITE_PROBE) {
		snprintf(why, len, "PMC0 write lost, read 0x%llx",
		         (unsigned long long)back);
		return false;
	}
	write_counter(0, 0);
	x86_pmu_io->wrmsr(MSR_IA32_PERFEVTSEL0, liveness_event() | EVTSEL_USR |
	                  EVTSEL_OS | EVTSEL_EN);
	if (pmu.version >= ARCH_VERSION_GLOBAL)
		x86_pmu_io->wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, global_bit(0));
	x86_pmu_io->spin(LIVENESS_LOOPS);
	after = read_counter(0);
	quiesce();
	if (after == 0) {
		snprintf(why, len, "PMC0 did not advance");
		return false;
	}
	snprintf(why, len, "PMC0 +%llu in %u steps", (unsigned long long)after,
	         LIVENESS_LOOPS);
	return true;
}

static void fill_caps(struct pmu_caps *caps)
{
	caps->ncounters = pmu.ngp + pmu.nfixed;
	for (unsigned hw = 0; hw < caps->ncounters; hw++) {
		caps->counter[hw].width = (uint8_t)width_of(hw);
		caps->counter[hw].fixed = is_fixed(hw);
		caps->counter[hw].max_period = max_period(width_of(hw));
		caps->counter[hw].user_read = true;
		caps->counter[hw].user_index = rdpmc_index(hw);
	}
	caps->modes = PMU_MODE_K | PMU_MODE_U;
	pmu.table.name = "intel-arch";
	pmu.table.events = pmu.events;
	pmu.table.count = intel_arch_bind(pmu.events, pmu.ngp, pmu.nfixed,
	                                  (uint32_t)pmu_width_mask(pmu.nfixed),
	                                  pmu.ebx_unavail, pmu.ebx_len);
	caps->umask_sets = intel_arch_umasks;
	caps->numask_sets = intel_arch_numasks;
	caps->ntables = 1;
	caps->tables[0] = &pmu.table;
	if (pmu.model && pmu.ngp) {
		pmu.mtable.name = pmu.model->table->name;
		pmu.mtable.events = pmu.mevents;
		pmu.mtable.count = intel_model_bind(pmu.model, pmu.mevents,
		                                    INTEL_MODEL_TABLE_MAX, pmu.ngp);
		caps->tables[caps->ntables++] = &pmu.mtable;
		caps->umask_sets = pmu.model->umask_sets;
		caps->numask_sets = pmu.model->numask_sets;
	}
	caps->fields = PMU_FIELD_EVSEL | PMU_FIELD_UMASK | PMU_FIELD_CMASK |
	               PMU_FIELD_INV | PMU_FIELD_EDGE;
	caps->cmask_max = EVTSEL_CMASK >> EVTSEL_CMASK_SHIFT;
}

static int not_present(struct pmu_caps *caps, const char *why)
{
	snprintf(caps->status, sizeof(caps->status),
	         "intel-arch v%u: not present (%s)", pmu.version, why);
	return -ENODEV;
}

static int intel_probe(struct pmu_caps *caps)
{
	struct x86_cpuid v = x86_pmu_io->cpuid(CPUID_LEAF_VENDOR, 0);
	char why[PMU_STATUS_MAX];

	memset(caps, 0, sizeof(*caps));
	memset(&pmu, 0, sizeof(pmu));
	snprintf(caps->name, sizeof(caps->name), "intel-arch");
	if (!vendor_intel(v))
		return not_present(caps, "not a GenuineIntel CPU");
	if (v.eax < CPUID_LEAF_ARCH_PERF)
		return not_present(caps, "no CPUID leaf 0AH");
	decode_leaf_0a(x86_pmu_io->cpuid(CPUID_LEAF_ARCH_PERF, 0));
	if (pmu.version == 0)
		return not_present(caps, "CPUID.0AH version 0");
	if (pmu.ngp == 0 || !width_ok(pmu.gp_width) ||
	    (pmu.nfixed && !width_ok(pmu.fixed_width)))
		return not_present(caps, "CPUID.0AH lists no usable counters");
	pmu.fw_write = read_fw_write();
	{
		uint32_t sig = x86_pmu_io->cpuid(CPUID_LEAF_FEATURES, 0).eax;

		pmu.model = intel_model_of(x86_cpu_family(sig),
		                           x86_cpu_model(sig));
	}
	caps->counts = liveness(why, sizeof(why));
	caps->cpu_events = true;        /* the CPU's own events, not kernel-seen ones */
	pmu.irq = caps->counts && lapic_pmi_ready();
	caps->overflow_irq = pmu.irq;
	fill_caps(caps);
	/* The verdict first: a long line loses the layout, never the why. */
	snprintf(caps->status, sizeof(caps->status),
	         "intel-arch v%u: %s (%s); %ux%u + %ux%u, %s, %s", pmu.version,
	         caps->counts ? "counting" : "present but not counting", why,
	         pmu.ngp, pmu.gp_width, pmu.nfixed, pmu.fixed_width,
	         pmu.fw_write ? "fw-write" : "32-bit writes",
	         lapic_pmi_describe());
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

static int check_gp(struct pmu_counter_ctl *c, bool global, char *reason,
                    size_t len)
{
	uint64_t bad = c->event & ~CODE_VALID;

	if (bad)
		return refuse(reason, len, "intel-arch code 0x%x: bits 0x%x are "
		              "reserved or the driver's (USR OS PC INT EN)",
		              (unsigned)c->event, (unsigned)bad);
	if ((c->event & EVTSEL_ANY) && !pmu.any_ok)
		return refuse(reason, len, "AnyThread (bit 21) needs version 3 "
		              "without deprecation; this is v%u", pmu.version);
	if ((c->event & EVTSEL_ANY) && !global)
		return refuse(reason, len, "AnyThread (bit 21) counts the "
		              "sibling thread: system-wide only");
	if (c->event == INTEL_FIXED_REF_CYCLES_CODE ||
	    c->event == INTEL_FIXED_SLOTS_CODE)
		return refuse(reason, len, "code 0x%x counts on a fixed counter "
		              "only, not on general counter %u", (unsigned)c->event,
		              (unsigned)c->hw);
	c->evtsel = c->event | EVTSEL_EN;
	c->evtsel |= c->modes & PMU_MODE_U ? EVTSEL_USR : 0;
	c->evtsel |= c->modes & PMU_MODE_K ? EVTSEL_OS : 0;
	c->evtsel |= c->flags & PMU_CTR_IMODE ? EVTSEL_INT : 0;
	return 0;
}

/* Codes from parts: events_intel_encode (kernel/events/encode.c), shared
 * with the Intel models so they encode as this driver does. */

static int check_fixed(struct pmu_counter_ctl *c, uint64_t *fixed_ctrl,
                       char *reason, size_t len)
{
	unsigned i = c->hw - pmu.ngp;
	uint32_t field = 0;

	if (c->event != intel_fixed_code(i))
		return refuse(reason, len, "fixed counter %u counts only code "
		              "0x%x", i, intel_fixed_code(i));
	field |= c->modes & PMU_MODE_K ? FIXED_CTRL_OS : 0;
	field |= c->modes & PMU_MODE_U ? FIXED_CTRL_USR : 0;
	field |= c->flags & PMU_CTR_IMODE ? FIXED_CTRL_PMI : 0;
	c->evtsel = field;
	*fixed_ctrl |= (uint64_t)field << FIXED_CTRL_SHIFT(i);
	return 0;
}

static int check_common(const struct pmu_counter_ctl *c, uint32_t *seen,
                        char *reason, size_t len)
{
	unsigned ntotal = pmu.ngp + pmu.nfixed;

	if (c->hw >= ntotal)
		return refuse(reason, len, "counter %u out of range (%u here)",
		              (unsigned)c->hw, ntotal);
	if (*seen & (1u << c->hw))
		return refuse(reason, len, "counter %u used twice",
		              (unsigned)c->hw);
	*seen |= 1u << c->hw;
	if (!c->modes || (c->modes & ~(PMU_MODE_K | PMU_MODE_U)))
		return refuse(reason, len, "intel-arch filters u and k only, not "
		              "modes 0x%x (counter %u)", (unsigned)c->modes,
		              (unsigned)c->hw);
	if ((c->flags & PMU_CTR_IMODE) && !pmu.irq)
		return refuse(reason, len, "counter %u cannot interrupt: no "
		              "counting PMU with a LAPIC LVT PC vector",
		              (unsigned)c->hw);
	if ((c->flags & PMU_CTR_IMODE) &&
	    (c->period == 0 || c->period > max_period(width_of(c->hw))))
		return refuse(reason, len, "period out of 1..max_period on "
		              "counter %u (%u-bit)", (unsigned)c->hw,
		              width_of(c->hw));
	return 0;
}

static int intel_check(struct pmu_control *ctl, bool global, char *reason,
                       size_t len)
{
	uint32_t seen = 0;
	uint64_t fixed_ctrl = 0, enable = 0;

	if (ctl->n > pmu.ngp + pmu.nfixed)
		return refuse(reason, len, "%u counters asked, intel-arch has %u",
		              ctl->n, pmu.ngp + pmu.nfixed);
	for (unsigned k = 0; k < ctl->n; k++) {
		struct pmu_counter_ctl *c = &ctl->ctr[k];
		int err = check_common(c, &seen, reason, len);

		if (!err && is_fixed(c->hw))
			err = check_fixed(c, &fixed_ctrl, reason, len);
		else if (!err)
			err = check_gp(c, global, reason, len);
		if (err)
			return err;
		if (c->flags & PMU_CTR_IMODE)
			c->ireset = pmu_ireset_wrap(c->period, width_of(c->hw));
		enable |= global_bit(c->hw);
	}
	memset(ctl->global, 0, sizeof(ctl->global));
	ctl->global[G_FIXED_CTRL] = fixed_ctrl;
	ctl->global[G_GLOBAL_CTRL] = enable;
	return 0;
}

/* ---- running ------------------------------------------------------------- */

static void intel_resume(struct pmu_state *st)
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
		if (!is_fixed(c->hw))
			x86_pmu_io->wrmsr(MSR_IA32_PERFEVTSEL0 + c->hw, c->evtsel);
	}
	if (pmu.version >= ARCH_VERSION_GLOBAL) {
		x86_pmu_io->wrmsr(MSR_IA32_FIXED_CTR_CTRL,
		                  st->ctl.global[G_FIXED_CTRL]);
		x86_pmu_io->wrmsr(MSR_IA32_PERF_GLOBAL_CTRL,
		                  st->ctl.global[G_GLOBAL_CTRL]);
	}
}

static void intel_suspend(struct pmu_state *st)
{
	uint64_t now;

	if (pmu.version >= ARCH_VERSION_GLOBAL)
		x86_pmu_io->wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 0);
	else
		for (unsigned k = 0; k < st->ctl.n; k++)
			x86_pmu_io->wrmsr(MSR_IA32_PERFEVTSEL0 +
			                  st->ctl.ctr[k].hw, 0);
	for (unsigned k = 0; k < st->ctl.n; k++) {
		unsigned hw = st->ctl.ctr[k].hw;
		uint64_t v = read_counter(hw);

		st->ctr[k].sum += pmu_delta(st->ctr[k].start, v, width_of(hw));
		st->ctr[k].start = v;
	}
	now = x86_pmu_io->rdtsc();
	st->cycles_sum += now - st->cycles_start;
	st->cycles_start = now;
}

/*
 * Version 2+: IA32_PERF_GLOBAL_STATUS says which counters overflowed, and
 * writing those bits to OVF_CTRL clears them.  Version 1 has no status:
 * a counter started at ireset (high) has wrapped iff it now reads below.
 */
static uint32_t intel_identify_overflow(struct pmu_state *st)
{
	bool has_status = pmu.version >= ARCH_VERSION_GLOBAL;
	uint64_t status = 0;
	uint32_t slots = 0;

	if (has_status)
		status = x86_pmu_io->rdmsr(MSR_IA32_PERF_GLOBAL_STATUS);
	for (unsigned k = 0; k < st->ctl.n; k++) {
		const struct pmu_counter_ctl *c = &st->ctl.ctr[k];
		bool ovf = has_status ? (status & global_bit(c->hw)) != 0
		                      : st->ctr[k].start < c->ireset;

		if (!(c->flags & PMU_CTR_IMODE) || !ovf)
			continue;
		slots |= 1u << k;
		st->ctr[k].start = c->ireset;
	}
	/* Only bits every version defines in OVF_CTRL: a 1 written to one
	 * it lacks (later status bits such as ASCI) would fault. */
	status &= pmu_width_mask(pmu.ngp) |
	          pmu_width_mask(pmu.nfixed) << GLOBAL_FIXED_SHIFT |
	          GLOBAL_STATUS_OVF_BUF | GLOBAL_STATUS_COND_CHGD;
	if (status)
		x86_pmu_io->wrmsr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, status);
	return slots;
}

static void intel_ireload(struct pmu_state *st)
{
	for (unsigned k = 0; k < st->ctl.n; k++) {
		struct pmu_counter_ctl *c = &st->ctl.ctr[k];

		if (!(c->flags & PMU_CTR_IMODE))
			continue;
		c->ireset = pmu_ireset_wrap(c->period, width_of(c->hw));
		st->ctr[k].start = c->ireset;
		if (!is_fixed(c->hw)) {
			c->evtsel |= EVTSEL_INT;
			continue;
		}
		c->evtsel |= FIXED_CTRL_PMI;
		st->ctl.global[G_FIXED_CTRL] |= (uint64_t)FIXED_CTRL_PMI
		        << FIXED_CTRL_SHIFT(c->hw - pmu.ngp);
	}
}

static uint64_t intel_read_cycles(void)
{
	return x86_pmu_io->rdtsc();
}

const struct pmu_ops intel_arch_ops = {
	.name = "intel-arch",
	.probe = intel_probe,
	.check = intel_check,
	.encode = events_intel_encode,
	.resume = intel_resume,
	.suspend = intel_suspend,
	.identify_overflow = intel_identify_overflow,
	.ireload = intel_ireload,
	.read_cycles = intel_read_cycles,
};

PMU_DRIVER(intel_arch, PMU_RANK_ARCH, &intel_arch_ops);
