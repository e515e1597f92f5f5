/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-vdisk.c - blkalign's own virtual-disk readers (scan/vdisk-*.c)
 * on hostile bytes: each format's open, its map over the whole disk
 * (bounded), and reads at the start and the end of the disk.
 *
 * Input layout (images are mostly zeros: seeds stay small):
 *   bytes 0-3  the file's size, little endian, capped at 16 MiB (raised
 *              to hold every chunk)
 *   byte 4     the format: qcow2, vmdk, vhdx, vpc, vdi (modulo 5)
 *   bytes 5-   chunks: u32 offset, u16 length, then the bytes (a chunk
 *              cut by the end of the input keeps what it has); the rest
 *              of the file is zeros
 * tests/fuzz/make-vdisk-seeds packs qemu-img's images this way.
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "blkalignP.h"
#include "fuzz.h"
#include "vdisk.h"

#define MAX_FILE    (16u << 20)
#define MAX_EXTENTS 4096
#define READ_BYTES  (1u << 20)

static const char *const names[] = {"qcow2", "vmdk", "vhdx", "vpc", "vdi"};

/* Walk the map from 0: every extent inside the disk, at least a byte. */
static void walk(struct ba_vdisk *vd)
{
	uint64_t at = 0;

	for (int i = 0; i < MAX_EXTENTS && at < vd->size; i++) {
		struct ba_vext e;

		if (ba_vdisk_map(vd, at, &e))
			return;
		FUZZ_CHECK(e.len > 0 && e.len <= vd->size - at);
		FUZZ_CHECK(e.kind == BA_VEXT_ZERO || e.kind == BA_VEXT_DATA ||
			   e.kind == BA_VEXT_DEFLATE);
		at += e.len;
	}
}

static void read_at(struct ba_vdisk *vd, uint8_t *buf, uint64_t off)
{
	uint64_t len =
		vd->size - off < READ_BYTES ? vd->size - off : READ_BYTES;
	uint64_t zeros = 0;
	int rc = ba_vdisk_read(vd, buf, (size_t)len, off, &zeros);

	FUZZ_CHECK(rc <= 0);
	FUZZ_CHECK(rc || zeros <= len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t file, need = 0;
	struct ba_vdisk *vd;
	struct ba_io io;
	uint8_t *img, *buf;
	size_t at, len;
	uint32_t off;
	char why[256];
	int rc;

	if (size < 5)
		return 0;
	file = fuzz_le32(data);
	/* first pass: how large the file must be for its chunks */
	for (at = 5; fuzz_next_chunk(data, size, &at, &off, &len);)
		if ((uint64_t)off + len > need)
			need = (uint64_t)off + len;
	if (need > file)
		file = need;
	if (file > MAX_FILE)
		file = MAX_FILE;
	img = calloc(1, file ? file : 1);
	buf = malloc(READ_BYTES);
	FUZZ_CHECK(img != NULL && buf != NULL);
	for (at = 5; fuzz_next_chunk(data, size, &at, &off, &len);)
		if (off < file)
			memcpy(img + off, data + at - len,
			       len < file - off ? len : file - off);

	ba_io_init_mem(&io, img, file);
	why[0] = '\0';
	rc = ba_vdisk_open(&io, names[data[4] % 5], &vd, why, sizeof(why));
	FUZZ_CHECK(rc <= 0);
	if (rc == 0) {
		walk(vd);
		if (vd->size) {
			read_at(vd, buf, 0);
			read_at(vd, buf,
				vd->size - (vd->size < READ_BYTES
						    ? vd->size
						    : READ_BYTES));
		}
		ba_vdisk_close(vd);
	} else {
		FUZZ_CHECK(memchr(why, '\0', sizeof(why)) != NULL && why[0]);
	}
	free(buf);
	free(img);
	return 0;
}
