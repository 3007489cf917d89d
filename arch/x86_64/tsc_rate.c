/*
 * tsc_rate.c - the TSC rate as the CPU states it (tsc_rate.h).
 */
#include "cpu.h"
#include "tsc_rate.h"

int tsc_rate_from_cpuid(uint32_t max_leaf, const uint32_t leaf15[3],
			uint32_t leaf16_eax, struct cycle_rate *r)
{
	if (max_leaf < 0x15 || leaf15[0] == 0 || leaf15[1] == 0)
		return -1;
	if (leaf15[2] != 0) {
		r->hz = (uint64_t)leaf15[2] * leaf15[1] / leaf15[0];
		r->err_hz = 0;
		r->source = "cpuid 0x15";
		return 0;
	}
	if (max_leaf >= 0x16 && (leaf16_eax & 0xffff) != 0) {
		r->hz = (uint64_t)(leaf16_eax & 0xffff) * 1000000u;
		r->err_hz = 500000u;
		r->source = "cpuid 0x16";
		return 0;
	}
	return -1;
}

int tsc_rate_from_cpu(struct cycle_rate *r)
{
	uint32_t max_leaf = cpuid(0, 0).eax;
	uint32_t l15[3] = { 0, 0, 0 }, l16 = 0;

	if (max_leaf >= 0x15) {
		struct cpuid_regs c = cpuid(0x15, 0);
		l15[0] = c.eax;
		l15[1] = c.ebx;
		l15[2] = c.ecx;
	}
	if (max_leaf >= 0x16)
		l16 = cpuid(0x16, 0).eax;
	return tsc_rate_from_cpuid(max_leaf, l15, l16, r);
}
