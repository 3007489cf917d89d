/*
 * status.c - the UEFI status code names (UEFI 2.10, appendix D).
 *
 * Indexed by the code without its error bit; the gaps (29, 30) are codes
 * the specification leaves unassigned.
 */
#include <stddef.h>

#include "status.h"

static const char *const error_names[] = {
	[1] = "EFI_LOAD_ERROR",
	[2] = "EFI_INVALID_PARAMETER",
	[3] = "EFI_UNSUPPORTED",
	[4] = "EFI_BAD_BUFFER_SIZE",
	[5] = "EFI_BUFFER_TOO_SMALL",
	[6] = "EFI_NOT_READY",
	[7] = "EFI_DEVICE_ERROR",
	[8] = "EFI_WRITE_PROTECTED",
	[9] = "EFI_OUT_OF_RESOURCES",
	[10] = "EFI_VOLUME_CORRUPTED",
	[11] = "EFI_VOLUME_FULL",
	[12] = "EFI_NO_MEDIA",
	[13] = "EFI_MEDIA_CHANGED",
	[14] = "EFI_NOT_FOUND",
	[15] = "EFI_ACCESS_DENIED",
	[16] = "EFI_NO_RESPONSE",
	[17] = "EFI_NO_MAPPING",
	[18] = "EFI_TIMEOUT",
	[19] = "EFI_NOT_STARTED",
	[20] = "EFI_ALREADY_STARTED",
	[21] = "EFI_ABORTED",
	[22] = "EFI_ICMP_ERROR",
	[23] = "EFI_TFTP_ERROR",
	[24] = "EFI_PROTOCOL_ERROR",
	[25] = "EFI_INCOMPATIBLE_VERSION",
	[26] = "EFI_SECURITY_VIOLATION",
	[27] = "EFI_CRC_ERROR",
	[28] = "EFI_END_OF_MEDIA",
	[31] = "EFI_END_OF_FILE",
	[32] = "EFI_INVALID_LANGUAGE",
	[33] = "EFI_COMPROMISED_DATA",
	[34] = "EFI_IP_ADDRESS_CONFLICT",
	[35] = "EFI_HTTP_ERROR",
};

static const char *const warning_names[] = {
	[0] = "EFI_SUCCESS",
	[1] = "EFI_WARN_UNKNOWN_GLYPH",
	[2] = "EFI_WARN_DELETE_FAILURE",
	[3] = "EFI_WARN_WRITE_FAILURE",
	[4] = "EFI_WARN_BUFFER_TOO_SMALL",
	[5] = "EFI_WARN_STALE_DATA",
	[6] = "EFI_WARN_FILE_SYSTEM",
	[7] = "EFI_WARN_RESET_REQUIRED",
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

const char *efi_status_name(uint64_t status)
{
	uint64_t code = status & ~EFI_STATUS_ERROR_BIT;

	if (status & EFI_STATUS_ERROR_BIT)
		return code < COUNT(error_names) ? error_names[code] : NULL;
	return code < COUNT(warning_names) ? warning_names[code] : NULL;
}
