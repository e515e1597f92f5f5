/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vdisk-vdi.c - the map of a VirtualBox VDI image (header version 1.1,
 * dynamic or static), read as qemu's block/vdi.c reads it (vdi_open,
 * vdi_co_preadv); the format is VirtualBox's VDICore.h (VDIHEADER1,
 * VDI_IMAGE_BLOCK_FREE/ZERO), as qemu's driver cites it.
 *
 * The header at 0 gives the block map's offset: one little-endian
 * uint32 per block of the virtual disk, the block's index among the
 * blocks stored from offset_data on; 0xffffffff (never allocated) and
 * 0xfffffffe (discarded) read as zeros.  qemu opens only 512-byte
 * sectors, 1 MiB blocks and no parent; this reader also leaves to qemu
 * what it reads differently from VirtualBox or not at all: block_extra
 * (qemu ignores it), image types other than dynamic and static (undo,
 * diff), another header version.
 */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scan/scan.h"
#include "vdisk.h"

/* The header, little-endian (VDIPREHEADER then VDIHEADER1). */
struct vdi_header {
	char text[0x40];	      /* 0x00 "<<< ... Disk Image >>>\n" */
	uint32_t le_signature;	      /* 0x40 0xbeda107f */
	uint32_t le_version;	      /* 0x44 0x00010001 */
	uint32_t le_header_size;      /* 0x48 */
	uint32_t le_image_type;	      /* 0x4c 1 dynamic, 2 static */
	uint32_t le_image_flags;      /* 0x50 */
	char description[256];	      /* 0x54 */
	uint32_t le_offset_bmap;      /* 0x154 bytes */
	uint32_t le_offset_data;      /* 0x158 bytes */
	uint32_t le_cylinders;	      /* 0x15c */
	uint32_t le_heads;	      /* 0x160 */
	uint32_t le_sectors;	      /* 0x164 */
	uint32_t le_sector_size;      /* 0x168 */
	uint32_t le_unused1;	      /* 0x16c */
	uint64_t le_disk_size;	      /* 0x170 bytes */
	uint32_t le_block_size;	      /* 0x178 */
	uint32_t le_block_extra;      /* 0x17c bytes before each block */
	uint32_t le_blocks_in_image;  /* 0x180 block map entries */
	uint32_t le_blocks_allocated; /* 0x184 */
	uint8_t uuid_image[16];	      /* 0x188 */
	uint8_t uuid_last_snap[16];   /* 0x198 */
	uint8_t uuid_link[16];	      /* 0x1a8 */
	uint8_t uuid_parent[16];      /* 0x1b8 */
	uint8_t unused2[56];	      /* 0x1c8 */
} __attribute__((packed));
_Static_assert(sizeof(struct vdi_header) == 512, "vdi header");
_Static_assert(offsetof(struct vdi_header, le_offset_bmap) == 0x154,
	       "vdi offset_bmap");
_Static_assert(offsetof(struct vdi_header, le_disk_size) == 0x170,
	       "vdi disk_size");
_Static_assert(offsetof(struct vdi_header, le_blocks_in_image) == 0x180,
	       "vdi blocks_in_image");
_Static_assert(offsetof(struct vdi_header, uuid_parent) == 0x1b8,
	       "vdi uuid_parent");

#define VDI_SIGNATURE	 0xbeda107fU
#define VDI_VERSION_1_1	 0x00010001U
#define VDI_TYPE_DYNAMIC 1
#define VDI_TYPE_STATIC	 2
#define VDI_UNALLOCATED	 0xffffffffU
#define VDI_DISCARDED	 0xfffffffeU
#define VDI_BLOCK_SIZE	 (1U << 20)  /* the only one qemu opens */
#define VDI_BLOCKS_MAX	 0x3fffffffU /* qemu's VDI_BLOCKS_IN_IMAGE_MAX */
#define BMAP_BATCH	 64	     /* entries read at a time */

struct vdi {
	uint64_t offset_bmap;
	uint64_t offset_data;
	uint32_t blocks; /* block map entries */
};

static bool uuid_null(const uint8_t u[16])
{
	for (int i = 0; i < 16; i++)
		if (u[i])
			return false;
	return true;
}

