/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-rules.c - the alignment rules on devices built in memory: one row
 * per rule and edge, with the findings written out by hand from the rules
 * in docs (off(x, g) = (x - ao) mod g; see the comment on each row).
 *
 * Rows with known_bug document a lib bug and are skipped; set
 * BLKALIGN_TEST_KNOWN_BUGS=1 to run them.
 *
 * Defaults of a row: logical 512, physical = logical, min I/O = physical,
 * optimal 0, alignment offset 0, page 4096, max_segments 128,
 * max_sectors_kb 1280 (request cap 1280 KiB = 1310720 bytes).
 *
 * The start rules suggest the next start on the "grain", the lcm of 1 MiB
 * and the device's physical sector, minimum and optimal I/O size,
 * honouring the alignment offset; size-physical and soft-block-size
 * suggest one size: rounded down to lcm(page, physical sector) (up, for
 * a disk or when that is 0), or, for size-physical on a start off the
 * physical grid, the size it has when that is already such a multiple.
 */
#include <stdbool.h>
#include <string.h>

/* table.h (system and cmocka headers) before banned.h via blkalignP.h */
#include "table.h"

#include "analyze/analyze.h"
#include "out/out.h"
#include "scan/scan.h"

#define S(n) ((uint64_t)(n)*512) /* 512-byte sectors to bytes */
#define GIB  (1024 * MIB)
#define E    BLKALIGN_ERROR
#define W    BLKALIGN_WARNING
#define I    BLKALIGN_INFO

struct topo_spec {
	uint32_t lss, pss, min, opt; /* 0: default */
	int64_t ao;
	uint32_t page, segs, kb; /* 0: default */
};

struct part_spec {
	int number; /* 0 ends the list */
	uint64_t start, size;
	int parent; /* layer index; 0 = the disk */
	bool extended, logical;
	uint32_t want_sbs; /* 0: not checked */
	int64_t want_ao;   /* checked with want_sbs */
	/* what it holds, a layer after all the partitions, as stack.c adds
	 * it: "md 1.2", "zfs", "lvm", "luks" or a filesystem type */
	const char *content;
};

struct want {
	const char *code; /* NULL ends the list */
	int layer;
	enum blkalign_severity sev;
	uint64_t value, gran, rem, sugg;
	uint32_t sbs;
	uint64_t cap, cap_aligned;
	const char *fix; /* its fix says this; NULL: not checked */
};

struct rules_row {
	const char *name;
	struct topo_spec t;
	uint64_t disk_size;
	struct part_spec p[6];
	struct want f[8];
	const char *disk_content; /* held by the disk used whole */
	bool opt_ignored;	  /* ba_topology_finish drops optimal I/O */
	uint32_t want_disk_sbs;	  /* 0: not checked */
	const char *known_bug;	  /* skip, with this reason */
};

#define T512               \
	{                  \
		.lss = 512 \
	}
#define T4K                             \
	{                               \
		.lss = 512, .pss = 4096 \
	}
#define T4KAO                                       \
	{                                           \
		.lss = 512, .pss = 4096, .ao = 3584 \
	}

/* The disk layer of a 512e disk with ao 3584 starts 512 bytes off the
 * grid {3584 + k * 4096}: off(0) = (0 - 3584) mod 4096 = 512; next grain
 * point 3584 (the 1 MiB grid is {3584 + k * 1 MiB}).  Only reported when
 * the disk has no partitions (it is used whole). */
#define DISK_AO3584                                        \
	{                                                  \
		"start-physical", 0, E, 0, 4096, 512, 3584 \
	}

