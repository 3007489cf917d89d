/*
 * bootargs.h - the kernel command line: words "key" or "key=value".
 *
 * Every key a subsystem understands is declared next to that subsystem
 * with BOOTARG(key, "help"), so `bootargs` can list them and a word nobody
 * declared is reported at boot instead of being silently ignored (a typo
 * in "selftest" must not pass as a quiet normal boot).
 */
#ifndef TALLY_BOOTARGS_H
#define TALLY_BOOTARGS_H

#include <stdbool.h>
#include <stdint.h>
#include "set.h"

struct bootarg_decl {
	const char *key;
	const char *help;
};

#define BOOTARG(bkey, bhelp) \
	static const struct bootarg_decl bootarg_decl_##bkey = { \
		.key = #bkey, .help = bhelp }; \
	SET_ADD(bootargs, bkey, &bootarg_decl_##bkey)

SET_DECLARE(bootargs, const struct bootarg_decl);

#define BOOTARGS_MAX_LEN   1024
#define BOOTARGS_MAX_WORDS 64

void bootargs_init(const char *cmdline);
/* Warn on the console about words no subsystem declared. */
void bootargs_report_unknown(void);
const char *bootargs_cmdline(void);
bool bootarg_present(const char *key);
/* Value of key=VALUE, or NULL (also NULL for a bare "key"). */
const char *bootarg_get(const char *key);
/* Numeric key=N within [min, max]; def if absent; warns and uses def if bad. */
uint64_t bootarg_u64(const char *key, uint64_t def, uint64_t min, uint64_t max);

#endif
