/*
 * mips32.c - the PMU driver of the MIPS32 cores on Malta core cards: 24K,
 * 34K, 74K, 1004K, interAptiv, P5600.
 *
 * Layouts from the MIPS32 PRA (vol. III), "Performance Counter Register
 * (CP0 Register 25, Select 0-7)", and the cores' Software User's Manuals:
 * Config1.PC (bit 4) says counters exist; PerfCtl n is (25, 2n) and
 * PerfCnt n is (25, 2n + 1); PerfCtl.M (bit 31) says counter n + 1 exists
 * and PerfCtl.W (bit 30) that counter n is 64 bits wide.  PerfCtl: EXL 0,
 * K 1, S 2, U 3, IE 4, Event from bit 5 (6 bits, 10:5, on the 24K, 34K,
 * 74K and 1004K; with EventExt 14:11 on interAptiv and P5600), and on MT
 * cores VPEID 19:16, MT_EN 21:20 (1: count only the VPE named by VPEID),
 * TCID 29:22.  Overflow interrupts per mips_pmu.h; Release 2 cores flag
 * them in Cause.PCI (bit 26) and raise IP line IntCtl.IPPCI (28:26).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "arch/mips/cp0.h"
#include "events/events.h"
#include "mips_pmu.h"
#include "mips_pmu_io.h"

#define PERFCTL_EXL 0x00000001u
#define PERFCTL_IE 0x00000010u
#define PERFCTL_MODE_MASK 0x0000000fu   /* EXL K S U = PMU_MODE_* */
#define PERFCTL_EVENT_SHIFT 5
#define PERFCTL_VPEID_SHIFT 16
#define PERFCTL_MT_EN_SHIFT 20
#define PERFCTL_MT_EN_VPE 1u
#define PERFCTL_W 0x40000000u
#define PERFCTL_M 0x80000000u
#define PERFCTL_VPEID_MAX 0xfu
#define MIPS_MAX_COUNTERS 4u            /* selects 0..7: four pairs */
#define EVENT_MAX_R2 0x3fu              /* Event 10:5 */
#define EVENT_MAX_EXT 0x3ffu            /* Event 10:5 + EventExt 14:11 */

#define LIVENESS_LOOPS 100000u
#define LIVENESS_EVENT 0u               /* cycles on every core here */
#define WRITE_PROBE 0x00001234u

static inline unsigned ctl_sel(unsigned hw) { return 2 * hw; }
static inline unsigned cnt_sel(unsigned hw) { return 2 * hw + 1; }

struct mips_core {
	uint8_t imp;                    /* PRId implementation, company 1 */
	const char *name;
	const struct pmu_event_table *table;
	uint16_t event_max;
	bool mt;                        /* MT ASE core: counters see VPEs */
};

static const struct mips_core cores[] = {
	{ 0x93, "mips-24k", &mips_24k_table, EVENT_MAX_R2, false },
	{ 0x96, "mips-24ke", &mips_24k_table, EVENT_MAX_R2, false },
	{ 0x95, "mips-34k", &mips_34k_table, EVENT_MAX_R2, true },
	{ 0x97, "mips-74k", &mips_74k_table, EVENT_MAX_R2, false },
	{ 0x99, "mips-1004k", &mips_1004k_table, EVENT_MAX_R2, true },
	{ 0xa0, "mips-interaptiv", &mips_interaptiv_table, EVENT_MAX_EXT, true },
	{ 0xa1, "mips-interaptiv-mp", &mips_interaptiv_table, EVENT_MAX_EXT,
	  true },
	{ 0xa8, "mips-p5600", &mips_p5600_table, EVENT_MAX_EXT, false },
};

static const struct mips_core unknown_core = {
	0, "mips32", NULL, EVENT_MAX_R2, false };

static struct {
	const struct mips_core *core;
	unsigned n;
	unsigned width[MIPS_MAX_COUNTERS];
	bool wide_io[MIPS_MAX_COUNTERS];        /* 64-bit through read64 */
	uint64_t max_period[MIPS_MAX_COUNTERS];
	uint32_t mt_filter;                     /* MT_EN/VPEID bits, or 0 */
	bool irq;                               /* counts, line wired */
	bool r2;                                /* IntCtl, Cause.PCI exist */
} m;

/* ---- counter access ------------------------------------------------------ */

static uint64_t read_counter(unsigned hw)
{
	if (m.wide_io[hw])
		return mips_pmu_io->read64(CP0_PERFCTL, cnt_sel(hw));
	return mips_pmu_io->read(CP0_PERFCTL, cnt_sel(hw));
}

