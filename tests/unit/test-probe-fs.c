/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-probe-fs.c - the filesystem probers (lib/scan/probe/{ext,xfs,btrfs,fat,
 * ntfs,swap}.c) on superblocks built in memory.  Each row starts from a
 * valid superblock of its format, patches a few fields and says what the
 * prober must answer: the decoded values, "absent" (1) or a lie
 * (-EINVAL/-ERANGE).  Expected values are worked out by hand in the
 * comments from the on-disk rules (docs/facts.md
 * §4.7 and the format specs cited in each parser).
 */
#include <errno.h>
#include <string.h>

#include "table.h" /* system headers before banned.h */
#include "probe/probe.h"

#define KiB   1024ULL
#define MiB   (1024ULL * 1024)
#define SEC63 (63ULL * 512) /* an old DOS partition start */

/* ---- byte writers ---- */

static void put(uint8_t *p, int width, int be, uint64_t v)
{
	for (int i = 0; i < width; i++) {
		int shift = 8 * (be ? width - 1 - i : i);

		p[i] = (uint8_t)(v >> shift);
	}
}

#define LE16(p, v) put((p), 2, 0, (v))
#define LE32(p, v) put((p), 4, 0, (v))
#define LE64(p, v) put((p), 8, 0, (v))
#define BE16(p, v) put((p), 2, 1, (v))
#define BE32(p, v) put((p), 4, 1, (v))
#define BE64(p, v) put((p), 8, 1, (v))

/* ---- valid superblocks ---- */

/*
 * ext4, 4 KiB blocks (log 2), 16384 blocks = 64 MiB, stride 16 blocks,
 * stripe width 32 blocks; journal, filetype, extents, 64bit, flex_bg.
 */
static void build_ext(uint8_t *img)
{
	uint8_t *sb = img + 1024;

	LE32(sb + 0x00, 16384);	 /* s_inodes_count */
	LE32(sb + 0x04, 16384);	 /* s_blocks_count_lo */
	LE32(sb + 0x14, 0);	 /* s_first_data_block */
	LE32(sb + 0x18, 2);	 /* s_log_block_size */
	LE32(sb + 0x20, 32768);	 /* s_blocks_per_group */
	LE32(sb + 0x28, 8192);	 /* s_inodes_per_group */
	LE16(sb + 0x38, 0xef53); /* s_magic */
	LE32(sb + 0x4c, 1);	 /* s_rev_level */
	LE32(sb + 0x5c, 0x4);	 /* compat: has_journal */
	LE32(sb + 0x60, 0x2c2);	 /* incompat: filetype extents 64bit flex_bg */
	LE32(sb + 0x64, 0x1);	 /* ro_compat: sparse_super */
	LE16(sb + 0x164, 16);	 /* s_raid_stride */
	LE32(sb + 0x170, 32);	 /* s_raid_stripe_width */
}

/*
 * XFS v5, 4 KiB blocks, 512-byte sectors, 4 AGs of 16384 blocks,
 * 65536 blocks = 256 MiB, sunit 16 blocks, swidth 32 blocks.
 */
static void build_xfs(uint8_t *img)
{
	memcpy(img, "XFSB", 4);
	BE32(img + 0x04, 4096);	  /* sb_blocksize */
	BE64(img + 0x08, 65536);  /* sb_dblocks */
	BE32(img + 0x54, 16384);  /* sb_agblocks */
	BE32(img + 0x58, 4);	  /* sb_agcount */
	BE16(img + 0x64, 0xb4a5); /* sb_versionnum: 5 */
	BE16(img + 0x66, 512);	  /* sb_sectsize */
	BE16(img + 0x68, 512);	  /* sb_inodesize */
	img[0x78] = 12;		  /* sb_blocklog */
	img[0x79] = 9;		  /* sb_sectlog */
	BE32(img + 0xb8, 16);	  /* sb_unit */
	BE32(img + 0xbc, 32);	  /* sb_width */
}

/* btrfs on one 256 MiB device, 4 KiB sectors, 16 KiB nodes. */
static void build_btrfs(uint8_t *img)
{
	uint8_t *sb = img + 65536;

	LE64(sb + 0x30, 65536); /* bytenr */
	memcpy(sb + 0x40, "_BHRfS_M", 8);
	LE64(sb + 0x50, 0x1d04000); /* root */
	LE64(sb + 0x58, 0x1500000); /* chunk_root */
	LE64(sb + 0x70, 256 * MiB); /* total_bytes */
	LE64(sb + 0x88, 1);	    /* num_devices */
	LE32(sb + 0x90, 4096);	    /* sectorsize */
	LE32(sb + 0x94, 16384);	    /* nodesize */
	LE32(sb + 0x98, 16384);	    /* leafsize */
	LE32(sb + 0x9c, 4096);	    /* stripesize */
	LE64(sb + 0xc9, 1);	    /* dev_item.devid */
	LE64(sb + 0xd1, 256 * MiB); /* dev_item.total_bytes */
}

/*
 * FAT32, 512-byte sectors, 8 per cluster, 32 reserved, 2 FATs of 512
 * sectors, 524288 sectors (256 MiB).  Data area: 32 + 2 * 512 = 1056
 * sectors = 540672 bytes.  Clusters: (524288 - 1056) / 8 = 65404; a FAT
 * of 512 * 512 / 4 = 65536 entries holds them and the two reserved ones.
 */
static void build_fat32(uint8_t *img)
{
	img[0] = 0xeb, img[1] = 0x58, img[2] = 0x90;
	memcpy(img + 3, "mkfs.fat", 8);
	LE16(img + 0x0b, 512);
	img[0x0d] = 8;
	LE16(img + 0x0e, 32);
	img[0x10] = 2;
	img[0x15] = 0xf8;
	LE32(img + 0x20, 524288);
	LE32(img + 0x24, 512);
	LE32(img + 0x2c, 2); /* root cluster */
	img[0x1fe] = 0x55, img[0x1ff] = 0xaa;
}

/*
 * A 1.44 MB floppy, FAT12: 2880 sectors, 1 per cluster, 1 reserved,
 * 2 FATs of 9, 224 root entries = 14 sectors.  Data area: 1 + 18 + 14 =
 * 33 sectors = 16896 bytes (what fsck.fat says of the corpus fat.img).
 * Clusters: 2880 - 33 = 2847 < 4085, FAT12; 9 * 512 * 8 / 12 = 3072
 * entries.
 */
