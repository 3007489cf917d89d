/*
 * tlb.c - put the TLB in a known, harmless state.
 *
 * After reset the TLB holds whatever it powered up with; two entries that
 * match the same address make the core raise a machine check (or shut the
 * TLB down, Status.TS).  Every entry is given a distinct VPN2 inside KSEG0,
 * which is never translated, so no entry can ever match and any kuseg or
 * KSEG2 access takes a TLB refill until a later issue adds mappings.
 */
#include "addrspace.h"
#include "cp0.h"
#include "mips.h"

#define TLB_PAIR_SIZE  0x2000u      /* one EntryHi covers two 4 KiB pages */

static unsigned nentries;

unsigned tlb_entries(void)
{
	return nentries;
}

static unsigned tlb_count(void)
{
	uint32_t config = cp0_read_config();
	unsigned n;

	if (cp0_field(config, CONFIG_MT_MASK, CONFIG_MT_SHIFT) != CONFIG_MT_TLB)
		return 0;
	n = cp0_field(cp0_read_config1(), CONFIG1_MMU_MASK, CONFIG1_MMU_SHIFT) + 1;
	/* Release 3+ cores may extend the size field in Config4. */
	if (cp0_has_config4()) {
		uint32_t c4 = cp0_read_config4();

		if (cp0_field(c4, CONFIG4_MMUEXTDEF_MASK, CONFIG4_MMUEXTDEF_SHIFT) ==
		    CONFIG4_MMUEXTDEF_VTLBEXT)
			n += (c4 & CONFIG4_MMUSIZEEXT_MASK) << CONFIG1_MMU_BITS;
	}
	return n;
}

void tlb_init(void)
{
	nentries = tlb_count();
	cp0_write_pagemask(PAGEMASK_4K);
	cp0_write_wired(0);
	cp0_write_entrylo0(0);
	cp0_write_entrylo1(0);
	for (unsigned i = 0; i < nentries; i++) {
		cp0_write_entryhi(KSEG0_BASE + i * TLB_PAIR_SIZE);
		cp0_write_index(i);
		__asm__ volatile("tlbwi\n\tehb" : : : "memory");
	}
	cp0_write_entryhi(0);
}
