/*
 * cmdline.c - building the kernel command line from the ESP file and the
 * load options.  No libc: the same file is built into the .efi and into
 * the host unit test.
 */
#include "cmdline.h"

#define UCS2_MAX_CHARS CMDLINE_MAX

static int is_space(int ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n';
}

static int is_printable(int ch)
{
	return ch >= 0x20 && ch < 0x7f;
}

void cmdline_init(struct cmdline *c)
{
	c->len = 0;
	c->text[0] = '\0';
}

/* Checks everything first, so a refused source leaves c as it was. */
static int scan(const char *text, size_t n, int comments, size_t *need)
{
	int line_start = 1, in_comment = 0, in_word = 0;
	size_t total = 0;

	for (size_t i = 0; i < n && text[i]; i++) {
		int ch = (unsigned char)text[i];

		if (ch == '\n') {
			line_start = 1;
			in_comment = 0;
			in_word = 0;
			continue;
		}
		if (!is_space(ch) && !is_printable(ch))
			return CMDLINE_NOT_TEXT;
		if (in_comment)
			continue;
		if (is_space(ch)) {
			in_word = 0;
			continue;
		}
		if (line_start && comments && ch == '#') {
			in_comment = 1;
			continue;
		}
		line_start = 0;
		if (!in_word)
			total++;        /* the separator before a word */
		in_word = 1;
		total++;
	}
	*need = total;
	return 0;
}

int cmdline_add_text(struct cmdline *c, const char *text, size_t n, int comments)
{
	size_t need;
	int line_start = 1, in_comment = 0, in_word = 0;
	int rc = scan(text, n, comments, &need);

	if (rc)
		return rc;
	/* A first word needs no separator. */
	if (c->len == 0 && need > 0)
		need--;
	if (c->len + need >= CMDLINE_MAX)
		return CMDLINE_TOO_LONG;
	for (size_t i = 0; i < n && text[i]; i++) {
		char ch = text[i];

		if (ch == '\n') {
			line_start = 1;
			in_comment = 0;
			in_word = 0;
			continue;
		}
		if (in_comment)
			continue;
		if (is_space(ch)) {
			in_word = 0;
			continue;
		}
		if (line_start && comments && ch == '#') {
			in_comment = 1;
			continue;
		}
		line_start = 0;
		if (!in_word && c->len > 0)
			c->text[c->len++] = ' ';
		in_word = 1;
		c->text[c->len++] = ch;
	}
	c->text[c->len] = '\0';
	return 0;
}

static int ends_with_efi(const char *w, size_t n)
{
	static const char suffix[] = ".efi";

	if (n < 4)
		return 0;
	for (size_t i = 0; i < 4; i++) {
		char ch = w[n - 4 + i];

		if (ch >= 'A' && ch <= 'Z')
			ch = (char)(ch - 'A' + 'a');
		if (ch != suffix[i])
			return 0;
	}
	return 1;
}

int cmdline_add_ucs2(struct cmdline *c, const uint16_t *opts, size_t bytes)
{
	char buf[UCS2_MAX_CHARS];
	size_t n = 0, start = 0, end;

	if (bytes % 2)
		return CMDLINE_NOT_TEXT;
	for (size_t i = 0; i < bytes / 2; i++) {
		uint16_t ch = opts[i];

		if (ch == 0)
			break;
		if (ch > 0x7f || (!is_space(ch) && !is_printable(ch)))
			return CMDLINE_NOT_TEXT;
		if (n == sizeof(buf))
			return CMDLINE_TOO_LONG;
		buf[n++] = (char)ch;
	}
	while (start < n && is_space(buf[start]))
		start++;
	end = start;
	while (end < n && !is_space(buf[end]))
		end++;
	if (ends_with_efi(buf + start, end - start))
		start = end;
	return cmdline_add_text(c, buf + start, n - start, 0);
}

static int word_has_key(const char *w, size_t n, const char *key)
{
	size_t k = 0;

	while (key[k]) {
		if (k >= n || w[k] != key[k])
			return 0;
		k++;
	}
	return k == n || w[k] == '=';
}

int cmdline_take(struct cmdline *c, const char *key, char *val, size_t cap)
{
	size_t r = 0, w = 0;
	int taken = 0;

	while (r < c->len) {
		size_t start = r, n;

		while (r < c->len && c->text[r] != ' ')
			r++;
		n = r - start;
		if (word_has_key(c->text + start, n, key)) {
			size_t skip = 0, v = 0;

			while (key[skip])
				skip++;
			if (skip < n)
				skip++;         /* the '=' */
			while (skip + v < n && v + 1 < cap) {
				val[v] = c->text[start + skip + v];
				v++;
			}
			if (cap)
				val[v] = '\0';
			taken++;
		} else {
			if (w > 0)
				c->text[w++] = ' ';
			for (size_t i = 0; i < n; i++)
				c->text[w++] = c->text[start + i];
		}
		r++;            /* the separator */
	}
	c->len = w;
	c->text[w] = '\0';
	return taken;
}
