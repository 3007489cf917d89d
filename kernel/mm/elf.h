/*
 * elf.h - load a static ELF executable of this machine into a uvm.
 */
#ifndef TALLY_ELF_H
#define TALLY_ELF_H

#include <stddef.h>
#include <stdint.h>

struct uvm;

/* Map and fill every PT_LOAD segment; *entry gets the start address.
 * -ENOEXEC for anything that is not a well-formed executable for this
 * machine whose segments lie in user space; -ENOMEM. */
int elf_load(struct uvm *u, const void *image, size_t size, uintptr_t *entry);

#endif
