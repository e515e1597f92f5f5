/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * btrfs.c - btrfs primary superblock at 64 KiB (little-endian): sector
 * size (the unit of data extents) and how much of this device the
 * filesystem uses.  Layout: btrfs-progs kernel-shared/uapi/btrfs_tree.h
 * (struct btrfs_super_block, struct btrfs_dev_item); offsets checked
 * against btrfs inspect-internal dump-super
 * (docs/facts.md §4.7).
 *
 * used_size is dev_item.total_bytes, this device's share: total_bytes
 * (+0x70) is the sum over all devices of a multi-device filesystem.  On a
 * single device both are equal.  stripesize (+0x9c) is read but not
 * reported: the kernel ignores it and mkfs sets it to the sector size; it
 * is not a RAID hint.
 *
 * Checked in the kernel's btrfs_validate_super() order: magic,
 * self-location (bytenr), sector size, node size (== leaf size), tree
 * roots aligned to the sector size, device size.  The superblock
 * checksum is not verified here: libblkid has checked it when it named
 * the region btrfs.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "probe/probe.h"

#define BTRFS_SB_OFFSET	     65536
#define BTRFS_SB_READ	     4096
#define BTRFS_MAGIC	     "_BHRfS_M"
#define BTRFS_MIN_SECTORSIZE 4096
#define BTRFS_MAX_BLOCKSIZE  65536 /* sector and node size */

struct btrfs_dev_item_disk {
	uint64_t le_devid;	  /* +0x00 */
	uint64_t le_total_bytes;  /* +0x08 */
	uint64_t le_bytes_used;	  /* +0x10 */
	uint32_t le_io_align;	  /* +0x18 */
	uint32_t le_io_width;	  /* +0x1c */
	uint32_t le_sector_size;  /* +0x20 */
	uint64_t le_type;	  /* +0x24 */
	uint64_t le_generation;	  /* +0x2c */
	uint64_t le_start_offset; /* +0x34 */
	uint32_t le_dev_group;	  /* +0x3c */
	uint8_t seek_speed;	  /* +0x40 */
	uint8_t bandwidth;	  /* +0x41 */
	uint8_t uuid[16];	  /* +0x42 */
	uint8_t fsid[16];	  /* +0x52 */
} __attribute__((packed));

_Static_assert(sizeof(struct btrfs_dev_item_disk) == 98,
	       "btrfs dev_item is 98 bytes");

struct btrfs_super_disk {
	uint8_t csum[32];		     /* 0x00 */
	uint8_t fsid[16];		     /* 0x20 */
	uint64_t le_bytenr;		     /* 0x30 where this copy lives */
	uint64_t le_flags;		     /* 0x38 */
	char magic[8];			     /* 0x40 "_BHRfS_M" */
	uint64_t le_generation;		     /* 0x48 */
	uint64_t le_root;		     /* 0x50 */
	uint64_t le_chunk_root;		     /* 0x58 */
	uint64_t le_log_root;		     /* 0x60 */
	uint64_t le_log_root_transid;	     /* 0x68 */
	uint64_t le_total_bytes;	     /* 0x70 all devices */
	uint64_t le_bytes_used;		     /* 0x78 */
	uint64_t le_root_dir_objectid;	     /* 0x80 */
	uint64_t le_num_devices;	     /* 0x88 */
	uint32_t le_sectorsize;		     /* 0x90 */
	uint32_t le_nodesize;		     /* 0x94 */
	uint32_t le_leafsize;		     /* 0x98 (== nodesize) */
	uint32_t le_stripesize;		     /* 0x9c unused by the kernel */
	uint32_t le_sys_chunk_array_size;    /* 0xa0 */
	uint64_t le_chunk_root_generation;   /* 0xa4 */
	uint64_t le_compat_flags;	     /* 0xac */
	uint64_t le_compat_ro_flags;	     /* 0xb4 */
	uint64_t le_incompat_flags;	     /* 0xbc */
	uint16_t le_csum_type;		     /* 0xc4 */
	uint8_t root_level;		     /* 0xc6 */
	uint8_t chunk_root_level;	     /* 0xc7 */
	uint8_t log_root_level;		     /* 0xc8 */
	struct btrfs_dev_item_disk dev_item; /* 0xc9 this device */
} __attribute__((packed));

_Static_assert(offsetof(struct btrfs_super_disk, magic) == 0x40,
	       "btrfs magic at 0x40");
_Static_assert(offsetof(struct btrfs_super_disk, le_total_bytes) == 0x70,
	       "total_bytes at 0x70");
_Static_assert(offsetof(struct btrfs_super_disk, le_sectorsize) == 0x90,
	       "sectorsize at 0x90");
_Static_assert(offsetof(struct btrfs_super_disk, le_stripesize) == 0x9c,
	       "stripesize at 0x9c");
_Static_assert(offsetof(struct btrfs_super_disk, dev_item) == 0xc9,
	       "dev_item at 0xc9");

static int btrfs_probe(struct ba_io *io, uint64_t off, uint64_t size,
		       struct ba_content *out)
{
	struct btrfs_super_disk sb;
	uint8_t buf[BTRFS_SB_READ];
	uint32_t ssize, nsize;
	uint64_t dev_bytes;
	int rc;

	rc = ba_io_read_region(io, off, size, BTRFS_SB_OFFSET, sizeof(buf),
			       buf);
	if (rc)
		return rc;
	memcpy(&sb, buf, sizeof(sb));
	if (memcmp(sb.magic, BTRFS_MAGIC, 8) != 0)
		return 1;
	if (le64toh(sb.le_bytenr) != BTRFS_SB_OFFSET)
		return -EINVAL;

	ssize = le32toh(sb.le_sectorsize);
	if (ssize < BTRFS_MIN_SECTORSIZE || ssize > BTRFS_MAX_BLOCKSIZE ||
	    !ba_is_pow2(ssize))
		return -EINVAL;
	nsize = le32toh(sb.le_nodesize);
	if (nsize < ssize || nsize > BTRFS_MAX_BLOCKSIZE ||
	    !ba_is_pow2(nsize) || le32toh(sb.le_leafsize) != nsize)
		return -EINVAL;
	if (le64toh(sb.le_root) % ssize || le64toh(sb.le_chunk_root) % ssize ||
	    le64toh(sb.le_log_root) % ssize)
		return -EINVAL;

	dev_bytes = le64toh(sb.dev_item.le_total_bytes);
	if (dev_bytes == 0 || dev_bytes > le64toh(sb.le_total_bytes))
		return -EINVAL;

	memset(out, 0, sizeof(*out));
	out->kind = BA_CONTENT_FS;
	snprintf(out->type, sizeof(out->type), "btrfs");
	out->block_size = ssize;
	out->used_size = dev_bytes;
	return 0;
}

const struct ba_prober ba_btrfs_prober = {
	.name = "btrfs",
	.kind = BA_CONTENT_FS,
	.probe = btrfs_probe,
};
