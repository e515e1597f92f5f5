/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * exfat.c - exFAT boot sector: sector and cluster size, where the
 * cluster heap (cluster 2) starts and the volume's size.  Layout:
 * Microsoft's "exFAT file system specification" (section 3.1, the main
 * boot sector; 3.4, the boot checksum); the same checks as the kernel's
 * exfat_read_boot_sector() and exfat_verify_boot_region() and libblkid
 * superblocks/exfat.c.  Values checked against dump.exfat (exfatprogs).
 *
 * The name "EXFAT   " is the magic: without it, absent.  With it, the
 * boot sector lies (-EINVAL, in words in the note) when the fields the
 * specification fixes are not what it says (jump, the zero area where
 * FAT keeps its BPB, 0xaa55), a shift or the FAT count is out of range,
 * the revision is not 1.x, the FAT, heap and clusters do not fit in one
 * another, or the checksum of sectors 0..10 is not the one sector 11
 * repeats.  A volume longer than its region is cut short (-ERANGE).
 *
 * The cluster heap is exFAT's data area: data_offset, as FAT's cluster
 * 2; used_size is the whole volume (VolumeLength sectors), as the
 * backup boot region and the FATs lie before the heap, and nothing of
 * exFAT's after it.  PartitionOffset (0x40, the partition start mkfs
 * recorded, 0 for "ignore it") is not reported: struct ba_content has no
 * field for it.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "probe/probe.h"

#define EXFAT_NAME	   "EXFAT   "
#define EXFAT_MAX_SECTOR   4096
#define EXFAT_MAX_CLUSTERS 0xfffffff5 /* 2^32 - 11 */
#define EXFAT_MIN_FAT_AT   24	      /* after both boot regions */
#define EXFAT_SUM_SECTORS  11	      /* sectors 0..10 summed */

struct exfat_boot_disk {
	uint8_t jump[3];		   /* 0x00 eb 76 90 */
	char name[8];			   /* 0x03 "EXFAT   " */
	uint8_t zero[53];		   /* 0x0b where FAT's BPB is */
	uint64_t le_partition_offset;	   /* 0x40 sectors */
	uint64_t le_volume_length;	   /* 0x48 sectors */
	uint32_t le_fat_offset;		   /* 0x50 sectors */
	uint32_t le_fat_length;		   /* 0x54 sectors */
	uint32_t le_heap_offset;	   /* 0x58 sectors */
	uint32_t le_cluster_count;	   /* 0x5c */
	uint32_t le_root_cluster;	   /* 0x60 */
	uint32_t le_serial;		   /* 0x64 */
	uint8_t revision_minor;		   /* 0x68 */
	uint8_t revision_major;		   /* 0x69 */
	uint16_t le_volume_flags;	   /* 0x6a not summed */
	uint8_t bytes_per_sector_shift;	   /* 0x6c 9..12 */
	uint8_t sectors_per_cluster_shift; /* 0x6d up to 25 - the above */
	uint8_t nfats;			   /* 0x6e 1 or 2 */
	uint8_t drive_select;		   /* 0x6f */
	uint8_t percent_in_use;		   /* 0x70 not summed */
	uint8_t reserved[7];		   /* 0x71 */
} __attribute__((packed));

_Static_assert(sizeof(struct exfat_boot_disk) == 0x78,
	       "exFAT boot sector fields end at 0x78");
_Static_assert(offsetof(struct exfat_boot_disk, le_volume_length) == 0x48,
	       "VolumeLength at 0x48");
_Static_assert(offsetof(struct exfat_boot_disk, le_fat_offset) == 0x50,
	       "FatOffset at 0x50");
_Static_assert(offsetof(struct exfat_boot_disk, le_volume_flags) == 0x6a,
	       "VolumeFlags at 0x6a");
_Static_assert(offsetof(struct exfat_boot_disk, bytes_per_sector_shift) == 0x6c,
	       "BytesPerSectorShift at 0x6c");

/* The decoded fields, in sectors of 2^bps_shift bytes. */
struct exfat_geom {
	uint32_t bps, spc; /* bytes per sector, sectors per cluster */
	uint64_t sectors;
	uint32_t fat_at, fat_len, heap_at, clusters, root;
	unsigned int nfats;
};