static void build_fat12(uint8_t *img)
{
	img[0] = 0xeb, img[1] = 0x3c, img[2] = 0x90;
	LE16(img + 0x0b, 512);
	img[0x0d] = 1;
	LE16(img + 0x0e, 1);
	img[0x10] = 2;
	LE16(img + 0x11, 224);
	LE16(img + 0x13, 2880);
	img[0x15] = 0xf0;
	LE16(img + 0x16, 9);
	img[0x1fe] = 0x55, img[0x1ff] = 0xaa;
}

/*
 * FAT16: 131072 sectors (64 MiB) in 0x20, 4 per cluster, 4 reserved,
 * 2 FATs of 128, 512 root entries = 32 sectors.  Data area: 4 + 256 +
 * 32 = 292 sectors = 149504 bytes.  Clusters: (131072 - 292) / 4 =
 * 32695: FAT16; 128 * 512 * 8 / 16 = 32768 entries.
 */
static void build_fat16(uint8_t *img)
{
	img[0] = 0xeb, img[1] = 0x3c, img[2] = 0x90;
	LE16(img + 0x0b, 512);
	img[0x0d] = 4;
	LE16(img + 0x0e, 4);
	img[0x10] = 2;
	LE16(img + 0x11, 512);
	img[0x15] = 0xf8;
	LE16(img + 0x16, 128);
	LE32(img + 0x20, 131072);
	img[0x1fe] = 0x55, img[0x1ff] = 0xaa;
}

/*
 * NTFS as mkntfs makes it on 64 MiB: 512-byte sectors, 8 per cluster,
 * 131071 sectors (the last one of the device holds the backup boot
 * sector, so 131072 * 512 = 64 MiB used), MFT records of 2^10 bytes.
 */
static void build_ntfs(uint8_t *img)
{
	img[0] = 0xeb, img[1] = 0x52, img[2] = 0x90;
	memcpy(img + 3, "NTFS    ", 8);
	LE16(img + 0x0b, 512);
	img[0x0d] = 8;
	img[0x15] = 0xf8;
	LE64(img + 0x28, 131071);
	LE64(img + 0x30, 4);	/* $MFT cluster */
	LE64(img + 0x38, 8191); /* $MFTMirr cluster */
	img[0x40] = 0xf6;	/* -10: 1024-byte records */
	img[0x44] = 1;
	img[0x1fe] = 0x55, img[0x1ff] = 0xaa;
}

/* swap v1 made with 4 KiB pages on 16 MiB: last_page 4095. */
static void build_swap4k(uint8_t *img)
{
	LE32(img + 1024, 1);
	LE32(img + 1028, 4095);
	memcpy(img + 4096 - 10, "SWAPSPACE2", 10);
}

/* swap v1 made with 64 KiB pages on 16 MiB: last_page 255. */
static void build_swap64k(uint8_t *img)
{
	LE32(img + 1024, 1);
	LE32(img + 1028, 255);
	memcpy(img + 65536 - 10, "SWAPSPACE2", 10);
}

/* ---- the table ---- */

struct patch {
	uint32_t at; /* from the region start */
	int width;   /* 1, 2, 4, 8; 0 ends the list */
	int be;
	uint64_t val;
};

struct fs_row {
	const char *name;
	const struct ba_prober *prober;
	void (*build)(uint8_t *img);
	uint64_t size;	    /* region size */
	uint64_t off;	    /* region start in the device */
	uint64_t dev_extra; /* device bytes after the region */
	struct patch patch[4];
	int want_rc;
	const char *type, *version;
	uint32_t block_size, sector_size;
	uint64_t data_offset, used_size, fs_stride, fs_stripe_width;
};

#define P(a, w, v)               \
	{                        \
		(a), (w), 0, (v) \
	}
#define PBE(a, w, v)             \
	{                        \
		(a), (w), 1, (v) \
	}
/* The row fields after want_rc, for rows that expect no content. */
#define ABSENT	1, NULL, NULL, 0, 0, 0, 0, 0, 0
#define LIES(e) (e), NULL, NULL, 0, 0, 0, 0, 0, 0
#define EXT(x)	(1024 + (x))
#define BTR(x)	(65536 + (x))

