/*
 * malta.c - bringing up the Malta machine for the portable kernel.
 *
 * The exception vectors and the TLB are already set up by boot.c before
 * kmain; what is left for arch_init is what needs the console to report
 * problems, and the interrupt controllers.
 */
#include "arch.h"
#include "cp0.h"
#include "malta_display.h"
#include "mips.h"

#include <stdio.h>

void arch_init(struct boot_info *bi)
{
	const char *warning = bootinfo_warning();

	(void)bi;
	if (warning != NULL)
		printf("mips: boot arguments: %s\n", warning);
	/*
	 * Compare may equal a Count value soon after reset; writing it
	 * clears a pending timer interrupt until arch_timer_start sets the
	 * first real deadline.  Count must be running (Cause.DC clear).
	 */
	cp0_write_cause(cp0_read_cause() & ~CAUSE_DC);
	cp0_write_compare(cp0_read_count() - 1);
	intr_init();
	mips_copy64_cpu_init();
}

/*
 * The text goes to the ASCII display; the LED bar counts stages, so a
 * hang shows how far boot got even from across the lab.
 */
void arch_boot_progress(const char *stage)
{
	static uint8_t stages;

	malta_display_puts(stage);
	if (stages < MALTA_LEDBAR_LEDS)
		stages++;
	malta_ledbar_set((uint8_t)((1u << stages) - 1));
}
