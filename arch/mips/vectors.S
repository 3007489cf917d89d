/*
 * vectors.S - exception entry and return.
 *
 * mips_vec_stub is the few instructions that trap.c copies to each vector
 * offset from EBase (cache error, general).  It reads Count, then jumps
 * to mips_exc_entry: the vectors are 128 bytes apart, too small for the
 * save sequence.  A j, not a jump through a register: two instructions
 * less on every exception, and EBase is in KSEG0 with the kernel.
 *
 * User time is cut here (kernel/arch.h arch_user_span): Count read as the
 * stub's first instruction is kept in this CPU's user_entry word (pcpu.h)
 * when the exception came from user mode, and Count read just before the
 * eret that returns is written through its exit_sink (its user_exit word,
 * or the task's read page).  The TLB refill handler (tlbrefill.S) moves that exit stamp on by
 * its own time, so it is not user time either.
 *
 * mips_exc_entry saves the interrupted context into a struct trapframe on
 * the kernel stack, leaves exception level (so that a nested TLB refill
 * while the kernel touches a user address is a normal refill, once there
 * are user addresses), and calls mips_trap(tf) with interrupts still off.
 * mips_trap_return restores a frame and erets; arch_return_to_user
 * enters it with sp at a new task's first user frame.
 */
#include "cp0.h"
#include "pcpu.h"
#include "trapframe.h"
#include "syscall_nr.h"

	.set	noreorder
	.set	noat

	.text

	.globl	mips_vec_stub
	.globl	mips_vec_stub_end
mips_vec_stub:
	mfc0	$k1, C0(CP0_COUNT)
	j	mips_exc_entry
	/* mips_exc_entry's first step, in the slot. */
	mfc0	$k0, C0(CP0_STATUS)
mips_vec_stub_end:
/* j keeps the upper four bits of its own address: the copies (EBase at
 * KSEG0_BASE, trap.c) and the entry share one 256 MiB region, KSEG0's. */

/* Status.IM as the bit field ext/ins take (cp0.h has it as a mask). */
#define ST_IM_BITS 8
#if ST_IM_MASK != ((1 << ST_IM_BITS) - 1) << ST_IM_SHIFT
#error "Status.IM is not ST_IM_BITS wide at ST_IM_SHIFT"
#endif

/* Status.IE, EXL, ERL and KSU: the low bits an entry clears at once. */
#define ST_LOW_BITS 5
#if (ST_IE | ST_EXL | ST_ERL | ST_KSU_MASK) != (1 << ST_LOW_BITS) - 1
#error "Status.IE, EXL, ERL and KSU are not bits 0-4"
#endif

