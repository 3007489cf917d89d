/*
 * Host tests of arch/mips/sigframe.c and user_status.h: a signal frame
 * round-trips a user context, and sigreturn cannot give user mode any
 * privilege whatever the frame on the user stack says.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>

#include "arch/mips/cp0.h"
#include "arch/mips/sigframe.h"
#include "arch/mips/user_status.h"
#include "uabi.h"

#define UBASE 0x00400000u
#define UTOP 0x7fff0000u
#define HANDLER 0x00401230u
#define RESTORER 0x00401400u
/* What the kernel runs with in mips_trap: IM bits on, BEV off, kernel mode. */
#define LIVE_STATUS (ST_IM(2) | ST_IM(7) | ST_SR)

static void user_frame(struct trapframe *tf)
{
	memset(tf, 0, sizeof(*tf));
	for (unsigned i = 1; i < REG_COUNT; i++)
		tf->regs[i] = 0x1000u * i + i;
	tf->regs[REG_SP] = 0x7ffefe3cu;        /* not 8-byte aligned */
	tf->hi = 0x11111111u;
	tf->lo = 0x22222222u;
	tf->epc = 0x00400abcu;
	tf->status = mips_user_status(LIVE_STATUS) | ST_EXL;
	tf->cause = CAUSE_BD;
}

static void test_user_status(void **state)
{
	(void)state;
	uint32_t s = mips_user_status(0xffffffffu);

	assert_int_equal(s & ST_KSU_MASK, ST_KSU_USER);
	assert_true(s & ST_IE);
	assert_false(s & (ST_EXL | ST_ERL | ST_CU_MASK));
	/* The rest is the kernel's own setting, passed through. */
	assert_int_equal(s & ST_BEV, ST_BEV);
	assert_int_equal(mips_user_status(LIVE_STATUS),
			 LIVE_STATUS | ST_KSU_USER | ST_IE);
}

static void test_place(void **state)
{
	(void)state;
	uint32_t frame;

	assert_int_equal(sigframe_place(0x7ffefe3cu, UBASE, &frame), 0);
	assert_int_equal(frame % SIGFRAME_ALIGN, 0);
	assert_true(frame + sizeof(struct sigframe) <= 0x7ffefe3cu);
	assert_true(0x7ffefe3cu - frame < sizeof(struct sigframe) + SIGFRAME_ALIGN);
	assert_int_equal(sigframe_place(UBASE + 8, UBASE, &frame), -EFAULT);
	assert_int_equal(sigframe_place(0x1000, UBASE, &frame), -EFAULT);
	assert_int_equal(sigframe_place(0, UBASE, &frame), -EFAULT);
}

static void test_round_trip(void **state)
{
	(void)state;
	struct trapframe tf, orig;
	struct sigframe f;
	uint32_t frame;

	user_frame(&tf);
	orig = tf;
	assert_int_equal(sigframe_place(tf.regs[REG_SP], UBASE, &frame), 0);
	sigframe_save(&f, &tf, SIGUSR1);
	sigframe_enter_handler(&tf, frame, HANDLER, RESTORER, SIGUSR1);
	assert_int_equal(tf.epc, HANDLER);
	assert_int_equal(tf.regs[REG_A0], SIGUSR1);
	assert_int_equal(tf.regs[REG_RA], RESTORER);
	assert_int_equal(tf.regs[REG_SP], frame);
	assert_false(tf.cause & CAUSE_BD);

	/* The handler clobbers what it likes; sigreturn brings all back. */
	memset(tf.regs, 0x5a, sizeof(tf.regs));
	tf.hi = tf.lo = 0;
	assert_int_equal(sigframe_restore(&tf, &f, UBASE, UTOP, LIVE_STATUS), SIGUSR1);
	for (unsigned i = 1; i < REG_COUNT; i++) {
		if (i != REG_K0 && i != REG_K1)
			assert_int_equal(tf.regs[i], orig.regs[i]);
	}
	assert_int_equal(tf.regs[REG_ZERO], 0);
	assert_int_equal(tf.hi, orig.hi);
	assert_int_equal(tf.lo, orig.lo);
	assert_int_equal(tf.epc, orig.epc);
	assert_int_equal(tf.status, mips_user_status(LIVE_STATUS));
}

/*
 * A system call's frame lacks s0-s7 and fp until the entry completes it
 * (trapframe.h TF_CAUSE_FULL); sigreturn writes every register, so the
 * frame it leaves is whole, and says so.  Any other exception's frame
 * is always whole.
 */
