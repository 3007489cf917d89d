/*
 * hwperf_fakepmu.c - the PMU driver double (see hwperf_fakepmu.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwperf_fake_env.h"
#include "hwperf_fakepmu.h"

#define SEL_MODE_SHIFT 16
#define SEL_ENABLE (1u << 20)
#define SEL_INT (1u << 21)
#define SEL_CODE_MASK 0xffffu
#define ALL 0xffffu
#define C0 0x1u
#define C1 0x2u
#define FIXED2 0x4u

static const struct pmu_event generic_events[] = {
	{ "cycles", FK_CYCLES, ALL, "core cycles" },
	{ "instructions", FK_INSNS, C0 | C1 | 0xfff8u, "instructions" },
	{ "loads", FK_LOADS, C0, "loads, counter 0 only" },
	{ "stores", FK_STORES, C1, "stores, counter 1 only" },
	{ "branches", FK_BRANCHES, C0 | C1 | 0xfff8u, "branches" },
	{ "misses", FK_MISSES, C0 | C1 | 0xfff8u, "cache misses" },
	{ "tlb", FK_TLB, C0 | C1 | 0xfff8u, "TLB misses" },
	{ "faults", FK_FAULTS, C0 | C1 | 0xfff8u, "faults" },
};

const struct pmu_event_table fakepmu_generic_table = {
	"fake", generic_events, sizeof(generic_events) / sizeof(generic_events[0]),
};

static const struct pmu_event r10k_events[] = {
	{ "cycles", R10K_CYCLES0, C0, "cycles (counter 0)" },
	{ "issued-loads", R10K_ISSUED_LOADS, C0, "issued loads" },
	{ "graduated-instructions", R10K_GRAD_INSNS0, C0, "graduated (0)" },
	{ "cycles", R10K_CYCLES1, C1, "cycles (counter 1)" },
	{ "graduated-instructions", R10K_GRAD_INSNS1, C1, "graduated (1)" },
	{ "tlb-misses", R10K_TLB_MISSES, C1, "TLB misses" },
};

const struct pmu_event_table fakepmu_r10k_table = {
	"r10k", r10k_events, sizeof(r10k_events) / sizeof(r10k_events[0]),
};

struct fk_ctr {
	uint64_t value;
	uint32_t sel;
};

struct fk_bank {
	struct fk_ctr ctr[PMU_MAX_COUNTERS];
	uint64_t skid_left[PMU_MAX_COUNTERS];
	uint32_t ovf;
};

static struct fakepmu_cfg cfg;
static struct fk_bank banks[HWPERF_MAX_CPUS];
uint64_t fakepmu_clock;
uintptr_t fakepmu_pc;
unsigned fakepmu_interrupts;

void fakepmu_default(struct fakepmu_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->ncounters = 2;
	c->width = 32;
	c->irq = true;
	c->ovf = FAKEPMU_OVF_WRAP;
	c->modes = PMU_MODE_ALL;
	c->table = &fakepmu_generic_table;
}

void fakepmu_setup(const struct fakepmu_cfg *c)
{
	cfg = *c;
	memset(banks, 0, sizeof(banks));
	fakepmu_clock = 0;
	fakepmu_pc = 0;
	fakepmu_interrupts = 0;
	fakepmu_foreign = 0;
}

static uint64_t mask(void)
{
	return pmu_width_mask(cfg.width);
}

static uint64_t half(void)
{
	return (uint64_t)1 << (cfg.width - 1);
}

static uint64_t max_period(void)
{
	return cfg.ovf == FAKEPMU_OVF_MSB ? half() : mask();
}

static uint64_t ireset_of(uint64_t period)
{
	if (cfg.ovf == FAKEPMU_OVF_MSB)
		return half() - period;
	return pmu_ireset_wrap(period, cfg.width);
}

uint64_t fakepmu_value(unsigned cpu, unsigned hw)
{
	return banks[cpu].ctr[hw].value;
}

bool fakepmu_enabled(unsigned cpu, unsigned hw)
{
	return (banks[cpu].ctr[hw].sel & SEL_ENABLE) != 0;
}

uint32_t fakepmu_code(unsigned cpu, unsigned hw)
{
	return banks[cpu].ctr[hw].sel & SEL_CODE_MASK;
}

static uint32_t user_index(unsigned hw)
{
	return (cfg.fixed_mask >> hw) & 1u ? FAKEPMU_UINDEX_FIXED | hw : hw;
}

uint64_t fakepmu_rdpmc(unsigned cpu, uint32_t index)
{
	for (unsigned hw = 0; hw < cfg.ncounters; hw++)
		if (user_index(hw) == index)
			return banks[cpu].ctr[hw].value | ~mask();
	fprintf(stderr, "fakepmu: rdpmc of unknown index 0x%x\n",
	        (unsigned)index);
	abort();
}

/* Events until this counter next overflows. */
static uint64_t distance(uint64_t value)
{
	if (cfg.ovf == FAKEPMU_OVF_WRAP)
		return mask() - value + 1;
	if (value < half())
		return half() - value;
	return mask() - value + 1 + half();
}

