/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ext.c - ext2/ext3/ext4 superblock: block size, size and the RAID hints
 * (s_raid_stride, s_raid_stripe_width) mkfs.ext4 -E stride=,stripe_width=
 * writes.  Layout: e2fsprogs lib/ext2fs/ext2_fs.h, the kernel's
 * Documentation/filesystems/ext4/super.rst; offsets checked against
 * dumpe2fs -h (docs/facts.md §4.7).
 *
 * The type follows libblkid's rule (superblocks/ext.c): a journal device
 * is "jbd"; any feature ext3 does not know makes it "ext4"; a journal
 * alone makes it "ext3"; else "ext2".
 *
 * Checked in order: magic, block size, block count, first data block,
 * group sizes, then the byte size for overflow.  The metadata_csum CRC32C
 * is not verified here: libblkid has already checked it when it named
 * the region ext4.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "probe/probe.h"

#define EXT_SB_OFFSET	  1024
#define EXT_SB_SIZE	  1024
#define EXT_MAGIC	  0xEF53
#define EXT_MAX_LOG_BLOCK 6 /* 1024 << 6 = 64 KiB */

#define EXT_COMPAT_HAS_JOURNAL	   0x0004
#define EXT_INCOMPAT_FILETYPE	   0x0002
#define EXT_INCOMPAT_RECOVER	   0x0004
#define EXT_INCOMPAT_JOURNAL_DEV   0x0008
#define EXT_INCOMPAT_META_BG	   0x0010
#define EXT_INCOMPAT_64BIT	   0x0080
#define EXT_RO_COMPAT_SPARSE_SUPER 0x0001
#define EXT_RO_COMPAT_LARGE_FILE   0x0002
#define EXT_RO_COMPAT_BTREE_DIR	   0x0004

/* What ext3 understands; anything else is an ext4 feature. */
#define EXT3_INCOMPAT_KNOWN \
	(EXT_INCOMPAT_FILETYPE | EXT_INCOMPAT_RECOVER | EXT_INCOMPAT_META_BG)
#define EXT3_RO_COMPAT_KNOWN                                     \
	(EXT_RO_COMPAT_SPARSE_SUPER | EXT_RO_COMPAT_LARGE_FILE | \
	 EXT_RO_COMPAT_BTREE_DIR)

struct ext_super_disk {
	uint32_t le_inodes_count;	  /* 0x00 */
	uint32_t le_blocks_count_lo;	  /* 0x04 */
	uint32_t le_r_blocks_count_lo;	  /* 0x08 */
	uint32_t le_free_blocks_lo;	  /* 0x0c */
	uint32_t le_free_inodes;	  /* 0x10 */
	uint32_t le_first_data_block;	  /* 0x14 */
	uint32_t le_log_block_size;	  /* 0x18 */
	uint32_t le_log_cluster_size;	  /* 0x1c */
	uint32_t le_blocks_per_group;	  /* 0x20 */
	uint32_t le_clusters_per_group;	  /* 0x24 */
	uint32_t le_inodes_per_group;	  /* 0x28 */
	uint8_t times_counts[12];	  /* 0x2c mtime, wtime, mount counts */
	uint16_t le_magic;		  /* 0x38 */
	uint16_t le_state;		  /* 0x3a */
	uint16_t le_errors;		  /* 0x3c */
	uint16_t le_minor_rev_level;	  /* 0x3e */
	uint32_t le_lastcheck;		  /* 0x40 */
	uint32_t le_checkinterval;	  /* 0x44 */
	uint32_t le_creator_os;		  /* 0x48 */
	uint32_t le_rev_level;		  /* 0x4c */
	uint16_t le_def_resuid;		  /* 0x50 */
	uint16_t le_def_resgid;		  /* 0x52 */
	uint32_t le_first_ino;		  /* 0x54 */
	uint16_t le_inode_size;		  /* 0x58 */
	uint16_t le_block_group_nr;	  /* 0x5a */
	uint32_t le_feature_compat;	  /* 0x5c */
	uint32_t le_feature_incompat;	  /* 0x60 */
	uint32_t le_feature_ro_compat;	  /* 0x64 */
	uint8_t uuid_to_hi[0x150 - 0x68]; /* 0x68 uuid, name, journal... */
	uint32_t le_blocks_count_hi;	  /* 0x150 */
	uint32_t le_r_blocks_count_hi;	  /* 0x154 */
	uint32_t le_free_blocks_hi;	  /* 0x158 */
	uint16_t le_min_extra_isize;	  /* 0x15c */
	uint16_t le_want_extra_isize;	  /* 0x15e */
	uint32_t le_flags;		  /* 0x160 */
	uint16_t le_raid_stride;	  /* 0x164 fs blocks */
	uint16_t le_mmp_interval;	  /* 0x166 */
	uint64_t le_mmp_block;		  /* 0x168 */
	uint32_t le_raid_stripe_width;	  /* 0x170 fs blocks */
} __attribute__((packed));

