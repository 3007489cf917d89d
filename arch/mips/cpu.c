/*
 * cpu.c - which MIPS core this is, from PRId and the Config registers.
 *
 * PRId packs company options, company, processor and revision into one
 * byte each.  The processor numbers below are MIPS Technologies' own
 * (company 1); the "f" suffix of the 24K/34K/74K/1004K family names means
 * the core has an FPU, which Config1.FP tells us.
 */
#include "arch.h"
#include "cp0.h"
#include "mips.h"

#include <stdio.h>

struct core {
	uint8_t imp;
	bool fpu_suffix;     /* name gets "c" or "f" from Config1.FP */
	const char *name;
};

static const struct core mips_cores[] = {
	{ 0x80, false, "4Kc" },
	{ 0x81, false, "5Kc" },
	{ 0x82, false, "20Kc" },
	{ 0x83, false, "4Km/4Kp" },
	{ 0x84, false, "4KEc" },
	{ 0x85, false, "4KEm/4KEp" },
	{ 0x86, false, "4KSc" },
	{ 0x87, false, "M4K" },
	{ 0x88, false, "25Kf" },
	{ 0x89, false, "5KE" },
	{ 0x90, false, "4KEc (R2)" },
	{ 0x91, false, "4KEm/4KEp (R2)" },
	{ 0x92, false, "4KSd" },
	{ 0x93, true,  "24K" },
	{ 0x95, true,  "34K" },
	{ 0x96, true,  "24KE" },
	{ 0x97, true,  "74K" },
	{ 0x99, true,  "1004K" },
	{ 0x9a, true,  "1074K" },
	{ 0x9b, false, "M14K" },
	{ 0x9c, false, "M14Kc" },
	{ 0x9e, false, "M14KEc" },
	{ 0xa0, false, "interAptiv" },
	{ 0xa1, false, "interAptiv (MP)" },
	{ 0xa2, false, "proAptiv" },
	{ 0xa3, false, "proAptiv (MP)" },
	{ 0xa4, false, "P6600" },
	{ 0xa7, false, "M5150" },
	{ 0xa8, false, "P5600" },
	{ 0xa9, false, "I6400" },
	{ 0xab, false, "M6250" },
	{ 0xb0, false, "I6500" },
};

static const char *company_name(unsigned comp)
{
	switch (comp) {
	case PRID_COMP_LEGACY:    return "legacy (pre-MIPS32)";
	case PRID_COMP_MIPS:      return "MIPS";
	case PRID_COMP_BROADCOM:  return "Broadcom";
	case PRID_COMP_ALCHEMY:   return "Alchemy";
	case PRID_COMP_SIBYTE:    return "SiByte";
	case PRID_COMP_SANDCRAFT: return "SandCraft";
	case PRID_COMP_NXP:       return "NXP";
	case PRID_COMP_CAVIUM:    return "Cavium";
	case PRID_COMP_INGENIC:   return "Ingenic";
	default:                  return "unknown company";
	}
}

static const struct core *find_core(unsigned comp, unsigned imp)
{
	if (comp != PRID_COMP_MIPS)
		return NULL;
	for (size_t i = 0; i < sizeof(mips_cores) / sizeof(mips_cores[0]); i++)
		if (mips_cores[i].imp == imp)
			return &mips_cores[i];
	return NULL;
}

static const char *isa_name(uint32_t config)
{
	if (cp0_field(config, CONFIG_AT_MASK, CONFIG_AT_SHIFT) != CONFIG_AT_MIPS32)
		return "MIPS64";
	switch (cp0_field(config, CONFIG_AR_MASK, CONFIG_AR_SHIFT)) {
	case CONFIG_AR_R1: return "MIPS32r1";
	case CONFIG_AR_R2: return "MIPS32r2+";
	case CONFIG_AR_R6: return "MIPS32r6";
	default:           return "MIPS32 (unknown release)";
	}
}

const char *arch_name(void)
{
	return "mips";
}

void arch_cpu_describe(char *buf, size_t len)
{
	uint32_t prid = cp0_read_prid();
	uint32_t config = cp0_read_config();
	uint32_t config1 = cp0_read_config1();
	unsigned comp = (prid >> PRID_COMP_SHIFT) & PRID_FIELD_MASK;
	unsigned imp = (prid >> PRID_IMP_SHIFT) & PRID_FIELD_MASK;
	unsigned rev = prid & PRID_FIELD_MASK;
	const struct core *core = find_core(comp, imp);
	bool fpu = config1 & CONFIG1_FP;
	char name[32];

	if (core == NULL)
		snprintf(name, sizeof(name), "core 0x%02x", imp);
	else if (core->fpu_suffix)
		snprintf(name, sizeof(name), "%s%s", core->name, fpu ? "f" : "c");
	else
		snprintf(name, sizeof(name), "%s", core->name);

	snprintf(buf, len,
		 "%s %s, PRId 0x%08x rev %u.%u.%u, %s %s-endian, %s, "
		 "%u TLB entries, Config1.PC=%u",
		 company_name(comp), name, (unsigned)prid,
		 (rev >> PRID_REV_MAJOR_SHIFT) & PRID_REV_MAJOR_MASK,
		 (rev >> PRID_REV_MINOR_SHIFT) & PRID_REV_MINOR_MASK,
		 rev & PRID_REV_PATCH_MASK,
		 isa_name(config), (config & CONFIG_BE) ? "big" : "little",
		 fpu ? "FPU" : "no FPU", tlb_entries(),
		 (config1 & CONFIG1_PC) ? 1u : 0u);
}