static void raise_irq(const struct fk_ctr *c, uint32_t mode)
{
	if (cfg.irq && (c->sel & SEL_INT)) {
		fakepmu_interrupts++;
		pmu_interrupt(fakepmu_pc, mode);
	}
}

/* The interrupt of an overflow arrives cfg.skid events late. */
static uint64_t add_skid(struct fk_bank *b, unsigned hw, uint32_t mode,
                         uint64_t n)
{
	struct fk_ctr *c = &b->ctr[hw];
	uint64_t k = n < b->skid_left[hw] ? n : b->skid_left[hw];

	c->value = (c->value + k) & mask();
	b->skid_left[hw] -= k;
	if (b->skid_left[hw] == 0)
		raise_irq(c, mode);
	return n - k;
}

static void add(struct fk_bank *b, unsigned hw, uint32_t code, uint32_t mode,
                uint64_t n)
{
	while (n) {
		struct fk_ctr *c = &b->ctr[hw];
		uint64_t d;

		if (!(c->sel & SEL_ENABLE) || (c->sel & SEL_CODE_MASK) != code ||
		    !((c->sel >> SEL_MODE_SHIFT) & mode))
			return;
		if (b->skid_left[hw]) {
			n = add_skid(b, hw, mode, n);
			continue;
		}
		d = distance(c->value);
		if (n < d) {
			c->value = (c->value + n) & mask();
			return;
		}
		c->value = (c->value + d) & mask();
		n -= d;
		b->ovf |= 1u << hw;
		if (cfg.skid)
			b->skid_left[hw] = cfg.skid;
		else
			raise_irq(c, mode);
	}
}

void fakepmu_count(unsigned cpu, uint32_t code, uint32_t mode, uint64_t n)
{
	unsigned saved = fake_cpu;

	fake_cpu = cpu;
	for (unsigned hw = 0; hw < cfg.ncounters; hw++)
		add(&banks[cpu], hw, code, mode, n);
	fake_cpu = saved;
}

/* Registers of one CPU touched while another CPU runs (fake_cpu): a PMU
 * is only ever its own CPU's (hwperf.h), so every test expects 0. */
unsigned fakepmu_foreign;

/* ---- ops ------------------------------------------------------------------ */

static int fk_probe(struct pmu_caps *caps)
{
	memset(caps, 0, sizeof(*caps));
	snprintf(caps->name, sizeof(caps->name), "fake");
	if (cfg.absent) {
		snprintf(caps->status, sizeof(caps->status),
		         "fake: not present (test says so)");
		return -ENODEV;
	}
	snprintf(caps->status, sizeof(caps->status), "fake: %u x %u bits",
	         cfg.ncounters, cfg.width);
	caps->ncounters = cfg.ncounters;
	for (unsigned k = 0; k < cfg.ncounters; k++) {
		caps->counter[k].width = (uint8_t)cfg.width;
		caps->counter[k].fixed = (cfg.fixed_mask >> k) & 1u;
		caps->counter[k].max_period = cfg.irq ? max_period() : 0;
		caps->counter[k].user_read = cfg.user_read;
		caps->counter[k].user_index = user_index(k);
	}
	caps->modes = cfg.modes;
	caps->counts = true;
	caps->overflow_irq = cfg.irq;
	caps->slots_per_counter = cfg.slots_per_counter;
	caps->ntables = 1;
	caps->tables[0] = cfg.table;
	return 0;
}

/* Mask of counters the code may use: its table entries, else raw. */
static uint32_t allowed(uint32_t code)
{
	uint32_t m = 0;
	bool known = false;

	for (unsigned e = 0; e < cfg.table->count; e++)
		if (cfg.table->events[e].code == code) {
			m |= cfg.table->events[e].counters;
			known = true;
		}
	return known ? m : ~cfg.fixed_mask;
}

