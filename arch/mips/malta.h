/*
 * malta.h - physical addresses of the Malta board's fixed devices
 * (MIPS Malta User's Manual, MD00048; the core card's system controller
 * routes these regions, so they are the same with any core card).
 */
#ifndef TALLY_MIPS_MALTA_H
#define TALLY_MIPS_MALTA_H

/*
 * RAM sits below the I/O region at 256 MiB; anything beyond 256 MiB is
 * only reachable through mapped addresses, which Tally does not use.
 */
#define MALTA_RAM_LOW_MAX      0x10000000u

/* The PIIX4 south bridge's ISA I/O ports, through the system controller. */
#define MALTA_ISA_IO_PHYS      0x18000000u

/* Board registers in the FPGA. */
#define MALTA_SOFTRES_PHYS     0x1f000500u
#define MALTA_SOFTRES_GORESET  0x42u           /* the value that resets */

/*
 * QEMU's -kernel loader and YAMON keep argv, envp and their own data in
 * the first megabyte; the exception vectors live at its start.  The kernel
 * is linked right above it.
 */
#define MALTA_BOOT_AREA_END    0x00100000u

#endif