static const struct rules_row rules_rows[] = {
	{
		/* 63, 41929592 sectors (a multiple of 8: soft block 4096)
		 * on 512e: the end is off only because the start is; the
		 * size stays (41929585, ending on the grid, would bring
		 * the 512-byte soft block back) */
		.name = "size-physical-start-off-size-4k-multiple",
		.t = T4K,
		.disk_size = S(41943040),
		.p = {{1, S(63), S(41929592), 0, .want_sbs = 4096,
		       .want_ao = 512}},
		.f =
			{
				{"start-physical", 1, E, 32256, 4096, 3584,
				 MIB},
				{"size-physical", 1, W, S(63 + 41929592), 4096,
				 3584, S(41929592)},
			},
	},
	{
		/* 63 on a RAID-6 of 4 data disks, 64 KiB chunks, 512e:
		 * off the physical sector (32256 mod 4096 = 3584), the
		 * chunk (32256 mod 65536) and the stripe (256 KiB): every
		 * grid its own finding; the grain lcm(1 MiB, 4 KiB, 64 KiB,
		 * 256 KiB) = 1 MiB */
		.name = "start-off-every-grid-raid6",
		.t = {.lss = 512, .pss = 4096, .min = 65536, .opt = 262144},
		.disk_size = GIB,
		.p = {{1, S(63), S(2048), 0}},
		.f =
			{
				{"start-physical", 1, E, 32256, 4096, 3584,
				 MIB},
				{"start-io-min", 1, W, 32256, 65536, 32256,
				 MIB},
				{"start-io-opt", 1, W, 32256, 262144, 32256,
				 MIB},
				{"size-physical", 1, W, S(63 + 2048), 4096,
				 3584, MIB},
			},
	},
	{
		/* seed 003, gpart -b 34 on a disk reporting 512-byte
		 * sectors: 17408 = 4 KiB + 1 KiB: start-4k (information)
		 * and start-mib */
		.name = "seed003-b34-512n",
		.t = T512,
		.disk_size = GIB,
		.p = {{1, S(34), S(2048), 0}},
		.f =
			{
				{"start-4k", 1, I, 17408, 4096, 1024, 0},
				{"start-mib", 1, I, 17408, MIB, 17408, MIB},
			},
	},
	{
		/* gpart -b 1024: 524288, on the 4 KiB grid: start-mib only */
		.name = "seed003-b1024-512n",
		.t = T512,
		.disk_size = GIB,
		.p = {{1, S(1024), S(2048), 0}},
		.f = {{"start-mib", 1, I, 524288, MIB, 524288, MIB}},
	},
	{
		.name = "ao3584-whole-disk-no-partitions",
		.t = T4KAO,
		.disk_size = GIB,
		.p = {{0}},
		.f = {DISK_AO3584},
	},
	{
		.name = "aligned-1mib-512e",
		.t = T4K,
		.disk_size = GIB,
		.p = {{1, S(2048), S(2048), 0, .want_sbs = 4096, .want_ao = 0}},
		.f = {{NULL}},
		.want_disk_sbs = 4096,
	},
	{
		/* 63*512 = 32256 = 7*4096 + 3584; end 32256 + 1 MiB =
		 * 1080832 = 263*4096 + 3584: shrink by 3584. */
		.name = "start-physical-63-512e",
		.t = T4K,
		.disk_size = GIB,
		.p = {{1, S(63), S(2048), 0, .want_sbs = 4096, .want_ao = 512}},
		.f =
			{
				{"start-physical", 1, E, 32256, 4096, 3584,
				 MIB},
				/* the end is off because the start is: once the
				 * start moves to the grid, the size it has
				 * (2048 sectors, a multiple of 4 KiB) ends on
				 * it: it stays */
				{"size-physical", 1, W, 1080832, 4096, 3584,
				 MIB},
			},
	},
	{
		/* ao 3584: (32256 - 3584) mod 4096 = 0, so 63 is on the
		 * physical grid; (32256 - 3584) mod 1 MiB = 28672: start-mib,
		 * next 1 MiB grid point 1 MiB + 3584 = 1052160. */
		.name = "ao3584-63-physically-aligned",
		.t = T4KAO,
		.disk_size = GIB,
		.p = {{1, S(63), S(2048), 0, .want_sbs = 4096, .want_ao = 0}},
		.f =
			{
				{"start-mib", 1, I, 32256, MIB, 28672, 1052160},
			},
	},
	{
		/* ao 3584: (1 MiB - 3584) mod 4096 = 512; the end 2 MiB is
		 * 512 off too, because the start is: the size (1 MiB, a
		 * multiple of 4 KiB) stays once the start moves. */
		.name = "ao3584-2048-start-physical",
		.t = T4KAO,
		.disk_size = GIB,
		.p = {{1, S(2048), S(2048), 0, .want_sbs = 4096,
		       .want_ao = 3584}},
		.f =
			{
				{"start-physical", 1, E, MIB, 4096, 512,
				 1052160},
				{"size-physical", 1, W, 2 * MIB, 4096, 512,
				 MIB},
			},
	},
	{
		/* 512n: 63 is on the 512 grid; 32256 mod 1 MiB = 32256;
		 * a disk reporting 512-byte sectors may hide 4 KiB ones:
		 * 32256 mod 4096 = 3584 (start-4k, information). */
		.name = "start-mib-info-only-512n",
		.t = T512,
		.disk_size = GIB,
		.p = {{1, S(63), S(2048), 0, .want_sbs = 4096, .want_ao = 0}},
		.f = {{"start-4k", 1, I, 32256, 4096, 3584, 0},
		      {"start-mib", 1, I, 32256, MIB, 32256, MIB}},
	},
	{
		/* 4Kn, start LBA 6 = 24576 bytes: on the 4096 grid, not on
		 * 1 MiB. */
		.name = "start-mib-4kn-lba6",
		.t = {.lss = 4096},
		.disk_size = GIB,
		.p = {{1, 6 * 4096, 256 * 4096, 0, .want_sbs = 4096,
		       .want_ao = 0}},
		.f = {{"start-mib", 1, I, 24576, MIB, 24576, MIB}},
	},
	{
		/* 1 MiB + 4 KiB = 1052672: on 4096, 4096 off the 64 KiB
		 * chunk; grain lcm(1 MiB, 64 KiB) = 1 MiB -> 2 MiB.
		 * Kernel: 2056 mod 128 = 8 -> (65536 - 4096). */
		.name = "start-io-min-64k",
		.t = {.lss = 512, .pss = 4096, .min = 65536},
		.disk_size = GIB,
		.p = {{1, S(2056), S(2048), 0, .want_sbs = 4096,
		       .want_ao = 61440}},
		.f = {{"start-io-min", 1, W, 1052672, 65536, 4096, 2 * MIB}},
	},
	{
		/* 1 MiB + 64 KiB = 1114112: on the chunk, 1114112 mod 256 KiB
		 * = 65536 off the stripe; grain lcm(1 MiB, 256 KiB) = 1 MiB. */
		.name = "start-io-opt-256k",
		.t = {.lss = 512, .pss = 4096, .min = 65536, .opt = 262144},
		.disk_size = GIB,
		.p = {{1, S(2176), S(2048), 0, .want_sbs = 4096, .want_ao = 0}},
		.f = {{"start-io-opt", 1, W, 1114112, 262144, 65536, 2 * MIB}},
	},
	{
		/* 3 x 64 KiB stripe: 1 MiB mod 196608 = 65536 (1 MiB =
		 * 5*196608 + 65536); grain lcm(1 MiB, 196608) = 3 MiB. */
		.name = "start-io-opt-196608-at-1mib",
		.t = {.lss = 512, .pss = 4096, .min = 65536, .opt = 196608},
		.disk_size = GIB,
		.p = {{1, S(2048), S(6144), 0, .want_sbs = 4096, .want_ao = 0}},
		.f = {{"start-io-opt", 1, W, MIB, 196608, 65536, 3 * MIB}},
	},
	{
		.name = "start-io-opt-196608-at-3mib",
		.t = {.lss = 512, .pss = 4096, .min = 65536, .opt = 196608},
		.disk_size = GIB,
		.p = {{1, S(6144), S(6144), 0, .want_sbs = 4096, .want_ao = 0}},
		.f = {{NULL}},
	},
	{
		/* 6144 is a multiple of a 512-byte physical sector: kept.
		 * 1 MiB mod 6144 = 4096; lcm(1 MiB, 6144) = 3 MiB. */
		.name = "start-io-opt-6144-pss512-kept",
		.t = {.lss = 512, .opt = 6144},
		.disk_size = GIB,
		.p = {{1, S(2048), S(6144), 0, .want_sbs = 4096, .want_ao = 0}},
		.f = {{"start-io-opt", 1, W, MIB, 6144, 4096, 3 * MIB}},
	},
	{
		/* end S(4095) = 2096640 = 511*4096 + 3584; size 1048064 is
		 * 2047 sectors (odd): soft block 512, cap min(1310720,
		 * 128*512) = 65536, aligned min(1310720, 128*4096) = 524288;
		 * both suggest 1048064 - 3584 = 1044480. */
		.name = "size-physical-2047-sectors",
		.t = T4K,
		.disk_size = GIB,
		.p = {{1, S(2048), S(2047), 0, .want_sbs = 512, .want_ao = 0}},
		.f =
			{
				{"size-physical", 1, W, 2096640, 4096, 3584,
				 1044480},
				{"soft-block-size", 1, W, 1048064, 4096, 3584,
				 1044480, 512, 65536, 524288},
			},
	},
	{
		/* 27646898 = 2 mod 4: soft block 1024, cap 128*1024 =
		 * 131072; remainder 2*512 = 1024. */
		.name = "soft-block-1024-512n",
		.t = T512,
		.disk_size = S(41943040),
		.p = {{1, S(2048), S(27646898), 0, .want_sbs = 1024,
		       .want_ao = 0}},
		.f = {{"soft-block-size", 1, W, S(27646898), 4096, 1024,
		       S(27646898) - 1024, 1024, 131072, 524288}},
	},
	{
		/* seed 002 case 1: 14281785..41929649 on a 20 GiB 512e disk.
		 * start: 14281785 = 1 mod 8 -> 512 off; next 1 MiB: sector
		 * 6974*2048 = 14282752. end 41929650 = 2 mod 8 -> 1024 off.
		 * size 27647865 odd -> 512; 512 past a 4096 multiple. */
		.name = "seed002-14281785-41929649",
		.t = T4K,
		.disk_size = S(41943040),
		.p = {{2, S(14281785), S(27647865), 0, .want_sbs = 512,
		       .want_ao = 3584}},
		.f =
			{
				{"start-physical", 1, E, S(14281785), 4096, 512,
				 S(14282752)},
				/* one size for both: the largest multiple of 4
				 * KiB below, 27647864 sectors (once the start
				 * moves, it ends on the grid too) */
				{"size-physical", 1, W, S(41929650), 4096, 1024,
				 S(27647864)},
				{"soft-block-size", 1, W, S(27647865), 4096,
				 512, S(27647864), 512, 65536, 524288},
			},
	},
	{
		/* seed 002 case 2: 14282752..41929649: start on 1 MiB,
		 * 27646898 = 2 mod 4 -> 1024, end 1024 off. */
		.name = "seed002-14282752-41929649",
		.t = T4K,
		.disk_size = S(41943040),
		.p = {{2, S(14282752), S(27646898), 0, .want_sbs = 1024,
		       .want_ao = 0}},
		.f =
			{
				{"size-physical", 1, W, S(41929650), 4096, 1024,
				 S(27646898) - 1024},
				{"soft-block-size", 1, W, S(27646898), 4096,
				 1024, S(27646896), 1024, 131072, 524288},
			},
	},
	{
		/* seed 002 case 3: 14282752..41943039, ends exactly at the
		 * end of the disk; 27660288 = 0 mod 8. */
		.name = "seed002-14282752-41943039-ends-at-end",
		.t = T4K,
		.disk_size = S(41943040),
		.p = {{2, S(14282752), S(27660288), 0, .want_sbs = 4096,
		       .want_ao = 0}},
		.f = {{NULL}},
	},
	{
		/* other queue limits: cap min(512*1024, 168*512) = 86016,
		 * aligned min(524288, 168*4096 = 688128) = 524288. */
		.name = "soft-block-cap-168-segments-512kb",
		.t = {.lss = 512, .segs = 168, .kb = 512},
		.disk_size = GIB,
		.p = {{1, S(2048), S(2049), 0, .want_sbs = 512, .want_ao = 0}},
		.f = {{"soft-block-size", 1, W, S(2049), 4096, 512, MIB, 512,
		       86016, 524288}},
	},
	{
		/* 64 KiB pages: 41929592 = 8 * odd -> 4096; 41929592 mod 128
		 * = 120 -> 61440 bytes past a 64 KiB multiple; cap
		 * min(1310720, 128*4096) = 524288, aligned min(1310720,
		 * 128*65536) = 1310720. */
		.name = "soft-block-page64k-41929592",
		.t = {.lss = 512, .pss = 4096, .page = 65536},
		.disk_size = S(41943040),
		.p = {{1, S(2048), S(41929592), 0, .want_sbs = 4096,
		       .want_ao = 0}},
		.f = {{"soft-block-size", 1, W, S(41929592), 65536, 61440,
		       S(41929472), 4096, 524288, 1310720}},
	},
	{
		/* 4Kn on 64 KiB pages: 3 blocks; nothing smaller fits. */
		.name = "soft-block-4kn-page64k-3-blocks",
		.t = {.lss = 4096, .page = 65536},
		.disk_size = GIB,
		.p = {{1, MIB, 3 * 4096, 0, .want_sbs = 4096, .want_ao = 0}},
		/* smaller than one 64 KiB page: the smallest size that
		 * fixes it is one page */
		.f = {{"soft-block-size", 1, W, 12288, 65536, 12288, 65536,
		       4096, 524288, 1310720}},
	},
	{
		/* the disk itself: 1 GiB + 512; an image grows (truncate),
		 * to the next multiple of 4 KiB, 1 GiB + 4096. */
		.name = "soft-block-disk-layer",
		.t = T512,
		.disk_size = GIB + 512,
		.f = {{"soft-block-size", 0, W, GIB + 512, 4096, 512,
		       GIB + 4096, 512, 65536, 524288}},
		.want_disk_sbs = 512,
	},
	/*
	 * soft-block-size by what the partition holds (docs/facts.md §1.5):
	 * one partition at 1 MiB of 20001 sectors (odd: soft block 512) on
	 * a 512n disk: 10240512 bytes, 512 past 2500 pages; cap 128 * 512 =
	 * 65536, aligned 128 * 4096 = 524288; the size that clears it
	 * 2500 pages = 10240000 = 20000 sectors.  A warning when nothing
	 * known is inside (and swap: the kernel leaves its soft block size
	 * alone); information when a mounted filesystem sets the soft block
	 * size itself, or the contents do their I/O below the page cache.
	 */
	{
		.name = "soft-block-empty",
		.t = T512,
		.disk_size = GIB,
		.p = {{1, MIB, S(20001), 0, .want_sbs = 512}},
		.f = {{"soft-block-size", 1, W, S(20001), 4096, 512, S(20000),
		       512, 65536, 524288,
		       "resize 'disk.img1' to 20000 sectors (10240000 bytes, a "
		       "multiple of 4 KiB) after shrinking what it holds"}},
	},
	{
		.name = "soft-block-swap",
		.t = T512,
		.disk_size = GIB,
		.p = {{1, MIB, S(20001), 0, .want_sbs = 512,
		       .content = "swap"}},
		.f = {{"soft-block-size", 1, W, S(20001), 4096, 512, S(20000),
		       512, 65536, 524288, "resize 'disk.img1' to 20000"}},
	},
#define SB_FS(fs)                                                              \
	{                                                                      \
		.name = "soft-block-" fs, .t = T512, .disk_size = GIB,         \
		.p = {{1, MIB, S(20001), 0, .want_sbs = 512, .content = fs}},  \
		.f = {{"soft-block-size", 1, I, S(20001), 4096, 512, S(20000), \
		       512, 65536, 524288,                                     \
		       "nothing to do for 'disk.img1:c'; for raw writes to "   \
		       "'disk.img1' (mkfs, dd) to go out in requests of "      \
		       "512 KiB: resize 'disk.img1' to 20000 sectors"}},       \
	}
	SB_FS("ext2"),
	SB_FS("ext3"),
	SB_FS("ext4"),
	SB_FS("xfs"),
	SB_FS("btrfs"),
	SB_FS("vfat"),
	SB_FS("ntfs"),
	/* md 1.2, LVM, LUKS: below the page cache; they can shrink */
	SB_FS("md 1.2"),
	SB_FS("lvm"),
	SB_FS("luks"),
#undef SB_FS
	{
		/* md 0.90 and 1.0 keep their superblock at the end: the
		 * size that clears it means a new member, not a resize to
		 * the size it has (issue 25, item 8) */
		.name = "soft-block-md-0.90",
		.t = T512,
		.disk_size = GIB,
		.p = {{1, MIB, S(20001), 0, .want_sbs = 512,
		       .content = "md 0.90"}},
		.f = {{"soft-block-size", 1, I, S(20001), 4096, 512, S(20000),
		       512, 65536, 524288,
		       "nothing to do for 'disk.img1:c': resizing 'disk.img1' "
		       "would move the md superblock kept at its end; for raw "
		       "writes to 'disk.img1' to go out in requests of 512 "
		       "KiB, re-create the member on a partition of 20000 "
		       "sectors (10240000 bytes, a multiple of 4 KiB)"}},
	},
	{
		.name = "soft-block-md-1.0",
		.t = T512,
		.disk_size = GIB,
		.p = {{1, MIB, S(20001), 0, .want_sbs = 512,
		       .content = "md 1.0"}},
		.f = {{"soft-block-size", 1, I, S(20001), 4096, 512, S(20000),
		       512, 65536, 524288,
		       "re-create the member on a partition of 20000 sectors"}},
	},
	{
		.name = "soft-block-zfs",
		.t = T512,
		.disk_size = GIB,
		.p = {{1, MIB, S(20001), 0, .want_sbs = 512, .content = "zfs"}},
		.f = {{"soft-block-size", 1, I, S(20001), 4096, 512, S(20000),
		       512, 65536, 524288,
		       "nothing to do for 'disk.img1:c': resizing 'disk.img1' "
		       "would move the two ZFS labels kept at its end; for raw "
		       "writes to 'disk.img1' to go out in requests of 512 "
		       "KiB, move the vdev to a partition of 20000 sectors"}},
	},
	{
		/* ext4 on 512e: the end 1 MiB + 10240512 = 11289088 is 512
		 * past a 4096 multiple: size-physical stays a warning, its
		 * size on the physical sector (4096): 20000 sectors too */
		.name = "soft-block-ext4-512e",
		.t = T4K,
		.disk_size = GIB,
		.p = {{1, MIB, S(20001), 0, .want_sbs = 512,
		       .content = "ext4"}},
		.f =
			{
				{"size-physical", 1, W, MIB + S(20001), 4096,
				 512, S(20000)},
				{"soft-block-size", 1, I, S(20001), 4096, 512,
				 S(20000), 512, 65536,
				 524288, "nothing to do for 'disk.img1:c'"},
			},
	},
	{
		/* a filesystem on a disk used whole (no table): the same
		 * rule, on the disk layer; an image grows to 1 GiB + 4096 */
		.name = "soft-block-disk-layer-ext4",
		.t = T512,
		.disk_size = GIB + 512,
		.f = {{"soft-block-size", 0, I, GIB + 512, 4096, 512,
		       GIB + 4096, 512, 65536, 524288,
		       "nothing to do for 'disk.img:c'; for raw writes to "
		       "'disk.img' (mkfs, dd) to go out in requests of 512 KiB: "
		       "grow 'disk.img' to 2097160 sectors"}},
		.want_disk_sbs = 512,
		.disk_content = "ext4",
	},
	{
		/* [2048, 6144) and [4096, 8192): 2048 sectors shared,
		 * reported on the later one. */
		.name = "overlap",
		.t = T512,
		.disk_size = GIB,
		.p = {{1, S(2048), S(4096), 0}, {2, S(4096), S(4096), 0}},
		.f = {{"partition-overlap", 2, E, S(4096), 0, S(2048), 0}},
	},
	{
		.name = "adjacent-no-overlap",
		.t = T512,
		.disk_size = GIB,
		.p = {{1, S(2048), S(4096), 0}, {2, S(6144), S(4096), 0}},
		.f = {{NULL}},
	},
	{
		/* [2048,10240), [4096,6144), [6144,14336): p1/p2 share 2048
		 * sectors, p1/p3 4096, p2/p3 touch only. */
		.name = "overlap-three",
		.t = T512,
		.disk_size = GIB,
		.p = {{1, S(2048), S(8192), 0},
		      {2, S(4096), S(2048), 0},
		      {3, S(6144), S(8192), 0}},
		.f =
			{
				{"partition-overlap", 2, E, S(4096), 0, S(2048),
				 0},
				{"partition-overlap", 3, E, S(6144), 0, S(4096),
				 0},
			},
	},
	{
		/* ends at 1 GiB + 1 MiB on a 1 GiB disk. */
		.name = "past-end",
		.t = T512,
		.disk_size = GIB,
		.p = {{1, S(2048), GIB, 0}},
		.f = {{"partition-past-end", 1, E, GIB + MIB, GIB, MIB, 0}},
	},
	{
		.name = "ends-at-end",
		.t = T512,
		.disk_size = GIB,
		.p = {{1, S(2048), GIB - MIB, 0}},
		.f = {{NULL}},
	},
	{
		/* The extended container at 4097 (512 off 4 KiB) of 8193
		 * sectors (odd, ends 1024 off) would get three findings if
		 * it were a partition; containers get none. */
		.name = "extended-no-start-findings",
		.t = T4K,
		.disk_size = GIB,
		.p = {{1, S(2048), S(2048), 0},
		      {2, S(4097), S(8193), 0, .extended = true},
		      {5, S(6144), S(2048), 2, .logical = true,
		       .want_sbs = 4096, .want_ao = 0}},
		.f = {{NULL}},
	},
	{
		/* logical [6144, 10240) in the container [4096, 8192). */
		.name = "logical-outside-container",
		.t = T4K,
		.disk_size = GIB,
		.p = {{2, S(4096), S(4096), 0, .extended = true},
		      {5, S(6144), S(4096), 1, .logical = true}},
		.f = {{"partition-outside-container", 2, E, S(6144)}},
	},
	{
		/* bsd nested in dos p1 [2048, 6144): [4096, 8192) sticks
		 * out; different parents, so not an overlap. */
		.name = "nested-outside-parent",
		.t = T512,
		.disk_size = GIB,
		.p = {{1, S(2048), S(4096), 0}, {5, S(4096), S(4096), 1}},
		.f = {{"partition-outside-container", 2, E, S(4096)}},
	},
	{
		/* ao -1: findings use 0 for the grid, layers report -1. */
		.name = "stack-misaligned",
		.t = {.lss = 512, .pss = 4096, .ao = -1},
		.disk_size = GIB,
		.p = {{1, S(2048), S(2048), 0, .want_sbs = 4096,
		       .want_ao = -1}},
		.f = {{"stack-misaligned", 0, E}},
	},
	{
		/* 1 MiB mod 33553920 != 0: kept, it would warn. */
		.name = "io-opt-ignored-33553920",
		.t = {.lss = 512, .opt = 33553920},
		.disk_size = GIB,
		.p = {{1, S(2048), S(2048), 0}},
		.f = {{"io-opt-ignored", 0, I, 33553920}},
		.opt_ignored = true,
	},
	{
		/* 6144 mod 4096 = 2048; 1 MiB mod 6144 = 4096 would warn. */
		.name = "io-opt-ignored-6144-pss4096",
		.t = {.lss = 512, .pss = 4096, .opt = 6144},
		.disk_size = GIB,
		.p = {{1, S(2048), S(2048), 0}},
		.f = {{"io-opt-ignored", 0, I, 6144}},
		.opt_ignored = true,
	},
	{
		/* A partition inside one physical sector: [2049, 2050) on
		 * 512e.  Its end 1049600 is 1024 off the grid. */
		.name = "size-physical-partition-smaller-than-remainder",
		.t = T4K,
		.disk_size = GIB,
		.p = {{1, S(2049), S(1), 0, .want_sbs = 512, .want_ao = 3584}},
		.f =
			{
				{"start-physical", 1, E, S(2049), 4096, 512,
				 2 * MIB},
				/* nothing below one page: 4096 (grow) */
				{"size-physical", 1, W, S(2050), 4096, 1024,
				 4096},
				{"soft-block-size", 1, W, 512, 4096, 512, 4096,
				 512, 65536, 524288},
			},
	},
};

