/*
 * Host tests of arch/x86_64/sigcontext.c and user_fault.c: where the
 * signal frame goes, what survives a round trip, what sigreturn refuses
 * to hand back to ring 3, and which signal each user exception earns.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>

#include "arch/x86_64/cpu.h"
#include "arch/x86_64/gdt.h"
#include "arch/x86_64/sigcontext.h"
#include "arch/x86_64/syscall_frame.h"
#include "arch/x86_64/trap.h"
#include "arch/x86_64/vm.h"
#include "uabi.h"

#define USER_CS (GDT_USER_CS | RING_USER)
#define USER_SS (GDT_USER_DS | RING_USER)
#define USER_SP 0x7ffffffe0f38ull       /* not 16-byte aligned on purpose */
#define USER_PC 0x401234ull
#define HANDLER 0x402000ull
#define KERNEL_TEXT 0xffffffff80100000ull
#define NON_CANONICAL 0x8000000000001000ull
#define USER_FLAGS (RFLAGS_FIXED | RFLAGS_IF | RFLAGS_ZF | RFLAGS_CF)

/* A context as a system call from ring 3 leaves it. */
static struct trapframe user_frame(void)
{
	struct trapframe tf = {
		.rax = 1, .rbx = 2, .rcx = USER_PC, .rdx = 4, .rsi = 5, .rdi = 6,
		.rbp = 7, .r8 = 8, .r9 = 9, .r10 = 10, .r11 = USER_FLAGS, .r12 = 12,
		.r13 = 13, .r14 = 14, .r15 = 15, .vector = TRAP_SYSCALL, .error = 0,
		.rip = USER_PC, .cs = USER_CS, .rflags = USER_FLAGS, .rsp = USER_SP,
		.ss = USER_SS,
	};
	return tf;
}

static void test_frame_below_red_zone_and_aligned(void **state)
{
	(void)state;
	uint64_t frame, sp;

	assert_int_equal(sigframe_place(USER_SP, &frame, &sp), 0);
	assert_int_equal(frame % SIGFRAME_ALIGN, 0);
	assert_true(frame + sizeof(struct sigframe) <= USER_SP - SIGFRAME_RED_ZONE);
	/* As close as alignment allows: nothing wasted beyond 15 bytes. */
	assert_true(frame + sizeof(struct sigframe) + SIGFRAME_ALIGN > USER_SP - SIGFRAME_RED_ZONE);
	/* The return address sits right below; at handler entry RSP + 8 is
	 * 16-byte aligned, as after a CALL. */
	assert_int_equal(sp, frame - 8);
	assert_int_equal((sp + 8) % 16, 0);
}

static void test_no_room_or_not_user(void **state)
{
	(void)state;
	uint64_t frame, sp;

	assert_int_equal(sigframe_place(64, &frame, &sp), -EFAULT);
	assert_int_equal(sigframe_place(KERNEL_TEXT, &frame, &sp), -EFAULT);
	assert_int_equal(sigframe_place(NON_CANONICAL, &frame, &sp), -EFAULT);
}

static void test_round_trip_restores_everything(void **state)
{
	(void)state;
	struct trapframe tf = user_frame(), orig = tf;
	struct sigframe f;
	uint64_t frame, sp;

	sigframe_save(&f, &tf, SIGUSR1);
	assert_int_equal(sigframe_place(tf.rsp, &frame, &sp), 0);
	assert_int_equal(sigframe_enter_handler(&tf, sp, HANDLER, SIGUSR1), 0);
	assert_int_equal(tf.rip, HANDLER);
	assert_int_equal(tf.rsp, sp);
	assert_int_equal(tf.rdi, SIGUSR1);
	assert_int_equal(tf.cs, USER_CS);
	assert_true(tf.rflags & RFLAGS_IF);

	/* The handler clobbers registers; sigreturn brings them all back. */
	memset(&tf, 0xa5, offsetof(struct trapframe, vector));
	assert_int_equal(sigframe_restore(&tf, &f), SIGUSR1);
	assert_memory_equal(&tf, &orig, sizeof(tf));
}

