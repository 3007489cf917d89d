/*
 * uaccess.c - the arch's own reads of user memory, through the kernel's
 * checked copies (kernel/mm/uvm.h) like every other: the kernel never
 * dereferences a kuseg address.
 */
#include "mips.h"
#include "proc/task.h"
#include "mm/uvm.h"

int mips_user_read_word(uintptr_t va, uint32_t *word)
{
	struct uvm *u = current_task()->uvm;

	if (!u)
		return -1;
	return copy_from_user(u, word, va, sizeof(*word)) ? -1 : 0;
}
