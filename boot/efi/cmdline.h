/*
 * cmdline.h - the kernel command line the UEFI application builds from
 * its two sources: the text file beside it on the ESP, then its load
 * options (so what the boot entry or shell says comes last).  Portable
 * (host unit test): main.c fetches the bytes from the firmware.
 */
#ifndef TALLY_EFI_CMDLINE_H
#define TALLY_EFI_CMDLINE_H

#include <stddef.h>
#include <stdint.h>

/* The kernel keeps at most 1023 characters (kernel/bootargs.h). */
#define CMDLINE_MAX 1024

struct cmdline {
	char text[CMDLINE_MAX];         /* words separated by one space */
	size_t len;
};

#define CMDLINE_NOT_TEXT  (-1)          /* a byte that is not printable ASCII */
#define CMDLINE_TOO_LONG  (-2)

void cmdline_init(struct cmdline *c);

/*
 * Append the words of n bytes of text (ending early at a NUL): runs of
 * spaces, tabs, CR and LF separate words.  With comments, a line whose
 * first non-blank character is '#' is skipped (the ESP file).  Returns 0,
 * CMDLINE_NOT_TEXT or CMDLINE_TOO_LONG; on failure c is unchanged.
 */
int cmdline_add_text(struct cmdline *c, const char *text, size_t n, int comments);

/*
 * Append UEFI load options: bytes of UCS-2.  A boot entry's optional data
 * becomes the load options and may be binary (the UEFI specification
 * leaves its format to whoever wrote the entry), so anything but
 * printable ASCII text is refused with CMDLINE_NOT_TEXT.  A shell passes the command as typed, program first:
 * a first word ending in ".efi" is dropped.
 */
int cmdline_add_ucs2(struct cmdline *c, const uint16_t *opts, size_t bytes);

/*
 * Remove every word "key=VALUE" or "key" from c, for the loader's own
 * options, which the kernel would report as unknown; the last VALUE ("" for
 * a bare key) goes to val (cap bytes, cut to fit).  Returns how many were
 * removed.
 */
int cmdline_take(struct cmdline *c, const char *key, char *val, size_t cap);

#endif