static int vdi_open(struct ba_vdisk *vd, char *why, size_t len)
{
	struct vdi_header h;
	struct vdi *v;
	uint32_t version, type, bmap, data, blocks, extra;
	uint64_t size, fsize = vd->file->size;
	int rc = ba_io_read(vd->file, 0, sizeof(h), &h);

	if (rc) {
		snprintf(why, len, "cannot read the vdi header");
		return rc > 0 ? -EINVAL : rc;
	}
	version = le32toh(h.le_version);
	type = le32toh(h.le_image_type);
	bmap = le32toh(h.le_offset_bmap);
	data = le32toh(h.le_offset_data);
	blocks = le32toh(h.le_blocks_in_image);
	extra = le32toh(h.le_block_extra);
	size = le64toh(h.le_disk_size);
	if (le32toh(h.le_signature) != VDI_SIGNATURE) {
		snprintf(why, len, "vdi signature %#" PRIx32 " is not vdi's",
			 le32toh(h.le_signature));
		return -EINVAL;
	}
	if (version != VDI_VERSION_1_1) {
		snprintf(why, len,
			 "vdi version %" PRIu32 ".%" PRIu32 " is left to qemu",
			 version >> 16, version & 0xffff);
		return -ENOTSUP;
	}
	if (type != VDI_TYPE_DYNAMIC && type != VDI_TYPE_STATIC) {
		snprintf(why, len,
			 "vdi image type %" PRIu32
			 " (undo, differencing...) is left to qemu",
			 type);
		return -ENOTSUP;
	}
	if (!uuid_null(h.uuid_link) || !uuid_null(h.uuid_parent)) {
		snprintf(why, len, "a vdi with a parent is left to qemu");
		return -ENOTSUP;
	}
	if (le32toh(h.le_sector_size) != 512 ||
	    le32toh(h.le_block_size) != VDI_BLOCK_SIZE || extra) {
		snprintf(why, len,
			 "vdi sector size %" PRIu32 ", block size %" PRIu32
			 ", block extra %" PRIu32
			 " (qemu's reader: 512, 1 MiB, 0) are left to qemu",
			 le32toh(h.le_sector_size), le32toh(h.le_block_size),
			 extra);
		return -ENOTSUP;
	}
	if (bmap % 512 || data % 512) {
		snprintf(why, len,
			 "vdi block map (%#" PRIx32 ") or data (%#" PRIx32
			 ") not on a sector: left to qemu",
			 bmap, data);
		return -ENOTSUP;
	}
	if (blocks > VDI_BLOCKS_MAX ||
	    size > (uint64_t)blocks * VDI_BLOCK_SIZE) {
		snprintf(why, len,
			 "vdi disk size %" PRIu64 " does not fit its %" PRIu32
			 " blocks of 1 MiB",
			 size, blocks);
		return -EINVAL;
	}
	/* the data may start past the file's end: its blocks, if any,
	 * then read as zeros, as qemu's file layer reads them */
	if (bmap < sizeof(h) || bmap > fsize ||
	    (uint64_t)blocks * 4 > fsize - bmap || data < sizeof(h)) {
		snprintf(why, len,
			 "vdi block map (%" PRIu32 " entries at %" PRIu32
			 ", data at %" PRIu32
			 ") over the header or past the file",
			 blocks, bmap, data);
		return -EINVAL;
	}
	v = calloc(1, sizeof(*v));
	if (!v) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	vd->priv = v;
	v->offset_bmap = bmap;
	v->offset_data = data;
	v->blocks = blocks;
	/* qemu rounds an odd size (VBoxManage convertfromraw) up to 512 */
	vd->size = (size + 511) / 512 * 512;
	return 0;
}

static int vdi_map(struct ba_vdisk *vd, uint64_t off, struct ba_vext *ext)
{
	const struct vdi *v = vd->priv;
	uint64_t index = off / VDI_BLOCK_SIZE;
	uint64_t in_block = off % VDI_BLOCK_SIZE;
	uint32_t e[BMAP_BATCH];
	uint64_t host0 = 0;
	size_t n, k;
	int rc;

	if (index >= v->blocks)
		return -EINVAL; /* off < size <= blocks * 1 MiB */
	n = v->blocks - index < BMAP_BATCH ? (size_t)(v->blocks - index)
					   : BMAP_BATCH;
	rc = ba_io_read(vd->file, v->offset_bmap + 4 * index, n * 4, e);
	if (rc)
		return rc > 0 ? -EINVAL : rc;
	for (k = 0; k < n; k++) {
		uint32_t b = le32toh(e[k]);
		enum ba_vext_kind kind =
			b >= VDI_DISCARDED ? BA_VEXT_ZERO : BA_VEXT_DATA;
		uint64_t host = v->offset_data + (uint64_t)b * VDI_BLOCK_SIZE;

		/* qemu-img check: a block index past the map is corrupt */
		if (kind == BA_VEXT_DATA && b >= v->blocks) {
			if (k == 0)
				return -EINVAL;
			break;
		}
		if (k == 0) {
			ext->kind = kind;
			host0 = host;
		} else if (kind != ext->kind ||
			   (kind == BA_VEXT_DATA &&
			    host != host0 + k * VDI_BLOCK_SIZE)) {
			break;
		}
	}
	ext->len = k * VDI_BLOCK_SIZE - in_block;
	if (ext->kind == BA_VEXT_DATA)
		ext->file_off = host0 + in_block;
	return 0;
}

const struct ba_vdisk_format ba_vdisk_vdi = {
	.name = "vdi",
	.open = vdi_open,
	.map = vdi_map,
};