static void test_handler_starts_clean(void **state)
{
	(void)state;
	struct trapframe tf = user_frame();

	tf.rflags |= RFLAGS_DF | RFLAGS_TF;
	assert_int_equal(sigframe_enter_handler(&tf, USER_SP - 512, HANDLER, SIGTERM), 0);
	assert_false(tf.rflags & (RFLAGS_DF | RFLAGS_TF));
	assert_true(tf.rflags & RFLAGS_IF);
	assert_true(tf.rflags & RFLAGS_FIXED);
}

static void test_handler_must_be_user_code(void **state)
{
	(void)state;
	struct trapframe tf = user_frame(), orig = tf;

	assert_int_equal(sigframe_enter_handler(&tf, USER_SP - 512, KERNEL_TEXT, SIGTERM), -EFAULT);
	assert_int_equal(sigframe_enter_handler(&tf, USER_SP - 512, NON_CANONICAL, SIGTERM), -EFAULT);
	assert_memory_equal(&tf, &orig, sizeof(tf));
}

/* Every RFLAGS bit set in the frame: only what POPF in ring 3 could set
 * comes back, plus IF, which user mode always runs with. */
static void test_sigreturn_strips_privileged_flags(void **state)
{
	(void)state;
	struct trapframe tf = user_frame();
	struct sigframe f;

	sigframe_save(&f, &tf, SIGUSR1);
	f.rflags = ~0ull;
	assert_int_equal(sigframe_restore(&tf, &f), SIGUSR1);
	assert_int_equal(tf.rflags & RFLAGS_IOPL, 0);
	assert_int_equal(tf.rflags & (RFLAGS_NT | RFLAGS_RF | RFLAGS_VM | RFLAGS_VIF |
				      RFLAGS_VIP), 0);
	assert_true(tf.rflags & RFLAGS_IF);
	assert_true(tf.rflags & RFLAGS_FIXED);
	assert_true(tf.rflags & RFLAGS_CF);
	f.rflags = 0;
	assert_int_equal(sigframe_restore(&tf, &f), SIGUSR1);
	assert_int_equal(tf.rflags, RFLAGS_FIXED | RFLAGS_IF);
}

/* Even a trap frame that says ring 0 leaves sigreturn saying ring 3. */
static void test_sigreturn_forces_user_selectors(void **state)
{
	(void)state;
	struct trapframe tf = user_frame();
	struct sigframe f;

	sigframe_save(&f, &tf, SIGUSR2);
	tf.cs = GDT_KERNEL_CS;
	tf.ss = GDT_KERNEL_DS;
	assert_int_equal(sigframe_restore(&tf, &f), SIGUSR2);
	assert_int_equal(tf.cs, USER_CS);
	assert_int_equal(tf.ss, USER_SS);
}

/* Refused, and nothing of the frame reaches tf. */
static void refused(struct sigframe f)
{
	struct trapframe tf = user_frame();

	tf.rax = tf.rbx = ~0ull;
	struct trapframe orig = tf;
	assert_int_equal(sigframe_restore(&tf, &f), -EFAULT);
	assert_memory_equal(&tf, &orig, sizeof(tf));
}

static void test_sigreturn_refuses_bad_frames(void **state)
{
	(void)state;
	struct trapframe tf = user_frame();
	struct sigframe good, f;

	sigframe_save(&good, &tf, SIGUSR1);
	f = good; f.rip = NON_CANONICAL; refused(f);
	f = good; f.rip = KERNEL_TEXT; refused(f);
	f = good; f.rip = CANONICAL_LOW_END; refused(f);
	f = good; f.rsp = NON_CANONICAL; refused(f);
	f = good; f.rsp = KERNEL_TEXT; refused(f);
	f = good; f.signo = 0; refused(f);
	f = good; f.signo = SIG_MAX + 1; refused(f);
	f = good; f.signo = ~0ull; refused(f);
	/* The highest user address is fine. */
	f = good; f.rip = CANONICAL_LOW_END - 1;
	assert_int_equal(sigframe_restore(&tf, &f), SIGUSR1);
}

