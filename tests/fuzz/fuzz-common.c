/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-common.c - helpers shared by the fuzz targets.
 */
#include <endian.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "out/out.h"
#include "scan/scan.h"
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

/*
 * The packed file: its chunks in input order (a later one over an
 * earlier one), zeros elsewhere.  No buffer of the file's size is made:
 * a read costs what it copies, whatever size the input claims.
 */
struct fuzz_file {
	struct ba_io io; /* first: ops get it */
	size_t n;
	struct fuzz_chunk {
		uint64_t off;
		size_t len;
		const uint8_t *p;
	} chunk[];
};

static ssize_t file_pread(struct ba_io *io, void *buf, size_t len, uint64_t off)
{
	const struct fuzz_file *f = (const struct fuzz_file *)io;
	uint8_t *out = buf;

	memset(buf, 0, len);
	for (size_t i = 0; i < f->n; i++) {
		const struct fuzz_chunk *c = &f->chunk[i];
		uint64_t from = c->off > off ? c->off : off;
		uint64_t to = c->off + c->len < off + len ? c->off + c->len
							  : off + len;

		if (from < to)
			memcpy(out + (from - off), c->p + (from - c->off),
			       (size_t)(to - from));
	}
	return (ssize_t)len;
}

static const struct ba_io_ops file_ops = {.name = "fuzz", .pread = file_pread};

struct ba_io *fuzz_file_new(const uint8_t *data, size_t len, size_t at,
			    uint64_t size, uint64_t max)
{
	struct fuzz_file *f;
	size_t n = 0, start = at;
	uint32_t off;
	size_t clen;

	while (fuzz_next_chunk(data, len, &at, &off, &clen))
		n++;
	/* one slot more for fuzz_file_patch */
	f = malloc(sizeof(*f) + (n + 1) * sizeof(f->chunk[0]));
	if (!f)
		return NULL;
	f->n = 0;
	for (at = start; fuzz_next_chunk(data, len, &at, &off, &clen);) {
		if ((uint64_t)off + clen > size)
			size = (uint64_t)off + clen;
		if (clen)
			f->chunk[f->n++] = (struct fuzz_chunk){
				off, clen, data + at - clen};
	}
	if (size > max)
		size = max;
	memset(&f->io, 0, sizeof(f->io));
	f->io.ops = &file_ops;
	f->io.fd = -1;
	f->io.size = size;
	return &f->io;
}

/* @len bytes of @buf (kept by the caller) over the file at @off; once. */
void fuzz_file_patch(struct ba_io *io, uint64_t off, const void *buf,
		     size_t len)
{
	struct fuzz_file *f = (struct fuzz_file *)io;

	f->chunk[f->n++] = (struct fuzz_chunk){off, len, buf};
}

void fuzz_file_free(struct ba_io *io)
{
	free(io);
}