static struct blkalign_ctx *ctx_with_page(uint32_t page)
{
	struct blkalign_ctx *ctx = blkalign_ctx_new();

	assert_non_null(ctx);
	assert_int_equal(blkalign_ctx_set_page_size(ctx, page ? page : 4096),
			 0);
	return ctx;
}

static void set_value(struct blkalign_value *v, int64_t value)
{
	v->value = value;
	v->source = BLKALIGN_SRC_OPTION;
}

/* What stack.c adds inside layer @parent for @what ("md 1.2", "zfs",
 * "lvm", "luks" or a filesystem type), over all of it. */
static void add_content(struct ba_device *d, int parent, const char *what)
{
	struct blkalign_layer *l = ba_device_add_layer(d);
	const struct blkalign_layer *p = &d->layers[parent];

	assert_non_null(l);
	l->name = ba_pool_printf(&d->pool, "%s:c", p->name);
	l->parent = parent;
	l->start = p->start;
	l->size = p->size;
	l->kind = BLKALIGN_LAYER_FILESYSTEM;
	l->type = what;
	if (!strncmp(what, "md ", 3)) {
		l->kind = BLKALIGN_LAYER_MD;
		l->type = "linux_raid_member";
		l->version = what + 3;
	} else if (!strcmp(what, "zfs")) {
		l->kind = BLKALIGN_LAYER_ZFS;
		l->type = "zfs_member";
	} else if (!strcmp(what, "lvm")) {
		l->kind = BLKALIGN_LAYER_LVM;
		l->type = "LVM2_member";
	} else if (!strcmp(what, "luks")) {
		l->kind = BLKALIGN_LAYER_LUKS;
		l->type = "crypto_LUKS";
	}
}