/*
 * The SYSCALL stub leaves RCX, R11, the vector and the error code as
 * they were (stale: here an earlier interrupt's); filled before return
 * work, the frame is the one a full entry would have built, and a
 * signal's saved context shows RCX and R11 as SYSRET leaves them.
 */
static void test_syscall_frame_completed_before_return_work(void **state)
{
	(void)state;
	struct trapframe want = user_frame(), tf = want;
	struct sigframe f;

	tf.rcx = 0x1111;
	tf.r11 = 0x2222;
	tf.vector = 32;
	tf.error = 5;
	syscall_frame_complete(&tf);
	assert_memory_equal(&tf, &want, sizeof(tf));
	sigframe_save(&f, &tf, SIGUSR1);
	assert_true(f.rcx == USER_PC && f.r11 == USER_FLAGS);
}

/* After sigreturn only the vector and error are the stub's to fill:
 * RCX and R11 came from the restored context. */
static void test_syscall_frame_mark_keeps_restored_rcx_r11(void **state)
{
	(void)state;
	struct trapframe tf = user_frame();

	tf.rcx = 0x1111;
	tf.r11 = 0x2222;
	tf.vector = 32;
	tf.error = 5;
	syscall_frame_mark(&tf);
	assert_true(tf.rcx == 0x1111 && tf.r11 == 0x2222);
	assert_true(tf.vector == TRAP_SYSCALL && tf.error == 0);
}

static void test_user_exception_signals(void **state)
{
	(void)state;
	assert_int_equal(user_fault_signal(VEC_DIVIDE), SIGFPE);
	assert_int_equal(user_fault_signal(VEC_FPU_ERROR), SIGFPE);
	assert_int_equal(user_fault_signal(VEC_SIMD), SIGFPE);
	assert_int_equal(user_fault_signal(VEC_INVALID_OP), SIGILL);
	assert_int_equal(user_fault_signal(VEC_NO_FPU), SIGILL);
	assert_int_equal(user_fault_signal(VEC_BREAKPOINT), SIGTRAP);
	assert_int_equal(user_fault_signal(VEC_DEBUG), SIGTRAP);
	assert_int_equal(user_fault_signal(VEC_ALIGNMENT), SIGBUS);
	/* Privileged instructions and non-canonical addresses raise #GP. */
	assert_int_equal(user_fault_signal(VEC_GP), SIGSEGV);
	assert_int_equal(user_fault_signal(VEC_STACK), SIGSEGV);
	assert_int_equal(user_fault_signal(VEC_NO_SEGMENT), SIGSEGV);
	assert_int_equal(user_fault_signal(VEC_OVERFLOW), SIGSEGV);
	assert_int_equal(user_fault_signal(VEC_CONTROL_PROT), SIGSEGV);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frame_below_red_zone_and_aligned),
		cmocka_unit_test(test_no_room_or_not_user),
		cmocka_unit_test(test_round_trip_restores_everything),
		cmocka_unit_test(test_handler_starts_clean),
		cmocka_unit_test(test_handler_must_be_user_code),
		cmocka_unit_test(test_sigreturn_strips_privileged_flags),
		cmocka_unit_test(test_sigreturn_forces_user_selectors),
		cmocka_unit_test(test_sigreturn_refuses_bad_frames),
		cmocka_unit_test(test_syscall_frame_completed_before_return_work),
		cmocka_unit_test(test_syscall_frame_mark_keeps_restored_rcx_r11),
		cmocka_unit_test(test_user_exception_signals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
