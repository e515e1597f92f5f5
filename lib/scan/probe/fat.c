/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fat.c - FAT12/16/32 boot sector (BIOS parameter block): sector and
 * cluster size and where the data area (cluster 2) starts, which is what
 * decides whether clusters sit on the disk's physical sectors.
 * Layout: Microsoft "FAT: General Overview of On-Disk Format" 1.03
 * (sections 3.1-3.5, 4); the same checks as the kernel's fat_read_bpb()
 * and libblkid superblocks/vfat.c.  Values checked against fsck.fat -n -v.
 *
 * FAT has no magic number: a boot sector whose basic BPB fields are not
 * possible (sector size, cluster size, reserved sectors, number of FATs,
 * media byte) is "absent"; one whose derived geometry does not add up
 * (data area past the end, FAT too small for its clusters) lies.  NTFS
 * and exFAT boot sectors have zero reserved sectors / sector size fields
 * and so are absent here.
 *
 * The hidden-sectors field (0x1c, the partition start mkfs recorded) is
 * decoded but not reported: struct ba_content has no field for it.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "probe/probe.h"

#define FAT_BOOT_SIZE	   512
#define FAT_DIRENT_SIZE	   32
#define FAT12_MAX_CLUSTERS 4084 /* below 4085 clusters: FAT12 */
#define FAT16_MAX_CLUSTERS 65524
#define FAT32_MAX_CLUSTERS 0x0ffffff5

struct fat_boot_disk {
	uint8_t jump[3];	       /* 0x00 */
	char oem[8];		       /* 0x03 */
	uint16_t le_bytes_per_sector;  /* 0x0b */
	uint8_t sectors_per_cluster;   /* 0x0d */
	uint16_t le_reserved;	       /* 0x0e */
	uint8_t nfats;		       /* 0x10 */
	uint16_t le_root_entries;      /* 0x11 */
	uint16_t le_sectors16;	       /* 0x13 */
	uint8_t media;		       /* 0x15 */
	uint16_t le_fat_size16;	       /* 0x16 */
	uint16_t le_sectors_per_track; /* 0x18 */
	uint16_t le_heads;	       /* 0x1a */
	uint32_t le_hidden;	       /* 0x1c partition start, sectors */
	uint32_t le_sectors32;	       /* 0x20 */
	uint32_t le_fat_size32;	       /* 0x24 FAT32 only */
	uint16_t le_ext_flags;	       /* 0x28 */
	uint16_t le_fs_version;	       /* 0x2a */
	uint32_t le_root_cluster;      /* 0x2c */
} __attribute__((packed));

_Static_assert(sizeof(struct fat_boot_disk) == 0x30,
	       "FAT32 BPB fields end at 0x30");
_Static_assert(offsetof(struct fat_boot_disk, le_root_entries) == 0x11,
	       "BPB_RootEntCnt at 0x11");
_Static_assert(offsetof(struct fat_boot_disk, le_hidden) == 0x1c,
	       "BPB_HiddSec at 0x1c");
_Static_assert(offsetof(struct fat_boot_disk, le_fat_size32) == 0x24,
	       "BPB_FATSz32 at 0x24");

/* 0xf0 (removable) or 0xf8..0xff, as the kernel's fat_valid_media(). */
static int valid_media(uint8_t m)
{
	return m == 0xf0 || m >= 0xf8;
}

static int fat_probe(struct ba_io *io, uint64_t off, uint64_t size,
		     struct ba_content *out)
{
	struct fat_boot_disk bs;
	uint8_t buf[FAT_BOOT_SIZE];
	uint32_t bps, spc, reserved, root_entries, root_sectors;
	uint64_t fat_size, total, meta, clusters, fat_entries;
	unsigned int bits;
	int rc;

	rc = ba_io_read_region(io, off, size, 0, sizeof(buf), buf);
	if (rc)
		return rc;
	memcpy(&bs, buf, sizeof(bs));

	bps = le16toh(bs.le_bytes_per_sector);
	spc = bs.sectors_per_cluster;
	reserved = le16toh(bs.le_reserved);
	if (bps < 512 || bps > 4096 || !ba_is_pow2(bps) || !ba_is_pow2(spc) ||
	    reserved == 0 || bs.nfats == 0 || !valid_media(bs.media))
		return 1;

	total = le16toh(bs.le_sectors16);
	if (total == 0)
		total = le32toh(bs.le_sectors32);
	root_entries = le16toh(bs.le_root_entries);
	fat_size = le16toh(bs.le_fat_size16);
	if (fat_size == 0) {
		/* FAT32: the root directory is a cluster chain. */
		fat_size = le32toh(bs.le_fat_size32);
		if (root_entries != 0)
			return -EINVAL;
	}
	if (total == 0 || fat_size == 0)
		return -EINVAL;

	/* Round the root directory up to whole sectors (spec 3.5). */
	root_sectors = (root_entries * FAT_DIRENT_SIZE + bps - 1) / bps;
	meta = reserved + bs.nfats * fat_size + root_sectors;
	if (meta >= total)
		return -EINVAL;
	clusters = (total - meta) / spc;
	if (clusters == 0)
		return -EINVAL;

	if (le16toh(bs.le_fat_size16) == 0) {
		bits = 32;
		if (clusters > FAT32_MAX_CLUSTERS)
			return -EINVAL;
	} else {
		bits = clusters <= FAT12_MAX_CLUSTERS ? 12 : 16;
		if (clusters > FAT16_MAX_CLUSTERS)
			return -EINVAL;
	}
	/* Every cluster, plus the two reserved entries, needs an entry. */
	fat_entries = fat_size * bps * 8 / bits;
	if (clusters + 2 > fat_entries)
		return -EINVAL;

	memset(out, 0, sizeof(*out));
	out->kind = BA_CONTENT_FS;
	snprintf(out->type, sizeof(out->type), "vfat");
	snprintf(out->version, sizeof(out->version), "FAT%u", bits);
	out->block_size = bps * spc;
	out->sector_size = bps;
	out->data_offset = meta * bps;
	out->used_size = total * bps;
	return 0;
}

const struct ba_prober ba_fat_prober = {
	.name = "vfat",
	.kind = BA_CONTENT_FS,
	.probe = fat_probe,
};