/* What scan/scan.c does for an image, with the row's topology and layers. */
static void build_device(struct ba_device *d, const struct rules_row *r)
{
	struct blkalign_topology *t = &d->pub.topology;
	struct blkalign_ctx *ctx = ctx_with_page(r->t.page);
	struct blkalign_layer *disk;
	uint32_t lss = r->t.lss ? r->t.lss : 512;
	uint32_t pss = r->t.pss ? r->t.pss : lss;

	memset(d, 0, sizeof(*d));
	d->pub.name = "disk.img";
	d->pub.path = "/tmp/disk.img";
	d->pub.size = r->disk_size;
	set_value(&t->logical_sector_size, lss);
	set_value(&t->physical_sector_size, pss);
	set_value(&t->minimum_io_size, r->t.min ? r->t.min : pss);
	set_value(&t->optimal_io_size, r->t.opt);
	set_value(&t->alignment_offset, r->t.ao);
	if (r->t.segs)
		set_value(&t->max_segments, r->t.segs);
	if (r->t.kb)
		set_value(&t->max_sectors_kb, r->t.kb);
	ba_topology_finish(ctx, t);
	blkalign_ctx_unref(ctx);

	disk = ba_device_add_layer(d);
	assert_non_null(disk);
	disk->name = d->pub.name;
	disk->kind = BLKALIGN_LAYER_DISK;
	disk->size = d->pub.size;
	for (const struct part_spec *p = r->p; p->number; p++) {
		struct blkalign_layer *l = ba_device_add_layer(d);

		assert_non_null(l);
		l->kind = BLKALIGN_LAYER_PARTITION;
		l->number = p->number;
		l->name = ba_pool_printf(&d->pool, "disk.img%d", p->number);
		l->scheme = "dos";
		l->start = p->start;
		l->size = p->size;
		l->parent = p->parent;
		l->extended = p->extended;
		l->logical = p->logical;
	}
	if (r->disk_content)
		add_content(d, 0, r->disk_content);
	for (size_t i = 0; r->p[i].number; i++)
		if (r->p[i].content)
			add_content(d, (int)i + 1, r->p[i].content);
}

