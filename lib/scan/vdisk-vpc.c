/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vdisk-vpc.c - the map of a VHD image (qemu's "vpc"), read as qemu
 * 7.2's block/vpc.c reads it; the format is Microsoft's "Virtual Hard
 * Disk Image Format Specification" (version 1.0, 2006).
 *
 * The footer, 512 bytes big-endian, ends the file; a dynamic disk keeps
 * a copy at offset 0, which qemu reads first: found there the disk is
 * read as dynamic, found only at the end as fixed, and its checksum
 * must hold.  A fixed disk (type 2) is its data from offset 0.  A
 * dynamic one (type 3) has the dynamic header ("cxsparse") at the
 * footer's data offset, which locates the BAT: one big-endian sector
 * number per block, 0xffffffff for a block not allocated (zeros); an
 * allocated block is its sector bitmap (block size / 512 bits, in whole
 * sectors), then its data.
 *
 * The virtual size is qemu's: cylinders * heads * sectors per track
 * sectors, unless the creator application is one that sizes the disk
 * by the footer's current size ('win ', 'qem2' -- qemu-img's
 * force_size=on --, 'd2v ', 'CTXS', 'tap\0') or the geometry is the
 * largest CHS can say (65535/16/255): then the current size.  qemu's
 * force_size runtime option, not in the file, is not known here.
 *
 * Left to qemu (-ENOTSUP): a differencing disk (type 4), a footer
 * whose type does not match where it was found, any other type, a disk
 * past qemu's 2040 GiB.
 */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scan/scan.h"
#include "vdisk.h"

/* The footer ("Hard Disk Footer Format"), big-endian. */
struct vpc_footer {
	char cookie[8];		   /* 0x00 "conectix" */
	uint32_t be_features;	   /* 0x08 */
	uint32_t be_version;	   /* 0x0c 0x00010000 */
	uint64_t be_data_offset;   /* 0x10 the dynamic header; fixed: ~0 */
	uint32_t be_timestamp;	   /* 0x18 */
	char creator_app[4];	   /* 0x1c */
	uint32_t be_creator_ver;   /* 0x20 */
	char creator_os[4];	   /* 0x24 */
	uint64_t be_original_size; /* 0x28 */
	uint64_t be_current_size;  /* 0x30 bytes */
	uint16_t be_cylinders;	   /* 0x38 */
	uint8_t heads;		   /* 0x3a */
	uint8_t sectors;	   /* 0x3b per track */
	uint32_t be_disk_type;	   /* 0x3c 2 fixed, 3 dynamic, 4 diff. */
	uint32_t be_checksum;	   /* 0x40 ~sum of the bytes, this zero */
	uint8_t uuid[16];	   /* 0x44 */
	uint8_t saved_state;	   /* 0x54 */
	uint8_t reserved[427];	   /* 0x55 */
} __attribute__((packed));
_Static_assert(sizeof(struct vpc_footer) == 512, "vpc footer");
_Static_assert(offsetof(struct vpc_footer, be_current_size) == 0x30,
	       "vpc current_size");
_Static_assert(offsetof(struct vpc_footer, be_disk_type) == 0x3c,
	       "vpc disk_type");
_Static_assert(offsetof(struct vpc_footer, be_checksum) == 0x40,
	       "vpc checksum");

/* The dynamic header ("Dynamic Disk Header Format"), its first fields;
 * parent name and locators follow (differencing disks). */
struct vpc_dyn_header {
	char cookie[8];		       /* 0x00 "cxsparse" */
	uint64_t be_data_offset;       /* 0x08 ~0 */
	uint64_t be_table_offset;      /* 0x10 the BAT */
	uint32_t be_version;	       /* 0x18 */
	uint32_t be_max_table_entries; /* 0x1c */
	uint32_t be_block_size;	       /* 0x20 */
	uint32_t be_checksum;	       /* 0x24 */
	uint8_t parent_uuid[16];       /* 0x28 */
	uint32_t be_parent_timestamp;  /* 0x38 */
	uint32_t be_reserved;	       /* 0x3c */
} __attribute__((packed));
_Static_assert(sizeof(struct vpc_dyn_header) == 0x40, "vpc dynamic header");
_Static_assert(offsetof(struct vpc_dyn_header, be_table_offset) == 0x10,
	       "vpc table_offset");
_Static_assert(offsetof(struct vpc_dyn_header, be_block_size) == 0x20,
	       "vpc block_size");

#define VHD_FIXED	 2
#define VHD_DYNAMIC	 3
#define VHD_DIFFERENCING 4
#define VHD_MAX_GEOMETRY (UINT64_C(65535) * 16 * 255)
#define VHD_MAX_SECTORS	 UINT64_C(0xff000000) /* qemu: 2040 GiB */
#define BAT_UNALLOCATED	 0xffffffffu
#define BAT_BATCH	 64    /* entries read at a time by map */
#define SCAN_BATCH	 16384 /* by the check at open */

