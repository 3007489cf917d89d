/*
 * program_syms.h - function names of the built-in user programs, for
 * `prof`.  The embedded programs are stripped; user/user.mk keeps each
 * one's text symbols as lines of "ADDRESS NAME" (hex address, sorted, as
 * nm -n prints them) and user/embed.c registers that text here.
 */
#ifndef TALLY_PROGRAM_SYMS_H
#define TALLY_PROGRAM_SYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "set.h"

struct program_syms {
	const char *name;               /* the program */
	const char *start;              /* its "ADDRESS NAME\n" lines */
	const char *end;
};

#define PROGRAM_SYMS(pname, pstart, pend) \
	static const struct program_syms program_syms_##pname = { \
		.name = #pname, .start = (pstart), .end = (pend) }; \
	SET_ADD(program_syms, pname, &program_syms_##pname)

SET_DECLARE(program_syms, const struct program_syms);

/* The symbol table of program `name`, or NULL. */
const struct program_syms *program_syms_find(const char *name);

/*
 * In the table text[0..len), the function holding pc: the last symbol at
 * or below pc.  Copies its name into buf (cut to len - 1 characters) and
 * sets *off = pc - its address; returns false (buf "?") when pc is below
 * every symbol.  Lines that do not parse are skipped.
 */
bool program_sym_lookup(const char *text, size_t len, uintptr_t pc,
			char *buf, size_t buflen, uintptr_t *off);

#endif
