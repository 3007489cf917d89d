/*
 * tlbrefill.S - the TLB refill handler, copied to EBase + 0x000.
 *
 * The CPU comes here (with EXL clear before the exception) when no TLB
 * entry matches a kuseg or KSEG2 address under the current ASID.  With
 * only k0 and k1 to work with, it
 *
 *   1. counts the refill, in mips_tlb_refills[0] if it interrupted kernel
 *      mode and [1] if it interrupted user mode: Status.EXL is set now but
 *      KSU still says the mode that was running;
 *   2. walks the current page table (pagetable.h) for BadVAddr's even/odd
 *      pair and loads both PTEs, shifted into EntryLo form (pte.h);
 *   3. writes them to the next entry in round-robin order;
 *   4. moves the exit stamp (vectors.S) on by the Count ticks it took, so
 *      that a refill taken in user mode is kernel time, then returns.
 *      Four registers' worth of work with two: $at is parked in memory.
 *
 * Round robin (tlbwi at mips_tlb_rr.next) rather than tlbwr: Random
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
#include "pte.h"

/* Status.UM is bit 4; as a byte offset into the word pair it is 4 >> 2. */
#define UM_BIT          4
#define WORD_SHIFT      2
#define PAIR_SHIFT      (PT_LEAF_SHIFT + 1)
#define PAIR_BYTES      (2 * PT_PTE_BYTES)
#define PAIR_BYTES_LOG2 3
#define PAIR_OFFSET_MASK (((PT_ENTRIES / 2) - 1) * PAIR_BYTES)
/* struct tlb_rr (mips.h) */
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
	lui	$k1, %hi(mips_refill_count)
	sw	$k0, %lo(mips_refill_count)($k1)

	mfc0	$k0, C0(CP0_STATUS)
	lui	$k1, %hi(mips_tlb_refills)
	andi	$k0, $k0, ST_UM
	srl	$k0, $k0, UM_BIT - WORD_SHIFT
	addu	$k1, $k1, $k0
	lw	$k0, %lo(mips_tlb_refills)($k1)
	addiu	$k0, $k0, 1
	sw	$k0, %lo(mips_tlb_refills)($k1)

	mfc0	$k0, C0(CP0_BADVADDR)
	lui	$k1, %hi(mips_pt_current)
	lw	$k1, %lo(mips_pt_current)($k1)
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

	lui	$k1, %hi(mips_tlb_rr)
	addiu	$k1, $k1, %lo(mips_tlb_rr)
	lw	$k0, RR_NEXT($k1)
	mtc0	$k0, C0(CP0_INDEX)
	addiu	$k0, $k0, 1
	lw	$k1, RR_MASK($k1)
	and	$k0, $k0, $k1
	lui	$k1, %hi(mips_tlb_rr)
	sw	$k0, %lo(mips_tlb_rr)($k1)
	ehb
	tlbwi

	lui	$k0, %hi(mips_refill_at)
	sw	$1, %lo(mips_refill_at)($k0)
	lui	$k1, %hi(mips_refill_count)
	lw	$k1, %lo(mips_refill_count)($k1)
	mfc0	$k0, C0(CP0_COUNT)
	subu	$1, $k0, $k1                    /* ticks spent here */
	lui	$k1, %hi(mips_exit_sink)
	lw	$k1, %lo(mips_exit_sink)($k1)
	lw	$k0, 0($k1)
	addu	$k0, $k0, $1
	sw	$k0, 0($k1)
	lui	$k0, %hi(mips_refill_at)
	lw	$1, %lo(mips_refill_at)($k0)
	eret
mips_tlb_refill_end:
	.if	(mips_tlb_refill_end - mips_tlb_refill) > REFILL_ROOM
	.error	"TLB refill handler runs into the cache error vector"
	.endif

	.data
	.balign	4
	/* Free-running: [0] refills that interrupted kernel mode, [1] user. */
	.globl	mips_tlb_refills
mips_tlb_refills:
	.word	0, 0
	/* Round-robin replacement: next index, ring mask (tlb.c sets both). */
	.globl	mips_tlb_rr
mips_tlb_rr:
	.word	0, 0
	/* Count at the refill's first instruction; $at while it is borrowed. */
mips_refill_count:
	.word	0
mips_refill_at:
	.word	0
	/* Root of the active page table (vm.c keeps it current). */
	.globl	mips_pt_current
mips_pt_current:
	.word	0
