/* version.h - build identity and boot-time hooks shared across kernel/. */
#ifndef TALLY_VERSION_H
#define TALLY_VERSION_H

/* `git describe` of the tree that was built; generated into the build
 * directory so that a new commit relinks with the new id (a -D flag would
 * leave every object built before the commit carrying the old one). */
extern const char tally_build_id[];

#include <stdint.h>

struct boot_info;
const struct boot_info *boot_info_get(void);
/* Cycle-counter ticks from kmain's entry to the shell, stamped just
 * before the boot hooks so `selftest` at boot can see them.  (Firmware and
 * loader come before kmain and are not counted: under icount their count
 * depends on the host, the kernel's own part does not.) */
uint64_t boot_kernel_cycles(void);

/*
 * Work that must run once the kernel is up, before the prompt (one-shot
 * modes such as `selftest`), registered with BOOT_HOOK in the init set.
 */
typedef void (*boot_hook_fn)(void);
struct boot_hook {
	const char *name;
	boot_hook_fn fn;
};

#include "set.h"
#define BOOT_HOOK(hname, hfn) \
	static const struct boot_hook boot_hook_##hname = { \
		.name = #hname, .fn = hfn }; \
	SET_ADD(init, hname, &boot_hook_##hname)
SET_DECLARE(init, const struct boot_hook);

void run_boot_hooks(void);

#endif