/* The fields the specification fixes, shifts and counts: 0 or -EINVAL. */
static int check_fixed(const struct exfat_boot_disk *bs, const uint8_t *buf,
		       struct ba_content *out)
{
	static const uint8_t jump[3] = {0xeb, 0x76, 0x90};
	const char *what = NULL;

	if (memcmp(bs->jump, jump, sizeof(jump)))
		what = "its jump instruction is not eb 76 90";
	for (size_t i = 0; !what && i < sizeof(bs->zero); i++)
		if (bs->zero[i])
			what = "bytes 11..63 are not zero";
	if (!what && (buf[510] != 0x55 || buf[511] != 0xaa))
		what = "its signature is not 0xaa55";
	if (what) {
		snprintf(out->note, sizeof(out->note),
			 "its exFAT boot sector is not one: %s", what);
		return -EINVAL;
	}
	if (bs->bytes_per_sector_shift < 9 || bs->bytes_per_sector_shift > 12) {
		snprintf(out->note, sizeof(out->note),
			 "its exFAT boot sector says sectors of 2^%u bytes "
			 "(2^9..2^12 exist)",
			 bs->bytes_per_sector_shift);
		return -EINVAL;
	}
	if (bs->sectors_per_cluster_shift > 25 - bs->bytes_per_sector_shift) {
		snprintf(out->note, sizeof(out->note),
			 "its exFAT boot sector says clusters of 2^%u sectors "
			 "of 2^%u bytes, above 32 MiB",
			 bs->sectors_per_cluster_shift,
			 bs->bytes_per_sector_shift);
		return -EINVAL;
	}
	if (bs->nfats < 1 || bs->nfats > 2) {
		snprintf(out->note, sizeof(out->note),
			 "its exFAT boot sector says %u FATs (1 or 2)",
			 bs->nfats);
		return -EINVAL;
	}
	if (bs->revision_major != 1) {
		snprintf(out->note, sizeof(out->note),
			 "its exFAT revision is %u.%u: only 1.x is known",
			 bs->revision_major, bs->revision_minor);
		return -EINVAL;
	}
	return 0;
}

/*
 * The FATs, then the heap, then its clusters, all inside the volume; a
 * FAT with an entry for every cluster; the root directory one of them
 * (spec 3.1.5-3.1.10).  0 or -EINVAL.
 */
static int check_geometry(const struct exfat_geom *g, struct ba_content *out)
{
	uint64_t fats_end = g->fat_at + (uint64_t)g->nfats * g->fat_len;
	uint64_t heap_end = g->heap_at + (uint64_t)g->clusters * g->spc;
	const char *what = NULL;

	if (g->fat_at < EXFAT_MIN_FAT_AT)
		what = "its FAT starts inside the boot regions";
	else if (!g->fat_len || fats_end > g->heap_at)
		what = "its FATs run into the cluster heap";
	else if (!g->clusters || g->clusters > EXFAT_MAX_CLUSTERS)
		what = "its cluster count is out of range";
	else if (heap_end > g->sectors)
		what = "its clusters pass the end of the volume";
	else if ((uint64_t)g->fat_len * g->bps <
		 ((uint64_t)g->clusters + 2) * 4)
		what = "its FAT is too short for its clusters";
	else if (g->root < 2 || g->root - 2 >= g->clusters)
		what = "its root directory is not one of its clusters";
	if (!what)
		return 0;
	snprintf(out->note, sizeof(out->note),
		 "%s (exFAT of %llu sectors of %u bytes: FAT at %u, %u x %u "
		 "sectors, heap at %u, %u clusters of %u sectors)",
		 what, (unsigned long long)g->sectors, g->bps, g->fat_at,
		 g->nfats, g->fat_len, g->heap_at, g->clusters, g->spc);
	return -EINVAL;
}

/**
 * ba_exfat_boot_sum: the exFAT boot checksum (spec 3.4) carried on from
 * @sum over the @len bytes at @p, which lie at byte @at of the boot
 * region: a rotate right and an add per byte, VolumeFlags (0x6a, 0x6b)
 * and PercentInUse (0x70) left out.  Sectors 0..10 summed from 0 give
 * the word sector 11 repeats.
 */