/* C0() builds $n from a number; it serves GPR numbers as well. */
#define SAVE(r)    sw C0(r), TF_ARGSAVE + TF_REG(r)($sp)
#define RESTORE(r) lw C0(r), TF_ARGSAVE + TF_REG(r)($sp)

	/*
	 * The frame below sp, on the way in from kernel mode: k1 holds the
	 * interrupted sp.  BadVAddr only means something for the exceptions
	 * that set it: trap.c stores it for those (frame_badvaddr).  Leaves
	 * EPC, Status and Cause in t0, t1, t2 as well, EPC not yet stored.
	 * (The way in from user mode saves by its own lists: a system call
	 * saves less, mips_exc_entry.)
	 *
	 * SAVE_CALLER is everything but the callee-saved registers s0-s7 and
	 * fp, which SAVE_CALLEE adds.  C code hands those back as it found
	 * them, so a system call leaves them live in their registers and
	 * saves them only on the ways that read or rewrite them (below,
	 * trapframe.h TF_CAUSE_FULL); every other entry saves both.
	 */

	/* SAVE_CALLER's registers but sp and v0, which the way in from
	 * user mode stores before it tells a system call from the rest. */
	.macro	SAVE_TEMPS
	SAVE(1)
	SAVE(3)
	SAVE(4)
	SAVE(5)
	SAVE(6)
	SAVE(7)
	SAVE(8)
	SAVE(9)
	SAVE(10)
	SAVE(11)
	SAVE(12)
	SAVE(13)
	SAVE(14)
	SAVE(15)
	SAVE(24)
	SAVE(25)
	SAVE(28)
	SAVE(31)
	mfhi	$t0
	mflo	$t1
	sw	$t0, TF_ARGSAVE + TF_HI($sp)
	sw	$t1, TF_ARGSAVE + TF_LO($sp)
	.endm

	.macro	SAVE_CALLER
	sw	$k1, TF_ARGSAVE + TF_REG(REG_SP)($sp)
	SAVE(2)
	SAVE_TEMPS
	mfc0	$t0, C0(CP0_EPC)
	mfc0	$t1, C0(CP0_STATUS)
	mfc0	$t2, C0(CP0_CAUSE)
	sw	$t1, TF_ARGSAVE + TF_STATUS($sp)
	sw	$t2, TF_ARGSAVE + TF_CAUSE($sp)
	.endm

	.macro	SAVE_CALLEE
	SAVE(16)
	SAVE(17)
	SAVE(18)
	SAVE(19)
	SAVE(20)
	SAVE(21)
	SAVE(22)
	SAVE(23)
	SAVE(30)
	.endm

	/* A system call's frame once whole: Cause (in k1, or reloaded)
	 * marked so that readers know (trapframe.h). */
	.macro	MARK_FULL
	ori	$k1, $k1, TF_CAUSE_FULL
	sw	$k1, TF_ARGSAVE + TF_CAUSE($sp)
	.endm

	/*
	 * The registers the system call contract clobbers (at, v1, t0-t9,
	 * hi, lo: trapframe.h TF_SYSCALL_CLOBBERED), zero, in the frame for
	 * the ways that read or restore it whole, and live for the fast
	 * return.  The list is the contract's, checked against
	 * TF_SYSCALL_CLOBBERED here.
	 */
#if TF_SYSCALL_CLOBBERED != ((1 << 1) | (1 << 3) | (0xff << 8) | (1 << 24) | (1 << 25))
#error "ZERO_CLOBBERED_WORDS and ZERO_CLOBBERED_REGS list other registers than TF_SYSCALL_CLOBBERED"
#endif
	.macro	ZERO_CLOBBERED_WORDS
	sw	$zero, TF_ARGSAVE + TF_REG(1)($sp)
	sw	$zero, TF_ARGSAVE + TF_REG(3)($sp)
	sw	$zero, TF_ARGSAVE + TF_REG(8)($sp)
	sw	$zero, TF_ARGSAVE + TF_REG(9)($sp)
	sw	$zero, TF_ARGSAVE + TF_REG(10)($sp)
	sw	$zero, TF_ARGSAVE + TF_REG(11)($sp)
	sw	$zero, TF_ARGSAVE + TF_REG(12)($sp)
	sw	$zero, TF_ARGSAVE + TF_REG(13)($sp)
	sw	$zero, TF_ARGSAVE + TF_REG(14)($sp)
	sw	$zero, TF_ARGSAVE + TF_REG(15)($sp)
	sw	$zero, TF_ARGSAVE + TF_REG(24)($sp)
	sw	$zero, TF_ARGSAVE + TF_REG(25)($sp)
	sw	$zero, TF_ARGSAVE + TF_HI($sp)
	sw	$zero, TF_ARGSAVE + TF_LO($sp)
	.endm

	.macro	ZERO_CLOBBERED_REGS
	move	$1, $zero
	move	$3, $zero
	move	$8, $zero
	move	$9, $zero
	move	$10, $zero
	move	$11, $zero
	move	$12, $zero
	move	$13, $zero
	move	$14, $zero
	move	$15, $zero
	move	$24, $zero
	move	$25, $zero
	.endm

	/*
	 * The end of every return: sp, then the exit stamp, on every
	 * return: only one to user mode is ever read, and the last exit
	 * before an entry from user mode is that.
	 */
	.macro	ERET_TAIL
	lw	$sp, TF_ARGSAVE + TF_REG(REG_SP)($sp)
	mfc0	$k1, C0(CP0_DESAVE)
	lw	$k1, PCPU_EXIT_SINK($k1)
	mfc0	$k0, C0(CP0_COUNT)
	sw	$k0, 0($k1)
	eret
	nop
	.endm

	/*
	 * The end of every other return, from EPC on: Status is already set
	 * (EXL among it, so nothing interrupts the rest).  Callers reload
	 * s0-s7 and fp first where the frame's copies must win.
	 */
	.macro	RESTORE_TAIL
	lw	$t0, TF_ARGSAVE + TF_EPC($sp)
	mtc0	$t0, C0(CP0_EPC)
	lw	$t0, TF_ARGSAVE + TF_HI($sp)
	lw	$t1, TF_ARGSAVE + TF_LO($sp)
	mthi	$t0
	mtlo	$t1
	RESTORE(1)
	RESTORE(2)
	RESTORE(3)
	RESTORE(4)
	RESTORE(5)
	RESTORE(6)
	RESTORE(7)
	RESTORE(8)
	RESTORE(9)
	RESTORE(10)
	RESTORE(11)
	RESTORE(12)
	RESTORE(13)
	RESTORE(14)
	RESTORE(15)
	RESTORE(24)
	RESTORE(25)
	RESTORE(28)
	RESTORE(31)
	ERET_TAIL
	.endm

