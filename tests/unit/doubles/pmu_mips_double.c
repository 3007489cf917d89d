/*
 * pmu_mips_double.c - the recording mips_pmu_io of host tests (see
 * pmu_mips_double.h).
 */
#include <string.h>

#include "pmu.h"
#include "pmu_mips_double.h"

#define PERFCTL_M 0x80000000u
#define PERFCTL_W 0x40000000u
#define PERFCTL_IE 0x10u
#define PERFCTL_MODES 0xfu
#define CAUSE_PCI 0x04000000u
#define QEMU_SEL0_BITS 0x7ffu
#define QEMU_OTHER_SELS 0xffffffffu

static struct {
	struct md_core core;
	uint32_t ctl[MD_MAX_CTRS];
	uint64_t cnt[MD_MAX_CTRS];
	uint32_t qemu_sel0;
	uint64_t rate, count;
	struct md_log log[MD_LOG_MAX];
	unsigned nlog;
} md;

static void log_op(char op, unsigned reg, unsigned sel, uint64_t v)
{
	if (md.nlog < MD_LOG_MAX)
		md.log[md.nlog++] = (struct md_log){ op, reg, sel, v };
}

static unsigned width(void)
{
	return md.core.wide ? 64 : 32;
}

static bool top_set(unsigned hw)
{
	return (md.cnt[hw] >> (width() - 1)) & 1u;
}

static uint32_t cause(void)
{
	if (md.core.r10k)
		return 0;
	for (unsigned hw = 0; hw < md.core.ncounters; hw++)
		if ((md.ctl[hw] & PERFCTL_IE) && top_set(hw))
			return CAUSE_PCI;
	return 0;
}

static uint32_t read_ctl(unsigned hw)
{
	uint32_t v;

	if (hw >= md.core.ncounters)
		return 0;
	v = md.ctl[hw];
	if (md.core.r10k)
		return v;
	if (hw + 1 < md.core.ncounters)
		v |= PERFCTL_M;
	if (md.core.wide)
		v |= PERFCTL_W;
	return v;
}

static uint32_t perf_read(unsigned sel)
{
	if (md.core.qemu)
		return sel == 0 ? md.qemu_sel0 : QEMU_OTHER_SELS;
	if (sel & 1)
		return sel / 2 < md.core.ncounters ? (uint32_t)md.cnt[sel / 2] : 0;
	return read_ctl(sel / 2);
}

static uint32_t value_of(unsigned reg, unsigned sel)
{
	switch (reg * 8 + sel) {
	case 16 * 8 + 1: return md.core.config1;
	case 16 * 8 + 3: return md.core.config3;
	case 15 * 8 + 0: return md.core.prid;
	case 15 * 8 + 1: return md.core.ebase;
	case 12 * 8 + 1: return md.core.intctl;
	case 13 * 8 + 0: return cause();
	default:
		return reg == 25 ? perf_read(sel) : 0;
	}
}

static uint32_t d_read(unsigned reg, unsigned sel)
{
	uint32_t v = value_of(reg, sel);

	log_op('R', reg, sel, v);
	return v;
}

static void d_write(unsigned reg, unsigned sel, uint32_t v)
{
	unsigned hw = sel / 2;

	log_op('W', reg, sel, v);
	if (reg != 25)
		return;
	if (md.core.qemu) {
		if (sel == 0)
			md.qemu_sel0 = v & QEMU_SEL0_BITS;
		return;
	}
	if (hw >= md.core.ncounters)
		return;
	if (sel & 1)
		md.cnt[hw] = v;         /* MTC0: the low 32 bits */
	else
		md.ctl[hw] = v & md.core.ctl_writable;
}

static uint64_t d_read64(unsigned reg, unsigned sel)
{
	uint64_t v = reg == 25 && (sel & 1) && sel / 2 < md.core.ncounters ?
	             md.cnt[sel / 2] : value_of(reg, sel);

	log_op('R', reg, sel, v);
	return v;
}

static void d_write64(unsigned reg, unsigned sel, uint64_t v)
{
	log_op('W', reg, sel, v);
	if (reg == 25 && (sel & 1) && sel / 2 < md.core.ncounters)
		md.cnt[sel / 2] = v;
}

static uint64_t d_cycles(void)
{
	md.count += 600;
	return md.count;
}

void md_count(unsigned hw, uint64_t n)
{
	md.cnt[hw] = (md.cnt[hw] + n) & pmu_width_mask(width());
}

static void d_spin(uint32_t iterations)
{
	if (md.core.qemu)
		return;
	for (unsigned hw = 0; hw < md.core.ncounters; hw++)
		if (md.ctl[hw] & PERFCTL_MODES)
			md_count(hw, md.rate * iterations);
}

static struct mips_pmu_io io = {
	.read = d_read,
	.write = d_write,
	.cycles = d_cycles,
	.spin = d_spin,
};

const struct mips_pmu_io *mips_pmu_io = &io;

void md_reset(const struct md_core *core)
{
	memset(&md, 0, sizeof(md));
	md.core = *core;
	md.rate = 1;
	io.read64 = core->io64 ? d_read64 : NULL;
	io.write64 = core->io64 ? d_write64 : NULL;
	mips_pmu_io = &io;
}

void md_spin_rate(uint64_t per_iteration)
{
	md.rate = per_iteration;
}

void md_set_counter(unsigned hw, uint64_t v)
{
	md.cnt[hw] = v & pmu_width_mask(width());
}

uint64_t md_counter(unsigned hw)
{
	return md.cnt[hw];
}

uint32_t md_control(unsigned hw)
{
	return md.ctl[hw];
}

void md_log_clear(void)
{
	md.nlog = 0;
}

unsigned md_log_len(void)
{
	return md.nlog;
}

const struct md_log *md_log_at(unsigned i)
{
	return i < md.nlog ? &md.log[i] : NULL;
}

unsigned md_writes_to(unsigned reg, unsigned sel)
{
	unsigned n = 0;

	for (unsigned i = 0; i < md.nlog; i++)
		n += md.log[i].op == 'W' && md.log[i].reg == reg &&
		     md.log[i].sel == sel;
	return n;
}