static void test_restore_marks_the_frame_whole(void **state)
{
	(void)state;
	struct trapframe tf;
	struct sigframe f;

	user_frame(&tf);
	tf.cause = EXC_SYS << CAUSE_EXC_SHIFT;          /* as the entry stores it */
	assert_false(tf_callee_saved(&tf));
	sigframe_save(&f, &tf, SIGUSR1);
	assert_int_equal(sigframe_restore(&tf, &f, UBASE, UTOP, LIVE_STATUS), SIGUSR1);
	assert_true(tf_callee_saved(&tf));
	assert_int_equal((tf.cause & CAUSE_EXC_MASK) >> CAUSE_EXC_SHIFT, EXC_SYS);

	tf.cause = EXC_SYS << CAUSE_EXC_SHIFT | CAUSE_BD;
	assert_false(tf_callee_saved(&tf));
	for (uint32_t code = 0; code <= CAUSE_EXC_MASK >> CAUSE_EXC_SHIFT; code++) {
		tf.cause = code << CAUSE_EXC_SHIFT;
		assert_int_equal(tf_callee_saved(&tf), code != EXC_SYS);
	}
}

/*
 * The system call contract (trapframe.h TF_SYSCALL_CLOBBERED): a frame
 * completed for a fork in a delay slot holds zero in at, v1, t0-t9, hi
 * and lo, and every other word as it was.
 */
static void test_zero_clobbered_is_the_contract(void **state)
{
	(void)state;
	static const unsigned clobbered[] = {
		REG_AT, REG_V1, 8, 9, 10, 11, 12, 13, 14, 15, REG_T8, REG_T9,
	};
	struct trapframe tf;

	for (unsigned r = 0; r < REG_COUNT; r++)
		tf.regs[r] = 0x1000u + r;
	tf.hi = 0x2000u;
	tf.lo = 0x2001u;
	tf.epc = 0x3000u;
	tf_zero_clobbered(&tf);
	for (unsigned r = 0; r < REG_COUNT; r++) {
		bool zero = false;

		for (size_t i = 0; i < sizeof(clobbered) / sizeof(clobbered[0]); i++)
			zero |= clobbered[i] == r;
		assert_int_equal(tf.regs[r], zero ? 0u : 0x1000u + r);
	}
	assert_int_equal(tf.hi, 0);
	assert_int_equal(tf.lo, 0);
	assert_int_equal(tf.epc, 0x3000u);
}

static void test_restore_forces_user_mode(void **state)
{
	(void)state;
	struct trapframe tf;
	struct sigframe f;

	user_frame(&tf);
	sigframe_save(&f, &tf, SIGSEGV);
	/* A frame forged to ask for kernel mode, CP0 access, ERL, no IE. */
	f.status = ST_KSU_KERNEL | ST_CU0 | ST_ERL | ST_EXL | ST_BEV;
	f.regs[REG_ZERO] = 0xdeadbeefu;
	assert_int_equal(sigframe_restore(&tf, &f, UBASE, UTOP, LIVE_STATUS), SIGSEGV);
	assert_int_equal(tf.status & ST_KSU_MASK, ST_KSU_USER);
	assert_false(tf.status & (ST_CU0 | ST_ERL | ST_EXL | ST_BEV));
	assert_true(tf.status & ST_IE);
	assert_int_equal(tf.regs[REG_ZERO], 0);
}

static void test_restore_refuses(void **state)
{
	(void)state;
	struct trapframe tf, before;
	struct sigframe f;
	static const uint32_t bad_pcs[] = {
		0x80000000u, 0x80100000u, 0xbfc00000u, 0xc0000000u, UTOP, 0, UBASE - 4,
	};

	user_frame(&tf);
	sigframe_save(&f, &tf, SIGUSR2);
	before = tf;
	for (size_t i = 0; i < sizeof(bad_pcs) / sizeof(bad_pcs[0]); i++) {
		f.epc = bad_pcs[i];
		assert_int_equal(sigframe_restore(&tf, &f, UBASE, UTOP, LIVE_STATUS), -EFAULT);
		assert_memory_equal(&tf, &before, sizeof(tf));
	}
	f.epc = UBASE;
	f.signo = 0;
	assert_int_equal(sigframe_restore(&tf, &f, UBASE, UTOP, LIVE_STATUS), -EFAULT);
	f.signo = SIG_MAX + 1;
	assert_int_equal(sigframe_restore(&tf, &f, UBASE, UTOP, LIVE_STATUS), -EFAULT);
	assert_memory_equal(&tf, &before, sizeof(tf));
	f.signo = SIG_MAX;
	assert_int_equal(sigframe_restore(&tf, &f, UBASE, UTOP, LIVE_STATUS), SIG_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_user_status),
		cmocka_unit_test(test_place),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_restore_marks_the_frame_whole),
		cmocka_unit_test(test_zero_clobbered_is_the_contract),
		cmocka_unit_test(test_restore_forces_user_mode),
		cmocka_unit_test(test_restore_refuses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
