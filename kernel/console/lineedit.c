/*
 * lineedit.c - a small line editor for a serial console.
 *
 * Understood: printable ASCII, Backspace/DEL, ^U (erase line), ^C (cancel),
 * CR, LF or CR LF (end of line), ESC [ A / ESC [ B and ESC O A / ESC O B
 * (history up/down).  Everything else, including bytes >= 0x80 and unknown
 * escape sequences, is dropped, because a console that scripts and people
 * paste into must survive any junk and leave the next line intact.
 */
#include <string.h>

#include "console/lineedit.h"

#define CH_CTRL_C  0x03
#define CH_BS      0x08
#define CH_LF      0x0a
#define CH_CR      0x0d
#define CH_CTRL_U  0x15
#define CH_ESC     0x1b
#define CH_DEL     0x7f

enum { ESC_NONE, ESC_GOT_ESC, ESC_GOT_BRACKET };

static void echo(struct lineedit *le, const char *s, size_t n)
{
	if (le->echo && n)
		le->echo(s, n, le->echo_arg);
}

static void echo_str(struct lineedit *le, const char *s)
{
	echo(le, s, strlen(s));
}

void le_init(struct lineedit *le, le_echo_fn fn, void *arg)
{
	memset(le, 0, sizeof(*le));
	le->hist_pos = -1;
	le->echo = fn;
	le->echo_arg = arg;
}

const char *le_line(const struct lineedit *le)
{
	return le->buf;
}

/* Visually erase the current line and empty the buffer. */
static void erase_line(struct lineedit *le)
{
	while (le->len > 0) {
		echo_str(le, "\b \b");
		le->len--;
	}
	le->buf[0] = '\0';
	le->dropped = 0;
}

static void reset(struct lineedit *le)
{
	le->len = 0;
	le->buf[0] = '\0';
	le->dropped = 0;
	le->hist_pos = -1;
	le->esc = ESC_NONE;
}

static void history_add(struct lineedit *le, const char *line)
{
	unsigned newest = (le->hist_next + LINE_HISTORY - 1) % LINE_HISTORY;

	if (line[0] == '\0')
		return;
	if (le->hist_n > 0 && strcmp(le->hist[newest], line) == 0)
		return;         /* repeating a command does not fill history */
	strlcpy(le->hist[le->hist_next], line, sizeof(le->hist[0]));
	le->hist_next = (le->hist_next + 1) % LINE_HISTORY;
	if (le->hist_n < LINE_HISTORY)
		le->hist_n++;
}

/* Replace the edited line with history entry pos (-1: empty line). */
static void history_show(struct lineedit *le, int pos)
{
	erase_line(le);
	le->hist_pos = pos;
	if (pos < 0)
		return;
	unsigned slot = (le->hist_next + LINE_HISTORY - 1 - (unsigned)pos) % LINE_HISTORY;
	le->len = strlcpy(le->buf, le->hist[slot], sizeof(le->buf));
	echo(le, le->buf, le->len);
}

static void history_move(struct lineedit *le, int dir)
{
	int pos = le->hist_pos + dir;

	if (pos >= (int)le->hist_n || pos < -1)
		return;
	history_show(le, pos);
}

static enum le_result end_of_line(struct lineedit *le)
{
	enum le_result r = le->dropped ? LE_TOOLONG : LE_LINE;

	echo_str(le, "\n");
	le->buf[le->len] = '\0';
	if (r == LE_LINE)
		history_add(le, le->buf);
	le->len = 0;            /* buf keeps the text for le_line() */
	le->dropped = 0;
	le->hist_pos = -1;
	le->esc = ESC_NONE;
	return r;
}

static void insert(struct lineedit *le, char c)
{
	if (le->len >= LINE_MAX_LEN) {
		le->dropped++;          /* remember, refuse at Enter */
		return;
	}
	le->buf[le->len++] = c;
	le->buf[le->len] = '\0';
	echo(le, &c, 1);
}

/* Returns true if c was consumed by the escape-sequence parser. */
static bool feed_escape(struct lineedit *le, char c)
{
	switch (le->esc) {
	case ESC_GOT_ESC:
		le->esc = (c == '[' || c == 'O') ? ESC_GOT_BRACKET : ESC_NONE;
		return true;
	case ESC_GOT_BRACKET:
		le->esc = ESC_NONE;
		if (c == 'A')
			history_move(le, +1);
		else if (c == 'B')
			history_move(le, -1);
		/* Longer sequences (ESC [ 1 ; 5 C ...) leave digits behind;
		 * they are printable and harmless, and ^U clears them. */
		return true;
	default:
		return false;
	}
}

enum le_result le_feed(struct lineedit *le, char c)
{
	bool after_cr = le->last_cr;
	unsigned char u = (unsigned char)c;

	le->last_cr = (c == CH_CR);
	if (feed_escape(le, c))
		return LE_MORE;

	switch (u) {
	case CH_CR:
		return end_of_line(le);
	case CH_LF:
		if (after_cr)
			return LE_MORE;
		return end_of_line(le);
	case CH_BS:
	case CH_DEL:
		/* The dropped characters were never echoed: taking them
		 * back erases nothing on the screen. */
		if (le->dropped > 0)
			le->dropped--;
		else if (le->len > 0) {
			le->buf[--le->len] = '\0';
			echo_str(le, "\b \b");
		}
		return LE_MORE;
	case CH_CTRL_U:
		erase_line(le);
		return LE_MORE;
	case CH_CTRL_C:
		echo_str(le, "^C\n");
		reset(le);
		return LE_CANCEL;
	case CH_ESC:
		le->esc = ESC_GOT_ESC;
		return LE_MORE;
	default:
		if (u >= 0x20 && u < 0x7f)
			insert(le, c);
		return LE_MORE;
	}
}