static void check_finding(const struct rules_row *r, const struct want *w,
			  const struct blkalign_finding *f)
{
	char what[96];

#define FIELD(field, want)                                              \
	do {                                                            \
		snprintf(what, sizeof(what), "%s on layer %d: " #field, \
			 w->code, w->layer);                            \
		EXPECT_U64(r, what, f->field, want);                    \
	} while (0)
	FIELD(severity, w->sev);
	FIELD(value, w->value);
	FIELD(granularity, w->gran);
	FIELD(remainder, w->rem);
	FIELD(suggested, w->sugg);
	FIELD(soft_block_size, w->sbs);
	FIELD(request_cap, w->cap);
	FIELD(request_cap_aligned, w->cap_aligned);
#undef FIELD
	if (!f->message || !f->explanation || !f->fix)
		fail_msg("%s: %s has no message, explanation or fix", r->name,
			 w->code);
	if (w->fix && !strstr(f->fix, w->fix))
		fail_msg("%s: %s's fix \"%s\" does not say \"%s\"", r->name,
			 w->code, f->fix, w->fix);
}

static void test_rules(void **state)
{
	const struct rules_row *r = *state;
	const struct blkalign_topology *t;
	struct ba_device d;
	bool used[64] = {false};
	size_t nwant = 0;

	if (r->known_bug && !getenv("BLKALIGN_TEST_KNOWN_BUGS")) {
		print_message("[  SKIP    ] %s: known bug: %s\n", r->name,
			      r->known_bug);
		skip();
	}
	build_device(&d, r);
	ba_rules_run(&d);
	ba_device_publish(&d);
	t = &d.pub.topology;
	assert_true(d.nfindings < ARRAY_SIZE(used));

	/* Every expected finding, matched by code and layer. */
	for (const struct want *w = r->f; w->code; w++, nwant++) {
		const struct blkalign_finding *pf = d.pub.findings;
		size_t i;

		for (i = 0; i < d.pub.nfindings; i++)
			if (!used[i] && pf[i].layer == w->layer &&
			    strcmp(pf[i].code, w->code) == 0)
				break;
		if (i == d.pub.nfindings)
			fail_msg("%s: no %s finding on layer %d", r->name,
				 w->code, w->layer);
		used[i] = true;
		check_finding(r, w, &pf[i]);
	}
	for (size_t i = 0; i < d.pub.nfindings; i++)
		if (!used[i])
			fail_msg("%s: unexpected %s finding on layer %d: %s",
				 r->name, d.pub.findings[i].code,
				 d.pub.findings[i].layer,
				 d.pub.findings[i].message);
	EXPECT_U64(r, "number of findings", d.nfindings, nwant);

	/* Published, every one rendered: worst first, then by layer. */
	EXPECT_U64(r, "published findings", d.pub.nfindings, d.nfindings);
	EXPECT_U64(r, "findings lost", d.findings_lost + d.findings_unrendered,
		   0);
	EXPECT_U64(r, "published layers", d.pub.nlayers, d.nlayers);
	for (size_t i = 1; i < d.pub.nfindings; i++) {
		const struct blkalign_finding *a = &d.pub.findings[i - 1];
		const struct blkalign_finding *b = &d.pub.findings[i];

		if (a->severity < b->severity ||
		    (a->severity == b->severity && a->layer > b->layer))
			fail_msg("%s: finding %zu (%s) sorted before a worse "
				 "or earlier one (%s)",
				 r->name, i - 1, a->code, b->code);
	}

	/* Per-layer predictions. */
	for (size_t i = 0; r->p[i].number; i++) {
		const struct part_spec *p = &r->p[i];

		if (!p->want_sbs)
			continue;
		EXPECT_U64(r, "partition soft_block_size",
			   d.layers[i + 1].soft_block_size, p->want_sbs);
		EXPECT_S64(r, "partition alignment_offset",
			   d.layers[i + 1].alignment_offset, p->want_ao);
	}
	if (r->want_disk_sbs)
		EXPECT_U64(r, "disk soft_block_size",
			   d.layers[0].soft_block_size, r->want_disk_sbs);
	EXPECT_S64(r, "disk alignment_offset", d.layers[0].alignment_offset,
		   r->t.ao);

	/* Optimal I/O: kept, or dropped with a note and the raw value. */
	EXPECT_S64(r, "optimal_io_size_raw", t->optimal_io_size_raw, r->t.opt);
	EXPECT_S64(r, "optimal_io_size", t->optimal_io_size.value,
		   r->opt_ignored ? 0 : r->t.opt);
	if ((t->optimal_io_note != NULL) != r->opt_ignored)
		fail_msg("%s: optimal_io_note is %s", r->name,
			 t->optimal_io_note ? t->optimal_io_note : "NULL");
	ba_device_release(&d);
}

