/*
 * pmu_x86_double.c - the recording x86_pmu_io of host tests (see
 * pmu_x86_double.h).
 */
#include <string.h>

#include "pmu.h"
#include "pmu_x86_double.h"

#define XD_CPUID_MAX 32
#define XD_MSR_MAX 128

struct cpuid_entry {
	uint32_t leaf, subleaf;
	struct x86_cpuid r;
};

static struct {
	struct cpuid_entry cpuid[XD_CPUID_MAX];
	unsigned ncpuid;
	uint32_t msr_addr[XD_MSR_MAX];
	uint64_t msr_val[XD_MSR_MAX];
	unsigned nmsr;
	struct xd_ctr ctr[XD_MAX_CTRS];
	unsigned nctr;
	uint32_t gctrl, gstatus, govf;
	bool dead;
	uint64_t rate;
	uint64_t tsc;
	struct xd_log log[XD_LOG_MAX];
	unsigned nlog;
} xd;

static void log_op(char op, uint32_t msr, uint64_t v)
{
	if (xd.nlog < XD_LOG_MAX)
		xd.log[xd.nlog++] = (struct xd_log){ op, msr, v, xd.tsc };
}

static uint64_t *store(uint32_t msr, bool create)
{
	for (unsigned i = 0; i < xd.nmsr; i++)
		if (xd.msr_addr[i] == msr)
			return &xd.msr_val[i];
	if (!create || xd.nmsr == XD_MSR_MAX)
		return NULL;
	xd.msr_addr[xd.nmsr] = msr;
	xd.msr_val[xd.nmsr] = 0;
	return &xd.msr_val[xd.nmsr++];
}

uint64_t xd_msr(uint32_t msr)
{
	uint64_t *p = store(msr, false);

	for (unsigned i = 0; i < xd.nctr; i++)
		if (xd.ctr[i].msr == msr || (xd.ctr[i].alias && xd.ctr[i].alias == msr))
			return xd.ctr[i].value;
	return p ? *p : 0;
}

void xd_set_msr(uint32_t msr, uint64_t v)
{
	*store(msr, true) = v;
}

static struct x86_cpuid d_cpuid(uint32_t leaf, uint32_t subleaf)
{
	for (unsigned i = 0; i < xd.ncpuid; i++)
		if (xd.cpuid[i].leaf == leaf && xd.cpuid[i].subleaf == subleaf)
			return xd.cpuid[i].r;
	return (struct x86_cpuid){ 0, 0, 0, 0 };
}

static uint64_t d_rdmsr(uint32_t msr)
{
	uint64_t v = xd.dead ? 0 : xd_msr(msr);

	log_op('R', msr, v);
	return v;
}

static uint64_t sext32(uint64_t v)
{
	return (uint64_t)(int64_t)(int32_t)(uint32_t)v;
}

static bool write_ctr(uint32_t msr, uint64_t v)
{
	for (unsigned i = 0; i < xd.nctr; i++) {
		struct xd_ctr *c = &xd.ctr[i];
		uint64_t mask = pmu_width_mask(c->width);

		if (c->alias && c->alias == msr) {
			c->value = v & mask;
			return true;
		}
		if (c->msr == msr) {
			c->value = (c->sx32 ? sext32(v) : v) & mask;
			return true;
		}
	}
	return false;
}

static void d_wrmsr(uint32_t msr, uint64_t v)
{
	log_op('W', msr, v);
	if (xd.dead || write_ctr(msr, v))
		return;
	if (xd.govf && msr == xd.govf) {
		*store(xd.gstatus, true) &= ~v;
		return;
	}
	*store(msr, true) = v;
}

static bool enabled(const struct xd_ctr *c)
{
	uint64_t *ctl = store(c->ctl, false);

	if (!ctl || !(*ctl & c->en))
		return false;
	if (c->gbit < 0 || !xd.gctrl)
		return true;
	return (xd_msr(xd.gctrl) >> c->gbit) & 1u;
}

void xd_count(int i, uint64_t n)
{
	struct xd_ctr *c = &xd.ctr[i];
	uint64_t mask = pmu_width_mask(c->width);
	uint64_t room = mask - c->value;

	if (n > room && c->gbit >= 0 && xd.gstatus)
		*store(xd.gstatus, true) |= 1ull << c->gbit;
	c->value = (c->value + n) & mask;
}

static void d_spin(uint32_t iterations)
{
	if (xd.dead)
		return;
	for (unsigned i = 0; i < xd.nctr; i++)
		if (enabled(&xd.ctr[i]))
			xd_count((int)i, xd.rate * iterations);
}

static uint64_t d_rdtsc(void)
{
	xd.tsc += 1000;
	return xd.tsc;
}

static const struct x86_pmu_io double_io = {
	.cpuid = d_cpuid,
	.rdmsr = d_rdmsr,
	.wrmsr = d_wrmsr,
	.rdtsc = d_rdtsc,
	.spin = d_spin,
};

const struct x86_pmu_io *x86_pmu_io = &double_io;

void xd_reset(void)
{
	memset(&xd, 0, sizeof(xd));
	xd.rate = 1;
	x86_pmu_io = &double_io;
}

void xd_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t eax, uint32_t ebx,
              uint32_t ecx, uint32_t edx)
{
	if (xd.ncpuid < XD_CPUID_MAX)
		xd.cpuid[xd.ncpuid++] = (struct cpuid_entry){
			leaf, subleaf, { eax, ebx, ecx, edx } };
}

int xd_add_ctr(const struct xd_ctr *c)
{
	xd.ctr[xd.nctr] = *c;
	return (int)xd.nctr++;
}

void xd_global(uint32_t ctrl_msr, uint32_t status_msr, uint32_t ovf_ctrl_msr)
{
	xd.gctrl = ctrl_msr;
	xd.gstatus = status_msr;
	xd.govf = ovf_ctrl_msr;
}

void xd_dead(bool dead)
{
	xd.dead = dead;
}

void xd_spin_rate(uint64_t per_iteration)
{
	xd.rate = per_iteration;
}

void xd_set_ctr(int i, uint64_t v)
{
	xd.ctr[i].value = v & pmu_width_mask(xd.ctr[i].width);
}

uint64_t xd_ctr_value(int i)
{
	return xd.ctr[i].value;
}

void xd_log_clear(void)
{
	xd.nlog = 0;
}

unsigned xd_log_len(void)
{
	return xd.nlog;
}

const struct xd_log *xd_log_at(unsigned i)
{
	return i < xd.nlog ? &xd.log[i] : NULL;
}

bool xd_last_write(uint32_t msr, uint64_t *v)
{
	for (unsigned i = xd.nlog; i-- > 0;)
		if (xd.log[i].op == 'W' && xd.log[i].msr == msr) {
			*v = xd.log[i].value;
			return true;
		}
	return false;
}

unsigned xd_writes_to(uint32_t msr)
{
	unsigned n = 0;

	for (unsigned i = 0; i < xd.nlog; i++)
		n += xd.log[i].op == 'W' && xd.log[i].msr == msr;
	return n;
}
