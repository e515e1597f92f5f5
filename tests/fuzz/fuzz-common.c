/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-common.c - helpers shared by the fuzz targets.
 */
#include <endian.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

void fuzz_fail(const char *file, int line, const char *what)
{
	fprintf(stderr, "%s:%d: invariant failed: %s\n", file, line, what);
	abort();
}

uint32_t fuzz_le32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

/*
 * The chunk at *@at of @data (u32 offset, u16 length, the bytes): its
 * offset and length (cut by the end of the input), *@at past it; false
 * at the end.  The packed inputs of fuzz-vhdx and fuzz-vdisk.
 */
bool fuzz_next_chunk(const uint8_t *data, size_t size, size_t *at,
		     uint32_t *off, size_t *len)
{
	if (*at + 6 > size)
		return false;
	*off = fuzz_le32(data + *at);
	*len = (size_t)data[*at + 4] | (size_t)data[*at + 5] << 8;
	*at += 6;
	if (*len > size - *at)
		*len = size - *at;
	*at += *len;
	return true;
}
