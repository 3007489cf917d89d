/*
 * set.h - linker sets: tables that code adds entries to where it lives.
 *
 * SET_ADD(cmds, echo, &cmd_echo_entry) puts a pointer to the entry in
 * section .set.cmds.echo; linker.ld gathers those, sorted by name, between
 * __set_cmds_start and __set_cmds_end.  This is how console commands,
 * boot arguments, benchmarks, programs and PMU drivers register themselves
 * next to the code they belong to (littlekernel does the same for its
 * console).
 *
 * A set holds pointers, not the objects: every slot is then exactly
 * sizeof(void *) on every machine, whatever size, alignment or padding
 * the compiler gives the objects themselves (a 12-byte struct on MIPS32
 * would otherwise sit in a padded slot and be walked at the wrong stride).
 */
#ifndef TALLY_SET_H
#define TALLY_SET_H

#define SET_ADD(set, name, ptr) \
	static const void *const set_entry_##set##_##name \
	__attribute__((used, section(".set." #set "." #name), \
		       aligned(sizeof(void *)))) = (ptr)

/* type is the element type: SET_DECLARE(cmds, const struct cmd). */
#define SET_DECLARE(set, type) \
	extern type *const __set_##set##_start[]; \
	extern type *const __set_##set##_end[]

/* var has type `type *const *`: use (*var)->field. */
#define SET_FOREACH(var, set) \
	for (var = __set_##set##_start; var < __set_##set##_end; var++)

#endif
