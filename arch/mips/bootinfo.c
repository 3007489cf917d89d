/*
 * bootinfo.c - the loader's argc/argv/envp/memsize into struct boot_info.
 *
 * YAMON and QEMU's -kernel loader both pass a0 = argc, a1 = argv, a2 =
 * envp (alternating name and value strings, NULL-terminated) and a3 = RAM
 * size; Tally's own boot-flash stub passes the same, plus loader=flash.
 * QEMU puts argv[1] = the whole -append string.  Under -semihosting
 * QEMU leaves a0 = 0xffffffff (arguments are meant to come through UHI),
 * but a1..a3 are still set up as usual with its fixed argc of 2.
 *
 * Everything here runs before the console exists, on data at addresses the
 * loader chose, so each pointer is checked before it is followed, and the
 * strings are copied: the boot table lies in memory the kernel may reuse.
 */
#include "arch.h"
#include "addrspace.h"
#include "malta.h"
#include "mips.h"

#include <stdlib.h>
#include <string.h>

#define CMDLINE_MAX      1024
#define ARGC_SEMIHOSTING 0xffffffffu
#define ARGC_QEMU        2          /* loader file name, -append string */
#define ARGC_MAX         64
#define ENV_PAIRS_MAX    64
#define ENV_STRING_MAX   256

extern char __kernel_end[];

static char cmdline[CMDLINE_MAX];
static const char *warning;

const char *bootinfo_warning(void)
{
	return warning;
}

/*
 * A pointer handed over by the loader is usable if it points into RAM
 * through KSEG0 or KSEG1 (below ram_top), with room for size bytes.
 */
static bool loader_ptr_ok(uint32_t p, uint32_t size, uint32_t ram_top)
{
	uint32_t pa;

	if (p < KSEG0_BASE || p >= KSEG2_BASE)
		return false;
	pa = p & KSEG_PHYS_MASK;
	return pa < ram_top && size <= ram_top - pa;
}

/* The loader's string at p, or NULL if it is not a terminated string in RAM. */
static const char *loader_str(uint32_t p, uint32_t ram_top)
{
	const char *s;
	uint32_t n;

	if (!loader_ptr_ok(p, 1, ram_top))
		return NULL;
	s = (const char *)(uintptr_t)p;
	n = ram_top - (p & KSEG_PHYS_MASK);
	if (n > CMDLINE_MAX)
		n = CMDLINE_MAX;
	return strnlen(s, n) < n ? s : NULL;
}

static uint32_t loader_word(uint32_t p)
{
	return *(const volatile uint32_t *)(uintptr_t)p;
}

/* argv[1..argc-1] joined by single spaces, truncated to fit. */
static void parse_argv(uint32_t argc, uint32_t argv, uint32_t ram_top)
{
	size_t len = 0;

	if (argc == ARGC_SEMIHOSTING)
		argc = ARGC_QEMU;
	if (argc > ARGC_MAX)
		argc = ARGC_MAX;
	if (argc > 1 && !loader_ptr_ok(argv, argc * sizeof(uint32_t), ram_top)) {
		warning = "argv pointer outside RAM; no command line";
		return;
	}
	for (uint32_t i = 1; i < argc; i++) {
		const char *arg = loader_str(loader_word(argv + i * sizeof(uint32_t)), ram_top);

		if (arg == NULL) {
			warning = "bad argv entry; command line cut short";
			break;
		}
		if (*arg == '\0')
			continue;
		if (len > 0 && len + 1 < sizeof(cmdline))
			cmdline[len++] = ' ';
		len += strlcpy(cmdline + len, arg, sizeof(cmdline) - len);
		if (len >= sizeof(cmdline)) {
			cmdline[sizeof(cmdline) - 1] = '\0';
			warning = "command line longer than 1023 bytes, truncated";
			break;
		}
	}
}

/* The value of name in the loader's environment, or NULL. */
static const char *env_get(uint32_t envp, uint32_t ram_top, const char *name)
{
	for (unsigned i = 0; i < ENV_PAIRS_MAX; i++) {
		uint32_t slot = envp + i * 2 * sizeof(uint32_t);
		const char *key, *val;

		if (!loader_ptr_ok(slot, 2 * sizeof(uint32_t), ram_top))
			return NULL;
		if (loader_word(slot) == 0)
			return NULL;
		key = loader_str(loader_word(slot), ram_top);
		val = loader_str(loader_word(slot + sizeof(uint32_t)), ram_top);
		if (key == NULL || val == NULL)
			return NULL;
		if (strcmp(key, name) == 0)
			return val;
	}
	return NULL;
}

static uint64_t env_size(uint32_t envp, uint32_t ram_top, const char *name)
{
	const char *s = env_get(envp, ram_top, name);
	uint64_t v;

	if (s == NULL || parse_u64(s, 0, &v) != 0)
		return 0;
	return v;
}

void bootinfo_parse(struct boot_info *bi, uint32_t a0, uint32_t a1,
		    uint32_t a2, uint32_t a3)
{
	/*
	 * Until the environment is read, trust only a3 (or, without it, the
	 * 256 MiB of low RAM any Malta has room for) to check the loader's
	 * pointers against.
	 */
	uint32_t probe_top = (a3 != 0 && a3 < MALTA_RAM_LOW_MAX) ? a3
							          : MALTA_RAM_LOW_MAX;
	uint64_t memsize, ememsize, low;
	const char *loader;
	uint64_t first_free = (uintptr_t)__kernel_end & KSEG_PHYS_MASK;

	if (first_free < MALTA_BOOT_AREA_END)
		first_free = MALTA_BOOT_AREA_END;
	memset(bi, 0, sizeof(*bi));
	bi->loader = "malta";
	bi->cmdline = cmdline;
	parse_argv(a0, a1, probe_top);

	/*
	 * memsize is the RAM below the I/O hole; ememsize (QEMU, newer YAMON)
	 * is the whole amount when more than 256 MiB is fitted.
	 */
	memsize = env_size(a2, probe_top, "memsize");
	if (memsize == 0)
		memsize = a3;
	ememsize = env_size(a2, probe_top, "ememsize");
	/* Tally's boot-flash stub (arch/mips/flash) names itself. */
	loader = env_get(a2, probe_top, "loader");
	if (loader != NULL && strcmp(loader, "flash") == 0)
		bi->loader = "flash";
	bi->mem_total = ememsize > memsize ? ememsize : memsize;

	low = memsize < MALTA_RAM_LOW_MAX ? memsize : MALTA_RAM_LOW_MAX;
	if (low > first_free) {
		bi->mem[0].base = first_free;
		bi->mem[0].size = low - first_free;
		bi->nmem = 1;
	} else if (warning == NULL) {
		warning = "no RAM reported above the kernel image";
	}
}
