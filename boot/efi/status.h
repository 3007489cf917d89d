/*
 * status.h - names of UEFI status codes (UEFI 2.10, appendix D), so a
 * firmware failure is reported as EFI_NOT_FOUND rather than a number.
 * Portable: no gnu-efi types, so the table has a host unit test.
 */
#ifndef TALLY_EFI_STATUS_H
#define TALLY_EFI_STATUS_H

#include <stdint.h>

/* Errors have the top bit of the (64-bit) status set; warnings do not. */
#define EFI_STATUS_ERROR_BIT (1ull << 63)

/* "EFI_NOT_FOUND", "EFI_WARN_STALE_DATA", ...; NULL for a code the
 * specification does not name (the caller prints the number). */
const char *efi_status_name(uint64_t status);

#endif
