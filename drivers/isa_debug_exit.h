/*
 * isa_debug_exit.h - QEMU's isa-debug-exit device, which turns a guest
 * write into QEMU's exit status.  Run QEMU with
 *	-device isa-debug-exit,iobase=0xf4,iosize=0x04
 * and writing value v makes QEMU exit with (v << 1) | 1.
 *
 * Tally writes status + ISA_DEBUG_EXIT_BIAS, so QEMU exits with
 * ((status + 16) << 1) | 1: 33 for status 0.  The bias keeps every guest
 * status apart from QEMU's own statuses (0 after a monitor quit, 1 on a
 * start-up error); scripts/qemu-run undoes it.  QEMU's status is 8 bits,
 * so the largest status that survives is 127 - 16 = ARCH_EXIT_STATUS_MAX.
 */
#ifndef TALLY_ISA_DEBUG_EXIT_H
#define TALLY_ISA_DEBUG_EXIT_H

#include <stdint.h>

#define ISA_DEBUG_EXIT_PORT 0xf4
#define ISA_DEBUG_EXIT_BIAS 16

/* Returns only where the device is absent (real hardware). */
void isa_debug_exit(unsigned status);

#endif
