/*
 * user_span.c - the user interval as the exception stub and the eret
 * path stamped it (kernel/arch.h arch_user_span; the stamps: vectors.S,
 * tlbrefill.S).
 *
 * The stamps are raw 32-bit Count values, both after the accounting
 * clock's last cut and within a tick of it, so each is placed on the
 * 64-bit cycle counter by its distance on from that cut (no Count read,
 * no 64-bit subtraction: a cut is on every entry's path).
 */
#include "arch.h"
#include "pcpu.h"

/*
 * Per round trip: Count is the exception stub's first instruction, and
 * the exit's Count read is three instructions before ERET; a TLB refill
 * taken in user mode runs eight instructions after its last Count read.
 * Count itself ticks once per 6 instructions under QEMU, so each cut
 * rounds by up to that much.  Measured by the ucut benchmark (docs/tasks.md,
 * Accounting).
 */
const struct arch_user_cut arch_user_cut = {
	.max_kernel_insns = 48,
	.sysloop_insns = 5,             /* li, syscall, addiu, bnez, nop */
};

/* The stamps are this CPU's (pcpu.h); interrupts are off (arch.h). */
void arch_user_span(uint64_t since, uint64_t *left, uint64_t *back)
{
	struct mips_pcpu *p = pcpu_here_irqs_off();

	pcpu_user_span(p, *p->exit_sink, since, left, back);
	p->exit_sink = &p->user_exit;
}

/* The stamp is the word user mode reads back (RDHWR $2 is 32 bits): the
 * low half of the 64-bit field, wherever the byte order puts it. */
void arch_user_stamp_to(uint64_t *where)
{
	struct mips_pcpu *p = pcpu_here();

	if (!where) {
		p->exit_sink = &p->user_exit;
		return;
	}
	*where = 0;
	p->exit_sink = (uint32_t *)where + (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	/* The system call's short cut leaves the sink alone (trap.c): the
	 * next call cuts the slow way, whose arch_user_span puts it back.
	 * The page takes the stamp only for a live cycles:u counter, whose
	 * kind sets the hint as well (arch_kevents_set); this keeps the
	 * hint's promise here, whatever the PMU layer wants (trap.c
	 * mips_syscall_sink_lost panics if it is ever broken). */
	p->syscall_slow = PCPU_SLOW_SINK;
}