struct vpc {
	bool fixed;
	uint64_t block_size;
	uint64_t bitmap_size; /* bytes before a block's data */
	uint64_t bat_off;
	uint32_t max_entries;
};

/* Does the creator size its disks by current_size (qemu's table)? */
static bool sized_by_current_size(const char app[4])
{
	return !memcmp(app, "win ", 4) || !memcmp(app, "qem2", 4) ||
	       !memcmp(app, "d2v ", 4) || !memcmp(app, "CTXS", 4) ||
	       !memcmp(app, "tap", 4);
}

/* The footer into @f: at 0 (*@at_start) or in the last 512 bytes. */
static int read_footer(struct ba_vdisk *vd, struct vpc_footer *f,
		       bool *at_start, char *why, size_t len)
{
	uint64_t fsize = vd->file->size;
	const uint8_t *p = (const uint8_t *)f;
	uint32_t sum = 0, want;
	int rc;

	if (fsize < sizeof(*f)) {
		snprintf(why, len, "VHD file shorter than its footer");
		return -EINVAL;
	}
	rc = ba_io_read(vd->file, 0, sizeof(*f), f);
	*at_start = !rc && !memcmp(f->cookie, "conectix", 8);
	if (!*at_start) {
		rc = ba_io_read(vd->file, fsize - sizeof(*f), sizeof(*f), f);
		if (rc || memcmp(f->cookie, "conectix", 8)) {
			snprintf(why, len, "no VHD footer ('conectix')");
			return rc < 0 ? rc : -EINVAL;
		}
	}
	want = be32toh(f->be_checksum);
	for (size_t i = 0; i < sizeof(*f); i++)
		if (i < offsetof(struct vpc_footer, be_checksum) ||
		    i >= offsetof(struct vpc_footer, be_checksum) + 4)
			sum += p[i];
	if (~sum != want) {
		snprintf(why, len,
			 "VHD footer checksum %#" PRIx32
			 " is not its bytes' %#" PRIx32,
			 want, ~sum);
		return -EINVAL;
	}
	return 0;
}

/* Every allocated block in the file, and the BAT before them, as qemu's
 * free_data_block_offset check requires at open. */
static int check_bat(struct ba_vdisk *vd, const struct vpc *v, char *why,
		     size_t len)
{
	uint64_t fsize = vd->file->size;
	uint32_t *e;
	int rc = 0;

	if (v->bat_off > fsize ||
	    (uint64_t)v->max_entries * 4 > fsize - v->bat_off) {
		snprintf(why, len,
			 "VHD BAT (%" PRIu32 " entries at %" PRIu64
			 ") ends past the end of the file (%" PRIu64 " bytes)",
			 v->max_entries, v->bat_off, fsize);
		return -EINVAL;
	}
	e = malloc(SCAN_BATCH * sizeof(*e));
	if (!e) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	for (uint64_t i = 0; i < v->max_entries && !rc;) {
		size_t n = v->max_entries - i < SCAN_BATCH
				   ? (size_t)(v->max_entries - i)
				   : SCAN_BATCH;
		uint32_t prev;

		rc = ba_io_read(vd->file, v->bat_off + 4 * i, n * 4, e);
		if (rc) {
			snprintf(why, len, "cannot read the VHD BAT");
			rc = rc > 0 ? -EINVAL : rc;
			break;
		}
		/* an entry equal to the one before has its verdict (a BAT
		 * is mostly runs of 0xffffffff): one comparison for it */
		prev = ~e[0];

		for (size_t k = 0; k < n && !rc; k++) {
			uint32_t s = be32toh(e[k]);
			uint64_t at = (uint64_t)s * 512;

			if (e[k] == prev)
				continue;
			prev = e[k];
			if (s == BAT_UNALLOCATED)
				continue;
			if (at > fsize ||
			    v->bitmap_size + v->block_size > fsize - at) {
				snprintf(why, len,
					 "VHD block %" PRIu64 " (at %" PRIu64
					 ") ends past the end of the file "
					 "(%" PRIu64 " bytes): truncated",
					 i + k, at, fsize);
				rc = -EINVAL;
			}
		}
		i += n;
	}
	free(e);
	return rc;
}