static int fk_check_one(struct pmu_counter_ctl *c, uint32_t *seen,
                        char *reason, size_t len)
{
	if (c->hw >= cfg.ncounters || (*seen >> c->hw) & 1u) {
		snprintf(reason, len, "fake counter %u bad or used twice",
		         (unsigned)c->hw);
		return -EINVAL;
	}
	*seen |= 1u << c->hw;
	if (c->event > FK_CODE_MAX) {
		snprintf(reason, len, "code 0x%x has reserved bits",
		         (unsigned)c->event);
		return -EINVAL;
	}
	if (!((allowed(c->event) >> c->hw) & 1u)) {
		snprintf(reason, len, "code 0x%x is not countable on counter %u",
		         (unsigned)c->event, (unsigned)c->hw);
		return -EINVAL;
	}
	if (!c->modes || (c->modes & ~cfg.modes)) {
		snprintf(reason, len, "modes 0x%x not supported",
		         (unsigned)c->modes);
		return -EINVAL;
	}
	if ((c->flags & PMU_CTR_IMODE) &&
	    (!cfg.irq || c->period == 0 || c->period > max_period())) {
		snprintf(reason, len, "bad period %llu",
		         (unsigned long long)c->period);
		return -EINVAL;
	}
	c->evtsel = c->event | c->modes << SEL_MODE_SHIFT | SEL_ENABLE;
	if (c->flags & PMU_CTR_IMODE) {
		c->evtsel |= SEL_INT;
		c->ireset = ireset_of(c->period);
	}
	return 0;
}

static int fk_check(struct pmu_control *ctl, bool global, char *reason,
                    size_t len)
{
	uint32_t seen = 0;

	(void)global;
	for (unsigned k = 0; k < ctl->n; k++) {
		int err = fk_check_one(&ctl->ctr[k], &seen, reason, len);

		if (err < 0)
			return err;
	}
	return 0;
}

static void fk_resume(struct pmu_state *st)
{
	struct fk_bank *b = &banks[st->cpu];

	if (st->cpu != fake_cpu)
		fakepmu_foreign++;

	for (unsigned k = 0; k < st->ctl.n; k++) {
		const struct pmu_counter_ctl *c = &st->ctl.ctr[k];
		struct fk_ctr *h = &b->ctr[c->hw];

		h->sel = (uint32_t)c->evtsel;
		if (c->flags & PMU_CTR_IMODE)
			h->value = st->ctr[k].start & mask();
		else
			st->ctr[k].start = h->value;
	}
	st->cycles_start = fakepmu_clock;
}

static void fk_suspend(struct pmu_state *st)
{
	struct fk_bank *b = &banks[st->cpu];

	if (st->cpu != fake_cpu)
		fakepmu_foreign++;

	for (unsigned k = 0; k < st->ctl.n; k++) {
		struct fk_ctr *h = &b->ctr[st->ctl.ctr[k].hw];

		h->sel = 0;
		b->skid_left[st->ctl.ctr[k].hw] = 0;    /* stopped: no late irq */
		st->ctr[k].sum += pmu_delta(st->ctr[k].start, h->value, cfg.width);
		st->ctr[k].start = h->value;
	}
	st->cycles_sum += fakepmu_clock - st->cycles_start;
	st->cycles_start = fakepmu_clock;
}

static uint32_t fk_identify(struct pmu_state *st)
{
	struct fk_bank *b = &banks[st->cpu];
	uint32_t slots = 0;

	for (unsigned k = 0; k < st->ctl.n; k++) {
		const struct pmu_counter_ctl *c = &st->ctl.ctr[k];

		if ((c->flags & PMU_CTR_IMODE) && ((b->ovf >> c->hw) & 1u)) {
			slots |= 1u << k;
			st->ctr[k].start = c->ireset;
		}
	}
	b->ovf = 0;
	return slots;
}

static void fk_ireload(struct pmu_state *st)
{
	for (unsigned k = 0; k < st->ctl.n; k++) {
		struct pmu_counter_ctl *c = &st->ctl.ctr[k];

		if (!(c->flags & PMU_CTR_IMODE))
			continue;
		c->ireset = ireset_of(c->period);
		c->evtsel |= SEL_INT;
		st->ctr[k].start = c->ireset;
	}
}

static uint64_t fk_cycles(void)
{
	return fakepmu_clock;
}

const struct pmu_ops fakepmu_ops = {
	.name = "fake",
	.probe = fk_probe,
	.check = fk_check,
	.resume = fk_resume,
	.suspend = fk_suspend,
	.identify_overflow = fk_identify,
	.ireload = fk_ireload,
	.read_cycles = fk_cycles,
};
