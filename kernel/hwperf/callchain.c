/*
 * callchain.c - the user call chain of a sample record (sample.h).
 *
 * Both walks read user memory only through the caller's read function
 * (copy_from_user in the kernel), check every frame against the stack and
 * every return address against the program's text, and stop at the first
 * thing that does not fit: a program without frame pointers gives a short
 * or empty chain, never a fault.
 */
#include "sample.h"

/* x86-64: what `push rbp; mov rbp, rsp` leaves at [rbp]. */
#define FP64_WORD 8u

/* MIPS O32 instruction patterns (the prologue clang and gcc emit). */
#define MIPS_INSN_BYTES 4u
#define MIPS_ADDIU_SP_SP 0x27bd0000u    /* addiu sp, sp, imm */
#define MIPS_SW_RA_SP    0xafbf0000u    /* sw ra, imm(sp) */
#define MIPS_HI_MASK     0xffff0000u
#define MIPS_IMM_MASK    0x0000ffffu
#define MIPS_IMM_SIGN    0x00008000u
/* How far back from a PC a function's frame allocation may be, and how
 * far into the function its `sw ra`: bounds on reads, not on programs
 * (a function longer than this just ends the walk). */
#define MIPS_SCAN_BACK   4096u
#define MIPS_PROLOGUE_MAX 64u

static bool in_text(const struct hwperf_uregs *r, uint64_t a)
{
	return a >= r->text_lo && a < r->text_hi;
}

static unsigned walk_fp64(const struct hwperf_uregs *r, hwperf_uread_fn read,
                          void *ctx, uint64_t *out, unsigned max)
{
	uintptr_t fp = r->fp;
	unsigned n = 0;

	while (n < max) {
		uint64_t frame[2];      /* saved fp, return address */

		if (fp < r->sp || (fp & (FP64_WORD - 1)) ||
		    fp > r->stack_hi - sizeof(frame) || r->stack_hi < sizeof(frame))
			break;
		if (read(ctx, fp, frame, sizeof(frame)) != 0 || !in_text(r, frame[1]))
			break;
		out[n++] = frame[1];
		/* Frames only ever lie further up the stack: anything else is
		 * not a frame chain (and could loop). */
		if (frame[0] <= fp)
			break;
		fp = (uintptr_t)frame[0];
	}
	return n;
}

static bool read_insn(const struct hwperf_uregs *r, hwperf_uread_fn read,
                      void *ctx, uintptr_t a, uint32_t *insn)
{
	return in_text(r, a) && read(ctx, a, insn, sizeof(*insn)) == 0;
}

/* The `addiu sp, sp, -N` at or before pc: its address and N, or false. */
static bool find_alloc(const struct hwperf_uregs *r, hwperf_uread_fn read,
                       void *ctx, uintptr_t pc, uintptr_t *at, uint32_t *size)
{
	for (uintptr_t a = pc; pc - a <= MIPS_SCAN_BACK && a >= r->text_lo;
	     a -= MIPS_INSN_BYTES) {
		uint32_t insn;

		if (!read_insn(r, read, ctx, a, &insn))
			return false;
		if ((insn & MIPS_HI_MASK) == MIPS_ADDIU_SP_SP && (insn & MIPS_IMM_SIGN)) {
			*at = a;
			*size = (MIPS_IMM_MASK + 1u) - (insn & MIPS_IMM_MASK);
			return true;
		}
		if (a < MIPS_INSN_BYTES)
			break;
	}
	return false;
}

/* The `sw ra, X(sp)` between the allocation and pc (executed), or false. */
static bool find_ra_save(const struct hwperf_uregs *r, hwperf_uread_fn read,
                         void *ctx, uintptr_t alloc, uintptr_t pc, uint32_t *off)
{
	for (uintptr_t a = alloc + MIPS_INSN_BYTES;
	     a < pc && a - alloc <= MIPS_PROLOGUE_MAX * MIPS_INSN_BYTES;
	     a += MIPS_INSN_BYTES) {
		uint32_t insn;

		if (!read_insn(r, read, ctx, a, &insn))
			return false;
		if ((insn & MIPS_HI_MASK) == MIPS_SW_RA_SP && !(insn & MIPS_IMM_SIGN)) {
			*off = insn & MIPS_IMM_MASK;
			return true;
		}
	}
	return false;
}

static unsigned walk_mips32(const struct hwperf_uregs *r, hwperf_uread_fn read,
                            void *ctx, uint64_t *out, unsigned max)
{
	uintptr_t pc = r->pc, sp = r->sp;
	unsigned n = 0;

	while (n < max) {
		uintptr_t alloc, caller_pc, caller_sp;
		uint32_t size, off, saved;
		bool first = n == 0;

		if (!find_alloc(r, read, ctx, pc, &alloc, &size))
			break;
		if (alloc == pc) {
			/* Stopped on the allocation itself: nothing of this
			 * frame exists yet, ra still holds the return. */
			if (!first)
				break;
			caller_pc = r->ra;
			caller_sp = sp;
		} else {
			if (find_ra_save(r, read, ctx, alloc, pc, &off)) {
				if (read(ctx, sp + off, &saved, sizeof(saved)) != 0)
					break;
				caller_pc = saved;
			} else if (first) {
				caller_pc = r->ra;      /* a leaf keeps it in ra */
			} else {
				break;
			}
			caller_sp = sp + size;
		}
		if (!in_text(r, caller_pc) || caller_sp < sp || caller_sp > r->stack_hi)
			break;
		out[n++] = caller_pc;
		pc = caller_pc;
		sp = caller_sp;
	}
	return n;
}

unsigned hwperf_callchain(enum hwperf_unwind how, const struct hwperf_uregs *r,
                          hwperf_uread_fn read, void *ctx, uint64_t *out,
                          unsigned max, bool *cut)
{
	unsigned n = how == HWPERF_UNWIND_MIPS32 ? walk_mips32(r, read, ctx, out, max)
	                                         : walk_fp64(r, read, ctx, out, max);

	*cut = max > 0 && n == max;
	return n;
}
