/*
 * lineedit.h - the console's line editor, fed one received byte at a time.
 *
 * Portable and free of I/O: echo goes through a callback, so the host unit
 * tests drive it byte by byte exactly as the UART would.
 */
#ifndef TALLY_LINEEDIT_H
#define TALLY_LINEEDIT_H

#include <stdbool.h>
#include <stddef.h>

#define LINE_MAX_LEN  512   /* characters in one command line */
#define LINE_HISTORY  16    /* remembered lines for up/down */

enum le_result {
	LE_MORE,        /* keep feeding */
	LE_LINE,        /* a line is complete: le_line() */
	LE_CANCEL,      /* ^C: line abandoned */
	LE_TOOLONG,     /* Enter after more than LINE_MAX_LEN characters */
};

typedef void (*le_echo_fn)(const char *s, size_t n, void *arg);

struct lineedit {
	char buf[LINE_MAX_LEN + 1];
	size_t len;
	size_t dropped;         /* typed past the limit, not kept: while > 0
	                         * the line is refused; Backspace takes these
	                         * back first */
	bool last_cr;           /* swallow the LF of a CR LF pair */
	int esc;                /* escape-sequence parser state */
	char hist[LINE_HISTORY][LINE_MAX_LEN + 1];
	unsigned hist_n;        /* lines stored (<= LINE_HISTORY) */
	unsigned hist_next;     /* slot the next line goes to */
	int hist_pos;           /* -1: editing a new line; k: k-th newest */
	le_echo_fn echo;
	void *echo_arg;
};

void le_init(struct lineedit *le, le_echo_fn echo, void *arg);
enum le_result le_feed(struct lineedit *le, char c);
/* The finished line (valid after LE_LINE until the next le_feed). */
const char *le_line(const struct lineedit *le);

#endif
