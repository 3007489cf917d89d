/* isa_debug_exit.c - see isa_debug_exit.h. */
#include "arch.h"
#include "isa_debug_exit.h"

_Static_assert(ARCH_EXIT_STATUS_MAX + ISA_DEBUG_EXIT_BIAS <= 127,
	       "biased status must fit QEMU's 8-bit exit status");

void isa_debug_exit(unsigned status)
{
	arch_io_out8(ISA_DEBUG_EXIT_PORT, (uint8_t)(status + ISA_DEBUG_EXIT_BIAS));
}