static void write_counter(unsigned hw, uint64_t v)
{
	if (m.wide_io[hw])
		mips_pmu_io->write64(CP0_PERFCTL, cnt_sel(hw), v);
	else
		mips_pmu_io->write(CP0_PERFCTL, cnt_sel(hw), (uint32_t)v);
}

static void write_control(unsigned hw, uint32_t v)
{
	mips_pmu_io->write(CP0_PERFCTL, ctl_sel(hw), v);
}

/* 0 when no interrupt can come: pmu_counter_caps.max_period's meaning. */
static uint64_t max_period(unsigned hw)
{
	return m.irq ? m.max_period[hw] : 0;
}

/* ---- probe --------------------------------------------------------------- */

static const struct mips_core *find_core(uint32_t prid)
{
	unsigned comp = (prid >> PRID_COMP_SHIFT) & PRID_FIELD_MASK;
	unsigned imp = (prid >> PRID_IMP_SHIFT) & PRID_FIELD_MASK;

	if (comp != PRID_COMP_MIPS)
		return &unknown_core;
	for (unsigned i = 0; i < sizeof(cores) / sizeof(cores[0]); i++)
		if (cores[i].imp == imp)
			return &cores[i];
	return &unknown_core;
}

/* Counter n exists while PerfCtl(n - 1).M says so. */
static void walk_counters(void)
{
	bool wide_ok = mips_pmu_io->read64 && mips_pmu_io->write64;

	m.n = 0;
	while (m.n < MIPS_MAX_COUNTERS) {
		uint32_t ctl = mips_pmu_io->read(CP0_PERFCTL, ctl_sel(m.n));
		bool w = (ctl & PERFCTL_W) != 0;

		m.wide_io[m.n] = w && wide_ok;
		m.width[m.n] = m.wide_io[m.n] ? 64 : 32;
		/* i-mode needs the top bit in view: not on a W counter read
		 * as 32 bits, whose interrupt waits for bit 63. */
		m.max_period[m.n] = w && !wide_ok ? 0
		                    : mips_pmu_max_period(m.width[m.n]);
		m.n++;
		if (!(ctl & PERFCTL_M))
			break;
	}
}

/* MT cores count every VPE's events unless told to filter on this one. */
static uint32_t mt_filter(void)
{
	uint32_t vpe;

	if (!m.core->mt ||
	    !(mips_pmu_io->read(CP0_CONFIG, CP0_SEL_CONFIG3) & CONFIG3_MT))
		return 0;
	vpe = mips_pmu_io->read(CP0_PRID, CP0_SEL_EBASE) & EBASE_CPUNUM_MASK;
	return PERFCTL_MT_EN_VPE << PERFCTL_MT_EN_SHIFT |
	       (vpe & PERFCTL_VPEID_MAX) << PERFCTL_VPEID_SHIFT;
}

static void quiesce(void)
{
	for (unsigned hw = 0; hw < m.n; hw++)
		write_control(hw, 0);
}

static bool liveness(char *why, size_t len)
{
	uint64_t back, after;

	write_control(0, 0);
	write_counter(0, WRITE_PROBE);
	back = read_counter(0);
	if (back != WRITE_PROBE) {
		snprintf(why, len, "PerfCnt0 write lost, read 0x%llx",
		         (unsigned long long)back);
		return false;
	}
	write_counter(0, 0);
	write_control(0, LIVENESS_EVENT << PERFCTL_EVENT_SHIFT | m.mt_filter |
	              PMU_MODE_X | PMU_MODE_K | PMU_MODE_U);
	mips_pmu_io->spin(LIVENESS_LOOPS);
	after = read_counter(0);
	quiesce();
	if (after == 0) {
		snprintf(why, len, "PerfCnt0 did not advance");
		return false;
	}
	snprintf(why, len, "PerfCnt0 +%llu in %u steps",
	         (unsigned long long)after, LIVENESS_LOOPS);
	return true;
}

static bool pci_pending(void)
{
	return (mips_pmu_io->read(CP0_CAUSE, CP0_SEL_MAIN) & CAUSE_PCI) != 0;
}

/* Release 1 has no Cause.PCI: look for an IE counter past its top bit. */
static bool scan_pending(void)
{
	for (unsigned hw = 0; hw < m.n; hw++)
		if ((mips_pmu_io->read(CP0_PERFCTL, ctl_sel(hw)) & PERFCTL_IE) &&
		    mips_pmu_overflowed(read_counter(hw), m.width[hw]))
			return true;
	return false;
}

/* The cores of the table are Release 2 or later; others say in Config.AR
 * (IntCtl and Cause.PCI exist from Release 2 on). */
