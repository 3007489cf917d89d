/*
 * spd.h - the RAM size from an SDRAM module's Serial Presence Detect
 * EEPROM (JEDEC SPD, the first 64 bytes), as the Malta's monitor reads it.
 *
 * Pure decoding, no hardware: the flash stub reads the bytes over I2C and
 * the host unit test feeds it tables.
 */
#ifndef TALLY_MIPS_FLASH_SPD_H
#define TALLY_MIPS_FLASH_SPD_H

#include <stdint.h>

#define SPD_BYTES          64    /* bytes 0..62 and their checksum, 63 */

/* JEDEC SPD byte offsets. */
#define SPD_MEMORY_TYPE    2
#define SPD_MODULE_ROWS    5     /* physical banks (rows) on the module */
#define SPD_ROW_DENSITY    31    /* one bit per row size present */
#define SPD_CHECKSUM       63    /* sum of bytes 0..62, modulo 256 */

/* Byte 2 values. */
#define SPD_TYPE_SDRAM     0x04
#define SPD_TYPE_DDR2      0x08

#define SPD_MAX_ROWS       8

struct spd_size {
	uint64_t bytes;          /* the module's whole size */
	uint8_t type;            /* SPD_TYPE_* */
	uint8_t rows;
	const char *error;       /* why no size could be found, or NULL */
};

/*
 * Decode bytes[0..SPD_BYTES-1].  On success error is NULL and bytes > 0;
 * otherwise error says what was wrong and bytes is 0: the caller refuses
 * to start rather than guess.
 */
void spd_decode(const uint8_t *bytes, struct spd_size *out);

#endif