/* Status.CU0-3 as the bit field ins clears (user_status.h forces them off). */
#define ST_CU_SHIFT 28
#define ST_CU_BITS  4
#if ST_CU_MASK != ((1 << ST_CU_BITS) - 1) << ST_CU_SHIFT
#error "Status.CU is not ST_CU_BITS wide at ST_CU_SHIFT"
#endif

	/*
	 * Status for user mode, from the kernel's current one in reg: user
	 * mode owns none of Status (user_status.h), so it is that with
	 * CU0-3 off and KSU = user, interrupts on, and EXL set until eret,
	 * so nothing interrupts the restore.  Interrupts are off and EXL,
	 * ERL and KSU clear in the kernel wherever this runs, so one ori
	 * sets them.  A system call's entry stores no Status word: the fast
	 * return builds it so, and the ways that return through the frame
	 * (fork's child, return work, a call in a delay slot) store it so
	 * (USER_STATUS_WORD), which mips_trap_return then takes with the
	 * current interrupt mask as for any frame.
	 */
	.macro	USER_STATUS reg
	ins	\reg, $zero, ST_CU_SHIFT, ST_CU_BITS
	ori	\reg, \reg, ST_KSU_USER | ST_EXL | ST_IE
	.endm

	.macro	USER_STATUS_WORD reg
	mfc0	\reg, C0(CP0_STATUS)
	USER_STATUS \reg
	sw	\reg, TF_ARGSAVE + TF_STATUS($sp)
	.endm

	/* Kernel mode, exception level off, interrupts off: Status (in t1)
	 * bits 0-4 cleared in one ins.  ERL (bit 2) goes with them; it is
	 * clear here anyway, since Tally never runs with it set past
	 * start.S.  The caller follows with the ehb. */
	.macro	KERNEL_STATUS
	ins	$t1, $zero, 0, ST_LOW_BITS
	mtc0	$t1, C0(CP0_STATUS)
	.endm

	.globl	mips_exc_entry
	.ent	mips_exc_entry
