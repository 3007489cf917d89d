/*
 * asid.h - handing out TLB address-space identifiers by generation.
 *
 * EntryHi.ASID tags every TLB entry with its address space, so switching
 * tasks needs no TLB flush.  There are few ASIDs, so instead of freeing
 * them one by one they are handed out in order within a generation; when
 * the last is gone, the generation advances, the TLB is flushed, and every
 * address space takes a fresh ASID the next time it is activated.  An
 * address space holds an ASID only while its generation is the current
 * one, so a stale ASID can never match a TLB entry of somebody else.
 *
 * ASID 0 is never handed out: it tags the kernel's accesses when no user
 * address space is active.  Pure logic, host tested.
 */
#ifndef TALLY_MIPS_ASID_H
#define TALLY_MIPS_ASID_H

#include <stdbool.h>
#include <stdint.h>

#define ASID_KERNEL 0u
#define ASID_FIRST  1u

struct asid_space {
	uint64_t generation;    /* starts at 1; a low half of 0: none (asid_forget) */
	uint32_t next;          /* next ASID to hand out */
	uint32_t count;         /* ASIDs the TLB can tell apart */
	uint64_t rollovers;     /* generations used up (statistics) */
};

/* What an address space holds (in one CPU's TLB); zeroed means none yet. */
struct asid {
	uint64_t generation;
	uint32_t value;
};

void asid_space_init(struct asid_space *s, uint32_t count);
/* Whether a still holds a usable ASID. */
bool asid_current(const struct asid_space *s, const struct asid *a);
/*
 * Make a current, giving it a new ASID if it has none.  Returns true when
 * that started a new generation: the caller must flush the TLB before the
 * ASID is used.
 */
bool asid_assign(struct asid_space *s, struct asid *a);
/*
 * Make a stop holding its ASID, without a flush: its next assign takes
 * a new value.  The entries the TLB keeps under the old value stay
 * unreachable, since within a generation every value is handed out once
 * (vm.c: how a TLB of another CPU forgets a changed mapping).
 *
 * It may run on another CPU than the one whose space a belongs to, so it
 * writes one 32-bit word, whole on every machine: the low half of the
 * generation, set to 0.  No generation has a low half of 0 (assign skips
 * those), so the torn value is no generation at all, and asid_current
 * needs no test of its own for it.
 */
void asid_forget(struct asid *a);

#endif
