/*
 * malta_display.h - the Malta board's front-panel indicators: an
 * eight-character ASCII display and an eight-LED bar, both in the board
 * FPGA.  They show boot progress to a person at a board without a console.
 */
#ifndef TALLY_MALTA_DISPLAY_H
#define TALLY_MALTA_DISPLAY_H

#include <stdint.h>

#define MALTA_DISPLAY_CHARS 8
#define MALTA_LEDBAR_LEDS   8

/* Shows s left-aligned; characters past eight are dropped, the rest blank. */
void malta_display_puts(const char *s);
/* Shows v as eight hex digits. */
void malta_display_hex(uint32_t v);
/* Bit n lights LED n. */
void malta_ledbar_set(uint8_t leds);

#endif
