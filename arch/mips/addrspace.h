/*
 * addrspace.h - the MIPS32 kernel address segments.
 *
 * KSEG0 and KSEG1 both map the low 512 MiB of physical space without the
 * TLB (cached and uncached); kuseg and KSEG2/3 go through the TLB.  Tally
 * runs in KSEG0 and reaches devices through KSEG1.
 */
#ifndef TALLY_MIPS_ADDRSPACE_H
#define TALLY_MIPS_ADDRSPACE_H

#define KUSEG_BASE      0x00000000u
#define KSEG0_BASE      0x80000000u
#define KSEG1_BASE      0xa0000000u
#define KSEG2_BASE      0xc0000000u
#define KSEG_SIZE       0x20000000u    /* each of KSEG0 and KSEG1 */
#define KSEG_PHYS_MASK  0x1fffffffu

#define KSEG0(pa)       ((uintptr_t)(pa) | KSEG0_BASE)
#define KSEG1(pa)       ((uintptr_t)(pa) | KSEG1_BASE)

#endif
