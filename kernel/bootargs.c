/*
 * bootargs.c - parse the kernel command line once, at boot.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bootargs.h"

static char cmdline_copy[BOOTARGS_MAX_LEN];
static char words_buf[BOOTARGS_MAX_LEN];
static char *words[BOOTARGS_MAX_WORDS];
static unsigned nwords;

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * Loaders disagree on whether the image path is part of the command line
 * (QEMU's multiboot puts it first, GRUB's multiboot2 does not), so a first
 * word that looks like a path is the image name, not an argument.
 */
static bool looks_like_image(const char *w)
{
	return w[0] == '/' || strstr(w, ".elf") != NULL;
}

void bootargs_init(const char *cmdline)
{
	size_t len = strlcpy(cmdline_copy, cmdline ? cmdline : "", sizeof(cmdline_copy));
	if (len >= sizeof(cmdline_copy))
		printf("warning: kernel command line cut to %u characters\n",
		       (unsigned)sizeof(cmdline_copy) - 1);
	strlcpy(words_buf, cmdline_copy, sizeof(words_buf));

	nwords = 0;
	char *p = words_buf;
	while (*p) {
		while (is_space(*p))
			*p++ = '\0';
		if (!*p)
			break;
		if (nwords == BOOTARGS_MAX_WORDS) {
			printf("warning: more than %u boot arguments; rest ignored\n",
			       BOOTARGS_MAX_WORDS);
			break;
		}
		words[nwords++] = p;
		while (*p && !is_space(*p))
			p++;
	}
	if (nwords > 0 && looks_like_image(words[0])) {
		memmove(&words[0], &words[1], (nwords - 1) * sizeof(words[0]));
		nwords--;
	}
}

const char *bootargs_cmdline(void)
{
	return cmdline_copy;
}

/* Length of the key part of a word ("hz" in "hz=250"). */
static size_t key_len(const char *w)
{
	const char *eq = strchr(w, '=');
	return eq ? (size_t)(eq - w) : strlen(w);
}

static const char *find_word(const char *key)
{
	size_t klen = strlen(key);
	/* The last occurrence wins, so an appended argument overrides. */
	for (unsigned i = nwords; i-- > 0;) {
		if (key_len(words[i]) == klen && strncmp(words[i], key, klen) == 0)
			return words[i];
	}
	return NULL;
}

bool bootarg_present(const char *key)
{
	return find_word(key) != NULL;
}

const char *bootarg_get(const char *key)
{
	const char *w = find_word(key);
	if (!w)
		return NULL;
	const char *eq = strchr(w, '=');
	return eq ? eq + 1 : NULL;
}

uint64_t bootarg_u64(const char *key, uint64_t def, uint64_t min, uint64_t max)
{
	const char *v = bootarg_get(key);
	uint64_t n;

	if (!v) {
		if (bootarg_present(key))
			printf("warning: boot argument %s needs a value; using %llu\n",
			       key, (unsigned long long)def);
		return def;
	}
	int err = parse_u64(v, 0, &n);
	if (err || n < min || n > max) {
		printf("warning: boot argument %s=%s is not a number in [%llu, %llu]; using %llu\n",
		       key, v, (unsigned long long)min, (unsigned long long)max,
		       (unsigned long long)def);
		return def;
	}
	return n;
}

static bool declared(const char *word)
{
	const struct bootarg_decl *const *d;
	size_t klen = key_len(word);

	SET_FOREACH(d, bootargs) {
		if (strlen((*d)->key) == klen && strncmp((*d)->key, word, klen) == 0)
			return true;
	}
	return false;
}

void bootargs_report_unknown(void)
{
	for (unsigned i = 0; i < nwords; i++) {
		if (!declared(words[i]))
			printf("warning: unknown boot argument '%s' (ignored; see `bootargs`)\n",
			       words[i]);
	}
}