/* ba_device_publish: severity first, then layer, otherwise stable. */
struct sort_row {
	const char *name;
	struct {
		const char *code;
		enum blkalign_severity sev;
		int layer;
	} in[8], out[8];
};

/* The code named @name (the code table's row), or BA_NCODES. */
static enum ba_code code_of(const char *name)
{
	for (int c = 0; c < BA_NCODES; c++)
		if (ba_code_row(c)->code && !strcmp(ba_code_row(c)->code, name))
			return c;
	return BA_NCODES;
}

/* Codes must be real ones: ba_device_add_finding() refuses others. */
#define SP "start-physical"
#define PO "partition-overlap"
#define SM "start-mib"
#define OI "io-opt-ignored"
#define ZP "size-physical"
#define SB "soft-block-size"
#define IM "start-io-min"

static const struct sort_row sort_rows[] = {
	{
		.name = "worst-first-then-layer",
		.in = {{SM, I, 1},
		       {ZP, W, 2},
		       {SP, E, 3},
		       {SB, W, 1},
		       {PO, E, 0},
		       {OI, I, 0}},
		.out = {{PO, E, 0},
			{SP, E, 3},
			{SB, W, 1},
			{ZP, W, 2},
			{OI, I, 0},
			{SM, I, 1}},
	},
	{
		.name = "stable-within-layer",
		.in = {{IM, W, 1},
		       {SM, I, 1},
		       {ZP, W, 1},
		       {SB, W, 1},
		       {OI, I, 1}},
		.out = {{IM, W, 1},
			{ZP, W, 1},
			{SB, W, 1},
			{SM, I, 1},
			{OI, I, 1}},
	},
	{
		.name = "already-sorted",
		.in = {{SP, E, 0}, {ZP, W, 0}, {SM, I, 0}},
		.out = {{SP, E, 0}, {ZP, W, 0}, {SM, I, 0}},
	},
	{.name = "empty"},
};

