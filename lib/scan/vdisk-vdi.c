/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vdisk-vdi.c - the map of a VirtualBox VDI image (header version 1.1),
 * read as qemu's block/vdi.c reads it (VirtualBox's own definition is
 * VDICore.h in its sources; qemu's comment at the top of vdi.c sums it
 * up).
 *
 * The disk is cut in blocks of 1 MiB; the block map, one little-endian
 * u32 per block at offset_bmap, gives each block's index among the
 * blocks stored from offset_data on, or 0xffffffff (never written) or
 * 0xfffffffe (discarded): both read as zeros.  Static and dynamic
 * images are read alike.  Left to qemu (-ENOTSUP) as qemu refuses or
 * treats them apart: other header versions, sector sizes or block sizes,
 * a block_extra, linked and differencing images (a parent or link UUID),
 * image types other than dynamic and static.
 */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blkalignP.h"
#include "vdisk.h"

/* The header (qemu's VdiHeader), little-endian. */
struct vdi_header {
	char text[0x40];	      /* 0x000 "<<< ... >>>\n" */
	uint32_t le_signature;	      /* 0x040 0xbeda107f */
	uint32_t le_version;	      /* 0x044 0x00010001 */
	uint32_t le_header_size;      /* 0x048 */
	uint32_t le_image_type;	      /* 0x04c 1 dynamic, 2 static */
	uint32_t le_image_flags;      /* 0x050 */
	char description[256];	      /* 0x054 */
	uint32_t le_offset_bmap;      /* 0x154 */
	uint32_t le_offset_data;      /* 0x158 */
	uint32_t le_cylinders;	      /* 0x15c */
	uint32_t le_heads;	      /* 0x160 */
	uint32_t le_sectors;	      /* 0x164 */
	uint32_t le_sector_size;      /* 0x168 */
	uint32_t le_unused1;	      /* 0x16c */
	uint64_t le_disk_size;	      /* 0x170 bytes */
	uint32_t le_block_size;	      /* 0x178 */
	uint32_t le_block_extra;      /* 0x17c */
	uint32_t le_blocks_in_image;  /* 0x180 */
	uint32_t le_blocks_allocated; /* 0x184 */
	uint8_t uuid_image[16];	      /* 0x188 */
	uint8_t uuid_last_snap[16];   /* 0x198 */
	uint8_t uuid_link[16];	      /* 0x1a8 */
	uint8_t uuid_parent[16];      /* 0x1b8 */
	uint64_t unused2[7];	      /* 0x1c8 */
} __attribute__((packed));
_Static_assert(sizeof(struct vdi_header) == 0x200, "vdi header");
_Static_assert(offsetof(struct vdi_header, le_offset_bmap) == 0x154,
	       "vdi offset_bmap");
_Static_assert(offsetof(struct vdi_header, le_disk_size) == 0x170,
	       "vdi disk_size");
_Static_assert(offsetof(struct vdi_header, uuid_parent) == 0x1b8,
	       "vdi uuid_parent");

#define VDI_SIGNATURE	 0xbeda107fU
#define VDI_VERSION_1_1	 0x00010001U
#define VDI_TYPE_DYNAMIC 1
#define VDI_TYPE_STATIC	 2
#define VDI_BLOCK_SIZE	 MIB
#define VDI_BLOCKS_MAX	 0x3fffffffU /* qemu's VDI_BLOCKS_IN_IMAGE_MAX */
#define VDI_FIRST_FREE	 0xfffffffeU /* discarded; above: unallocated */

struct vdi {
	uint64_t offset_bmap, offset_data;
	uint32_t blocks;
};

static bool zero_uuid(const uint8_t *u)
{
	static const uint8_t zero[16];

	return !memcmp(u, zero, sizeof(zero));
}

static int vdi_open(struct ba_vdisk *vd, char *why, size_t len)
{
	struct vdi_header h;
	struct vdi *v;
	uint32_t type;
	uint64_t bmap_bytes;
	int rc = ba_io_read(vd->file, 0, sizeof(h), &h);

	if (rc) {
		snprintf(why, len, "cannot read the VDI header");
		return rc > 0 ? -EINVAL : rc;
	}
	type = le32toh(h.le_image_type);
	if (le32toh(h.le_signature) != VDI_SIGNATURE ||
	    le32toh(h.le_version) != VDI_VERSION_1_1) {
		snprintf(why, len,
			 "VDI header version %#" PRIx32 " is left to qemu",
			 le32toh(h.le_version));
		return -ENOTSUP;
	}
	if (le32toh(h.le_sector_size) != BA_SECTOR ||
	    le32toh(h.le_block_size) != VDI_BLOCK_SIZE || h.le_block_extra ||
	    !zero_uuid(h.uuid_link) || !zero_uuid(h.uuid_parent) ||
	    (type != VDI_TYPE_DYNAMIC && type != VDI_TYPE_STATIC)) {
		snprintf(why, len,
			 "a VDI image of type %" PRIu32
			 " with these sector and block sizes, block extra or "
			 "parent is left to qemu",
			 type);
		return -ENOTSUP;
	}
	v = calloc(1, sizeof(*v));
	if (!v) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	vd->priv = v;
	v->offset_bmap = le32toh(h.le_offset_bmap);
	v->offset_data = le32toh(h.le_offset_data);
	v->blocks = le32toh(h.le_blocks_in_image);
	/* qemu: the disk in whole sectors */
	vd->size = le64toh(h.le_disk_size) / BA_SECTOR * BA_SECTOR;
	bmap_bytes = (uint64_t)v->blocks * 4;
	if (v->blocks > VDI_BLOCKS_MAX ||
	    vd->size > (uint64_t)v->blocks * VDI_BLOCK_SIZE ||
	    v->offset_bmap % BA_SECTOR || v->offset_data % BA_SECTOR ||
	    v->offset_data < v->offset_bmap + bmap_bytes ||
	    v->offset_bmap + bmap_bytes > vd->file->size) {
		snprintf(why, len,
			 "VDI block map (%" PRIu32 " blocks at %" PRIu64
			 ", data at %" PRIu64
			 ") does not fit the disk or the file",
			 v->blocks, v->offset_bmap, v->offset_data);
		return -EINVAL;
	}
	return 0;
}

static int vdi_map(struct ba_vdisk *vd, uint64_t off, struct ba_vext *ext)
{
	const struct vdi *v = vd->priv;
	uint64_t block = off / VDI_BLOCK_SIZE, in = off % VDI_BLOCK_SIZE;
	uint32_t entry;
	int rc = ba_vdisk_read_le32(vd, v->offset_bmap + 4 * block, &entry);

	if (rc)
		return rc;
	ext->len = VDI_BLOCK_SIZE - in;
	if (entry >= VDI_FIRST_FREE) {
		ext->kind = BA_VEXT_ZERO;
		return 0;
	}
	ext->kind = BA_VEXT_DATA;
	ext->file_off = v->offset_data + (uint64_t)entry * VDI_BLOCK_SIZE + in;
	return 0;
}

const struct ba_vdisk_format ba_vdisk_vdi = {
	.name = "vdi",
	.open = vdi_open,
	.map = vdi_map,
};
