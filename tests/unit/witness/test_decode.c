/* Host tests of tests/witness/decode.c: what the witness plugin makes of
 * one instruction (mode, system call, Tally's marks). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "kernel/witness_abi.h"
#include "tests/witness/decode.h"

#define X86_USER   0x400000ull
#define X86_KERNEL 0xffffffff80100000ull
#define MIPS_USER  0x00400000ull
#define MIPS_KERNEL 0x80100000ull

/* The x86 mark: 0F 1F 84 00 and its imm32, little-endian. */
static void x86_mark(uint8_t b[8], uint32_t imm)
{
	b[0] = 0x0f; b[1] = 0x1f; b[2] = 0x84; b[3] = 0x00;
	for (int i = 0; i < 4; i++)
		b[4 + i] = (uint8_t)(imm >> (8 * i));
}

static void mips_bytes(uint8_t b[4], uint32_t w, bool big)
{
	for (int i = 0; i < 4; i++)
		b[big ? 3 - i : i] = (uint8_t)(w >> (8 * i));
}

static void test_isa_names(void **state)
{
	enum witness_isa isa;

	(void)state;
	assert_true(witness_isa_of("x86_64", &isa));
	assert_int_equal(isa, WITNESS_ISA_X86_64);
	assert_true(witness_isa_of("mipsel", &isa));
	assert_int_equal(isa, WITNESS_ISA_MIPS_LE);
	assert_true(witness_isa_of("mips", &isa));
	assert_int_equal(isa, WITNESS_ISA_MIPS_BE);
	assert_false(witness_isa_of("aarch64", &isa));
	assert_false(witness_isa_of("mips64", &isa));
}

static void test_x86_modes_and_syscall(void **state)
{
	const uint8_t sc[2] = { 0x0f, 0x05 };
	const uint8_t nop[1] = { 0x90 };
	const uint8_t longer[3] = { 0x0f, 0x05, 0x90 };

	(void)state;
	assert_int_equal(witness_classify(WITNESS_ISA_X86_64, X86_USER, sc, 2),
			 WITNESS_INSN_USER | WITNESS_INSN_SYSCALL);
	assert_int_equal(witness_classify(WITNESS_ISA_X86_64, X86_KERNEL, sc, 2),
			 WITNESS_INSN_SYSCALL);
	assert_int_equal(witness_classify(WITNESS_ISA_X86_64, X86_USER, nop, 1), WITNESS_INSN_USER);
	assert_int_equal(witness_classify(WITNESS_ISA_X86_64, X86_USER, longer, 3), WITNESS_INSN_USER);
	/* The last user address and the first above the lower half. */
	assert_int_equal(witness_classify(WITNESS_ISA_X86_64, 0x7fffffffffffull, nop, 1),
			 WITNESS_INSN_USER);
	assert_int_equal(witness_classify(WITNESS_ISA_X86_64, 0x800000000000ull, nop, 1), 0);
	/* The plugin asks a block's mode with no bytes at all. */
	assert_int_equal(witness_classify(WITNESS_ISA_X86_64, X86_USER, NULL, 0), WITNESS_INSN_USER);
}

static void test_x86_marks(void **state)
{
	uint8_t b[8];

	(void)state;
	x86_mark(b, WITNESS_X86_IMM(WITNESS_CODE_BEGIN));
	assert_int_equal(witness_classify(WITNESS_ISA_X86_64, X86_KERNEL, b, 8), WITNESS_INSN_BEGIN);
	x86_mark(b, WITNESS_X86_IMM(WITNESS_CODE_END));
	assert_int_equal(witness_classify(WITNESS_ISA_X86_64, X86_KERNEL, b, 8), WITNESS_INSN_END);
	/* The padding NOP compilers emit (displacement 0) is no mark. */
	x86_mark(b, 0);
	assert_int_equal(witness_classify(WITNESS_ISA_X86_64, X86_KERNEL, b, 8), 0);
	/* A code under another tag, an unknown kind, a wrong length. */
	x86_mark(b, (0x7a12u << 16) | WITNESS_CODE_BEGIN);
	assert_int_equal(witness_classify(WITNESS_ISA_X86_64, X86_KERNEL, b, 8), 0);
	x86_mark(b, WITNESS_X86_IMM(WITNESS_CODE(0x3u)));
	assert_int_equal(witness_classify(WITNESS_ISA_X86_64, X86_KERNEL, b, 8), 0);
	x86_mark(b, WITNESS_X86_IMM(WITNESS_CODE_BEGIN));
	assert_int_equal(witness_classify(WITNESS_ISA_X86_64, X86_KERNEL, b, 7), 0);
}

static void mips_cases(enum witness_isa isa, bool big)
{
	uint8_t b[4];

	mips_bytes(b, 0x0000000cu, big);                /* syscall */
	assert_int_equal(witness_classify(isa, MIPS_USER, b, 4),
			 WITNESS_INSN_USER | WITNESS_INSN_SYSCALL);
	mips_bytes(b, 0x03ffffccu, big);                /* syscall with a code */
	assert_int_equal(witness_classify(isa, MIPS_USER, b, 4),
			 WITNESS_INSN_USER | WITNESS_INSN_SYSCALL);
	mips_bytes(b, 0x0000000du, big);                /* break */
	assert_int_equal(witness_classify(isa, MIPS_USER, b, 4), WITNESS_INSN_USER);
	mips_bytes(b, 0x0c00000cu, big);                /* jal, funct bits alike */
	assert_int_equal(witness_classify(isa, MIPS_USER, b, 4), WITNESS_INSN_USER);
	mips_bytes(b, WITNESS_MIPS_WORD(WITNESS_CODE_BEGIN), big);
	assert_int_equal(witness_classify(isa, MIPS_KERNEL, b, 4), WITNESS_INSN_BEGIN);
	mips_bytes(b, WITNESS_MIPS_WORD(WITNESS_CODE_END), big);
	assert_int_equal(witness_classify(isa, MIPS_KERNEL, b, 4), WITNESS_INSN_END);
	mips_bytes(b, 0x3408a501u, big);                /* ori $t0,$zero,0xa501 */
	assert_int_equal(witness_classify(isa, MIPS_KERNEL, b, 4), 0);
	mips_bytes(b, WITNESS_MIPS_WORD(0x1234u), big);  /* ori $zero, not a code */
	assert_int_equal(witness_classify(isa, MIPS_KERNEL, b, 4), 0);
	/* The other byte order's reading of the same word is no mark. */
	mips_bytes(b, WITNESS_MIPS_WORD(WITNESS_CODE_BEGIN), !big);
	assert_int_equal(witness_classify(isa, MIPS_KERNEL, b, 4), 0);
	/* kuseg ends at 2 GiB, with or without sign extension above. */
	assert_int_equal(witness_classify(isa, 0x7fffffffull, NULL, 0), WITNESS_INSN_USER);
	assert_int_equal(witness_classify(isa, 0x80000000ull, NULL, 0), 0);
	assert_int_equal(witness_classify(isa, 0xffffffff80000180ull, NULL, 0), 0);
}

static void test_mips_little(void **state)
{
	(void)state;
	mips_cases(WITNESS_ISA_MIPS_LE, false);
}

static void test_mips_big(void **state)
{
	(void)state;
	mips_cases(WITNESS_ISA_MIPS_BE, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_isa_names),
		cmocka_unit_test(test_x86_modes_and_syscall),
		cmocka_unit_test(test_x86_marks),
		cmocka_unit_test(test_mips_little),
		cmocka_unit_test(test_mips_big),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
