/*
 * r10k.c - the PMU driver of the R10000 and R12000.
 *
 * From IRIX r10k_evcntrs(5), "The Counters" and "The Control Registers":
 * two 32-bit counters, each with a control register: EXL 0, K 1, S 2,
 * U 3, IE 4, Event from bit 5 -- 4 bits (8:5) on the R10000, whose
 * counters choose among 16 events each, 5 bits (9:5) on the R12000 with 32
 * events per counter; bits above are zero.  A counter interrupts while its
 * bit 31 is set and IE is on, and keeps counting (mips_pmu.h); the
 * interrupt shares IP7 with the Count/Compare timer, and there is no
 * Cause.PCI: the pending test reads the counters.
 *
 * Codes are IRIX event numbers: 0-15 count on counter 0, 16-31 on counter
 * 1 (caps.slots_per_counter = 16, the IRIX slot layout).  The R10000's
 * Event field takes the number within its counter (code mod 16); the
 * R12000's takes the IRIX number itself, as its event list does.
 *
 * Identified by PRId: company field 0 (pre-MIPS32 parts), implementation
 * 0x09 R10000, 0x0e R12000.  No Malta board carries these CPUs and QEMU
 * models neither, so this driver is tested on the host only.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "arch/mips/cp0.h"
#include "events/events.h"
#include "mips_pmu.h"
#include "mips_pmu_io.h"

#define PRID_IMP_R10000 0x09u
#define PRID_IMP_R12000 0x0eu
/* Revision byte: major.minor in two nibbles (hinv prints "3.4"). */
#define R10K_PRID_MAJOR_SHIFT 4
#define R10K_PRID_NIBBLE 0xfu

#define R10K_COUNTERS 2u
#define R10K_WIDTH 32u
#define R10K_EVENTS 32u
#define R10K_SLOTS 16u
#define R10K_CTL_MODE_MASK 0x0000000fu  /* EXL K S U = PMU_MODE_* */
#define R10K_CTL_IE 0x00000010u
#define R10K_CTL_EVENT_SHIFT 5
#define R10000_EVENT_FIELD 0xfu         /* bits 8:5 */
#define R12000_EVENT_FIELD 0x1fu        /* bits 9:5 */

#define LIVENESS_LOOPS 100000u
#define LIVENESS_EVENT 0u               /* cycles, counter 0 */
#define WRITE_PROBE 0x00001234u

static inline unsigned ctl_sel(unsigned hw) { return 2 * hw; }
static inline unsigned cnt_sel(unsigned hw) { return 2 * hw + 1; }

static struct {
	bool r12000;
	uint32_t field;                 /* Event field mask, unshifted */
	bool irq;                       /* counts, IP7 wired */
} r;

static uint32_t read_counter(unsigned hw)
{
	return mips_pmu_io->read(CP0_PERFCTL, cnt_sel(hw));
}

static void write_counter(unsigned hw, uint64_t v)
{
	mips_pmu_io->write(CP0_PERFCTL, cnt_sel(hw), (uint32_t)v);
}

static void write_control(unsigned hw, uint32_t v)
{
	mips_pmu_io->write(CP0_PERFCTL, ctl_sel(hw), v);
}

/* The Event field value of IRIX event `code`. */
static uint32_t event_field(uint32_t code)
{
	return (r.r12000 ? code : code % R10K_SLOTS) & r.field;
}

/* ---- probe --------------------------------------------------------------- */

static bool counters_pending(void)
{
	for (unsigned hw = 0; hw < R10K_COUNTERS; hw++)
		if ((mips_pmu_io->read(CP0_PERFCTL, ctl_sel(hw)) & R10K_CTL_IE) &&
		    mips_pmu_overflowed(read_counter(hw), R10K_WIDTH))
			return true;
	return false;
}

