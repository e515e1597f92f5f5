/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-vhdx.c - the VHDX metadata parser (scan/image-vhdx.c) on hostile
 * bytes: region table, metadata table and items, every offset in them.
 *
 * Input layout (a VHDX is mostly zeros: seeds stay small):
 *   bytes 0-3  the file's size, little endian, capped at 16 MiB (raised
 *              to hold every chunk)
 *   byte 4     bit 0: reseal the region table's CRC-32C once the chunks
 *              are placed, so that mutations get past it
 *   bytes 5-   chunks: u32 offset, u16 length, then the bytes (a chunk
 *              cut by the end of the input keeps what it has); the rest
 *              of the file is zeros
 * tests/fuzz/make-vhdx-seeds packs qemu-img's VHDX files this way.
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "blkalignP.h"
#include "fuzz.h"

#define MAX_FILE      (16u << 20)
#define REGION_TABLE  (192u * 1024)
#define REGION_LENGTH (64u * 1024)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ba_image_info info;
	uint64_t file, need = 0;
	struct ba_io io;
	uint8_t *buf;
	size_t at, len;
	uint32_t off;
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
	buf = calloc(1, file ? file : 1);
	FUZZ_CHECK(buf != NULL);
	for (at = 5; fuzz_next_chunk(data, size, &at, &off, &len);)
		if (off < file)
			memcpy(buf + off, data + at - len,
			       len < file - off ? len : file - off);
	if ((data[4] & 1) && file >= REGION_TABLE + REGION_LENGTH) {
		uint32_t sum;

		memset(buf + REGION_TABLE + 4, 0, 4);
		sum = htole32(ba_crc32c(buf + REGION_TABLE, REGION_LENGTH));
		memcpy(buf + REGION_TABLE + 4, &sum, 4);
	}

	memset(&info, 0, sizeof(info));
	info.format = "vhdx";
	ba_io_init_mem(&io, buf, file);
	rc = ba_vhdx_read(&io, &info);
	FUZZ_CHECK(rc == 0 || rc == 1 || rc == -ENOMEM);
	if (rc == 0) {
		FUZZ_CHECK(!info.damage);
		FUZZ_CHECK(info.logical_sector_size == 512 ||
			   info.logical_sector_size == 4096);
		FUZZ_CHECK(info.physical_sector_size == 512 ||
			   info.physical_sector_size == 4096);
		FUZZ_CHECK(info.cluster_size >= (1u << 20) &&
			   info.cluster_size <= (256u << 20) &&
			   !(info.cluster_size & (info.cluster_size - 1)));
	} else if (rc == 1) {
		FUZZ_CHECK(info.damage == info.why && info.why[0]);
		FUZZ_CHECK(memchr(info.why, '\0', sizeof(info.why)) != NULL);
	}
	free(buf);
	return 0;
}
