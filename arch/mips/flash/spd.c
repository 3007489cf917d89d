/*
 * spd.c - module size from SPD bytes (see spd.h).
 *
 * Byte 31 (module bank density) has one bit per row size present on the
 * module; byte 5 counts the rows.  A module whose rows are all one size
 * sets one bit: size = rows x that size.  A module with rows of several
 * sizes sets one bit per row: size = the sum.  Anything else is
 * inconsistent and refused.
 *
 * Row sizes: SDR SDRAM (type 4) bit i is 4 MiB << i.  DDR2 (type 8) bits
 * 0..4 are 1..16 GiB and bits 5..7 128..512 MiB.  For DDR2, JEDEC puts
 * ranks - 1 in byte 5 bits 2:0; QEMU's Malta model writes the row count
 * there for both types (as the Malta monitor reads it), and no DDR2
 * module fits a GT-64120 core card, so byte 5 is read as a count for both.
 */
#include "spd.h"

#include <stddef.h>

#define MIB  (UINT64_C(1) << 20)

static uint64_t row_size(uint8_t type, unsigned bit)
{
	if (type == SPD_TYPE_SDRAM)
		return (4 * MIB) << bit;
	/* DDR2 */
	if (bit >= 5)
		return (128 * MIB) << (bit - 5);
	return (1024 * MIB) << bit;
}

/* The reason the bytes give no size, or NULL with out's size filled in. */
static const char *decode(const uint8_t *b, struct spd_size *out)
{
	uint8_t sum = 0, density;
	unsigned bits = 0;
	uint64_t one = 0, total = 0;

	out->type = b[SPD_MEMORY_TYPE];
	out->rows = b[SPD_MODULE_ROWS];
	for (unsigned i = 0; i < SPD_CHECKSUM; i++)
		sum = (uint8_t)(sum + b[i]);
	/* An absent EEPROM reads as all ones on a pulled-up bus. */
	if (b[0] == 0xff && b[SPD_MEMORY_TYPE] == 0xff)
		return "no SPD EEPROM answered (bus reads all ones)";
	if (sum != b[SPD_CHECKSUM])
		return "SPD checksum mismatch";
	if (out->type != SPD_TYPE_SDRAM && out->type != SPD_TYPE_DDR2)
		return "SPD memory type is neither SDRAM nor DDR2";
	if (out->rows == 0)
		return "SPD reports no rows";
	if (out->rows > SPD_MAX_ROWS)
		return "SPD reports more than 8 rows";
	density = b[SPD_ROW_DENSITY];
	if (density == 0)
		return "SPD row density is zero";
	for (unsigned bit = 0; bit < 8; bit++) {
		if (density & (1u << bit)) {
			one = row_size(out->type, bit);
			total += one;
			bits++;
		}
	}
	if (bits == 1)
		out->bytes = one * out->rows;
	else if (bits == out->rows)
		out->bytes = total;
	else
		return "SPD row sizes do not match the row count";
	return NULL;
}

void spd_decode(const uint8_t *b, struct spd_size *out)
{
	out->bytes = 0;
	out->error = decode(b, out);
	if (out->error != NULL)
		out->bytes = 0;
}
