/*
 * cp0.h - MIPS32 coprocessor 0: register numbers, bit layouts, accessors.
 *
 * Layouts are from the MIPS32 Architecture for Programmers, Volume III
 * (Privileged Resource Architecture), releases 2 to 5.  Every register is
 * named by (number, select); the C accessors and the assembler both use
 * these names so that no bare register number appears in logic.
 *
 * Included from assembly (with __ASSEMBLY__) and from C.
 */
#ifndef TALLY_MIPS_CP0_H
#define TALLY_MIPS_CP0_H

/* Constants are unsigned in C; the assembler knows no suffixes. */
#ifdef __ASSEMBLY__
#define U32(x) x
#else
#define U32(x) x##u
#endif

/* ---- register numbers and selects -------------------------------------- */
#define CP0_INDEX         0
#define CP0_RANDOM        1
#define CP0_ENTRYLO0      2
#define CP0_ENTRYLO1      3
#define CP0_CONTEXT       4
#define CP0_PAGEMASK      5
#define CP0_WIRED         6
#define CP0_HWRENA        7
#define CP0_BADVADDR      8
#define CP0_COUNT         9
#define CP0_ENTRYHI       10
#define CP0_COMPARE       11
#define CP0_STATUS        12
#define CP0_CAUSE         13
#define CP0_EPC           14
#define CP0_PRID          15
#define CP0_CONFIG        16
#define CP0_PERFCTL       25
#define CP0_ERROREPC      30
#define CP0_DESAVE        31    /* EJTAG's scratch word: pcpu.h */

/* Selects that pick a sibling register behind the same number. */
#define CP0_SEL_MAIN      0
#define CP0_SEL_PAGEGRAIN 1     /* with CP0_PAGEMASK */
#define CP0_SEL_INTCTL    1     /* with CP0_STATUS */
#define CP0_SEL_SRSCTL    2     /* with CP0_STATUS */
#define CP0_SEL_EBASE     1     /* with CP0_PRID */
#define CP0_SEL_CONFIG1   1     /* with CP0_CONFIG */
#define CP0_SEL_CONFIG2   2
#define CP0_SEL_CONFIG3   3
#define CP0_SEL_CONFIG4   4
#define CP0_SEL_CONFIG5   5
#define CP0_SEL_CONFIG7   7

/*
 * Assembler operand for a CP0 register: C0(CP0_STATUS) becomes $12.  The
 * extra level makes the argument expand before it is pasted.
 */
#define CP0_PASTE_(n) $##n
#define C0(n) CP0_PASTE_(n)

/* ---- Status (12, 0) ------------------------------------------------------ */
#define ST_IE             U32(0x00000001)  /* interrupts enabled */
#define ST_EXL            U32(0x00000002)  /* exception level */
#define ST_ERL            U32(0x00000004)  /* error level (set at reset) */
#define ST_KSU_SHIFT      3
#define ST_KSU_MASK       U32(0x00000018)
#define ST_KSU_KERNEL     U32(0x00000000)
#define ST_KSU_SUPER      U32(0x00000008)
#define ST_KSU_USER       U32(0x00000010)
#define ST_UM             U32(0x00000010)  /* the user bit of KSU */
#define ST_IM_SHIFT       8
#define ST_IM_MASK        U32(0x0000ff00)
#define ST_IM(ip)         (U32(1) << (ST_IM_SHIFT + (ip)))
#define ST_NMI            U32(0x00080000)
#define ST_SR             U32(0x00100000)
#define ST_TS             U32(0x00200000)  /* TLB shut down (duplicate match) */
#define ST_BEV            U32(0x00400000)  /* boot exception vectors */
#define ST_MX             U32(0x01000000)
#define ST_RE             U32(0x02000000)
#define ST_FR             U32(0x04000000)
#define ST_CU0            U32(0x10000000)
#define ST_CU1            U32(0x20000000)
#define ST_CU_MASK        U32(0xf0000000)  /* CU0..CU3: coprocessor access */

