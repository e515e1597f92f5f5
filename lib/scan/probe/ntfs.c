/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ntfs.c - NTFS boot sector: sector and cluster size and the volume size.
 * Layout: ntfs-3g include/ntfs-3g/bootsect.h (NTFS_BOOT_SECTOR, BIOS
 * parameter block); the same checks as libblkid superblocks/ntfs.c and
 * ntfs-3g's ntfs_boot_sector_is_ntfs().  Values checked against
 * ntfsinfo -m.
 *
 * Sectors per cluster above 0x80 is a negative shift: 2^(256 - v)
 * sectors (Windows formats 128 KiB+ clusters that way).
 *
 * used_size counts the backup boot sector: number_of_sectors excludes
 * it, and mkntfs and Windows (NT 5+) put it in the last sector of the
 * partition, right after the volume.
 *
 * The hidden-sectors field (0x1c, the partition start recorded by
 * mkntfs/Windows) is decoded but not reported: struct ba_content has no
 * field for it.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "probe/probe.h"

#define NTFS_BOOT_SIZE	 512
#define NTFS_OEM	 "NTFS    "
#define NTFS_MAX_CLUSTER (2 * MIB)

struct ntfs_boot_disk {
	uint8_t jump[3];		  /* 0x00 */
	char oem[8];			  /* 0x03 "NTFS    " */
	uint16_t le_bytes_per_sector;	  /* 0x0b */
	uint8_t sectors_per_cluster;	  /* 0x0d */
	uint16_t le_reserved;		  /* 0x0e must be 0 */
	uint8_t nfats;			  /* 0x10 must be 0 */
	uint16_t le_root_entries;	  /* 0x11 must be 0 */
	uint16_t le_sectors16;		  /* 0x13 must be 0 */
	uint8_t media;			  /* 0x15 */
	uint16_t le_fat_size16;		  /* 0x16 must be 0 */
	uint16_t le_sectors_per_track;	  /* 0x18 */
	uint16_t le_heads;		  /* 0x1a */
	uint32_t le_hidden;		  /* 0x1c partition start, sectors */
	uint32_t le_sectors32;		  /* 0x20 must be 0 */
	uint8_t unused[4];		  /* 0x24 */
	uint64_t le_sectors;		  /* 0x28 volume size, sectors */
	uint64_t le_mft_lcn;		  /* 0x30 */
	uint64_t le_mftmirr_lcn;	  /* 0x38 */
	int8_t clusters_per_mft_record;	  /* 0x40 */
	uint8_t pad1[3];		  /* 0x41 */
	int8_t clusters_per_index_record; /* 0x44 */
	uint8_t pad2[3];		  /* 0x45 */
	uint64_t le_serial;		  /* 0x48 */
	uint32_t le_checksum;		  /* 0x50 */
} __attribute__((packed));

_Static_assert(sizeof(struct ntfs_boot_disk) == 0x54,
	       "NTFS BPB fields end at 0x54");
_Static_assert(offsetof(struct ntfs_boot_disk, le_hidden) == 0x1c,
	       "hidden sectors at 0x1c");
_Static_assert(offsetof(struct ntfs_boot_disk, le_sectors) == 0x28,
	       "number of sectors at 0x28");
_Static_assert(offsetof(struct ntfs_boot_disk, clusters_per_mft_record) == 0x40,
	       "clusters per MFT record at 0x40");

/* Clusters per record: 1..64 clusters, or -v meaning 2^v bytes. */
static int valid_record_size(int8_t v)
{
	if (v > 0)
		return ba_is_pow2((uint64_t)v);
	return v <= -9 && v >= -31;
}

static int ntfs_probe(struct ba_io *io, uint64_t off, uint64_t size,
		      struct ba_content *out)
{
	struct ntfs_boot_disk bs;
	uint8_t buf[NTFS_BOOT_SIZE];
	uint32_t bps, spc_raw;
	uint64_t cluster, sectors, clusters;
	int rc;

	rc = ba_io_read_region(io, off, size, 0, sizeof(buf), buf);
	if (rc)
		return rc;
	memcpy(&bs, buf, sizeof(bs));
	if (memcmp(bs.oem, NTFS_OEM, 8) != 0)
		return 1;

	bps = le16toh(bs.le_bytes_per_sector);
	if (bps < 256 || bps > 4096 || !ba_is_pow2(bps))
		return -EINVAL;
	spc_raw = bs.sectors_per_cluster;
	if (spc_raw > 0x80) {
		if (256 - spc_raw > 20) /* 2^20 sectors: past any cap */
			return -EINVAL;
		cluster = (uint64_t)bps << (256 - spc_raw);
	} else {
		if (!ba_is_pow2(spc_raw))
			return -EINVAL;
		cluster = (uint64_t)bps * spc_raw;
	}
	if (cluster > NTFS_MAX_CLUSTER)
		return -EINVAL;

	/* The FAT fields NTFS leaves unused must be zero. */
	if (le16toh(bs.le_reserved) || bs.nfats ||
	    le16toh(bs.le_root_entries) || le16toh(bs.le_sectors16) ||
	    le16toh(bs.le_fat_size16) || le32toh(bs.le_sectors32))
		return -EINVAL;
	if (!valid_record_size(bs.clusters_per_mft_record))
		return -EINVAL;

	sectors = le64toh(bs.le_sectors);
	if (sectors == 0 || sectors >= UINT64_MAX / bps)
		return -ERANGE;
	clusters = sectors * bps / cluster;
	if (le64toh(bs.le_mft_lcn) >= clusters ||
	    le64toh(bs.le_mftmirr_lcn) >= clusters)
		return -EINVAL;

	memset(out, 0, sizeof(*out));
	out->kind = BA_CONTENT_FS;
	snprintf(out->type, sizeof(out->type), "ntfs");
	out->block_size = (uint32_t)cluster;
	out->sector_size = bps;
	out->used_size = (sectors + 1) * bps;
	return 0;
}

const struct ba_prober ba_ntfs_prober = {
	.name = "ntfs",
	.kind = BA_CONTENT_FS,
	.probe = ntfs_probe,
};