static const struct fs_row rows[] = {
	/* ---- ext ---- */
	{"ext4-raid",
	 &ba_ext_prober,
	 build_ext,
	 64 * KiB,
	 0,
	 0,
	 {{0}},
	 0,
	 "ext4",
	 "1.0",
	 4096,
	 0,
	 0,
	 64 * MiB,
	 65536,
	 131072},
	/* the same superblock in a partition at sector 63 */
	{"ext4-at-sector-63",
	 &ba_ext_prober,
	 build_ext,
	 64 * KiB,
	 SEC63,
	 4096,
	 {{0}},
	 0,
	 "ext4",
	 "1.0",
	 4096,
	 0,
	 0,
	 64 * MiB,
	 65536,
	 131072},
	/* no RAID hints */
	{"ext4-no-hints",
	 &ba_ext_prober,
	 build_ext,
	 64 * KiB,
	 0,
	 0,
	 {P(EXT(0x164), 2, 0), P(EXT(0x170), 4, 0)},
	 0,
	 "ext4",
	 "1.0",
	 4096,
	 0,
	 0,
	 64 * MiB,
	 0,
	 0},
	/* 1 KiB blocks: log 0, first data block 1, 65536 blocks = 64 MiB;
	 * stride 16 KiB, stripe width 32 KiB */
	{"ext4-1k",
	 &ba_ext_prober,
	 build_ext,
	 64 * KiB,
	 0,
	 0,
	 {P(EXT(0x18), 4, 0), P(EXT(0x14), 4, 1), P(EXT(0x04), 4, 65536)},
	 0,
	 "ext4",
	 "1.0",
	 1024,
	 0,
	 0,
	 64 * MiB,
	 16 * KiB,
	 32 * KiB},
	/* 64 KiB blocks (log 6): 16384 * 65536 = 1 GiB */
	{"ext4-64k",
	 &ba_ext_prober,
	 build_ext,
	 64 * KiB,
	 0,
	 0,
	 {P(EXT(0x18), 4, 6)},
	 0,
	 "ext4",
	 "1.0",
	 65536,
	 0,
	 0,
	 1024 * MiB,
	 16 * 65536ULL,
	 32 * 65536ULL},
	/* 64bit: s_blocks_count_hi = 1 -> (2^32 + 16384) blocks */
	{"ext4-64bit-hi",
	 &ba_ext_prober,
	 build_ext,
	 64 * KiB,
	 0,
	 0,
	 {P(EXT(0x150), 4, 1)},
	 0,
	 "ext4",
	 "1.0",
	 4096,
	 0,
	 0,
	 ((1ULL << 32) + 16384) * 4096,
	 65536,
	 131072},
	/* without INCOMPAT_64BIT the hi word is not part of the count */
	{"ext4-hi-ignored-without-64bit",
	 &ba_ext_prober,
	 build_ext,
	 64 * KiB,
	 0,
	 0,
	 {P(EXT(0x150), 4, 1), P(EXT(0x60), 4, 0x242)},
	 0,
	 "ext4",
	 "1.0",
	 4096,
	 0,
	 0,
	 64 * MiB,
	 65536,
	 131072},
	/* journal, features ext3 knows only -> ext3 */
	{"ext3",
	 &ba_ext_prober,
	 build_ext,
	 64 * KiB,
	 0,
	 0,
	 {P(EXT(0x60), 4, 0x2)},
	 0,
	 "ext3",
	 "1.0",
	 4096,
	 0,
	 0,
	 64 * MiB,
	 65536,
	 131072},
	/* no journal either -> ext2; revision 0 */
	{"ext2-rev0",
	 &ba_ext_prober,
	 build_ext,
	 64 * KiB,
	 0,
	 0,
	 {P(EXT(0x60), 4, 0x2), P(EXT(0x5c), 4, 0), P(EXT(0x4c), 4, 0)},
	 0,
	 "ext2",
	 "0.0",
	 4096,
	 0,
	 0,
	 64 * MiB,
	 65536,
	 131072},
	/* an ext3 with an ext4 ro_compat feature (huge_file 0x8) -> ext4 */
	{"ext4-by-ro-compat",
	 &ba_ext_prober,
	 build_ext,
	 64 * KiB,
	 0,
	 0,
	 {P(EXT(0x60), 4, 0x2), P(EXT(0x64), 4, 0x9)},
	 0,
	 "ext4",
	 "1.0",
	 4096,
	 0,
	 0,
	 64 * MiB,
	 65536,
	 131072},
	{"ext-journal-device",
	 &ba_ext_prober,
	 build_ext,
	 64 * KiB,
	 0,
	 0,
	 {P(EXT(0x60), 4, 0x8)},
	 0,
	 "jbd",
	 "1.0",
	 4096,
	 0,
	 0,
	 64 * MiB,
	 65536,
	 131072},
	{"ext-no-magic",
	 &ba_ext_prober,
	 build_ext,
	 64 * KiB,
	 0,
	 0,
	 {P(EXT(0x38), 2, 0xef54)},
	 ABSENT},
	{"ext-log-block-7",
	 &ba_ext_prober,
	 build_ext,
	 64 * KiB,
	 0,
	 0,
	 {P(EXT(0x18), 4, 7)},
	 LIES(-EINVAL)},
	{"ext-log-block-huge",
	 &ba_ext_prober,
	 build_ext,
	 64 * KiB,
	 0,
	 0,
	 {P(EXT(0x18), 4, 0xffffffff)},
	 LIES(-EINVAL)},
	{"ext-zero-blocks",
	 &ba_ext_prober,
	 build_ext,
	 64 * KiB,
	 0,
	 0,
	 {P(EXT(0x04), 4, 0)},
	 LIES(-EINVAL)},
	{"ext-first-data-block-1-with-4k",
	 &ba_ext_prober,
	 build_ext,
	 64 * KiB,
	 0,
	 0,
	 {P(EXT(0x14), 4, 1)},
	 LIES(-EINVAL)},
	{"ext-first-data-block-past-end",
	 &ba_ext_prober,
	 build_ext,
	 64 * KiB,
	 0,
	 0,
	 {P(EXT(0x18), 4, 0), P(EXT(0x14), 4, 1), P(EXT(0x04), 4, 1)},
	 LIES(-EINVAL)},
	{"ext-zero-blocks-per-group",
	 &ba_ext_prober,
	 build_ext,
	 64 * KiB,
	 0,
	 0,
	 {P(EXT(0x20), 4, 0)},
	 LIES(-EINVAL)},
	{"ext-zero-inodes-per-group",
	 &ba_ext_prober,
	 build_ext,
	 64 * KiB,
	 0,
	 0,
	 {P(EXT(0x28), 4, 0)},
	 LIES(-EINVAL)},
	/* 2^64 - 1 blocks of 64 KiB do not fit in 64 bits of bytes */
	{"ext-size-overflow",
	 &ba_ext_prober,
	 build_ext,
	 64 * KiB,
	 0,
	 0,
	 {P(EXT(0x18), 4, 6), P(EXT(0x04), 4, 0xffffffff),
	  P(EXT(0x150), 4, 0xffffffff)},
	 LIES(-ERANGE)},
	/* the superblock ends at 2048: a 2047-byte region has none */
	{"ext-region-too-small",
	 &ba_ext_prober,
	 build_ext,
	 2047,
	 0,
	 64 * KiB,
	 {{0}},
	 ABSENT},

	/* ---- XFS ---- */
	{"xfs-raid",
	 &ba_xfs_prober,
	 build_xfs,
	 4096,
	 0,
	 0,
	 {{0}},
	 0,
	 "xfs",
	 "5",
	 4096,
	 512,
	 0,
	 256 * MiB,
	 65536,
	 131072},
	{"xfs-at-sector-63",
	 &ba_xfs_prober,
	 build_xfs,
	 4096,
	 SEC63,
	 512,
	 {{0}},
	 0,
	 "xfs",
	 "5",
	 4096,
	 512,
	 0,
	 256 * MiB,
	 65536,
	 131072},
	/* 4 KiB sectors, no stripe */
	{"xfs-4k-sectors",
	 &ba_xfs_prober,
	 build_xfs,
	 4096,
	 0,
	 0,
	 {PBE(0x66, 2, 4096), P(0x79, 1, 12), PBE(0xb8, 4, 0), PBE(0xbc, 4, 0)},
	 0,
	 "xfs",
	 "5",
	 4096,
	 4096,
	 0,
	 256 * MiB,
	 0,
	 0},
	/* v4, 1 KiB blocks: 65536 blocks = 64 MiB */
	{"xfs-v4-1k-blocks",
	 &ba_xfs_prober,
	 build_xfs,
	 4096,
	 0,
	 0,
	 {PBE(0x04, 4, 1024), P(0x78, 1, 10), PBE(0x64, 2, 0xb4a4)},
	 0,
	 "xfs",
	 "4",
	 1024,
	 512,
	 0,
	 64 * MiB,
	 16 * KiB,
	 32 * KiB},
	/* the last AG may be short: 3 * 16384 + 64 blocks */
	{"xfs-short-last-ag",
	 &ba_xfs_prober,
	 build_xfs,
	 4096,
	 0,
	 0,
	 {PBE(0x08, 8, 3 * 16384 + 64)},
	 0,
	 "xfs",
	 "5",
	 4096,
	 512,
	 0,
	 (3 * 16384 + 64) * 4096ULL,
	 65536,
	 131072},
	{"xfs-no-magic",
	 &ba_xfs_prober,
	 build_xfs,
	 4096,
	 0,
	 0,
	 {P(0, 1, 'Y')},
	 ABSENT},
	{"xfs-version-0",
	 &ba_xfs_prober,
	 build_xfs,
	 4096,
	 0,
	 0,
	 {PBE(0x64, 2, 0xb4a0)},
	 LIES(-EINVAL)},
	{"xfs-sectsize-not-pow2",
	 &ba_xfs_prober,
	 build_xfs,
	 4096,
	 0,
	 0,
	 {PBE(0x66, 2, 768)},
	 LIES(-EINVAL)},
	{"xfs-sectsize-256",
	 &ba_xfs_prober,
	 build_xfs,
	 4096,
	 0,
	 0,
	 {PBE(0x66, 2, 256), P(0x79, 1, 8)},
	 LIES(-EINVAL)},
	{"xfs-sectlog-mismatch",
	 &ba_xfs_prober,
	 build_xfs,
	 4096,
	 0,
	 0,
	 {P(0x79, 1, 10)},
	 LIES(-EINVAL)},
	{"xfs-sectlog-huge",
	 &ba_xfs_prober,
	 build_xfs,
	 4096,
	 0,
	 0,
	 {P(0x79, 1, 200)},
	 LIES(-EINVAL)},
	{"xfs-blocksize-128k",
	 &ba_xfs_prober,
	 build_xfs,
	 4096,
	 0,
	 0,
	 {PBE(0x04, 4, 131072), P(0x78, 1, 17)},
	 LIES(-EINVAL)},
	{"xfs-blocklog-mismatch",
	 &ba_xfs_prober,
	 build_xfs,
	 4096,
	 0,
	 0,
	 {P(0x78, 1, 13)},
	 LIES(-EINVAL)},
	{"xfs-blocklog-huge",
	 &ba_xfs_prober,
	 build_xfs,
	 4096,
	 0,
	 0,
	 {P(0x78, 1, 255)},
	 LIES(-EINVAL)},
	/* 1 KiB blocks on 4 KiB sectors */
	{"xfs-block-smaller-than-sector",
	 &ba_xfs_prober,
	 build_xfs,
	 4096,
	 0,
	 0,
	 {PBE(0x04, 4, 1024), P(0x78, 1, 10), PBE(0x66, 2, 4096),
	  P(0x79, 1, 12)},
	 LIES(-EINVAL)},
	{"xfs-no-ags",
	 &ba_xfs_prober,
	 build_xfs,
	 4096,
	 0,
	 0,
	 {PBE(0x58, 4, 0)},
	 LIES(-EINVAL)},
	{"xfs-tiny-ags",
	 &ba_xfs_prober,
	 build_xfs,
	 4096,
	 0,
	 0,
	 {PBE(0x54, 4, 63)},
	 LIES(-EINVAL)},
	{"xfs-dblocks-past-ags",
	 &ba_xfs_prober,
	 build_xfs,
	 4096,
	 0,
	 0,
	 {PBE(0x08, 8, 65537)},
	 LIES(-EINVAL)},
	{"xfs-last-ag-too-short",
	 &ba_xfs_prober,
	 build_xfs,
	 4096,
	 0,
	 0,
	 {PBE(0x08, 8, 3 * 16384 + 63)},
	 LIES(-EINVAL)},
	{"xfs-width-without-unit",
	 &ba_xfs_prober,
	 build_xfs,
	 4096,
	 0,
	 0,
	 {PBE(0xb8, 4, 0)},
	 LIES(-EINVAL)},
	{"xfs-width-not-multiple",
	 &ba_xfs_prober,
	 build_xfs,
	 4096,
	 0,
	 0,
	 {PBE(0xbc, 4, 40)},
	 LIES(-EINVAL)},
	{"xfs-width-below-unit",
	 &ba_xfs_prober,
	 build_xfs,
	 4096,
	 0,
	 0,
	 {PBE(0xbc, 4, 8)},
	 LIES(-EINVAL)},
	{"xfs-region-too-small",
	 &ba_xfs_prober,
	 build_xfs,
	 511,
	 0,
	 4096,
	 {{0}},
	 ABSENT},

	/* ---- btrfs ---- */
	{"btrfs",
	 &ba_btrfs_prober,
	 build_btrfs,
	 256 * KiB,
	 0,
	 0,
	 {{0}},
	 0,
	 "btrfs",
	 "",
	 4096,
	 0,
	 0,
	 256 * MiB,
	 0,
	 0},
	{"btrfs-at-sector-63",
	 &ba_btrfs_prober,
	 build_btrfs,
	 256 * KiB,
	 SEC63,
	 0,
	 {{0}},
	 0,
	 "btrfs",
	 "",
	 4096,
	 0,
	 0,
	 256 * MiB,
	 0,
	 0},
	{"btrfs-16k-sectors",
	 &ba_btrfs_prober,
	 build_btrfs,
	 256 * KiB,
	 0,
	 0,
	 {P(BTR(0x90), 4, 16384), P(BTR(0x50), 8, 0x1d00000)},
	 0,
	 "btrfs",
	 "",
	 16384,
	 0,
	 0,
	 256 * MiB,
	 0,
	 0},
	/* second device of a 512 MiB filesystem: its own 256 MiB */
	{"btrfs-two-devices",
	 &ba_btrfs_prober,
	 build_btrfs,
	 256 * KiB,
	 0,
	 0,
	 {P(BTR(0x70), 8, 512 * MiB), P(BTR(0x88), 8, 2)},
	 0,
	 "btrfs",
	 "",
	 4096,
	 0,
	 0,
	 256 * MiB,
	 0,
	 0},
	{"btrfs-no-magic",
	 &ba_btrfs_prober,
	 build_btrfs,
	 256 * KiB,
	 0,
	 0,
	 {P(BTR(0x40), 1, 'X')},
	 ABSENT},
	/* the 64 MiB copy read as if it were the primary */
	{"btrfs-wrong-bytenr",
	 &ba_btrfs_prober,
	 build_btrfs,
	 256 * KiB,
	 0,
	 0,
	 {P(BTR(0x30), 8, 64 * MiB)},
	 LIES(-EINVAL)},
	{"btrfs-sectorsize-2k",
	 &ba_btrfs_prober,
	 build_btrfs,
	 256 * KiB,
	 0,
	 0,
	 {P(BTR(0x90), 4, 2048)},
	 LIES(-EINVAL)},
	{"btrfs-sectorsize-128k",
	 &ba_btrfs_prober,
	 build_btrfs,
	 256 * KiB,
	 0,
	 0,
	 {P(BTR(0x90), 4, 131072)},
	 LIES(-EINVAL)},
	{"btrfs-sectorsize-not-pow2",
	 &ba_btrfs_prober,
	 build_btrfs,
	 256 * KiB,
	 0,
	 0,
	 {P(BTR(0x90), 4, 12288)},
	 LIES(-EINVAL)},
	{"btrfs-node-below-sector",
	 &ba_btrfs_prober,
	 build_btrfs,
	 256 * KiB,
	 0,
	 0,
	 {P(BTR(0x94), 4, 2048), P(BTR(0x98), 4, 2048)},
	 LIES(-EINVAL)},
	{"btrfs-leaf-not-node",
	 &ba_btrfs_prober,
	 build_btrfs,
	 256 * KiB,
	 0,
	 0,
	 {P(BTR(0x98), 4, 4096)},
	 LIES(-EINVAL)},
	{"btrfs-root-misaligned",
	 &ba_btrfs_prober,
	 build_btrfs,
	 256 * KiB,
	 0,
	 0,
	 {P(BTR(0x50), 8, 0x1d04001)},
	 LIES(-EINVAL)},
	{"btrfs-device-larger-than-fs",
	 &ba_btrfs_prober,
	 build_btrfs,
	 256 * KiB,
	 0,
	 0,
	 {P(BTR(0xd1), 8, 257 * MiB)},
	 LIES(-EINVAL)},
	{"btrfs-device-empty",
	 &ba_btrfs_prober,
	 build_btrfs,
	 256 * KiB,
	 0,
	 0,
	 {P(BTR(0xd1), 8, 0)},
	 LIES(-EINVAL)},
	/* the superblock is read as 4 KiB at 64 KiB */
	{"btrfs-region-too-small",
	 &ba_btrfs_prober,
	 build_btrfs,
	 68 * KiB - 1,
	 0,
	 256 * KiB,
	 {{0}},
	 ABSENT},

	/* ---- FAT ---- */
	{"fat32",
	 &ba_fat_prober,
	 build_fat32,
	 4096,
	 0,
	 0,
	 {{0}},
	 0,
	 "vfat",
	 "FAT32",
	 4096,
	 512,
	 540672,
	 256 * MiB,
	 0,
	 0},
	{"fat32-at-sector-63",
	 &ba_fat_prober,
	 build_fat32,
	 4096,
	 SEC63,
	 0,
	 {P(0x1c, 4, 63)},
	 0,
	 "vfat",
	 "FAT32",
	 4096,
	 512,
	 540672,
	 256 * MiB,
	 0,
	 0},
	/* 4 KiB sectors, 1 per cluster, 65536 sectors, FATs of 64: data at
	 * (32 + 128) * 4096 = 655360; 65376 clusters <= 64 * 1024 entries */
	{"fat32-4k-sectors",
	 &ba_fat_prober,
	 build_fat32,
	 4096,
	 0,
	 0,
	 {P(0x0b, 2, 4096), P(0x0d, 1, 1), P(0x20, 4, 65536), P(0x24, 4, 64)},
	 0,
	 "vfat",
	 "FAT32",
	 4096,
	 4096,
	 655360,
	 256 * MiB,
	 0,
	 0},
	{"fat16",
	 &ba_fat_prober,
	 build_fat16,
	 4096,
	 0,
	 0,
	 {{0}},
	 0,
	 "vfat",
	 "FAT16",
	 2048,
	 512,
	 149504,
	 64 * MiB,
	 0,
	 0},
	{"fat12-floppy",
	 &ba_fat_prober,
	 build_fat12,
	 4096,
	 0,
	 0,
	 {{0}},
	 0,
	 "vfat",
	 "FAT12",
	 512,
	 512,
	 16896,
	 1474560,
	 0,
	 0},
	/* 225 root entries need 15 sectors (rounded up): data at 34 * 512 */
	{"fat12-root-rounded-up",
	 &ba_fat_prober,
	 build_fat12,
	 4096,
	 0,
	 0,
	 {P(0x11, 2, 225)},
	 0,
	 "vfat",
	 "FAT12",
	 512,
	 512,
	 17408,
	 1474560,
	 0,
	 0},
	/* 4084 clusters is still FAT12, 4085 is FAT16 (FATs of 16 sectors:
	 * data at 1 + 32 + 14 = 47 sectors; 16 * 512 * 8 / 16 = 4096
	 * 16-bit entries hold 4085 + 2) */
	{"fat12-4084-clusters",
	 &ba_fat_prober,
	 build_fat12,
	 4096,
	 0,
	 0,
	 {P(0x13, 2, 47 + 4084), P(0x16, 2, 16)},
	 0,
	 "vfat",
	 "FAT12",
	 512,
	 512,
	 47 * 512,
	 (47 + 4084) * 512ULL,
	 0,
	 0},
	{"fat16-4085-clusters",
	 &ba_fat_prober,
	 build_fat12,
	 4096,
	 0,
	 0,
	 {P(0x13, 2, 47 + 4085), P(0x16, 2, 16)},
	 0,
	 "vfat",
	 "FAT16",
	 512,
	 512,
	 47 * 512,
	 (47 + 4085) * 512ULL,
	 0,
	 0},
	/* ... but 12 sectors of FAT hold 3072 16-bit entries only */
	{"fat16-fat-too-small",
	 &ba_fat_prober,
	 build_fat12,
	 4096,
	 0,
	 0,
	 {P(0x13, 2, 39 + 4085), P(0x16, 2, 12)},
	 LIES(-EINVAL)},
	{"fat-bps-1000",
	 &ba_fat_prober,
	 build_fat32,
	 4096,
	 0,
	 0,
	 {P(0x0b, 2, 1000)},
	 ABSENT},
	{"fat-bps-8192",
	 &ba_fat_prober,
	 build_fat32,
	 4096,
	 0,
	 0,
	 {P(0x0b, 2, 8192)},
	 ABSENT},
	{"fat-spc-3",
	 &ba_fat_prober,
	 build_fat32,
	 4096,
	 0,
	 0,
	 {P(0x0d, 1, 3)},
	 ABSENT},
	{"fat-spc-0",
	 &ba_fat_prober,
	 build_fat32,
	 4096,
	 0,
	 0,
	 {P(0x0d, 1, 0)},
	 ABSENT},
	{"fat-no-reserved",
	 &ba_fat_prober,
	 build_fat32,
	 4096,
	 0,
	 0,
	 {P(0x0e, 2, 0)},
	 ABSENT},
	{"fat-no-fats",
	 &ba_fat_prober,
	 build_fat32,
	 4096,
	 0,
	 0,
	 {P(0x10, 1, 0)},
	 ABSENT},
	{"fat-bad-media",
	 &ba_fat_prober,
	 build_fat32,
	 4096,
	 0,
	 0,
	 {P(0x15, 1, 0x12)},
	 ABSENT},
	{"fat-all-zero", &ba_fat_prober, NULL, 4096, 0, 0, {{0}}, ABSENT},
	/* the NTFS boot sector is not a FAT (reserved 0, FATs 0) */
	{"fat-on-ntfs", &ba_fat_prober, build_ntfs, 4096, 0, 0, {{0}}, ABSENT},
	{"fat32-root-entries",
	 &ba_fat_prober,
	 build_fat32,
	 4096,
	 0,
	 0,
	 {P(0x11, 2, 512)},
	 LIES(-EINVAL)},
	{"fat-no-sectors",
	 &ba_fat_prober,
	 build_fat32,
	 4096,
	 0,
	 0,
	 {P(0x20, 4, 0)},
	 LIES(-EINVAL)},
	{"fat32-no-fat-size",
	 &ba_fat_prober,
	 build_fat32,
	 4096,
	 0,
	 0,
	 {P(0x24, 4, 0)},
	 LIES(-EINVAL)},
	{"fat-metadata-past-end",
	 &ba_fat_prober,
	 build_fat32,
	 4096,
	 0,
	 0,
	 {P(0x20, 4, 1056)},
	 LIES(-EINVAL)},
	/* 1 sector short of one cluster of data */
	{"fat-no-whole-cluster",
	 &ba_fat_prober,
	 build_fat32,
	 4096,
	 0,
	 0,
	 {P(0x20, 4, 1056 + 7)},
	 LIES(-EINVAL)},
	/* FAT of 100 sectors = 12800 entries for 65404 clusters */
	{"fat32-fat-too-small",
	 &ba_fat_prober,
	 build_fat32,
	 4096,
	 0,
	 0,
	 {P(0x24, 4, 100), P(0x20, 4, 524288 - 2 * 412)},
	 LIES(-EINVAL)},
	/* FAT16 with 1 sector per cluster: 130780 clusters > 65524 */
	{"fat16-too-many-clusters",
	 &ba_fat_prober,
	 build_fat16,
	 4096,
	 0,
	 0,
	 {P(0x0d, 1, 1)},
	 LIES(-EINVAL)},
	{"fat-region-too-small",
	 &ba_fat_prober,
	 build_fat32,
	 511,
	 0,
	 4096,
	 {{0}},
	 ABSENT},

	/* ---- NTFS ---- */
	{"ntfs",
	 &ba_ntfs_prober,
	 build_ntfs,
	 4096,
	 0,
	 0,
	 {{0}},
	 0,
	 "ntfs",
	 "",
	 4096,
	 512,
	 0,
	 64 * MiB,
	 0,
	 0},
	{"ntfs-at-sector-63",
	 &ba_ntfs_prober,
	 build_ntfs,
	 4096,
	 SEC63,
	 0,
	 {P(0x1c, 4, 63)},
	 0,
	 "ntfs",
	 "",
	 4096,
	 512,
	 0,
	 64 * MiB,
	 0,
	 0},
	/* 4 KiB sectors, 16 per cluster; 16383 sectors + backup = 64 MiB */
	{"ntfs-4k-sectors",
	 &ba_ntfs_prober,
	 build_ntfs,
	 4096,
	 0,
	 0,
	 {P(0x0b, 2, 4096), P(0x0d, 1, 16), P(0x28, 8, 16383), P(0x38, 8, 500)},
	 0,
	 "ntfs",
	 "",
	 65536,
	 4096,
	 0,
	 64 * MiB,
	 0,
	 0},
	/* 0xf7 = -9: 2^9 sectors of 512 = 256 KiB clusters (mkntfs -c
	 * 262144 writes exactly this) */
	{"ntfs-256k-clusters",
	 &ba_ntfs_prober,
	 build_ntfs,
	 4096,
	 0,
	 0,
	 {P(0x0d, 1, 0xf7), P(0x38, 8, 100)},
	 0,
	 "ntfs",
	 "",
	 262144,
	 512,
	 0,
	 64 * MiB,
	 0,
	 0},
	/* 0xf4 = -12: 2^12 * 512 = 2 MiB, the largest */
	{"ntfs-2m-clusters",
	 &ba_ntfs_prober,
	 build_ntfs,
	 4096,
	 0,
	 0,
	 {P(0x0d, 1, 0xf4), P(0x38, 8, 10)},
	 0,
	 "ntfs",
	 "",
	 2 * 1024 * 1024,
	 512,
	 0,
	 64 * MiB,
	 0,
	 0},
	{"ntfs-4m-clusters",
	 &ba_ntfs_prober,
	 build_ntfs,
	 4096,
	 0,
	 0,
	 {P(0x0d, 1, 0xf3), P(0x38, 8, 10)},
	 LIES(-EINVAL)},
	{"ntfs-shift-127",
	 &ba_ntfs_prober,
	 build_ntfs,
	 4096,
	 0,
	 0,
	 {P(0x0d, 1, 0x81)},
	 LIES(-EINVAL)},
	{"ntfs-no-oem",
	 &ba_ntfs_prober,
	 build_ntfs,
	 4096,
	 0,
	 0,
	 {P(3, 1, 'M')},
	 ABSENT},
	{"ntfs-bps-100",
	 &ba_ntfs_prober,
	 build_ntfs,
	 4096,
	 0,
	 0,
	 {P(0x0b, 2, 100)},
	 LIES(-EINVAL)},
	{"ntfs-bps-8192",
	 &ba_ntfs_prober,
	 build_ntfs,
	 4096,
	 0,
	 0,
	 {P(0x0b, 2, 8192)},
	 LIES(-EINVAL)},
	{"ntfs-spc-3",
	 &ba_ntfs_prober,
	 build_ntfs,
	 4096,
	 0,
	 0,
	 {P(0x0d, 1, 3)},
	 LIES(-EINVAL)},
	{"ntfs-spc-0",
	 &ba_ntfs_prober,
	 build_ntfs,
	 4096,
	 0,
	 0,
	 {P(0x0d, 1, 0)},
	 LIES(-EINVAL)},
	{"ntfs-fat-field-set",
	 &ba_ntfs_prober,
	 build_ntfs,
	 4096,
	 0,
	 0,
	 {P(0x10, 1, 2)},
	 LIES(-EINVAL)},
	{"ntfs-reserved-set",
	 &ba_ntfs_prober,
	 build_ntfs,
	 4096,
	 0,
	 0,
	 {P(0x0e, 2, 32)},
	 LIES(-EINVAL)},
	{"ntfs-mft-record-3",
	 &ba_ntfs_prober,
	 build_ntfs,
	 4096,
	 0,
	 0,
	 {P(0x40, 1, 3)},
	 LIES(-EINVAL)},
	{"ntfs-mft-record-2^8",
	 &ba_ntfs_prober,
	 build_ntfs,
	 4096,
	 0,
	 0,
	 {P(0x40, 1, 0xf8)},
	 LIES(-EINVAL)},
	/* 131071 sectors of 8 = 16383 clusters: cluster 16383 is past */
	{"ntfs-mftmirr-past-end",
	 &ba_ntfs_prober,
	 build_ntfs,
	 4096,
	 0,
	 0,
	 {P(0x38, 8, 16383)},
	 LIES(-EINVAL)},
	{"ntfs-no-sectors",
	 &ba_ntfs_prober,
	 build_ntfs,
	 4096,
	 0,
	 0,
	 {P(0x28, 8, 0)},
	 LIES(-ERANGE)},
	{"ntfs-sectors-overflow",
	 &ba_ntfs_prober,
	 build_ntfs,
	 4096,
	 0,
	 0,
	 {P(0x28, 8, UINT64_MAX / 512)},
	 LIES(-ERANGE)},

	/* ---- swap ---- */
	{"swap-4k",
	 &ba_swap_prober,
	 build_swap4k,
	 16 * MiB,
	 0,
	 0,
	 {{0}},
	 0,
	 "swap",
	 "1",
	 4096,
	 0,
	 4096,
	 16 * MiB,
	 0,
	 0},
	{"swap-4k-at-sector-63",
	 &ba_swap_prober,
	 build_swap4k,
	 16 * MiB,
	 SEC63,
	 0,
	 {{0}},
	 0,
	 "swap",
	 "1",
	 4096,
	 0,
	 4096,
	 16 * MiB,
	 0,
	 0},
	{"swap-64k",
	 &ba_swap_prober,
	 build_swap64k,
	 16 * MiB,
	 0,
	 0,
	 {{0}},
	 0,
	 "swap",
	 "1",
	 65536,
	 0,
	 65536,
	 16 * MiB,
	 0,
	 0},
	/* made on a big-endian machine: version 1 reads as 0x01000000 */
	{"swap-big-endian",
	 &ba_swap_prober,
	 build_swap4k,
	 16 * MiB,
	 0,
	 0,
	 {PBE(1024, 4, 1), PBE(1028, 4, 4095)},
	 0,
	 "swap",
	 "1",
	 4096,
	 0,
	 4096,
	 16 * MiB,
	 0,
	 0},
	/* 637 bad pages fill the 4 KiB header up to the magic; 638 lie */
	{"swap-637-bad-pages",
	 &ba_swap_prober,
	 build_swap4k,
	 16 * MiB,
	 0,
	 0,
	 {P(1032, 4, 637)},
	 0,
	 "swap",
	 "1",
	 4096,
	 0,
	 4096,
	 16 * MiB,
	 0,
	 0},
	{"swap-638-bad-pages",
	 &ba_swap_prober,
	 build_swap4k,
	 16 * MiB,
	 0,
	 0,
	 {P(1032, 4, 638)},
	 LIES(-EINVAL)},
	{"swap-version-2",
	 &ba_swap_prober,
	 build_swap4k,
	 16 * MiB,
	 0,
	 0,
	 {P(1024, 4, 2)},
	 LIES(-EINVAL)},
	{"swap-no-pages",
	 &ba_swap_prober,
	 build_swap4k,
	 16 * MiB,
	 0,
	 0,
	 {P(1028, 4, 0)},
	 LIES(-EINVAL)},
	/* last_page = 2^32 - 1 pages of 4 KiB: 16 TiB, no overflow */
	{"swap-max-last-page",
	 &ba_swap_prober,
	 build_swap4k,
	 16 * MiB,
	 0,
	 0,
	 {P(1028, 4, 0xffffffff)},
	 0,
	 "swap",
	 "1",
	 4096,
	 0,
	 4096,
	 (1ULL << 32) * 4096,
	 0,
	 0},
	/* v0: "SWAP-SPACE", no header */
	{"swap-v0",
	 &ba_swap_prober,
	 build_swap4k,
	 16 * MiB,
	 0,
	 0,
	 {PBE(4090, 4, 0x2d535041), PBE(4094, 2, 0x4345), P(1024, 4, 0)},
	 0,
	 "swap",
	 "0",
	 4096,
	 0,
	 4096,
	 0,
	 0,
	 0},
	/* a hibernation image keeps the v1 header */
	{"swsuspend",
	 &ba_swap_prober,
	 build_swap4k,
	 16 * MiB,
	 0,
	 0,
	 {PBE(4086, 4, 0x53315355), PBE(4090, 4, 0x5350454e),
	  P(4094, 2, 0x0044)},
	 0,
	 "swsuspend",
	 "1",
	 4096,
	 0,
	 4096,
	 16 * MiB,
	 0,
	 0},
	/* TuxOnIce keeps SWAPSPACE2 and writes its magic at byte 0 */
	{"swsuspend-tuxonice",
	 &ba_swap_prober,
	 build_swap4k,
	 16 * MiB,
	 0,
	 0,
	 {P(0, 8, 0x0ce55698e902c3edULL)},
	 0,
	 "swsuspend",
	 "1",
	 4096,
	 0,
	 4096,
	 16 * MiB,
	 0,
	 0},
	{"swap-no-magic",
	 &ba_swap_prober,
	 build_swap4k,
	 16 * MiB,
	 0,
	 0,
	 {P(4086, 1, 'X')},
	 ABSENT},
	/* a 64 KiB-page area in a 32 KiB region: the magic is outside */
	{"swap-64k-region-32k",
	 &ba_swap_prober,
	 build_swap64k,
	 32 * KiB,
	 0,
	 64 * KiB,
	 {{0}},
	 ABSENT},
	{"swap-region-too-small",
	 &ba_swap_prober,
	 build_swap4k,
	 4095,
	 0,
	 4096,
	 {{0}},
	 ABSENT},
};