mips_exc_entry:
	/*
	 * From user mode the user's sp cannot be trusted, so take the task's
	 * kernel stack; from kernel mode keep pushing on the current one.
	 * k1 arrives holding the stub's Count and carries the interrupted
	 * sp into the frame either way.  k0 arrives holding Status (the
	 * stub's delay slot read it).
	 */
	andi	$k0, $k0, ST_UM
	beqz	$k0, .Lfrom_kernel
	mfc0	$k0, C0(CP0_DESAVE)             /* this CPU's words (pcpu.h) */
	sw	$k1, PCPU_USER_ENTRY($k0)
	move	$k1, $sp
	lw	$sp, PCPU_KFRAME($k0)           /* the stack's top less TF_STACK */
	sw	$k1, TF_ARGSAVE + TF_REG(REG_SP)($sp)

	/*
	 * From user mode, a system call goes to mips_syscall, everything
	 * else to mips_trap: k0 is zero only for ExcCode Sys, and k1 keeps
	 * Cause (nothing can take an exception before the call: interrupts
	 * stay off and only KSEG0 is touched).  (The way in from kernel
	 * mode goes to mips_trap without asking: a kernel-mode Sys, a bug,
	 * takes its fatal report.)  Asked before any register is saved: a
	 * system call saves only what the O32 system call contract keeps
	 * (docs/tasks.md, "The system call contract"): v0 (its number),
	 * the arguments a0-a3, t0 and t1, and gp and ra, which C code
	 * does not keep.  at, v1, t2-t9, hi and lo are the call's to
	 * clobber, so the entry leaves them out and the return sets them
	 * to zero (below); s0-s7 and fp C code hands back as it found them,
	 * so they stay live in their registers and are saved only on the
	 * ways that read or rewrite them (trapframe.h TF_CAUSE_FULL).
	 */
	mfc0	$k1, C0(CP0_CAUSE)
	andi	$k0, $k1, CAUSE_EXC_MASK
	xori	$k0, $k0, EXC_SYS << CAUSE_EXC_SHIFT
	bnez	$k0, .Ltrap_user
	SAVE(2)                                 /* v0, both ways */
	SAVE(4)
	SAVE(5)
	SAVE(6)
	SAVE(7)
	SAVE(8)
	SAVE(9)
	SAVE(28)
	SAVE(31)
	mfc0	$t0, C0(CP0_EPC)
	mfc0	$t1, C0(CP0_STATUS)
	sw	$k1, TF_ARGSAVE + TF_CAUSE($sp)
	ins	$t1, $zero, 0, ST_LOW_BITS      /* KERNEL_STATUS */
	mtc0	$t1, C0(CP0_STATUS)
	/*
	 * A call in a branch's delay slot (Cause.BD) resumes where the
	 * branch goes, decoded from the whole frame (mips_syscall_slot):
	 * t2-t9 are still the user's for it, and k0 takes the test for
	 * fork, the one call that reads the frame's other words while it
	 * runs (its child's copy of the frame): zero for it.  Any other
	 * call resumes after the syscall, and its frame says so from here
	 * on (usermode.c arch_tf_set_return).
	 */
	bltz	$k1, .Lsyscall_slot
	xori	$k0, $v0, SYS_fork              /* harmless on the slot way */
	addiu	$t0, $t0, 4
	sw	$t0, TF_ARGSAVE + TF_EPC($sp)
	beqz	$k0, .Lsyscall_full
	ehb

	/*
	 * mips_syscall (trap.c) cuts, with the call's number still in v0,
	 * and returns the handler, which is called here with the arguments
	 * in the frame and the frame, so that no C function on the way
	 * keeps a stack frame.
	 */
	jal	mips_syscall
	move	$a0, $v0
.Lsyscall_call:
	addiu	$a1, $sp, TF_ARGSAVE
	jalr	$v0
	addiu	$a0, $sp, TF_ARGSAVE + TF_REG(REG_A0)
	/*
	 * The handler's result, with interrupts on: the result into the frame (usermode.c arch_tf_set_return), unless
	 * the call replaced the frame (sigreturn: kernel/syscall.h
	 * SYSCALL_FRAME_REPLACED), which goes back whole with the return
	 * work's checks (trap.c mips_syscall_replaced).  Interrupts off
	 * either way (the slot's di) until user mode: nothing posted from
	 * here on can be missed.  No ehb: an interrupt the hazard lets in
	 * a few instructions late is taken in kernel mode like any other,
	 * and its return preempts there if it made work (kernel/entry.c
	 * trap_exit), so the test below misses nothing; the return's own
	 * mtc0 Status and ehb close the window before user mode.
	 */
	lui	$at, TF_SYSCALL_REPLACED_HI
	beq	$v0, $at, .Lsyscall_replaced
	di
	/*
	 * Return work (preemption, a signal) or a read page to fill
	 * (kernel/entry.c trap_syscall_exit_due, one test): the light way,
	 * and if work is due it may read or rewrite the whole frame: then
	 * s0-s7 and fp, still the user's here (C kept them), and the
	 * contract's zeros complete it first.
	 */
	jal	trap_syscall_exit_due
	sw	$v0, TF_ARGSAVE + TF_REG(2)($sp)
	bnez	$v0, .Lsyscall_light
	mfc0	$t0, C0(CP0_STATUS)             /* harmless on the light way */