/* The dynamic header at @at and the BAT it locates, into @v. */
static int open_dynamic(struct ba_vdisk *vd, struct vpc *v, uint64_t at,
			char *why, size_t len)
{
	struct vpc_dyn_header h;
	uint64_t bs, sectors = vd->size / 512;
	int rc = ba_io_read(vd->file, at, sizeof(h), &h);

	if (rc || memcmp(h.cookie, "cxsparse", 8)) {
		snprintf(why, len,
			 "no VHD dynamic header ('cxsparse') at %" PRIu64, at);
		return rc < 0 ? rc : -EINVAL;
	}
	bs = be32toh(h.be_block_size);
	v->max_entries = be32toh(h.be_max_table_entries);
	v->bat_off = be64toh(h.be_table_offset);
	if (!ba_is_pow2(bs) || bs < 512) {
		snprintf(why, len, "VHD block size %" PRIu64 " is invalid", bs);
		return -EINVAL;
	}
	v->block_size = bs;
	v->bitmap_size = ((bs / (8 * 512)) + 511) & ~UINT64_C(511);
	if (sectors * 512 / bs > 0xffffffffu ||
	    (uint64_t)v->max_entries * bs < sectors * 512 ||
	    v->max_entries > INT32_MAX / 4) {
		snprintf(why, len,
			 "VHD BAT of %" PRIu32 " entries of %" PRIu64
			 " bytes does not fit a disk of %" PRIu64 " bytes",
			 v->max_entries, bs, vd->size);
		return -EINVAL;
	}
	return check_bat(vd, v, why, len);
}

static int vpc_open(struct ba_vdisk *vd, char *why, size_t len)
{
	struct vpc_footer f;
	struct vpc *v;
	uint64_t sectors;
	uint32_t type;
	bool at_start;
	int rc = read_footer(vd, &f, &at_start, why, len);

	if (rc)
		return rc;
	type = be32toh(f.be_disk_type);
	if (type == VHD_DIFFERENCING) {
		snprintf(why, len, "a differencing VHD is left to qemu");
		return -ENOTSUP;
	}
	if (type != (at_start ? VHD_DYNAMIC : VHD_FIXED)) {
		snprintf(why, len,
			 "a VHD of type %" PRIu32 " with its footer %s is "
			 "left to qemu",
			 type, at_start ? "at 0" : "only at the end");
		return -ENOTSUP;
	}
	sectors = (uint64_t)be16toh(f.be_cylinders) * f.heads * f.sectors;
	if (sized_by_current_size(f.creator_app) || sectors == VHD_MAX_GEOMETRY)
		sectors = be64toh(f.be_current_size) / 512;
	if (sectors > VHD_MAX_SECTORS) {
		snprintf(why, len,
			 "a VHD of %" PRIu64 " sectors, past qemu's 2040 GiB, "
			 "is left to qemu",
			 sectors);
		return -ENOTSUP;
	}
	v = calloc(1, sizeof(*v));
	if (!v) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	vd->priv = v;
	vd->size = sectors * 512;
	v->fixed = type == VHD_FIXED;
	if (v->fixed)
		return 0;
	return open_dynamic(vd, v, be64toh(f.be_data_offset), why, len);
}

/* Fixed: the file from 0.  Dynamic: the block at @off if allocated (its
 * successor's bitmap lies between it and the next), else the run of
 * unallocated ones from it that one batch of entries shows. */
static int vpc_map(struct ba_vdisk *vd, uint64_t off, struct ba_vext *ext)
{
	const struct vpc *v = vd->priv;
	uint64_t block, in_block;
	uint32_t e[BAT_BATCH];
	size_t n, k;
	int rc;

	if (v->fixed) {
		ext->kind = BA_VEXT_DATA;
		ext->file_off = off;
		ext->len = vd->size - off;
		return 0;
	}
	block = off / v->block_size;
	in_block = off % v->block_size;
	if (block >= v->max_entries)
		return -EINVAL; /* open checked that the BAT covers the disk */
	n = v->max_entries - block < BAT_BATCH
		    ? (size_t)(v->max_entries - block)
		    : BAT_BATCH;
	rc = ba_io_read(vd->file, v->bat_off + 4 * block, n * 4, e);
	if (rc)
		return rc > 0 ? -EINVAL : rc;
	if (be32toh(e[0]) != BAT_UNALLOCATED) {
		ext->kind = BA_VEXT_DATA;
		ext->file_off = (uint64_t)be32toh(e[0]) * 512 + v->bitmap_size +
				in_block;
		ext->len = v->block_size - in_block;
		return 0;
	}
	for (k = 1; k < n && be32toh(e[k]) == BAT_UNALLOCATED; k++)
		;
	ext->kind = BA_VEXT_ZERO;
	ext->len = k * v->block_size - in_block;
	return 0;
}

const struct ba_vdisk_format ba_vdisk_vpc = {
	.name = "vpc",
	.open = vpc_open,
	.map = vpc_map,
};