static void test_publish_sort(void **state)
{
	const struct sort_row *r = *state;
	struct ba_device d;
	size_t n = 0;

	memset(&d, 0, sizeof(d));
	for (; r->in[n].code; n++) {
		struct ba_finding *f =
			ba_device_add_finding(&d, code_of(r->in[n].code),
					      r->in[n].sev, r->in[n].layer);

		assert_non_null(f);
		ba_finding_say(f, BA_T_NOTHING_TO_DO, BA_T_NOTHING_TO_DO,
			       BA_T_NOTHING_TO_DO);
	}
	ba_device_publish(&d);
	EXPECT_U64(r, "published findings", d.pub.nfindings, n);
	for (size_t i = 0; i < n; i++)
		if (strcmp(d.pub.findings[i].code, r->out[i].code) != 0 ||
		    d.pub.findings[i].severity != r->out[i].sev ||
		    d.pub.findings[i].layer != r->out[i].layer)
			fail_msg("%s: position %zu holds %s, expected %s",
				 r->name, i, d.pub.findings[i].code,
				 r->out[i].code);
	ba_device_release(&d);
}

/* Every code has its row in the code table, in enum order, and the
 * table ends after the last. */
static void test_code_table(void **state)
{
	const struct blkalign_code *all = ba_finding_codes();

	(void)state;
	for (int c = 0; c < BA_NCODES; c++) {
		if (!ba_code_row(c) || !ba_code_row(c)->code)
			fail_msg("code %d has no row in the code table", c);
		assert_ptr_equal(ba_code_row(c), &all[c]);
	}
	assert_null(all[BA_NCODES].code);
	assert_null(ba_code_row(BA_NCODES));
}

