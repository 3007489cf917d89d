/*
 * tlb.c - the TLB itself: a known, harmless state at boot, dropping
 * entries, and the refill handler's replacement ring.
 *
 * After reset the TLB holds whatever it powered up with; two entries that
 * match the same address make the core raise a machine check (or shut the
 * TLB down, Status.TS).  Every entry is given a distinct VPN2 inside KSEG0,
 * which is never translated, so no entry can ever match and any kuseg or
 * KSEG2 access takes a TLB refill (tlbrefill.S).  Entries are dropped the
 * same way when an ASID generation ends or a mapping changes.
 */
#include <stddef.h>

#include "arch.h"
#include "addrspace.h"
#include "cp0.h"
#include "mips.h"
#include "pcpu.h"

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

/* An entry no address can hit: a KSEG0 VPN2 (never translated) of its own. */
static void tlb_write_unmatchable(unsigned index)
{
	cp0_write_entryhi(KSEG0_BASE + index * TLB_PAIR_SIZE);
	cp0_write_entrylo0(0);
	cp0_write_entrylo1(0);
	cp0_write_index(index);
	__asm__ volatile("tlbwi\n\tehb" : : : "memory");
}

/* The refill handler's replacement ring (tlbrefill.S): each CPU's TLB
 * is its own (QEMU's 34K: MVPConf0.TLBS = 0), so each has its ring. */
_Static_assert(offsetof(struct tlb_rr, next) == 0, "tlbrefill.S RR_NEXT");
_Static_assert(offsetof(struct tlb_rr, mask) == 4, "tlbrefill.S RR_MASK");

/* The largest power of two not above n (n > 0). */
static unsigned pow2_floor(unsigned n)
{
	unsigned p = 1;

	while (p <= n / 2)
		p *= 2;
	return p;
}

void tlb_init(void)
{
	nentries = tlb_count();
	cp0_write_pagemask(PAGEMASK_4K);
	cp0_write_wired(0);
	for (unsigned i = 0; i < nentries; i++)
		tlb_write_unmatchable(i);
	cp0_write_entryhi(0);
	/* Nothing is wired, so the ring starts at entry 0. */
	pcpu_here()->rr.next = 0;
	pcpu_here()->rr.mask = nentries ? pow2_floor(nentries) - 1 : 0;
}

unsigned tlb_ring_entries(void)
{
	return pcpu_here()->rr.mask + 1;
}

/* EntryHi is saved and restored: it holds the running ASID. */
void tlb_flush_all(void)
{
	irqflags_t f = arch_irq_save();
	uint32_t hi = cp0_read_entryhi();

	for (unsigned i = 0; i < nentries; i++)
		tlb_write_unmatchable(i);
	cp0_write_entryhi(hi);
	arch_irq_restore(f);
}

/*
 * A refill may already have loaded this pair, valid or not; after a page
 * table change that entry would go on answering with the old contents
 * (an invalid half keeps faulting, an unmapped half keeps its frame).
 * So the entry, if any, is found with tlbp and made unmatchable: the
 * next access refills from the table.  Dropping it rather than rewriting
 * it keeps the rule simple -- every page the TLB learns about, it learns
 * through a counted refill.
 */
void tlb_invalidate(uint32_t entryhi)
{
	irqflags_t f = arch_irq_save();
	uint32_t hi = cp0_read_entryhi();
	uint32_t index;

	cp0_write_entryhi(entryhi);
	__asm__ volatile("tlbp\n\tehb" : : : "memory");
	index = cp0_read_index();
	if (!(index & INDEX_P))
		tlb_write_unmatchable(index);
	cp0_write_entryhi(hi);
	arch_irq_restore(f);
}

unsigned arch_tlb_refill_ring(void)
{
	return tlb_ring_entries();
}
