/* progress.h - POST codes; progress.c lists them all. */
#ifndef TALLY_X86_64_PROGRESS_H
#define TALLY_X86_64_PROGRESS_H

#include <stdint.h>

#define POST_PORT        0x80
#define POST_C_BOOT      0x03
#define POST_MEMORY      0x04
#define POST_CONSOLE     0x10
#define POST_TRAPS       0x20
#define POST_READY       0x30

void post_code(uint8_t code);

#endif
