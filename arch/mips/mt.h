/*
 * mt.h - the MIPS MT ASE registers Tally uses to start the 34K's VPEs
 * (smp.c), and the instructions that reach another thread context.
 *
 * Register layout: MIPS MT ASE (MD00378) and the 34K software manual.
 * CP0 register (select):
 *   MVPControl  0 (1)  EVP bit 0 (VPEs enabled), VPC bit 1 (configuration
 *                      state: other VPEs' VPEConf0 and TCs writable),
 *                      STLB bit 2 (one TLB shared by all VPEs)
 *   MVPConf0    0 (2)  PTC bits 7:0 (TCs - 1), PVPE bits 13:10 (VPEs - 1),
 *                      TLBS bit 29 (the TLB can be shared)
 *   VPEControl  1 (1)  TargTC bits 7:0: the TC that mftc0/mttc0 reach
 *   VPEConf0    1 (2)  VPA bit 0 (VPE activated), MVP bit 1 (may reach
 *                      other VPEs' registers)
 *   TCStatus    2 (1)  A bit 13 (TC activated), TKSU bits 12:11, IXMT bit 10
 *   TCBind      2 (2)  CurVPE bits 3:0 (the VPE this TC runs on)
 *   TCRestart   2 (3)  where a halted TC resumes
 *   TCHalt      2 (4)  H bit 0 (halted)
 *
 * mftc0/mttc0 (MFTR/MTTR with u = 0) read and write CP0 registers of the
 * TC that VPEControl.TargTC names; dvpe/evpe clear and set MVPControl.EVP.
 * The assembler learns them from ".set mt".
 */
#ifndef TALLY_MIPS_MT_H
#define TALLY_MIPS_MT_H

#include <stdint.h>

#include "cp0.h"

#define MVPCONTROL_EVP     U32(0x00000001)
#define MVPCONTROL_VPC     U32(0x00000002)
#define MVPCONTROL_STLB    U32(0x00000004)
#define MVPCONF0_PTC_MASK  U32(0x000000ff)
#define MVPCONF0_PTC_SHIFT 0
#define MVPCONF0_PVPE_MASK U32(0x00003c00)
#define MVPCONF0_PVPE_SHIFT 10
#define MVPCONF0_TLBS      U32(0x20000000)
#define VPECONTROL_TARGTC_MASK U32(0x000000ff)
#define VPECONF0_VPA       U32(0x00000001)
#define VPECONF0_MVP       U32(0x00000002)
#define TCSTATUS_A         U32(0x00002000)
#define TCSTATUS_TKSU_MASK U32(0x00001800)
#define TCSTATUS_IXMT      U32(0x00000400)
#define TCBIND_CURVPE_MASK U32(0x0000000f)
#define TCHALT_H           U32(0x00000001)

#define MT_ACCESSORS(name, reg, sel)                                           \
	static inline uint32_t mt_read_##name(void)                            \
	{                                                                      \
		uint32_t v;                                                    \
		__asm__ volatile("mfc0 %0, $" CP0_STR(reg) ", " CP0_STR(sel)   \
				 : "=r"(v) : : "memory");                      \
		return v;                                                      \
	}                                                                      \
	static inline void mt_write_##name(uint32_t v)                         \
	{                                                                      \
		__asm__ volatile("mtc0 %0, $" CP0_STR(reg) ", " CP0_STR(sel)   \
				 "\n\tehb" : : "r"(v) : "memory");             \
	}                                                                      \
	/* The same register of the TC VPEControl.TargTC names. */            \
	static inline uint32_t mt_read_tc_##name(void)                         \
	{                                                                      \
		uint32_t v;                                                    \
		__asm__ volatile(".set push\n\t.set mt\n\t"                    \
				 "mftc0 %0, $" CP0_STR(reg) ", " CP0_STR(sel)  \
				 "\n\t.set pop" : "=r"(v) : : "memory");       \
		return v;                                                      \
	}                                                                      \
	static inline void mt_write_tc_##name(uint32_t v)                      \
	{                                                                      \
		__asm__ volatile(".set push\n\t.set mt\n\t"                    \
				 "mttc0 %0, $" CP0_STR(reg) ", " CP0_STR(sel)  \
				 "\n\tehb\n\t.set pop" : : "r"(v) : "memory"); \
	}

MT_ACCESSORS(mvpcontrol, 0, 1)
MT_ACCESSORS(mvpconf0,   0, 2)
MT_ACCESSORS(vpecontrol, 1, 1)
MT_ACCESSORS(vpeconf0,   1, 2)
MT_ACCESSORS(tcstatus,   2, 1)
MT_ACCESSORS(tcbind,     2, 2)
MT_ACCESSORS(tcrestart,  2, 3)
MT_ACCESSORS(tchalt,     2, 4)
MT_ACCESSORS(mtcause,   13, 0)

/* Stop every other VPE (MVPControl.EVP = 0); the old MVPControl. */
static inline uint32_t mt_dvpe(void)
{
	uint32_t v;

	__asm__ volatile(".set push\n\t.set mt\n\tdvpe %0\n\tehb\n\t.set pop"
			 : "=r"(v) : : "memory");
	return v;
}

/* Let the other VPEs run again (MVPControl.EVP = 1). */
static inline void mt_evpe(void)
{
	uint32_t v;

	__asm__ volatile(".set push\n\t.set mt\n\tevpe %0\n\tehb\n\t.set pop"
			 : "=r"(v) : : "memory");
	(void)v;
}

/* Point mftc0/mttc0 at TC tc. */
static inline void mt_target_tc(unsigned tc)
{
	mt_write_vpecontrol((mt_read_vpecontrol() & ~VPECONTROL_TARGTC_MASK) |
			    ((uint32_t)tc & VPECONTROL_TARGTC_MASK));
}

#endif
