/*
 * Host tests of arch/mips/user_fault.c: the signal each user-mode
 * exception means (the table in user_fault.h; test_tasks.py checks the
 * same kinds end to end).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "arch/mips/cp0.h"
#include "arch/mips/user_fault.h"
#include "uabi.h"

#define EPC 0x00400100u

static int sig(unsigned code, uint32_t badvaddr)
{
	return mips_user_fault(code, badvaddr, EPC, false).signo;
}

static void test_address_errors(void **state)
{
	(void)state;
	assert_int_equal(sig(EXC_ADEL, 0x00410001u), SIGBUS);
	assert_int_equal(sig(EXC_ADES, 0x7ffefff2u), SIGBUS);
	assert_int_equal(sig(EXC_ADES, 0x80000000u), SIGSEGV);
	assert_int_equal(sig(EXC_ADEL, 0xbfc00000u), SIGSEGV);
	assert_int_equal(sig(EXC_ADEL, 0xfffffffcu), SIGSEGV);
	assert_int_equal(mips_user_fault(EXC_ADES, 0x80000000u, EPC, false).addr, 0x80000000u);
}

static void test_instructions(void **state)
{
	(void)state;
	assert_int_equal(sig(EXC_RI, 0), SIGILL);
	assert_int_equal(sig(EXC_CPU, 0), SIGILL);
	assert_int_equal(sig(EXC_BP, 0), SIGTRAP);
	assert_int_equal(sig(EXC_TR, 0), SIGFPE);
	assert_int_equal(sig(EXC_OV, 0), SIGFPE);
	assert_int_equal(sig(EXC_IBE, 0), SIGBUS);
	assert_int_equal(sig(EXC_DBE, 0), SIGBUS);
	assert_int_equal(sig(EXC_TLBXI, 0x00400000u), SIGSEGV);
	assert_int_equal(sig(EXC_MDMX, 0), SIGILL);
	assert_int_equal(sig(17, 0), SIGILL);   /* reserved code */
}

static void test_machine_problems_are_not_signals(void **state)
{
	(void)state;
	assert_int_equal(sig(EXC_MCHECK, 0), 0);
	assert_int_equal(sig(EXC_CACHEERR, 0), 0);
}

static void test_delay_slot_names_the_slot(void **state)
{
	(void)state;
	assert_int_equal(mips_user_fault(EXC_RI, 0, EPC, false).addr, EPC);
	assert_int_equal(mips_user_fault(EXC_RI, 0, EPC, true).addr, EPC + 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_address_errors),
		cmocka_unit_test(test_instructions),
		cmocka_unit_test(test_machine_problems_are_not_signals),
		cmocka_unit_test(test_delay_slot_names_the_slot),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
