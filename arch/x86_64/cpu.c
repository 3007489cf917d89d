/*
 * cpu.c - naming the CPU: vendor, family/model/stepping, brand string.
 *
 * The displayed family and model fold in the extended fields the way both
 * vendors define them (SDM vol. 2, CPUID leaf 1; AMD APM vol. 3, E.3.2):
 * extended family only when the base family is 0xf, extended model when
 * it is 0x6 or 0xf.
 */
#include <stdio.h>
#include <string.h>

#include "arch.h"
#include "cpu.h"

#define SIG_STEPPING(eax)   ((eax) & 0xf)
#define SIG_MODEL(eax)      (((eax) >> 4) & 0xf)
#define SIG_FAMILY(eax)     (((eax) >> 8) & 0xf)
#define SIG_EXT_MODEL(eax)  (((eax) >> 16) & 0xf)
#define SIG_EXT_FAMILY(eax) (((eax) >> 20) & 0xff)
#define FAMILY_USES_EXT     0xf
#define FAMILY_P6           0x6

#define VENDOR_LEN 12
#define BRAND_LEN  48

const char *arch_name(void)
{
	return "x86_64";
}

static void vendor(char out[VENDOR_LEN + 1])
{
	struct cpuid_regs r = cpuid(CPUID_VENDOR, 0);

	/* The vendor string is EBX, EDX, ECX in that order. */
	memcpy(out, &r.ebx, 4);
	memcpy(out + 4, &r.edx, 4);
	memcpy(out + 8, &r.ecx, 4);
	out[VENDOR_LEN] = '\0';
}

/* Empty when the CPU has no brand string; leading blanks dropped. */
static const char *brand(char out[BRAND_LEN + 1])
{
	out[0] = '\0';
	if (cpuid(CPUID_EXT_MAX, 0).eax < CPUID_BRAND_LAST)
		return out;
	for (uint32_t leaf = CPUID_BRAND_FIRST; leaf <= CPUID_BRAND_LAST; leaf++) {
		struct cpuid_regs r = cpuid(leaf, 0);
		memcpy(out + (leaf - CPUID_BRAND_FIRST) * sizeof(r), &r, sizeof(r));
	}
	out[BRAND_LEN] = '\0';
	while (*out == ' ')
		out++;
	return out;
}

void arch_cpu_describe(char *buf, size_t len)
{
	char v[VENDOR_LEN + 1], b[BRAND_LEN + 1];
	uint32_t sig = cpuid(CPUID_SIGNATURE, 0).eax;
	unsigned family = SIG_FAMILY(sig), model = SIG_MODEL(sig);

	if (family == FAMILY_USES_EXT)
		family += SIG_EXT_FAMILY(sig);
	if (SIG_FAMILY(sig) == FAMILY_P6 || SIG_FAMILY(sig) == FAMILY_USES_EXT)
		model += SIG_EXT_MODEL(sig) << 4;
	vendor(v);
	const char *name = brand(b);
	snprintf(buf, len, "%s family %#x model %#x stepping %u%s%s", v, family,
		 model, SIG_STEPPING(sig), *name ? ": " : "", name);
}