/* ---- Cause (13, 0) ------------------------------------------------------- */
#define CAUSE_EXC_SHIFT   2
#define CAUSE_EXC_MASK    U32(0x0000007c)
#define CAUSE_IP_SHIFT    8
#define CAUSE_IP_MASK     U32(0x0000ff00)
#define CAUSE_IP(ip)      (U32(1) << (CAUSE_IP_SHIFT + (ip)))
#define CAUSE_IP_SW_MASK  U32(0x00000300)  /* IP0, IP1: software interrupts */
#define CAUSE_IV          U32(0x00800000)  /* interrupts use the special vector */
#define CAUSE_PCI         U32(0x04000000)  /* performance counter interrupt (R2) */
#define CAUSE_DC          U32(0x08000000)  /* Count disabled */
#define CAUSE_CE_SHIFT    28
#define CAUSE_CE_MASK     U32(0x30000000)  /* coprocessor of a CpU exception */
#define CAUSE_TI          U32(0x40000000)  /* timer interrupt pending (R2) */
#define CAUSE_BD          U32(0x80000000)  /* fault in a branch delay slot */

/* Exception codes (Cause.ExcCode). */
#define EXC_INT           0
#define EXC_MOD           1
#define EXC_TLBL          2
#define EXC_TLBS          3
#define EXC_ADEL          4
#define EXC_ADES          5
#define EXC_IBE           6
#define EXC_DBE           7
#define EXC_SYS           8
#define EXC_BP            9
#define EXC_RI            10
#define EXC_CPU           11
#define EXC_OV            12
#define EXC_TR            13
#define EXC_MSAFPE        14
#define EXC_FPE           15
#define EXC_C2E           18
#define EXC_TLBRI         19
#define EXC_TLBXI         20
#define EXC_MSADIS        21
#define EXC_MDMX          22
#define EXC_WATCH         23
#define EXC_MCHECK        24
#define EXC_THREAD        25
#define EXC_DSPDIS        26
#define EXC_GE            27
#define EXC_CACHEERR      30
#define EXC_CODES         32

/* IP0, IP1 are the software interrupts; IP2..IP7 the lines HW0..HW5. */
#define IP_FIRST_HW       2
/* Interrupt lines as the Malta board wires them. */
#define IP_I8259          2            /* PIIX4 8259 output (and the GT-64120) */
#define IP_TIMER_DEFAULT  7            /* Count/Compare when IntCtl is absent */

/* ---- IntCtl (12, 1), Release 2 ------------------------------------------- */
#define INTCTL_IPTI_SHIFT 29           /* IP line of the CP0 timer */
#define INTCTL_IPTI_MASK  U32(0xe0000000)
#define INTCTL_IPPCI_SHIFT 26          /* IP line of the perf-counter overflow */
#define INTCTL_IPPCI_MASK U32(0x1c000000)
#define INTCTL_VS_MASK    U32(0x000003e0)

/* ---- PRId (15, 0) -------------------------------------------------------- */
#define PRID_OPT_SHIFT    24
#define PRID_COMP_SHIFT   16
#define PRID_IMP_SHIFT    8
#define PRID_FIELD_MASK   U32(0xff)
#define PRID_COMP_LEGACY  0x00         /* pre-MIPS32: R4000, R10000, ... */
#define PRID_COMP_MIPS    0x01         /* MIPS Technologies */
#define PRID_COMP_BROADCOM 0x02
#define PRID_COMP_ALCHEMY 0x03
#define PRID_COMP_SIBYTE  0x04
#define PRID_COMP_SANDCRAFT 0x05
#define PRID_COMP_NXP     0x06
#define PRID_COMP_CAVIUM  0x0d
#define PRID_COMP_INGENIC 0xe1
/* MIPS cores encode Revision as major.minor.patch in 3.3.2 bits. */
#define PRID_REV_MAJOR_SHIFT 5
#define PRID_REV_MAJOR_MASK  U32(0x7)
#define PRID_REV_MINOR_SHIFT 2
#define PRID_REV_MINOR_MASK  U32(0x7)
#define PRID_REV_PATCH_MASK  U32(0x3)

/* ---- EBase (15, 1), Release 2 -------------------------------------------- */
#define EBASE_BASE_MASK   U32(0x3ffff000)  /* bits 31:30 read as 1, 0 */
#define EBASE_WG          U32(0x00000800)  /* Release 5: write gate for 63:30 */
#define EBASE_CPUNUM_MASK U32(0x000003ff)

