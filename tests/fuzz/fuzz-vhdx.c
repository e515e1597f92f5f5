/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-vhdx.c - the VHDX metadata parser (scan/image-vhdx.c) on hostile
 * bytes: region table, metadata table and items, every offset in them.
 * check runs it in the sandboxed child of blkalign's own readers
 * (vdisk-child.c); here it runs in the process, on a file of chunks
 * never built (fuzz_file_new).
 *
 * Input layout (a VHDX is mostly zeros: seeds stay small):
 *   bytes 0-3  the file's size, little endian, capped at 64 MiB (raised
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

#include "analyze/analyze.h"
#include "out/out.h"
#include "scan/scan.h"
#include "fuzz.h"

#define MAX_FILE      (64u << 20)
#define REGION_TABLE  (192u * 1024)
#define REGION_LENGTH (64u * 1024)

static uint8_t table[REGION_LENGTH];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ba_image_info info;
	struct ba_io *io;
	int rc;

	if (size < 5)
		return 0;
	io = fuzz_file_new(data, size, 5, fuzz_le32(data), MAX_FILE);
	FUZZ_CHECK(io != NULL);
	if ((data[4] & 1) &&
	    ba_io_read(io, REGION_TABLE, REGION_LENGTH, table) == 0) {
		uint32_t sum;

		memset(table + 4, 0, 4);
		sum = htole32(ba_crc32c(table, REGION_LENGTH));
		memcpy(table + 4, &sum, 4);
		fuzz_file_patch(io, REGION_TABLE, table, REGION_LENGTH);
	}

	memset(&info, 0, sizeof(info));
	info.format = "vhdx";
	rc = ba_vhdx_read(io, &info);
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
	fuzz_file_free(io);
	return 0;
}