static bool release2(void)
{
	uint32_t config = mips_pmu_io->read(CP0_CONFIG, CP0_SEL_MAIN);

	return m.core != &unknown_core ||
	       cp0_field(config, CONFIG_AR_MASK, CONFIG_AR_SHIFT) >= CONFIG_AR_R2;
}

/* IntCtl.IPPCI and IPTI hold IP numbers (2..7 for HW0..HW5): "IP7=timer"
 * when the counters share the timer's line. */
static void irq_line(char *buf, size_t len)
{
	uint32_t ic;

	if (!m.r2) {
		snprintf(buf, len, "irq line unknown (Release 1)");
		return;
	}
	ic = mips_pmu_io->read(CP0_STATUS, CP0_SEL_INTCTL);
	unsigned pci = (ic & INTCTL_IPPCI_MASK) >> INTCTL_IPPCI_SHIFT;
	unsigned ti = (ic & INTCTL_IPTI_MASK) >> INTCTL_IPTI_SHIFT;

	/* 0 and 1 are the software lines: the core routes it nowhere (what
	 * QEMU's IntCtl says: IPPCI = 0; `irqs` says why).  Short: the
	 * status line has room for little after a long why. */
	if (pci < IP_FIRST_HW)
		snprintf(buf, len, "no irq");
	else
		snprintf(buf, len, "IP%u%s", pci, pci == ti ? "=timer" : "");
}

static void fill_caps(struct pmu_caps *caps)
{
	snprintf(caps->name, sizeof(caps->name), "%s", m.core->name);
	caps->ncounters = m.n;
	for (unsigned hw = 0; hw < m.n; hw++) {
		caps->counter[hw].width = (uint8_t)m.width[hw];
		caps->counter[hw].max_period = max_period(hw);
		/* PerfCnt is CP0: only the kernel reads it (no rdpmc). */
		caps->counter[hw].user_read = false;
	}
	caps->modes = PMU_MODE_ALL;
	if (m.core->table) {
		caps->ntables = 1;
		caps->tables[0] = m.core->table;
	}
}

static int mips32_probe(struct pmu_caps *caps)
{
	uint32_t prid = mips_pmu_io->read(CP0_PRID, CP0_SEL_MAIN);
	char why[PMU_STATUS_MAX], line[32];

	memset(caps, 0, sizeof(*caps));
	memset(&m, 0, sizeof(m));
	snprintf(caps->name, sizeof(caps->name), "mips32");
	/* Pre-MIPS32 parts (R10000: r10k.c) have no Config1 to ask. */
	if (((prid >> PRID_COMP_SHIFT) & PRID_FIELD_MASK) == PRID_COMP_LEGACY) {
		snprintf(caps->status, sizeof(caps->status),
		         "mips32: not present (PRId 0x%08x: pre-MIPS32 part)",
		         (unsigned)prid);
		return -ENODEV;
	}
	if (!(mips_pmu_io->read(CP0_CONFIG, CP0_SEL_CONFIG1) & CONFIG1_PC)) {
		snprintf(caps->status, sizeof(caps->status),
		         "mips32: not present (Config1.PC = 0)");
		return -ENODEV;
	}
	m.core = find_core(prid);
	m.r2 = release2();
	walk_counters();
	m.mt_filter = mt_filter();
	caps->counts = liveness(why, sizeof(why));
	caps->cpu_events = true;        /* the CPU's own events, not kernel-seen ones */
	m.irq = caps->counts && mips_pmu_irq_ready();
	caps->overflow_irq = m.irq;
	fill_caps(caps);
	/* A PMU that does not count claims no interrupt: they are spurious. */
	mips_pmu_irq_source(!caps->counts ? NULL : m.r2 ? pci_pending : scan_pending);
	irq_line(line, sizeof(line));
	/* The verdict first: a long line loses the layout, never the why. */
	snprintf(caps->status, sizeof(caps->status), "%s: %s (%s); %u ctrs, %s",
	         caps->name,
	         caps->counts ? "counting" : "present but not counting", why,
	         m.n, line);
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
	if (c->hw >= m.n || (*seen & (1u << c->hw)))
		return refuse(reason, len, "counter %u out of range (%u) or used "
		              "twice", (unsigned)c->hw, m.n);
	*seen |= 1u << c->hw;
	if (c->event > m.core->event_max)
		return refuse(reason, len, "event 0x%x beyond the %s Event field "
		              "(max 0x%x)", (unsigned)c->event, m.core->name,
		              (unsigned)m.core->event_max);
	if (!c->modes || (c->modes & ~PMU_MODE_ALL))
		return refuse(reason, len, "modes 0x%x: need some of x k s u",
		              (unsigned)c->modes);
	if (!(c->flags & PMU_CTR_IMODE))
		return 0;
	if (!m.irq)
		return refuse(reason, len, "counter %u cannot interrupt: no "
		              "counting PMU with its IP line wired",
		              (unsigned)c->hw);
	if (max_period(c->hw) == 0)
		return refuse(reason, len, "counter %u is 64-bit and this kernel "
		              "sees only its low half: no overflow interrupt",
		              (unsigned)c->hw);
	if (c->period == 0 || c->period > max_period(c->hw))
		return refuse(reason, len, "period out of 1..2^%u on counter %u",
		              m.width[c->hw] - 1, (unsigned)c->hw);
	return 0;
}

