/*
 * tlbrefill.S - the TLB refill handler, copied to EBase + 0x000.
 *
 * The CPU comes here (with EXL clear before the exception) when no TLB
 * entry matches a kuseg or KSEG2 address under the current ASID.  With
 * only k0 and k1 to work with, it
 *
 *   1. counts the refill, in this CPU's tlb_refills[0] (pcpu.h: every
 *      word here is the running CPU's, found through DESAVE) if it
 *      interrupted kernel mode and [1] if it interrupted user mode: Status.EXL is set now but
 *      KSU still says the mode that was running;
 *   2. walks the current page table (pagetable.h) for BadVAddr's even/odd
 *      pair and loads both PTEs, shifted into EntryLo form (pte.h);
 *   3. writes them to the next entry in round-robin order;
 *   4. moves the exit stamp (vectors.S) on by the Count ticks it took, so
 *      that a refill taken in user mode is kernel time, marks the CPU's
 *      system call slow hint (pcpu.h), then returns.
 *      Four registers' worth of work with two: $at is parked in memory
 *      (the CPU's refill_at word).
 *
 * Round robin (tlbwi at the CPU's rr.next) rather than tlbwr: Random
 * differs from run to run, so the refills a program takes would too,
 * while first-in-first-out replacement makes a task's refill count a
 * function of its own accesses alone (its entries are always younger
 * than other tasks').  The ring is the largest power of two that fits in
 * the TLB above Wired (tlb.c), so the wrap is a mask, not a branch.
 *
 * There is no branch: an address without a leaf reads the shared empty
 * leaf, so an unmapped address gets an invalid pair, and retrying the
 * access raises TLBL/TLBS through the general vector, where trap.c turns
 * it into a page fault.  Nothing here is PC-relative, so the copy runs
 * wherever EBase is.  It may run past EBase + 0x080: that is the XTLB
 * refill vector, which only 64-bit address spaces use, and MIPS32 has
 * none; the cache error vector at 0x100 is the limit (checked below).
 */
#include "cp0.h"
#include "pagetable.h"
#include "pcpu.h"
#include "pte.h"

/* Status.UM is bit 4; as a byte offset into the word pair it is 4 >> 2. */
#define UM_BIT          4
#define WORD_SHIFT      2
#define PAIR_SHIFT      (PT_LEAF_SHIFT + 1)
#define PAIR_BYTES      (2 * PT_PTE_BYTES)
#define PAIR_BYTES_LOG2 3
#define PAIR_OFFSET_MASK (((PT_ENTRIES / 2) - 1) * PAIR_BYTES)
/* struct tlb_rr (mips.h), at PCPU_RR */
#define RR_NEXT         0
#define RR_MASK         4
/* From EBase + 0x000 to the cache error vector. */
#define REFILL_ROOM     0x100

	.set	noreorder
	.set	noat

	.text
	.globl	mips_tlb_refill
	.globl	mips_tlb_refill_end
mips_tlb_refill:
	mfc0	$k0, C0(CP0_COUNT)
	mfc0	$k1, C0(CP0_DESAVE)             /* this CPU's words (pcpu.h) */
	sw	$k0, PCPU_REFILL_COUNT($k1)

	mfc0	$k0, C0(CP0_STATUS)
	andi	$k0, $k0, ST_UM
	srl	$k0, $k0, UM_BIT - WORD_SHIFT
	addu	$k1, $k1, $k0
	lw	$k0, PCPU_REFILLS($k1)
	addiu	$k0, $k0, 1
	sw	$k0, PCPU_REFILLS($k1)

	mfc0	$k0, C0(CP0_BADVADDR)
	mfc0	$k1, C0(CP0_DESAVE)
	lw	$k1, PCPU_PT_CURRENT($k1)
	srl	$k0, $k0, PT_ROOT_SHIFT
	sll	$k0, $k0, WORD_SHIFT
	addu	$k1, $k1, $k0
	lw	$k1, 0($k1)                     /* the leaf (or the empty one) */
	mfc0	$k0, C0(CP0_BADVADDR)
	srl	$k0, $k0, PAIR_SHIFT - PAIR_BYTES_LOG2
	andi	$k0, $k0, PAIR_OFFSET_MASK
	addu	$k1, $k1, $k0
	lw	$k0, 0($k1)
	srl	$k0, $k0, PTE_ENTRYLO_SHIFT
	mtc0	$k0, C0(CP0_ENTRYLO0)
	lw	$k0, PT_PTE_BYTES($k1)
	srl	$k0, $k0, PTE_ENTRYLO_SHIFT
	mtc0	$k0, C0(CP0_ENTRYLO1)

	mfc0	$k1, C0(CP0_DESAVE)
	lw	$k0, PCPU_RR + RR_NEXT($k1)
	mtc0	$k0, C0(CP0_INDEX)
	addiu	$k0, $k0, 1
	lw	$k1, PCPU_RR + RR_MASK($k1)
	and	$k0, $k0, $k1
	mfc0	$k1, C0(CP0_DESAVE)
	sw	$k0, PCPU_RR + RR_NEXT($k1)
	ehb
	tlbwi

	mfc0	$k0, C0(CP0_DESAVE)
	sw	$1, PCPU_REFILL_AT($k0)
	lw	$k1, PCPU_REFILL_COUNT($k0)
	mfc0	$k0, C0(CP0_COUNT)
	subu	$1, $k0, $k1                    /* ticks spent here */
	mfc0	$k1, C0(CP0_DESAVE)
	lw	$k1, PCPU_EXIT_SINK($k1)
	lw	$k0, 0($k1)
	addu	$k0, $k0, $1
	sw	$k0, 0($k1)
	mfc0	$k0, C0(CP0_DESAVE)
	sw	$k0, PCPU_SYSCALL_SLOW($k0)      /* the block's address: never 0 */
	lw	$1, PCPU_REFILL_AT($k0)
	eret
mips_tlb_refill_end:
	.if	(mips_tlb_refill_end - mips_tlb_refill) > REFILL_ROOM
	.error	"TLB refill handler runs into the cache error vector"
	.endif
