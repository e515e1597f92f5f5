/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cursor.c - bounded reads inside a buffer already read from disk.  Every
 * getter checks the remaining length first and fails with -ERANGE instead
 * of reading past the end, so parsers can chain them:
 *   if (ba_cur_le64(&c, &a) || ba_cur_le32(&c, &n)) return -ERANGE;
 */
#include <endian.h>
#include <errno.h>
#include <string.h>

#include "probe/probe.h"

void ba_cur_init(struct ba_cur *c, const void *p, size_t len)
{
	c->p = p;
	c->len = len;
	c->pos = 0;
}

int ba_cur_seek(struct ba_cur *c, size_t pos)
{
	if (pos > c->len)
		return -ERANGE;
	c->pos = pos;
	return 0;
}

int ba_cur_skip(struct ba_cur *c, size_t n)
{
	if (n > c->len - c->pos)
		return -ERANGE;
	c->pos += n;
	return 0;
}

int ba_cur_bytes(struct ba_cur *c, void *dst, size_t n)
{
	if (n > c->len - c->pos)
		return -ERANGE;
	memcpy(dst, c->p + c->pos, n);
	c->pos += n;
	return 0;
}

int ba_cur_u8(struct ba_cur *c, uint8_t *v)
{
	return ba_cur_bytes(c, v, 1);
}

#define GETTER(name, type, conv)                             \
	int ba_cur_##name(struct ba_cur *c, type *v)         \
	{                                                    \
		type raw;                                    \
		int rc = ba_cur_bytes(c, &raw, sizeof(raw)); \
		if (rc)                                      \
			return rc;                           \
		*v = conv(raw);                              \
		return 0;                                    \
	}

GETTER(le16, uint16_t, le16toh)
GETTER(le32, uint32_t, le32toh)
GETTER(le64, uint64_t, le64toh)
GETTER(be16, uint16_t, be16toh)
GETTER(be32, uint32_t, be32toh)
GETTER(be64, uint64_t, be64toh)
