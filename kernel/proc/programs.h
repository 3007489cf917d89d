/*
 * programs.h - the user programs built into the kernel image.
 *
 * user/user.mk builds each program of user/ as an ELF file and embeds it
 * with user/embed.c, which registers it here by name with PROGRAM().
 */
#ifndef TALLY_PROGRAMS_H
#define TALLY_PROGRAMS_H

#include <stddef.h>

#include "set.h"

/* Linker-set entries are 8-aligned (set.h); the type must be a multiple
 * of 8 bytes too, or the table's stride differs from the entries' on a
 * 32-bit machine. */
struct program {
	const char *name;
	const unsigned char *start;     /* the ELF file */
	const unsigned char *end;
};

#define PROGRAM(pname, pstart, pend) \
	static const struct program program_##pname = { \
		.name = #pname, .start = (pstart), .end = (pend) }; \
	SET_ADD(programs, pname, &program_##pname)

SET_DECLARE(programs, const struct program);

const struct program *program_find(const char *name);

#endif