static int mips32_check(struct pmu_control *ctl, bool global, char *reason,
                        size_t len)
{
	uint32_t seen = 0;

	(void)global;
	if (ctl->n > m.n)
		return refuse(reason, len, "%u counters asked, %u here", ctl->n,
		              m.n);
	for (unsigned k = 0; k < ctl->n; k++) {
		struct pmu_counter_ctl *c = &ctl->ctr[k];
		int err = check_one(c, &seen, reason, len);

		if (err)
			return err;
		c->evtsel = (c->modes & PERFCTL_MODE_MASK) | m.mt_filter |
		            c->event << PERFCTL_EVENT_SHIFT;
		if (c->flags & PMU_CTR_IMODE) {
			c->evtsel |= PERFCTL_IE;
			c->ireset = mips_pmu_ireset(c->period, m.width[c->hw]);
		}
	}
	memset(ctl->global, 0, sizeof(ctl->global));
	return 0;
}

/* ---- running ------------------------------------------------------------- */

static void mips32_resume(struct pmu_state *st)
{
	/* Time-enabled starts before the first counter can count, so no
	 * count ever runs ahead of the time it was enabled for. */
	st->cycles_start = mips_pmu_io->cycles();
	for (unsigned k = 0; k < st->ctl.n; k++) {
		const struct pmu_counter_ctl *c = &st->ctl.ctr[k];

		if (c->flags & PMU_CTR_IMODE)
			write_counter(c->hw, st->ctr[k].start);
		else
			st->ctr[k].start = read_counter(c->hw);
		write_control(c->hw, (uint32_t)c->evtsel);
	}
}

static void mips32_suspend(struct pmu_state *st)
{
	uint64_t now;

	for (unsigned k = 0; k < st->ctl.n; k++)
		write_control(st->ctl.ctr[k].hw, 0);
	for (unsigned k = 0; k < st->ctl.n; k++) {
		unsigned hw = st->ctl.ctr[k].hw;
		uint64_t v = read_counter(hw);

		st->ctr[k].sum += pmu_delta(st->ctr[k].start, v, m.width[hw]);
		st->ctr[k].start = v;
	}
	now = mips_pmu_io->cycles();
	st->cycles_sum += now - st->cycles_start;
	st->cycles_start = now;
}

/* suspend() cleared IE, which drops the line; resume() writes ireset. */
static uint32_t mips32_identify_overflow(struct pmu_state *st)
{
	uint32_t slots = 0;

	for (unsigned k = 0; k < st->ctl.n; k++) {
		const struct pmu_counter_ctl *c = &st->ctl.ctr[k];

		if (!(c->flags & PMU_CTR_IMODE) ||
		    !mips_pmu_overflowed(st->ctr[k].start, m.width[c->hw]))
			continue;
		slots |= 1u << k;
		st->ctr[k].start = c->ireset;
	}
	return slots;
}

static void mips32_ireload(struct pmu_state *st)
{
	for (unsigned k = 0; k < st->ctl.n; k++) {
		struct pmu_counter_ctl *c = &st->ctl.ctr[k];

		if (!(c->flags & PMU_CTR_IMODE))
			continue;
		c->ireset = mips_pmu_ireset(c->period, m.width[c->hw]);
		c->evtsel |= PERFCTL_IE;
		st->ctr[k].start = c->ireset;
	}
}

static uint64_t mips32_read_cycles(void)
{
	return mips_pmu_io->cycles();
}

const struct pmu_ops mips32_pmu_ops = {
	.name = "mips32",
	.probe = mips32_probe,
	.check = mips32_check,
	.resume = mips32_resume,
	.suspend = mips32_suspend,
	.identify_overflow = mips32_identify_overflow,
	.ireload = mips32_ireload,
	.read_cycles = mips32_read_cycles,
};

PMU_DRIVER(mips32, PMU_RANK_ARCH, &mips32_pmu_ops);