/* The region is built at row->off in a device of off + size + extra. */
static void test_fs_row(void **state)
{
	const struct fs_row *r = *state;
	uint64_t dev = r->off + r->size + r->dev_extra;
	uint64_t built = r->size > 16 * MiB ? 16 * MiB : r->size;
	struct ba_content c;
	struct ba_io io;
	uint8_t *img;
	int rc;

	/* Builders write the valid structure whole, even when the row
	 * then shrinks the region. */
	if (built < 256 * KiB)
		built = 256 * KiB;
	if (dev < r->off + built)
		dev = r->off + built;
	img = calloc(1, dev);
	assert_non_null(img);
	if (r->build)
		r->build(img + r->off);
	for (const struct patch *p = r->patch; p->width; p++)
		put(img + r->off + p->at, p->width, p->be, p->val);

	ba_io_init_mem(&io, img, dev);
	memset(&c, 0xa5, sizeof(c));
	rc = r->prober->probe(&io, r->off, r->size, &c);
	EXPECT_S64(r, "return code", rc, r->want_rc);
	if (rc == 0 && r->want_rc == 0) {
		EXPECT_U64(r, "kind", c.kind, BA_CONTENT_FS);
		if (strcmp(c.type, r->type) != 0)
			fail_msg("%s: type '%s', expected '%s'", r->name,
				 c.type, r->type);
		if (strcmp(c.version, r->version) != 0)
			fail_msg("%s: version '%s', expected '%s'", r->name,
				 c.version, r->version);
		EXPECT_U64(r, "block_size", c.block_size, r->block_size);
		EXPECT_U64(r, "sector_size", c.sector_size, r->sector_size);
		EXPECT_U64(r, "data_offset", c.data_offset, r->data_offset);
		EXPECT_U64(r, "used_size", c.used_size, r->used_size);
		EXPECT_U64(r, "fs_stride", c.fs_stride, r->fs_stride);
		EXPECT_U64(r, "fs_stripe_width", c.fs_stripe_width,
			   r->fs_stripe_width);
		EXPECT_U64(r, "data_size", c.data_size, 0);
		EXPECT_U64(r, "zfs_ashift", c.zfs_ashift, 0);
	}
	free(img);
}

