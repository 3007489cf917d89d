/*
 * progress.c - boot stages on the POST display (I/O port 0x80), for a
 * person with a POST card and no console.  Codes, in boot order:
 *
 *   0x01  _start: the loader jumped to the kernel (boot/x86_64/entry32.asm)
 *   0x02  long mode entered (entry64.asm)
 *   0x03  C boot code: descriptor tables loaded (boot.c)
 *   0x04  memory map read, direct map built, identity map gone (boot.c)
 *   0x10  CONSOLE  console up (kernel/main.c)
 *   0x20  TRAPS    arch_init done: exceptions and interrupts routed
 *   0x30  READY    about to start the shell
 *   0x40..0x7f     any other stage: 0x40 + (sum of its bytes mod 64)
 *   0xee  early_die: this CPU cannot run Tally (message on COM1)
 *
 * A display stuck at a code means the step after that stage never finished.
 */
#include <string.h>

#include "arch.h"
#include "io.h"
#include "progress.h"

#define OTHER_BASE 0x40u
#define OTHER_SPAN 0x40u

static const struct {
	const char *stage;
	uint8_t code;
} known[] = {
	{ "CONSOLE", POST_CONSOLE },
	{ "TRAPS", POST_TRAPS },
	{ "READY", POST_READY },
};

void post_code(uint8_t code)
{
	outb(POST_PORT, code);
}

void arch_boot_progress(const char *stage)
{
	unsigned sum = 0;

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		if (strcmp(stage, known[i].stage) == 0) {
			post_code(known[i].code);
			return;
		}
	}
	for (const char *p = stage; *p; p++)
		sum += (unsigned char)*p;
	post_code((uint8_t)(OTHER_BASE + sum % OTHER_SPAN));
}