static bool liveness(char *why, size_t len)
{
	uint32_t back, after;

	write_control(0, 0);
	write_counter(0, WRITE_PROBE);
	back = read_counter(0);
	if (back != WRITE_PROBE) {
		snprintf(why, len, "counter 0 write lost, read 0x%x",
		         (unsigned)back);
		return false;
	}
	write_counter(0, 0);
	write_control(0, event_field(LIVENESS_EVENT) << R10K_CTL_EVENT_SHIFT |
	              PMU_MODE_X | PMU_MODE_K | PMU_MODE_U);
	mips_pmu_io->spin(LIVENESS_LOOPS);
	after = read_counter(0);
	write_control(0, 0);
	write_control(1, 0);
	if (after == 0) {
		snprintf(why, len, "counter 0 did not advance");
		return false;
	}
	snprintf(why, len, "counter 0 +%u in %u steps", (unsigned)after,
	         LIVENESS_LOOPS);
	return true;
}

static void fill_caps(struct pmu_caps *caps)
{
	caps->overflow_irq = r.irq;
	caps->ncounters = R10K_COUNTERS;
	for (unsigned hw = 0; hw < R10K_COUNTERS; hw++) {
		caps->counter[hw].width = R10K_WIDTH;
		/* 0 when no interrupt can come, as pmu.h defines it. */
		caps->counter[hw].max_period = r.irq ?
		        mips_pmu_max_period(R10K_WIDTH) : 0;
		/* The counters are CP0 registers: only the kernel reads them. */
		caps->counter[hw].user_read = false;
	}
	caps->modes = PMU_MODE_ALL;
	caps->slots_per_counter = R10K_SLOTS;
	caps->ntables = 1;
	caps->tables[0] = r.r12000 ? &r12000_table : &r10000_table;
}

