/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bytes.h - fixed-width little- and big-endian fields read from (and
 * written to) a byte buffer that need not be aligned: one copy of what
 * the on-disk parsers and fix's field patches each had their own of.
 */
#ifndef BLKALIGN_BYTES_H
#define BLKALIGN_BYTES_H

#include <endian.h>
#include <stdint.h>
#include <string.h>

static inline uint16_t ba_le16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return le16toh(v);
}

static inline uint32_t ba_le32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

static inline uint64_t ba_le64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

static inline uint32_t ba_be32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return be32toh(v);
}

static inline uint64_t ba_be64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return be64toh(v);
}

static inline void ba_put_le32(uint8_t *p, uint32_t v)
{
	v = htole32(v);
	memcpy(p, &v, sizeof(v));
}

static inline void ba_put_le64(uint8_t *p, uint64_t v)
{
	v = htole64(v);
	memcpy(p, &v, sizeof(v));
}

#endif /* BLKALIGN_BYTES_H */
