/*
 * idle.S - arch_idle: enable interrupts and wait, without losing a wakeup.
 *
 * The caller decided to sleep with interrupts off.  If an interrupt lands
 * between `ei` and `wait`, its handler runs and `wait` would then sleep
 * until the next one (up to a whole tick), missing the wakeup.  Whether a
 * core leaves `wait` for an interrupt that is pending but disabled is
 * implementation-defined (Config7.WII), so instead the window from
 * mips_idle_window to mips_idle_wait is made restartable: trap.c moves an
 * interrupted EPC inside it to mips_idle_done, skipping the wait.
 */
#include "cp0.h"

	.set	noreorder
	.text

	.globl	arch_idle
	.globl	mips_idle_window
	.globl	mips_idle_wait
	.globl	mips_idle_done
	.ent	arch_idle
arch_idle:
	ei
mips_idle_window:
	ehb
mips_idle_wait:
	wait
mips_idle_done:
	jr	$ra
	nop
	.end	arch_idle
