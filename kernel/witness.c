/*
 * witness.c - the id count behind witness_begin (witness.h) and the
 * boot argument that makes callers print the ids.
 */
#include "bootargs.h"
#include "witness.h"

uint32_t witness_last_id;

BOOTARG(witness, "witness: print the id of each run marked for the outside "
	"witness (tests/witness), to pair its counts with the kernel's");

bool witness_show(void)
{
	return bootarg_present("witness");
}