/*
 * Every text of the message table renders: it exists, and every
 * placeholder in it is one the renderer fills in (an unknown one, a text
 * missing from the table, or {resize} inside a resize sentence fails).
 */
static void test_message_table(void **state)
{
	struct ba_device d;
	struct blkalign_layer *l;

	(void)state;
	memset(&d, 0, sizeof(d));
	d.pub.name = "sdz";
	for (int i = 0; i < 2; i++) {
		l = ba_device_add_layer(&d);
		assert_non_null(l);
		l->name = i ? "sdz1" : "sdz";
		l->kind = i ? BLKALIGN_LAYER_MD : BLKALIGN_LAYER_DISK;
		l->parent = i - 1;
	}
	for (int t = BA_T_NONE + 1; t < BA_NTEXTS; t++) {
		struct ba_finding f = {.pub.layer = 1, .other = 0};
		struct blkalign_finding out;
		int rc;

		f.str[0] = f.str[1] = f.str[2] = "fact";
		f.resize =
			t == BA_T_RESIZE ? BA_T_RESIZE_GROW : BA_T_RESIZE_SAME;
		ba_finding_say(&f, t, t, t);
		if (!ba_message_text(t))
			fail_msg("text %d is missing from the message table",
				 t);
		rc = ba_finding_render(&d, &f, &out);
		if (rc)
			fail_msg("text %d (%s) does not render: %d", t,
				 ba_message_text(t), rc);
		if (strchr(out.message, '{') || strchr(out.message, '}'))
			fail_msg("text %d left a brace: %s", t, out.message);
	}
	/* and what no text is, or a resize inside a resize, is refused */
	{
		struct ba_finding f = {.pub.layer = 1, .resize = BA_T_RESIZE};
		struct blkalign_finding out;

		ba_finding_say(&f, BA_T_NONE, BA_T_NONE, BA_T_NONE);
		assert_int_equal(ba_finding_render(&d, &f, &out), -EINVAL);
		ba_finding_say(&f, BA_T_RESIZE, BA_T_RESIZE, BA_T_RESIZE);
		assert_int_equal(ba_finding_render(&d, &f, &out), -EINVAL);
	}
	ba_device_release(&d);
}

/*
 * A finding that cannot be recorded or rendered is never dropped
 * silently: the device says how many were lost, and the report is
 * incomplete.  One finding has a text the table lacks (a render failure,
 * as out of memory would be); another is counted lost as
 * ba_device_add_finding counts one it has no memory for.
 */
static void test_lost_finding(void **state)
{
	struct blkalign_ctx *ctx = blkalign_ctx_new();
	struct blkalign_report *r = blkalign_report_new(ctx);
	struct ba_device *d;
	struct ba_finding *f;

	(void)state;
	assert_non_null(r);
	d = ba_report_add_device(r);
	assert_non_null(d);
	d->pub.name = d->pub.path = "sdz";
	assert_non_null(ba_device_add_layer(d));
	f = ba_device_add_finding(d, BA_CODE_START_PHYSICAL, BLKALIGN_ERROR, 0);
	assert_non_null(f);
	ba_finding_say(f, BA_NTEXTS, BA_T_NONE, BA_T_NONE);
	f = ba_device_add_finding(d, BA_CODE_START_MIB, BLKALIGN_INFO, 0);
	assert_non_null(f);
	ba_finding_say(f, BA_T_NOTHING_TO_DO, BA_T_NOTHING_TO_DO,
		       BA_T_NOTHING_TO_DO);
	d->findings_lost = 1;
	ba_check_finish(r, 0);
	assert_int_equal(d->pub.nfindings, 1);
	assert_string_equal(d->pub.findings[0].code, "start-mib");
	assert_int_equal(d->pub.nproblems, 1);
	assert_string_equal(
		d->pub.problems[0],
		"2 finding(s) could not be recorded: out of memory");
	assert_true(blkalign_report_status(r) & BLKALIGN_STATUS_INCOMPLETE);
	blkalign_report_unref(r);
	blkalign_ctx_unref(ctx);
}

int main(void)
{
	const struct CMUnitTest tables[] = {
		cmocka_unit_test(test_code_table),
		cmocka_unit_test(test_message_table),
		cmocka_unit_test(test_lost_finding),
	};
	int failed = 0;

	failed += RUN_TABLE(test_rules, rules_rows);
	failed += RUN_TABLE(test_publish_sort, sort_rows);
	failed += cmocka_run_group_tests(tables, NULL, NULL);
	return failed ? 1 : 0;
}
