/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-vdisk.c - blkalign's own virtual-disk readers (scan/vdisk-*.c) on
 * hostile bytes: the format's open, its map over the disk (bounded),
 * reads at the start and the end of the disk and in the extents the map
 * found, each checked against what the map promised (an extent inside
 * the disk, zeros that read as zeros).
 *
 * Built once per format (meson: fuzz-vdisk-qcow2, -vmdk, -vhdx, -vpc,
 * -vdi, with FUZZ_VDISK_FORMAT set), so that each reader's executions
 * and coverage are its own.
 *
 * Input layout (images are mostly zeros: seeds stay small):
 *   bytes 0-3  the file's size, little endian, capped at 64 MiB (raised
 *              to hold every chunk)
 *   byte 4     unused (once the format; kept so the seeds stay valid)
 *   bytes 5-   chunks: u32 offset, u16 length, then the bytes (a chunk
 *              cut by the end of the input keeps what it has); the rest
 *              of the file is zeros, never built (fuzz_file_new)
 * tests/fuzz/make-vdisk-seeds packs qemu-img's images this way.
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "out/out.h"
#include "scan/scan.h"
#include "fuzz.h"
#include "vdisk.h"

#ifndef FUZZ_VDISK_FORMAT
#error "FUZZ_VDISK_FORMAT: the reader under test (qcow2, vmdk, ...)"
#endif

#define MAX_FILE    (64u << 20)
#define MAX_EXTENTS 256
#define EDGE_BYTES  (256u << 10) /* read at the disk's start and end */
#define PEEK_BYTES  (16u << 10)	 /* read in an extent the walk found */
#define PEEKS	    8

static uint8_t buf[EDGE_BYTES];

static void read_at(struct ba_vdisk *vd, uint64_t off, uint64_t want,
		    enum ba_vext_kind kind)
{
	uint64_t len = vd->size - off < want ? vd->size - off : want;
	uint64_t zeros = 0;
	int rc = ba_vdisk_read(vd, buf, (size_t)len, off, &zeros);

	FUZZ_CHECK(rc <= 0);
	if (rc)
		return;
	FUZZ_CHECK(zeros <= len);
	if (kind == BA_VEXT_ZERO) {
		/* the map said zeros: they are read as zeros, not read */
		FUZZ_CHECK(zeros == len);
		for (uint64_t i = 0; i < len; i++)
			FUZZ_CHECK(buf[i] == 0);
	}
}

/*
 * Walk the map from 0: every extent inside the disk, at least a byte;
 * the first extents of each kind are read after the walk.
 */
static void walk(struct ba_vdisk *vd)
{
	struct ba_vext peek[PEEKS];
	uint64_t peek_at[PEEKS], at = 0;
	size_t npeek = 0;

	for (int i = 0; i < MAX_EXTENTS && at < vd->size; i++) {
		struct ba_vext e;

		if (ba_vdisk_map(vd, at, &e))
			break;
		FUZZ_CHECK(e.len > 0 && e.len <= vd->size - at);
		FUZZ_CHECK(e.kind == BA_VEXT_ZERO || e.kind == BA_VEXT_DATA ||
			   e.kind == BA_VEXT_DEFLATE);
		if (npeek < PEEKS &&
		    (!npeek || e.kind != peek[npeek - 1].kind)) {
			peek[npeek] = e;
			peek_at[npeek++] = at;
		}
		at += e.len;
	}
	for (size_t i = 0; i < npeek; i++)
		read_at(vd, peek_at[i],
			peek[i].len < PEEK_BYTES ? peek[i].len : PEEK_BYTES,
			peek[i].kind);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ba_vdisk *vd;
	struct ba_io *io;
	char why[256];
	int rc;

	if (size < 5)
		return 0;
	io = fuzz_file_new(data, size, 5, fuzz_le32(data), MAX_FILE);
	FUZZ_CHECK(io != NULL);
	why[0] = '\0';
	rc = ba_vdisk_open(io, FUZZ_VDISK_FORMAT, &vd, why, sizeof(why));
	FUZZ_CHECK(rc <= 0);
	if (rc == 0) {
		walk(vd);
		if (vd->size) {
			read_at(vd, 0, EDGE_BYTES, BA_VEXT_DATA);
			read_at(vd,
				vd->size - (vd->size < EDGE_BYTES ? vd->size
								  : EDGE_BYTES),
				EDGE_BYTES, BA_VEXT_DATA);
		}
		ba_vdisk_close(vd);
	} else {
		FUZZ_CHECK(memchr(why, '\0', sizeof(why)) != NULL && why[0]);
	}
	fuzz_file_free(io);
	return 0;
}