static int r10k_probe(struct pmu_caps *caps)
{
	uint32_t prid = mips_pmu_io->read(CP0_PRID, CP0_SEL_MAIN);
	unsigned comp = (prid >> PRID_COMP_SHIFT) & PRID_FIELD_MASK;
	unsigned imp = (prid >> PRID_IMP_SHIFT) & PRID_FIELD_MASK;
	char why[PMU_STATUS_MAX];

	memset(caps, 0, sizeof(*caps));
	memset(&r, 0, sizeof(r));
	snprintf(caps->name, sizeof(caps->name), "r10000");
	if (comp != PRID_COMP_LEGACY ||
	    (imp != PRID_IMP_R10000 && imp != PRID_IMP_R12000)) {
		snprintf(caps->status, sizeof(caps->status),
		         "r10k: not present (PRId 0x%08x is no R10000/R12000)",
		         (unsigned)prid);
		return -ENODEV;
	}
	r.r12000 = imp == PRID_IMP_R12000;
	r.field = r.r12000 ? R12000_EVENT_FIELD : R10000_EVENT_FIELD;
	if (r.r12000)
		snprintf(caps->name, sizeof(caps->name), "r12000");
	caps->counts = liveness(why, sizeof(why));
	caps->cpu_events = true;        /* the CPU's own events, not kernel-seen ones */
	r.irq = caps->counts && mips_pmu_irq_ready();
	fill_caps(caps);
	if (caps->counts)
		mips_pmu_irq_source(counters_pending);
	/* The verdict first: a long line loses the layout, never the why. */
	snprintf(caps->status, sizeof(caps->status),
	         "%s: %s (%s); rev %u.%u, 2x32, IP7=timer", caps->name,
	         caps->counts ? "counting" : "present but not counting", why,
	         (unsigned)(prid >> R10K_PRID_MAJOR_SHIFT) & R10K_PRID_NIBBLE,
	         (unsigned)prid & R10K_PRID_NIBBLE);
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

static int check_one(const struct pmu_counter_ctl *c, uint32_t *seen,
                     char *reason, size_t len)
{
	if (c->hw >= R10K_COUNTERS || (*seen & (1u << c->hw)))
		return refuse(reason, len, "counter %u out of range (2) or used "
		              "twice", (unsigned)c->hw);
	*seen |= 1u << c->hw;
	if (c->event >= R10K_EVENTS)
		return refuse(reason, len, "event %u: IRIX events are 0..31",
		              (unsigned)c->event);
	if (c->event / R10K_SLOTS != c->hw)
		return refuse(reason, len, "event %u counts on counter %u, not %u",
		              (unsigned)c->event, (unsigned)(c->event / R10K_SLOTS),
		              (unsigned)c->hw);
	if (!c->modes || (c->modes & ~PMU_MODE_ALL))
		return refuse(reason, len, "modes 0x%x: need some of x k s u",
		              (unsigned)c->modes);
	if ((c->flags & PMU_CTR_IMODE) && !r.irq)
		return refuse(reason, len, "counter %u cannot interrupt: no "
		              "counting PMU with IP7 wired", (unsigned)c->hw);
	if ((c->flags & PMU_CTR_IMODE) &&
	    (c->period == 0 || c->period > mips_pmu_max_period(R10K_WIDTH)))
		return refuse(reason, len, "period out of 1..2^31 on counter %u",
		              (unsigned)c->hw);
	return 0;
}

static int r10k_check(struct pmu_control *ctl, bool global, char *reason,
                      size_t len)
{
	uint32_t seen = 0;

	(void)global;
	if (ctl->n > R10K_COUNTERS)
		return refuse(reason, len, "%u counters asked, 2 here", ctl->n);
	for (unsigned k = 0; k < ctl->n; k++) {
		struct pmu_counter_ctl *c = &ctl->ctr[k];
		int err = check_one(c, &seen, reason, len);

		if (err)
			return err;
		c->evtsel = (c->modes & R10K_CTL_MODE_MASK) |
		            event_field(c->event) << R10K_CTL_EVENT_SHIFT;
		if (c->flags & PMU_CTR_IMODE) {
			c->evtsel |= R10K_CTL_IE;
			c->ireset = mips_pmu_ireset(c->period, R10K_WIDTH);
		}
	}
	memset(ctl->global, 0, sizeof(ctl->global));
	return 0;
}

/* ---- running ------------------------------------------------------------- */

static void r10k_resume(struct pmu_state *st)
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

static void r10k_suspend(struct pmu_state *st)
{
	uint64_t now;

	for (unsigned k = 0; k < st->ctl.n; k++)
		write_control(st->ctl.ctr[k].hw, 0);
	for (unsigned k = 0; k < st->ctl.n; k++) {
		uint32_t v = read_counter(st->ctl.ctr[k].hw);

		st->ctr[k].sum += pmu_delta(st->ctr[k].start, v, R10K_WIDTH);
		st->ctr[k].start = v;
	}
	now = mips_pmu_io->cycles();
	st->cycles_sum += now - st->cycles_start;
	st->cycles_start = now;
}

static uint32_t r10k_identify_overflow(struct pmu_state *st)
{
	uint32_t slots = 0;

	for (unsigned k = 0; k < st->ctl.n; k++) {
		const struct pmu_counter_ctl *c = &st->ctl.ctr[k];

		if (!(c->flags & PMU_CTR_IMODE) ||
		    !mips_pmu_overflowed(st->ctr[k].start, R10K_WIDTH))
			continue;
		slots |= 1u << k;
		st->ctr[k].start = c->ireset;
	}
	return slots;
}

static void r10k_ireload(struct pmu_state *st)
{
	for (unsigned k = 0; k < st->ctl.n; k++) {
		struct pmu_counter_ctl *c = &st->ctl.ctr[k];

		if (!(c->flags & PMU_CTR_IMODE))
			continue;
		c->ireset = mips_pmu_ireset(c->period, R10K_WIDTH);
		c->evtsel |= R10K_CTL_IE;
		st->ctr[k].start = c->ireset;
	}
}

static uint64_t r10k_read_cycles(void)
{
	return mips_pmu_io->cycles();
}

const struct pmu_ops r10k_pmu_ops = {
	.name = "r10k",
	.probe = r10k_probe,
	.check = r10k_check,
	.resume = r10k_resume,
	.suspend = r10k_suspend,
	.identify_overflow = r10k_identify_overflow,
	.ireload = r10k_ireload,
	.read_cycles = r10k_read_cycles,
};

PMU_DRIVER(r10k, PMU_RANK_MODEL, &r10k_pmu_ops);
