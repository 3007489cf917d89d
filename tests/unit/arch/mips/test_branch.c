/*
 * Host tests of arch/mips/branch.c: where a system call in a delay slot
 * resumes.  Instruction words are assembled here from the field layouts.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "arch/mips/branch.h"
#include "arch/mips/trapframe.h"

#define PC 0x00401000u

static uint32_t itype(uint32_t op, uint32_t rs, uint32_t rt, int16_t off)
{
	return op << 26 | rs << 21 | rt << 16 | (uint16_t)off;
}

static uint32_t regs[REG_COUNT];

static uint32_t resume(uint32_t insn)
{
	uint32_t r = 0;

	assert_int_equal(mips_branch_resume(insn, PC, regs, &r), 0);
	return r;
}

static int setup(void **state)
{
	(void)state;
	memset(regs, 0, sizeof(regs));
	return 0;
}

static void test_beq_bne(void **state)
{
	(void)state;
	regs[REG_A0] = 5;
	regs[REG_A1] = 5;
	assert_int_equal(resume(itype(0x04, REG_A0, REG_A1, 3)), PC + 4 + 12);
	assert_int_equal(resume(itype(0x05, REG_A0, REG_A1, 3)), PC + 8);
	regs[REG_A1] = 6;
	assert_int_equal(resume(itype(0x05, REG_A0, REG_A1, -2)), PC + 4 - 8);
	/* Branch likely: the slot ran, so it was taken. */
	assert_int_equal(resume(itype(0x15, REG_A0, REG_A1, 1)), PC + 8);
	assert_int_equal(resume(itype(0x14, REG_A0, REG_A0, 100)), PC + 4 + 400);
}

static void test_sign_compares(void **state)
{
	(void)state;
	regs[REG_T0] = 0x80000000u;             /* negative */
	assert_int_equal(resume(itype(0x06, REG_T0, 0, 4)), PC + 20);     /* blez */
	assert_int_equal(resume(itype(0x07, REG_T0, 0, 4)), PC + 8);      /* bgtz */
	assert_int_equal(resume(itype(0x01, REG_T0, 0x00, 4)), PC + 20);  /* bltz */
	assert_int_equal(resume(itype(0x01, REG_T0, 0x01, 4)), PC + 8);   /* bgez */
	assert_int_equal(resume(itype(0x01, REG_T0, 0x10, 4)), PC + 20);  /* bltzal */
	regs[REG_T0] = 0;
	assert_int_equal(resume(itype(0x01, REG_T0, 0x11, 4)), PC + 20);  /* bgezal */
	assert_int_equal(resume(itype(0x06, REG_T0, 0, 4)), PC + 20);
	regs[REG_T0] = 1;
	assert_int_equal(resume(itype(0x17, REG_T0, 0, 4)), PC + 20);     /* bgtzl */
}

static void test_jumps(void **state)
{
	(void)state;
	uint32_t target = 0x00412340u;

	assert_int_equal(resume(0x02u << 26 | target >> 2), target);                 /* j */
	assert_int_equal(resume(0x03u << 26 | target >> 2), target);                 /* jal */
	regs[REG_T9] = 0x00405550u;
	assert_int_equal(resume((uint32_t)REG_T9 << 21 | 0x08), 0x00405550u);        /* jr */
	assert_int_equal(resume((uint32_t)REG_T9 << 21 | REG_RA << 11 | 0x09),
			 0x00405550u);                                               /* jalr */
}

static void test_j_keeps_region(void **state)
{
	(void)state;
	uint32_t r = 0;

	assert_int_equal(mips_branch_resume(0x02u << 26 | 0x40, 0x1ffffffcu, regs, &r), 0);
	assert_int_equal(r, 0x20000100u);       /* region of the delay slot */
}

static void test_not_a_branch(void **state)
{
	(void)state;
	uint32_t r = 0x1234;

	assert_int_equal(mips_branch_resume(0x0000000cu, PC, regs, &r), -1);   /* syscall */
	assert_int_equal(mips_branch_resume(0x24020001u, PC, regs, &r), -1);   /* addiu */
	assert_int_equal(mips_branch_resume(itype(0x01, 0, 0x0c, 1), PC, regs, &r), -1);
	assert_int_equal(r, 0x1234);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_beq_bne, setup),
		cmocka_unit_test_setup(test_sign_compares, setup),
		cmocka_unit_test_setup(test_jumps, setup),
		cmocka_unit_test_setup(test_j_keeps_region, setup),
		cmocka_unit_test_setup(test_not_a_branch, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
