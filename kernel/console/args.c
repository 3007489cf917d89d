/*
 * args.c - in-place command line splitting for the console.
 */
#include <errno.h>
#include <stddef.h>

#include "console/args.h"

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Copy one word starting at *src to *dst, removing quotes. */
static int take_word(char **srcp, char **dstp)
{
	char *src = *srcp, *dst = *dstp;
	char quote = 0;

	while (*src && (quote || !is_blank(*src))) {
		if (!quote && (*src == '"' || *src == '\'')) {
			quote = *src++;
		} else if (quote && *src == quote) {
			quote = 0;
			src++;
		} else {
			*dst++ = *src++;
		}
	}
	if (quote)
		return -EINVAL;
	*srcp = src;
	*dstp = dst;
	return 0;
}

int args_split(char *line, char **argv, int max)
{
	char *src = line, *dst = line;
	int argc = 0;

	for (;;) {
		while (is_blank(*src))
			src++;
		if (!*src)
			break;
		if (argc >= max)
			return -E2BIG;
		argv[argc++] = dst;
		/* dst never passes src, so unquoting in place is safe. */
		int err = take_word(&src, &dst);
		if (err)
			return err;
		char *end = src;
		if (*src)
			src++;
		*dst = '\0';
		dst = (dst == end) ? src : dst + 1;
	}
	if (argc < max)
		argv[argc] = NULL;
	return argc;
}