uint32_t ba_exfat_boot_sum(uint32_t sum, const uint8_t *p, size_t len,
			   uint64_t at)
{
	for (size_t i = 0; i < len; i++) {
		uint64_t b = at + i;

		if (b == 0x6a || b == 0x6b || b == 0x70)
			continue;
		sum = (sum & 1 ? 0x80000000u : 0) + (sum >> 1) + p[i];
	}
	return sum;
}

/* The rotating sum of sectors 0..10 against each word of sector 11:
 * 0, -EINVAL or -errno. */
static int check_sum(struct ba_io *io, uint64_t off, uint64_t size,
		     uint32_t bps, struct ba_content *out)
{
	uint8_t sec[EXFAT_MAX_SECTOR];
	uint32_t sum = 0, want;
	int rc;

	for (uint32_t s = 0; s < EXFAT_SUM_SECTORS; s++) {
		rc = ba_io_read_region(io, off, size, (uint64_t)s * bps, bps,
				       sec);
		if (rc)
			return rc > 0 ? -ERANGE : rc;
		sum = ba_exfat_boot_sum(sum, sec, bps, (uint64_t)s * bps);
	}
	rc = ba_io_read_region(io, off, size, (uint64_t)EXFAT_SUM_SECTORS * bps,
			       bps, sec);
	if (rc)
		return rc > 0 ? -ERANGE : rc;
	for (uint32_t i = 0; i < bps; i += 4) {
		memcpy(&want, sec + i, sizeof(want));
		want = le32toh(want);
		if (want != sum) {
			snprintf(out->note, sizeof(out->note),
				 "its exFAT boot checksum does not match "
				 "(sector 11 says 0x%08x at byte %u, sectors "
				 "0..10 sum to 0x%08x)",
				 want, i, sum);
			return -EINVAL;
		}
	}
	return 0;
}

static int exfat_probe(struct ba_io *io, uint64_t off, uint64_t size,
		       struct ba_content *out)
{
	struct exfat_boot_disk bs;
	struct exfat_geom g;
	uint8_t buf[512];
	int rc;

	rc = ba_io_read_region(io, off, size, 0, sizeof(buf), buf);
	if (rc)
		return rc;
	memcpy(&bs, buf, sizeof(bs));
	if (memcmp(bs.name, EXFAT_NAME, sizeof(bs.name)))
		return 1;

	/* the note says why; the rest of @out stays cleared */
	memset(out, 0, sizeof(*out));
	rc = check_fixed(&bs, buf, out);
	if (rc)
		return rc;
	g.bps = 1u << bs.bytes_per_sector_shift;
	g.spc = 1u << bs.sectors_per_cluster_shift;
	g.sectors = le64toh(bs.le_volume_length);
	g.fat_at = le32toh(bs.le_fat_offset);
	g.fat_len = le32toh(bs.le_fat_length);
	g.heap_at = le32toh(bs.le_heap_offset);
	g.clusters = le32toh(bs.le_cluster_count);
	g.root = le32toh(bs.le_root_cluster);
	g.nfats = bs.nfats;
	rc = check_geometry(&g, out);
	if (rc)
		return rc;
	/* sectors <= size / bps: sectors * bps cannot overflow below */
	if (g.sectors > size / g.bps) {
		snprintf(out->note, sizeof(out->note),
			 "its exFAT boot sector says %llu sectors of %u bytes, "
			 "past its end (%llu bytes): cut short",
			 (unsigned long long)g.sectors, g.bps,
			 (unsigned long long)size);
		return -ERANGE;
	}
	rc = check_sum(io, off, size, g.bps, out);
	if (rc)
		return rc;

	out->kind = BA_CONTENT_FS;
	snprintf(out->type, sizeof(out->type), "exfat");
	snprintf(out->version, sizeof(out->version), "%u.%u", bs.revision_major,
		 bs.revision_minor);
	out->block_size = g.bps * g.spc;
	out->sector_size = g.bps;
	out->data_offset = (uint64_t)g.heap_at * g.bps;
	out->used_size = g.sectors * g.bps;
	return 0;
}

const struct ba_prober ba_exfat_prober = {
	.name = "exfat",
	.kind = BA_CONTENT_FS,
	.probe = exfat_probe,
};
