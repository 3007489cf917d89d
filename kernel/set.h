/*
 * set.h - linker sets: tables that code adds entries to where it lives.
 *
 * An entry placed with SET_ENTRY(cmds, name) lands in section
 * .set.cmds.name; linker.ld gathers those, sorted by name, between
 * __set_cmds_start and __set_cmds_end.  This is how console commands and
 * benchmarks register themselves next to the code they drive, instead of
 * in one central list (littlekernel does the same for its console).
 */
#ifndef TALLY_SET_H
#define TALLY_SET_H

#define SET_ENTRY(set, name) \
	__attribute__((used, section(".set." #set "." #name), aligned(8)))

#define SET_DECLARE(set, type) \
	extern const type __set_##set##_start[]; \
	extern const type __set_##set##_end[]

#define SET_FOREACH(var, set) \
	for (var = __set_##set##_start; var < __set_##set##_end; var++)

#endif
