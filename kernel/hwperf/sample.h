/*
 * sample.h - sample records of a profile (issue 15 item 3): one record per
 * profile hit, kept in a bounded ring, and the user call chain walked at
 * the hit.
 *
 * A record holds raw addresses only; `prof` prints the program's symbol
 * table next to the records (`sym` lines) so that scripts/tally-folded
 * names them on the host.  The line and JSON formats are in docs/hwperf.md
 * ("Sample records").
 */
#ifndef TALLY_HWPERF_SAMPLE_H
#define TALLY_HWPERF_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Callers kept per record: deeper chains are cut (and marked). */
#define HWPERF_SAMPLE_DEPTH 12
#define HWPERF_SAMPLE_TRUNC 0x1u        /* the walk stopped at the depth cap */

struct hwperf_sample {
	uint64_t cycles;                /* cycle counter at the hit */
	uint64_t pc;                    /* interrupted user PC */
	uint64_t chain[HWPERF_SAMPLE_DEPTH]; /* return addresses, innermost first */
	int32_t pid;
	uint16_t cpu;
	uint8_t vctr;                   /* the virtual counter that crossed */
	uint8_t depth;                  /* chain entries used */
	uint32_t flags;                 /* HWPERF_SAMPLE_* */
};

/*
 * A bounded ring of records spread over pages the caller allocated (the
 * kernel heap's blocks are too small for many records).  When full, new
 * records are counted in `dropped` and not kept, so the records kept are
 * the first `cap` of the run, in order.
 */
struct hwperf_ring {
	struct hwperf_sample **pages;
	uint32_t per_page;
	uint32_t cap;
	uint32_t n;
	uint64_t dropped;
};

/* Records that fit in npages pages of page_bytes each, at most max. */
uint32_t hwperf_ring_capacity(size_t page_bytes, unsigned npages, uint32_t max);
void hwperf_ring_init(struct hwperf_ring *r, struct hwperf_sample **pages,
                      size_t page_bytes, uint32_t cap);
/* The slot for the next record, or NULL (a drop, counted) when full. */
struct hwperf_sample *hwperf_ring_next(struct hwperf_ring *r);
const struct hwperf_sample *hwperf_ring_get(const struct hwperf_ring *r, uint32_t i);

/*
 * One record as a line, or as a JSON object (no newline):
 *
 *   sample pid=P cpu=C cycles=T vctr=I event=NAME pc=0xA chain=0xR1,0xR2
 *   {"pid":P,"cpu":C,"cycles":T,"vctr":I,"event":"NAME","pc":"0xA",
 *    "chain":["0xR1","0xR2"],"truncated":false}
 *
 * chain is innermost caller first; `chain=-` when empty; a cut chain ends
 * with `,...` in the line format.  Returns the length snprintf would.
 */
int hwperf_sample_format(const struct hwperf_sample *s, const char *event,
                         bool json, char *buf, size_t len);

/* ---- the user call chain ---------------------------------------------- */

/* Copy n bytes of user memory at addr: 0, or nonzero when unreadable (the
 * kernel's copy_from_user: a bad address ends the walk, never faults). */
typedef int (*hwperf_uread_fn)(void *ctx, uintptr_t addr, void *dst, size_t n);

struct hwperf_uregs {
	uintptr_t pc, sp, fp, ra;       /* ra: MIPS only, 0 elsewhere */
	uintptr_t text_lo, text_hi;     /* return addresses must be in here */
	uintptr_t stack_hi;             /* frames lie in [sp, stack_hi) */
};

enum hwperf_unwind { HWPERF_UNWIND_FP64, HWPERF_UNWIND_MIPS32 };

/*
 * Walk the caller chain from r into out[0..max); returns entries written
 * and sets *cut when max stopped it.  FP64 (x86-64 with frame pointers):
 * [fp] is the caller's fp, [fp+8] the return address.  MIPS32 (O32, where
 * the saved ra's offset from $fp depends on the frame's size): each
 * function's prologue is read from user text -- `addiu sp,sp,-N` before
 * the PC, then `sw ra,X(sp)` -- so frame sizes are known exactly.
 */
unsigned hwperf_callchain(enum hwperf_unwind how, const struct hwperf_uregs *r,
                          hwperf_uread_fn read, void *ctx, uint64_t *out,
                          unsigned max, bool *cut);

#endif
