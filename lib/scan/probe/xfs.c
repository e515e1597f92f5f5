/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * xfs.c - XFS primary superblock (AG 0, sector 0, big-endian): block
 * size, sector size, size and the stripe unit/width mkfs.xfs -d su=,sw=
 * writes.  Layout: xfsprogs libxfs/xfs_format.h (struct xfs_dsb); offsets
 * checked against xfs_db -c 'sb 0' (docs/facts.md
 * §4.7).
 *
 * Checked in the order of the kernel's xfs_validate_sb_common(): magic,
 * version, sector size and its log, block size and its log (not smaller
 * than the sector), AG geometry, data blocks inside the AGs, stripe
 * unit/width, then the byte size for overflow.  The v5 CRC32C is not
 * verified here: libblkid has checked it when it named the region xfs.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "probe/probe.h"

#define XFS_SB_MAGIC	    "XFSB"
#define XFS_SB_READ	    512 /* smallest sector holds the sb */
#define XFS_MIN_SECTORSIZE  512
#define XFS_MAX_SECTORSIZE  32768
#define XFS_MIN_BLOCKSIZE   512
#define XFS_MAX_BLOCKSIZE   65536
#define XFS_MIN_AG_BLOCKS   64
#define XFS_VERSION_NUMBITS 0x000f

struct xfs_super_disk {
	char magic[4];		/* 0x00 "XFSB" */
	uint32_t be_blocksize;	/* 0x04 bytes */
	uint64_t be_dblocks;	/* 0x08 data blocks */
	uint64_t be_rblocks;	/* 0x10 */
	uint64_t be_rextents;	/* 0x18 */
	uint8_t uuid[16];	/* 0x20 */
	uint64_t be_logstart;	/* 0x30 */
	uint64_t be_rootino;	/* 0x38 */
	uint64_t be_rbmino;	/* 0x40 */
	uint64_t be_rsumino;	/* 0x48 */
	uint32_t be_rextsize;	/* 0x50 */
	uint32_t be_agblocks;	/* 0x54 */
	uint32_t be_agcount;	/* 0x58 */
	uint32_t be_rbmblocks;	/* 0x5c */
	uint32_t be_logblocks;	/* 0x60 */
	uint16_t be_versionnum; /* 0x64 */
	uint16_t be_sectsize;	/* 0x66 bytes */
	uint16_t be_inodesize;	/* 0x68 */
	uint16_t be_inopblock;	/* 0x6a */
	char fname[12];		/* 0x6c label */
	uint8_t blocklog;	/* 0x78 */
	uint8_t sectlog;	/* 0x79 */
	uint8_t inodelog;	/* 0x7a */
	uint8_t inopblog;	/* 0x7b */
	uint8_t agblklog;	/* 0x7c */
	uint8_t rextslog;	/* 0x7d */
	uint8_t inprogress;	/* 0x7e */
	uint8_t imax_pct;	/* 0x7f */
	uint64_t be_icount;	/* 0x80 */
	uint64_t be_ifree;	/* 0x88 */
	uint64_t be_fdblocks;	/* 0x90 */
	uint64_t be_frextents;	/* 0x98 */
	uint64_t be_uquotino;	/* 0xa0 */
	uint64_t be_gquotino;	/* 0xa8 */
	uint16_t be_qflags;	/* 0xb0 */
	uint8_t flags;		/* 0xb2 */
	uint8_t shared_vn;	/* 0xb3 */
	uint32_t be_inoalignmt; /* 0xb4 */
	uint32_t be_unit;	/* 0xb8 stripe unit, fs blocks */
	uint32_t be_width;	/* 0xbc stripe width, fs blocks */
} __attribute__((packed));

_Static_assert(sizeof(struct xfs_super_disk) == 0xc0,
	       "XFS superblock fields end at 0xc0");
_Static_assert(offsetof(struct xfs_super_disk, be_sectsize) == 0x66,
	       "sb_sectsize at 0x66");
_Static_assert(offsetof(struct xfs_super_disk, blocklog) == 0x78,
	       "sb_blocklog at 0x78");
_Static_assert(offsetof(struct xfs_super_disk, be_unit) == 0xb8,
	       "sb_unit at 0xb8");
_Static_assert(offsetof(struct xfs_super_disk, be_width) == 0xbc,
	       "sb_width at 0xbc");

static int xfs_probe(struct ba_io *io, uint64_t off, uint64_t size,
		     struct ba_content *out)
{
	struct xfs_super_disk sb;
	uint8_t buf[XFS_SB_READ];
	uint32_t bsize, agblocks, agcount, unit, width;
	uint16_t ssize, version;
	uint64_t dblocks, ag_total;
	int rc;

	rc = ba_io_read_region(io, off, size, 0, sizeof(buf), buf);
	if (rc)
		return rc;
	memcpy(&sb, buf, sizeof(sb));
	if (memcmp(sb.magic, XFS_SB_MAGIC, 4) != 0)
		return 1;

	version = be16toh(sb.be_versionnum) & XFS_VERSION_NUMBITS;
	if (version < 1 || version > 5)
		return -EINVAL;
	ssize = be16toh(sb.be_sectsize);
	if (ssize < XFS_MIN_SECTORSIZE || ssize > XFS_MAX_SECTORSIZE ||
	    !ba_is_pow2(ssize) || sb.sectlog > 15 ||
	    (1U << sb.sectlog) != ssize)
		return -EINVAL;
	bsize = be32toh(sb.be_blocksize);
	if (bsize < XFS_MIN_BLOCKSIZE || bsize > XFS_MAX_BLOCKSIZE ||
	    !ba_is_pow2(bsize) || sb.blocklog > 16 ||
	    (1U << sb.blocklog) != bsize || bsize < ssize)
		return -EINVAL;

	agblocks = be32toh(sb.be_agblocks);
	agcount = be32toh(sb.be_agcount);
	dblocks = be64toh(sb.be_dblocks);
	if (agcount == 0 || agblocks < XFS_MIN_AG_BLOCKS)
		return -EINVAL;
	/* The last AG may be short, but not shorter than the minimum. */
	ag_total = (uint64_t)agcount * agblocks;
	if (dblocks == 0 || dblocks > ag_total ||
	    dblocks < ag_total - agblocks + XFS_MIN_AG_BLOCKS)
		return -EINVAL;

	unit = be32toh(sb.be_unit);
	width = be32toh(sb.be_width);
	if (unit ? (width < unit || width % unit) : width != 0)
		return -EINVAL;
	if (dblocks > UINT64_MAX >> sb.blocklog)
		return -ERANGE;

	memset(out, 0, sizeof(*out));
	out->kind = BA_CONTENT_FS;
	snprintf(out->type, sizeof(out->type), "xfs");
	snprintf(out->version, sizeof(out->version), "%u", version);
	out->block_size = bsize;
	out->sector_size = ssize;
	out->used_size = dblocks * bsize;
	out->fs_stride = (uint64_t)unit * bsize;
	out->fs_stripe_width = (uint64_t)width * bsize;
	return 0;
}

const struct ba_prober ba_xfs_prober = {
	.name = "xfs",
	.kind = BA_CONTENT_FS,
	.probe = xfs_probe,
};