/* ---- Config (16, 0) ------------------------------------------------------ */
#define CONFIG_M          U32(0x80000000)  /* next Config register exists */
#define CONFIG_BE         U32(0x00008000)
#define CONFIG_AT_SHIFT   13
#define CONFIG_AT_MASK    U32(0x00006000)
#define CONFIG_AT_MIPS32  0
#define CONFIG_AR_SHIFT   10
#define CONFIG_AR_MASK    U32(0x00001c00)
#define CONFIG_AR_R1      0
#define CONFIG_AR_R2      1            /* also Releases 3 and 5 */
#define CONFIG_AR_R6      2
#define CONFIG_MT_SHIFT   7
#define CONFIG_MT_MASK    U32(0x00000380)
#define CONFIG_MT_NONE    0
#define CONFIG_MT_TLB     1
#define CONFIG_MT_BAT     2
#define CONFIG_MT_FIXED   3
#define CONFIG_K0_MASK    U32(0x00000007)

/* ---- Config1 (16, 1) ----------------------------------------------------- */
#define CONFIG1_M         U32(0x80000000)
#define CONFIG1_MMU_SHIFT 25           /* TLB entries - 1 */
#define CONFIG1_MMU_MASK  U32(0x7e000000)
#define CONFIG1_MMU_BITS  6
#define CONFIG1_C2        U32(0x00000040)
#define CONFIG1_MD        U32(0x00000020)
#define CONFIG1_PC        U32(0x00000010)  /* performance counters implemented */
#define CONFIG1_WR        U32(0x00000008)
#define CONFIG1_CA        U32(0x00000004)
#define CONFIG1_EP        U32(0x00000002)
#define CONFIG1_FP        U32(0x00000001)

/* ---- Config2 (16, 2) ----------------------------------------------------- */
#define CONFIG2_M         U32(0x80000000)

/* ---- Config3 (16, 3) ----------------------------------------------------- */
#define CONFIG3_M         U32(0x80000000)
#define CONFIG3_MSAP      U32(0x10000000)
#define CONFIG3_ISA_MASK  U32(0x0000c000)
#define CONFIG3_ULRI      U32(0x00002000)
#define CONFIG3_RXI       U32(0x00001000)
#define CONFIG3_DSPP      U32(0x00000400)
#define CONFIG3_VEIC      U32(0x00000040)
#define CONFIG3_VINT      U32(0x00000020)
#define CONFIG3_MT        U32(0x00000004)

/* ---- Config4 (16, 4) ----------------------------------------------------- */
#define CONFIG4_M         U32(0x80000000)
#define CONFIG4_IE_MASK   U32(0x60000000)  /* TLB invalidate support */
#define CONFIG4_MMUEXTDEF_SHIFT 14
#define CONFIG4_MMUEXTDEF_MASK  U32(0x0000c000)
#define CONFIG4_MMUEXTDEF_VTLBEXT 1    /* MMUSizeExt extends Config1.MMUSize */
#define CONFIG4_MMUSIZEEXT_MASK U32(0x000000ff)

/* ---- Config5 (16, 5) ----------------------------------------------------- */
#define CONFIG5_M         U32(0x80000000)

/* ---- TLB entry registers ------------------------------------------------- */
#define ENTRYHI_VPN2_MASK U32(0xffffe000)
#define ENTRYHI_ASID_MASK U32(0x000000ff)
#define ENTRYHI_ASID_COUNT 256         /* 8-bit ASIDs (Config4.AE clear) */
#define PAGEMASK_4K       U32(0x00000000)
#define INDEX_P           U32(0x80000000)  /* tlbp found no match */

/*
 * EntryLo0/1 (2, 3): one 4 KiB page each, EntryLo0 the even page of the
 * pair that EntryHi.VPN2 names.  Bits 31:30 are fill (or RI/XI when
 * PageGrain enables them); PFN holds physical address bits 35:12.
 */
#define ENTRYLO_G         U32(0x00000001)  /* global: ignore ASID (both halves) */
#define ENTRYLO_V         U32(0x00000002)  /* valid */
#define ENTRYLO_D         U32(0x00000004)  /* "dirty": writes allowed */
#define ENTRYLO_C_SHIFT   3
#define ENTRYLO_C_MASK    U32(0x00000038)  /* cache coherency attribute */
#define ENTRYLO_PFN_SHIFT 6
#define ENTRYLO_PFN_MASK  U32(0x3fffffc0)
#define ENTRYLO_PA_SHIFT  12           /* PFN counts 4 KiB frames */

/* ---- hardware registers readable by rdhwr -------------------------------- */
#define HWR_SYNCI_STEP    1

#ifndef __ASSEMBLY__

#include <stdint.h>

/*
 * One read and one write accessor per register.  The write is followed by
 * ehb so that the new value is in effect for the next instruction; callers
 * never have to remember which CP0 writes are execution hazards.
 */