_Static_assert(sizeof(struct ext_super_disk) == 0x174,
	       "ext superblock fields end at 0x174");
_Static_assert(offsetof(struct ext_super_disk, le_magic) == 0x38,
	       "s_magic at 0x38");
_Static_assert(offsetof(struct ext_super_disk, le_feature_incompat) == 0x60,
	       "s_feature_incompat at 0x60");
_Static_assert(offsetof(struct ext_super_disk, le_blocks_count_hi) == 0x150,
	       "s_blocks_count_hi at 0x150");
_Static_assert(offsetof(struct ext_super_disk, le_raid_stride) == 0x164,
	       "s_raid_stride at 0x164");
_Static_assert(offsetof(struct ext_super_disk, le_raid_stripe_width) == 0x170,
	       "s_raid_stripe_width at 0x170");

static const char *ext_type(uint32_t compat, uint32_t incompat,
			    uint32_t ro_compat)
{
	if (incompat & EXT_INCOMPAT_JOURNAL_DEV)
		return "jbd";
	if ((incompat & ~EXT3_INCOMPAT_KNOWN) ||
	    (ro_compat & ~EXT3_RO_COMPAT_KNOWN))
		return "ext4";
	if (compat & EXT_COMPAT_HAS_JOURNAL)
		return "ext3";
	return "ext2";
}

static int ext_probe(struct ba_io *io, uint64_t off, uint64_t size,
		     struct ba_content *out)
{
	struct ext_super_disk sb;
	uint8_t buf[EXT_SB_SIZE];
	uint32_t log, bsize, incompat, first;
	uint64_t blocks;
	int rc;

	rc = ba_io_read_region(io, off, size, EXT_SB_OFFSET, sizeof(buf), buf);
	if (rc)
		return rc;
	memcpy(&sb, buf, sizeof(sb));
	if (le16toh(sb.le_magic) != EXT_MAGIC)
		return 1;

	log = le32toh(sb.le_log_block_size);
	if (log > EXT_MAX_LOG_BLOCK)
		return -EINVAL;
	bsize = 1024U << log;

	incompat = le32toh(sb.le_feature_incompat);
	blocks = le32toh(sb.le_blocks_count_lo);
	if (incompat & EXT_INCOMPAT_64BIT)
		blocks |= (uint64_t)le32toh(sb.le_blocks_count_hi) << 32;
	if (blocks == 0)
		return -EINVAL;

	/* Block 0 holds the boot block and the superblock unless the blocks
	 * are 1 KiB, where the superblock is block 1 (bigalloc: 0). */
	first = le32toh(sb.le_first_data_block);
	if (first > 1 || (first == 1 && bsize != 1024) || first >= blocks)
		return -EINVAL;
	if (le32toh(sb.le_blocks_per_group) == 0 ||
	    le32toh(sb.le_inodes_per_group) == 0)
		return -EINVAL;
	if (blocks > UINT64_MAX >> (10 + log))
		return -ERANGE;

	memset(out, 0, sizeof(*out));
	out->kind = BA_CONTENT_FS;
	snprintf(out->type, sizeof(out->type), "%s",
		 ext_type(le32toh(sb.le_feature_compat), incompat,
			  le32toh(sb.le_feature_ro_compat)));
	snprintf(out->version, sizeof(out->version), "%u.%u",
		 le32toh(sb.le_rev_level), le16toh(sb.le_minor_rev_level));
	out->block_size = bsize;
	out->used_size = blocks * bsize;
	out->fs_stride = (uint64_t)le16toh(sb.le_raid_stride) * bsize;
	out->fs_stripe_width =
		(uint64_t)le32toh(sb.le_raid_stripe_width) * bsize;
	return 0;
}

const struct ba_prober ba_ext_prober = {
	.name = "ext2 ext3 ext4 jbd",
	.kind = BA_CONTENT_FS,
	.probe = ext_probe,
};