.Lsyscall_fast:
	/*
	 * Status for user mode without the frame's word (USER_STATUS).
	 */
	USER_STATUS $t0
	mtc0	$t0, C0(CP0_STATUS)
	ehb
	lw	$t0, TF_ARGSAVE + TF_EPC($sp)
	mtc0	$t0, C0(CP0_EPC)
	/*
	 * What the contract keeps comes back from the frame (v0 the
	 * result); what it clobbers is set to zero, never left holding
	 * what the kernel put there; s0-s7 and fp are as C handed them
	 * back.  One move or one load a register either way, and no save.
	 */
	mthi	$zero
	mtlo	$zero
	RESTORE(2)
	RESTORE(4)
	RESTORE(5)
	RESTORE(6)
	RESTORE(7)
	RESTORE(28)
	RESTORE(31)
	ZERO_CLOBBERED_REGS
	ERET_TAIL

	/* The read page's fill, or return work (kernel/entry.c
	 * trap_syscall_exit_light). */
.Lsyscall_light:
	jal	trap_syscall_exit_light
	nop
	bnez	$v0, .Lsyscall_work
	mfc0	$t0, C0(CP0_STATUS)             /* harmless on the fast way */
	b	.Lsyscall_fast
	nop

	/* sigreturn's frame (interrupts are off). */
.Lsyscall_replaced:
	jal	mips_syscall_replaced
	addiu	$a0, $sp, TF_ARGSAVE

	/* fork: the whole frame before the call, the clobbered words as
	 * the contract leaves them (fork reads no t0 or t1 argument), and
	 * marked so.  The child's copy returns through mips_trap_return. */
.Lsyscall_full:
	SAVE_CALLEE
	USER_STATUS_WORD $t2
	ZERO_CLOBBERED_WORDS
	MARK_FULL
	jal	mips_syscall
	move	$a0, $v0
	b	.Lsyscall_call
	nop

	/* A call in a delay slot: the whole frame, as it was at the branch
	 * (t0 and t1 are in it already), EPC the branch's. */
.Lsyscall_slot:
	ehb                                     /* KERNEL_STATUS's */
	sw	$t0, TF_ARGSAVE + TF_EPC($sp)
	SAVE(1)
	SAVE(3)
	SAVE(10)
	SAVE(11)
	SAVE(12)
	SAVE(13)
	SAVE(14)
	SAVE(15)
	SAVE(24)
	SAVE(25)
	mfhi	$t2
	mflo	$t3
	sw	$t2, TF_ARGSAVE + TF_HI($sp)
	sw	$t3, TF_ARGSAVE + TF_LO($sp)
	SAVE_CALLEE
	USER_STATUS_WORD $t2
	MARK_FULL
	jal	mips_syscall_slot
	addiu	$a0, $sp, TF_ARGSAVE
	b	.Lsyscall_call
	nop

	/* Return work: the frame completed (s0-s7 and fp, and the
	 * clobbered registers' zeros, which a signal frame saves and a
	 * fork's child copies) and marked, the work run with interrupts
	 * off, and the way back that reloads every register, since a
	 * signal delivered or a sigreturn rewrote the frame. */
.Lsyscall_work:
	SAVE_CALLEE
	USER_STATUS $t0                         /* t0: Status, from the slot */
	sw	$t0, TF_ARGSAVE + TF_STATUS($sp)
	ZERO_CLOBBERED_WORDS
	lw	$k1, TF_ARGSAVE + TF_CAUSE($sp)
	MARK_FULL
	jal	trap_syscall_exit_work
	addiu	$a0, $sp, TF_ARGSAVE
	b	mips_trap_return
	nop

	/*
	 * Everything but a system call from user mode: the whole frame.
	 * sp and v0 are in it already, Cause is in k1.
	 */
.Ltrap_user:
	SAVE_TEMPS
	mfc0	$t0, C0(CP0_EPC)
	mfc0	$t1, C0(CP0_STATUS)
	sw	$t1, TF_ARGSAVE + TF_STATUS($sp)
	sw	$k1, TF_ARGSAVE + TF_CAUSE($sp)
	sw	$t0, TF_ARGSAVE + TF_EPC($sp)
	SAVE_CALLEE
	KERNEL_STATUS
	ehb
	jal	mips_trap
	addiu	$a0, $sp, TF_ARGSAVE
	b	.Lreturn_kept_status
	lw	$t0, TF_ARGSAVE + TF_STATUS($sp)
	.end	mips_exc_entry

	/* mips_exc_entry's way in from kernel mode (a branch out of it),
	 * falling through into mips_trap's call below. */
	.ent	mips_exc_from_kernel