#define CP0_STR_(x) #x
#define CP0_STR(x) CP0_STR_(x)

#define CP0_ACCESSORS(name, reg, sel)                                        \
	static inline uint32_t cp0_read_##name(void)                         \
	{                                                                    \
		uint32_t v;                                                  \
		__asm__ volatile("mfc0 %0, $" CP0_STR(reg) ", " CP0_STR(sel) \
				 : "=r"(v) : : "memory");                    \
		return v;                                                    \
	}                                                                    \
	static inline void cp0_write_##name(uint32_t v)                      \
	{                                                                    \
		__asm__ volatile("mtc0 %0, $" CP0_STR(reg) ", " CP0_STR(sel) \
				 "\n\tehb" : : "r"(v) : "memory");           \
	}

CP0_ACCESSORS(index,     CP0_INDEX,    CP0_SEL_MAIN)
CP0_ACCESSORS(entrylo0,  CP0_ENTRYLO0, CP0_SEL_MAIN)
CP0_ACCESSORS(entrylo1,  CP0_ENTRYLO1, CP0_SEL_MAIN)
CP0_ACCESSORS(pagemask,  CP0_PAGEMASK, CP0_SEL_MAIN)
CP0_ACCESSORS(wired,     CP0_WIRED,    CP0_SEL_MAIN)
CP0_ACCESSORS(badvaddr,  CP0_BADVADDR, CP0_SEL_MAIN)
CP0_ACCESSORS(count,     CP0_COUNT,    CP0_SEL_MAIN)
CP0_ACCESSORS(entryhi,   CP0_ENTRYHI,  CP0_SEL_MAIN)
CP0_ACCESSORS(context,   CP0_CONTEXT,  CP0_SEL_MAIN)
CP0_ACCESSORS(compare,   CP0_COMPARE,  CP0_SEL_MAIN)
CP0_ACCESSORS(status,    CP0_STATUS,   CP0_SEL_MAIN)
CP0_ACCESSORS(intctl,    CP0_STATUS,   CP0_SEL_INTCTL)
CP0_ACCESSORS(cause,     CP0_CAUSE,    CP0_SEL_MAIN)
CP0_ACCESSORS(epc,       CP0_EPC,      CP0_SEL_MAIN)
CP0_ACCESSORS(errorepc,  CP0_ERROREPC, CP0_SEL_MAIN)
CP0_ACCESSORS(desave,    CP0_DESAVE,   CP0_SEL_MAIN)
CP0_ACCESSORS(prid,      CP0_PRID,     CP0_SEL_MAIN)
CP0_ACCESSORS(ebase,     CP0_PRID,     CP0_SEL_EBASE)
CP0_ACCESSORS(config,    CP0_CONFIG,   CP0_SEL_MAIN)
CP0_ACCESSORS(config1,   CP0_CONFIG,   CP0_SEL_CONFIG1)
CP0_ACCESSORS(config2,   CP0_CONFIG,   CP0_SEL_CONFIG2)
CP0_ACCESSORS(config3,   CP0_CONFIG,   CP0_SEL_CONFIG3)
CP0_ACCESSORS(config4,   CP0_CONFIG,   CP0_SEL_CONFIG4)
CP0_ACCESSORS(config5,   CP0_CONFIG,   CP0_SEL_CONFIG5)

/* The field of v selected by mask, shifted down. */
static inline uint32_t cp0_field(uint32_t v, uint32_t mask, unsigned shift)
{
	return (v & mask) >> shift;
}

/* Release 2 and later have EBase, IntCtl, di/ei, rdhwr and synci. */
static inline int cp0_is_release2(void)
{
	return cp0_field(cp0_read_config(), CONFIG_AR_MASK, CONFIG_AR_SHIFT)
		>= CONFIG_AR_R2;
}

/* Config(n+1) exists only if Config(n).M is set. */
static inline int cp0_has_config3(void)
{
	return (cp0_read_config() & CONFIG_M) &&
	       (cp0_read_config1() & CONFIG1_M) &&
	       (cp0_read_config2() & CONFIG2_M);
}

static inline int cp0_has_config4(void)
{
	return cp0_has_config3() && (cp0_read_config3() & CONFIG3_M);
}

static inline void cp0_ehb(void)
{
	__asm__ volatile("ehb" : : : "memory");
}

#endif /* !__ASSEMBLY__ */
#endif