/* Every prober answers "absent" on zeros and on a device too small. */
static void test_absent_everywhere(void **state)
{
	static const struct ba_prober *const all[] = {
		&ba_ext_prober, &ba_xfs_prober,	 &ba_btrfs_prober,
		&ba_fat_prober, &ba_ntfs_prober, &ba_swap_prober,
	};
	uint8_t *zero = calloc(1, 256 * KiB);
	struct ba_content c;
	struct ba_io io;

	(void)state;
	assert_non_null(zero);
	ba_io_init_mem(&io, zero, 256 * KiB);
	for (size_t i = 0; i < ARRAY_SIZE(all); i++) {
		assert_int_equal(all[i]->probe(&io, 0, 256 * KiB, &c), 1);
		assert_int_equal(all[i]->kind, BA_CONTENT_FS);
		/* a region that runs off the device, and one at its end */
		assert_int_equal(all[i]->probe(&io, 128 * KiB, 1 * MiB, &c), 1);
		assert_int_equal(all[i]->probe(&io, 256 * KiB, 0, &c), 1);
		/* an offset near 2^64 must not wrap around */
		assert_int_equal(
			all[i]->probe(&io, UINT64_MAX - 100, 1 * MiB, &c), 1);
	}
	free(zero);
}

int main(void)
{
	const struct CMUnitTest misc[] = {
		cmocka_unit_test(test_absent_everywhere),
	};
	int failed = RUN_TABLE(test_fs_row, rows);

	failed += cmocka_run_group_tests(misc, NULL, NULL);
	return failed ? 1 : 0;
}