mips_exc_from_kernel:
.Lfrom_kernel:
	/*
	 * A frame pushed on a kernel stack lands on old stack contents, so
	 * its zero, k0 and k1 words are written here.  A user frame does not
	 * need them: it is always the one at the top of the task's kernel
	 * stack, which proc.c cleared (or copied from a parent's) when it
	 * built the task, and only sigreturn writes those words since, with
	 * zeros (sigframe.c).
	 */
	move	$k1, $sp
	addiu	$sp, $sp, -TF_STACK
	sw	$zero, TF_ARGSAVE + TF_REG(REG_ZERO)($sp)
	sw	$zero, TF_ARGSAVE + TF_REG(REG_K0)($sp)
	sw	$zero, TF_ARGSAVE + TF_REG(REG_K1)($sp)
	SAVE_CALLER
	sw	$t0, TF_ARGSAVE + TF_EPC($sp)
	SAVE_CALLEE
	KERNEL_STATUS
	ehb
	jal	mips_trap
	addiu	$a0, $sp, TF_ARGSAVE
	.end	mips_exc_from_kernel

	/*
	 * Falls through: sp points at the TF_STACK area of a frame.  The
	 * callee-saved registers (s0-s7, fp) are not reloaded on this way
	 * back: mips_trap, like any O32 function, hands them back as they
	 * came, which is as the entry saved them, and nothing on the way
	 * changed them in the frame.  A frame whose s registers were
	 * rewritten (sigreturn's) or never lived in them (a new task's)
	 * leaves through mips_trap_return, which reloads them first.
	 */
	.globl	mips_trap_return_kept
	.ent	mips_trap_return_kept
mips_trap_return_kept:
	/*
	 * mips_trap returns with interrupts off, so no di here: and were
	 * one taken before the mtc0 below, it would save and restore this
	 * code's registers like any kernel-mode interrupt.
	 *
	 * Mode, interrupt enable and exception level come from the frame;
	 * the interrupt mask is the kernel's current one, since a handler
	 * (or another task) may have unmasked a line since the frame was
	 * saved: Status.IM is copied into the frame's word as one bit field.
	 * EXL stays set until eret, so nothing can interrupt the restore
	 * even if the frame's IE is set.
	 */
	lw	$t0, TF_ARGSAVE + TF_STATUS($sp)
.Lreturn_kept_status:
	mfc0	$t1, C0(CP0_STATUS)
	ext	$t1, $t1, ST_IM_SHIFT, ST_IM_BITS
	ins	$t0, $t1, ST_IM_SHIFT, ST_IM_BITS
	ori	$t0, $t0, ST_EXL
	mtc0	$t0, C0(CP0_STATUS)
	ehb
	RESTORE_TAIL
	.end	mips_trap_return_kept

	/* The whole frame back, callee-saved registers included. */
	.globl	mips_trap_return
	.ent	mips_trap_return
mips_trap_return:
	/* Callers may come with interrupts on; the kept path assumes off. */
	di
	ehb
	RESTORE(16)
	RESTORE(17)
	RESTORE(18)
	RESTORE(19)
	RESTORE(20)
	RESTORE(21)
	RESTORE(22)
	RESTORE(23)
	RESTORE(30)
	b	.Lreturn_kept_status
	lw	$t0, TF_ARGSAVE + TF_STATUS($sp)
	.end	mips_trap_return

	/*
	 * void arch_return_to_user(struct trapframe *tf): the frame sits at
	 * the top of the task's kernel stack, so everything below it is
	 * free and the restore can run on that stack like any other return.
	 */
	.globl	arch_return_to_user
	.ent	arch_return_to_user
arch_return_to_user:
	b	mips_trap_return
	addiu	$sp, $a0, -TF_ARGSAVE
	.end	arch_return_to_user
