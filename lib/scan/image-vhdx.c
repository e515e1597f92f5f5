/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * image-vhdx.c - what a VHDX file records of the disk it holds: its
 * logical and physical sector sizes and its block size (the unit it
 * allocates in), read from its metadata region.
 *
 * MS-VHDX v1.00 (Microsoft, 2012): the region table at 192 KiB (§2.2.3),
 * 64 KiB guarded by a CRC-32C, lists the metadata region; its table
 * (§2.6.1), 64 KiB at the region's start, lists the items by GUID with
 * offsets relative to the region; File Parameters (§2.6.2.1), Logical
 * Sector Size (§2.6.2.4) and Physical Sector Size (§2.6.2.5) are read.
 * qemu's block/vhdx.c reads the same path: the region table at its fixed
 * offset whichever of the two headers (64 and 128 KiB) is current, as
 * the headers do not locate it; a header or log qemu cannot use is
 * refused by qemu-nbd with its own message.
 *
 * Every offset is checked against the region and the file before it is
 * read: a damaged or hostile file gives a sentence, never a read past
 * what it holds.
 *
 * ba_vhdx_parse is that walk, shared with the vhdx reader
 * (vdisk-vhdx.c): strict, it also finds the BAT region and the Virtual
 * Disk Size and Page 83 items qemu requires, and counts the regions and
 * items marked required that it does not know (qemu refuses those).
 */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scan/scan.h"

#define VHDX_TABLE_SIZE	      (64 * KIB) /* region and metadata tables */
#define VHDX_REGION_TABLE_OFF (192 * KIB)
#define VHDX_MAX_ENTRIES      2047 /* both tables, §2.2.3.1 and §2.6.1.1 */
#define REGION_REQUIRED	      (1u << 0) /* region entry flags, §2.2.3.2 */
#define ITEM_REQUIRED	      (1u << 2) /* metadata entry flags, §2.6.1.2 */

/* Region table header (§2.2.3.1), then entries of 32 bytes. */
struct vhdx_region_header {
	char signature[4];	 /* 0x00 "regi" */
	uint32_t le_checksum;	 /* 0x04 CRC-32C, this field zero */
	uint32_t le_entry_count; /* 0x08 */
	uint32_t le_reserved;	 /* 0x0c */
};

struct vhdx_region_entry {
	uint8_t guid[16];	 /* 0x00 */
	uint64_t le_file_offset; /* 0x10 multiple of 1 MiB */
	uint32_t le_length;	 /* 0x18 multiple of 1 MiB */
	uint32_t le_flags;	 /* 0x1c bit 0: required */
};

/* Metadata table header (§2.6.1.1), then entries of 32 bytes. */
struct vhdx_metadata_header {
	char signature[8];	 /* 0x00 "metadata" */
	uint16_t le_reserved;	 /* 0x08 */
	uint16_t le_entry_count; /* 0x0a */
	uint32_t le_reserved2[5];
};

struct vhdx_metadata_entry {
	uint8_t item_id[16]; /* 0x00 */
	uint32_t le_offset;  /* 0x10 from the metadata region's start */
	uint32_t le_length;  /* 0x14 */
	uint32_t le_flags;   /* 0x18 */
	uint32_t le_reserved;
};

_Static_assert(sizeof(struct vhdx_region_header) == 16, "region header");
_Static_assert(sizeof(struct vhdx_region_entry) == 32, "region entry");
_Static_assert(sizeof(struct vhdx_metadata_header) == 32, "metadata header");
_Static_assert(sizeof(struct vhdx_metadata_entry) == 32, "metadata entry");

/*
 * GUIDs as stored: the first three fields little-endian (§2.1).
 * Metadata region 8B7CA206-4790-4B9A-B8FE-575F050F886E, BAT region
 * 2DC27766-F623-4200-9D64-115E9BFD4A08, File Parameters
 * CAA16737-FA36-4D43-B3B6-33F0AA44E76B, Logical Sector Size
 * 8141BF1D-A96F-4709-BA47-F233A8FAAB5F, Physical Sector Size
 * CDA348C7-445D-4471-9CC9-E9885251C556, Virtual Disk Size
 * 2FA54224-CD1B-4876-B211-5DBED83BF4B8, Page 83 Data
 * BECA12AB-B2E6-4523-93EF-C309E000C746.
 */
static const uint8_t metadata_region_guid[16] = {
	0x06, 0xa2, 0x7c, 0x8b, 0x90, 0x47, 0x9a, 0x4b,
	0xb8, 0xfe, 0x57, 0x5f, 0x05, 0x0f, 0x88, 0x6e};
static const uint8_t bat_region_guid[16] = {0x66, 0x77, 0xc2, 0x2d, 0x23, 0xf6,
					    0x00, 0x42, 0x9d, 0x64, 0x11, 0x5e,
					    0x9b, 0xfd, 0x4a, 0x08};

enum item {
	ITEM_FILE_PARAMETERS,
	ITEM_LOGICAL,
	ITEM_PHYSICAL,
	ITEM_DISK_SIZE, /* strict only, from here on */
	ITEM_PAGE83,
	NITEMS
};
#define NITEMS_SECTORS ITEM_DISK_SIZE /* what ba_vhdx_read needs */

static const struct {
	uint8_t guid[16];
	uint32_t length; /* bytes read */
	const char *name;
} items[NITEMS] = {
	[ITEM_FILE_PARAMETERS] = {{0x37, 0x67, 0xa1, 0xca, 0x36, 0xfa, 0x43,
				   0x4d, 0xb3, 0xb6, 0x33, 0xf0, 0xaa, 0x44,
				   0xe7, 0x6b},
				  8,
				  "file parameters"},
	[ITEM_LOGICAL] = {{0x1d, 0xbf, 0x41, 0x81, 0x6f, 0xa9, 0x09, 0x47, 0xba,
			   0x47, 0xf2, 0x33, 0xa8, 0xfa, 0xab, 0x5f},
			  4,
			  "logical sector size"},
	[ITEM_PHYSICAL] = {{0xc7, 0x48, 0xa3, 0xcd, 0x5d, 0x44, 0x71, 0x44,
			    0x9c, 0xc9, 0xe9, 0x88, 0x52, 0x51, 0xc5, 0x56},
			   4,
			   "physical sector size"},
	[ITEM_DISK_SIZE] = {{0x24, 0x42, 0xa5, 0x2f, 0x1b, 0xcd, 0x76, 0x48,
			     0xb2, 0x11, 0x5d, 0xbe, 0xd8, 0x3b, 0xf4, 0xb8},
			    8,
			    "virtual disk size"},
	[ITEM_PAGE83] = {{0xab, 0x12, 0xca, 0xbe, 0xe6, 0xb2, 0x23, 0x45, 0x93,
			  0xef, 0xc3, 0x09, 0xe0, 0x00, 0xc7, 0x46},
			 16,
			 "page 83 data"},
};

static uint32_t le32_at(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

/* Read [off, off + len) of the file, or say why not in @why. */
static int read_at(struct ba_io *io, uint64_t off, size_t len, void *buf,
		   const char *what, char *why, size_t wlen)
{
	int rc = ba_io_read(io, off, len, buf);

	if (rc == 1)
		snprintf(why, wlen,
			 "its %s (bytes %" PRIu64 " to %" PRIu64
			 ") lies past the end of the file (%" PRIu64
			 " bytes): truncated",
			 what, off, off + len, io->size);
	else if (rc < 0)
		snprintf(why, wlen, "cannot read its %s: %s", what,
			 strerror(-rc));
	return rc;
}

/* One region of @e into *@off, *@len: false when it is the second. */
static bool take_region(const struct vhdx_region_entry *e, bool *found,
			uint64_t *off, uint64_t *len)
{
	if (*found)
		return false;
	*found = true;
	*off = le64toh(e->le_file_offset);
	*len = le32toh(e->le_length);
	return true;
}

/* The metadata region's extent (strict: the BAT's too) from the region
 * table in @t, into @l. */
static const char *find_regions(uint8_t *t, bool strict,
				struct ba_vhdx_layout *l, char *why,
				size_t wlen)
{
	struct vhdx_region_header h;
	uint32_t n, sum;
	bool found = false, bat = false;

	memcpy(&h, t, sizeof(h));
	if (memcmp(h.signature, "regi", 4))
		return "its region table (at 192 KiB) has no 'regi' signature";
	sum = le32toh(h.le_checksum);
	/* the sum is over the table with its own field zero */
	memset(t + 4, 0, 4);
	if (ba_crc32c(t, VHDX_TABLE_SIZE) != sum)
		return "its region table (at 192 KiB) fails its CRC-32C";
	n = le32toh(h.le_entry_count);
	if (n > VHDX_MAX_ENTRIES)
		return snprintf(why, wlen,
				"its region table lists %" PRIu32
				" regions, more than the format's 2047",
				n),
		       why;
	for (uint32_t i = 0; i < n; i++) {
		struct vhdx_region_entry e;

		memcpy(&e, t + sizeof(h) + (size_t)i * sizeof(e), sizeof(e));
		if (!memcmp(e.guid, metadata_region_guid, 16)) {
			if (!take_region(&e, &found, &l->meta_off,
					 &l->meta_len))
				return "its region table lists two metadata "
				       "regions";
		} else if (strict && !memcmp(e.guid, bat_region_guid, 16)) {
			if (!take_region(&e, &bat, &l->bat_off, &l->bat_len))
				return "its region table lists two BAT regions";
		} else if (strict && (le32toh(e.le_flags) & REGION_REQUIRED)) {
			l->unknown_required++;
		}
	}
	if (!found)
		return "its region table lists no metadata region";
	if (strict && !bat)
		return "its region table lists no BAT region";
	if (l->meta_len < VHDX_TABLE_SIZE)
		return snprintf(why, wlen,
				"its metadata region is %" PRIu64
				" bytes, smaller than its 64 KiB table",
				l->meta_len),
		       why;
	return NULL;
}

/* Where each of the first @nitems items lies in the region (@off,
 * relative) from table @t; strict, the unknown required ones counted in
 * @l. */
static const char *find_items(const uint8_t *t, int nitems,
			      struct ba_vhdx_layout *l, uint32_t off[NITEMS],
			      char *why, size_t wlen)
{
	struct vhdx_metadata_header h;
	bool seen[NITEMS] = {false};
	uint64_t region_len = l->meta_len;
	unsigned int n;

	memcpy(&h, t, sizeof(h));
	if (memcmp(h.signature, "metadata", 8))
		return "its metadata table has no 'metadata' signature";
	n = le16toh(h.le_entry_count);
	if (n > VHDX_MAX_ENTRIES)
		return snprintf(why, wlen,
				"its metadata table lists %u items, more "
				"than the format's 2047",
				n),
		       why;
	for (unsigned int i = 0; i < n; i++) {
		struct vhdx_metadata_entry e;
		bool known = false;

		memcpy(&e, t + sizeof(h) + (size_t)i * sizeof(e), sizeof(e));
		for (int k = 0; k < nitems; k++) {
			uint32_t o = le32toh(e.le_offset);
			uint32_t len = le32toh(e.le_length);

			if (memcmp(e.item_id, items[k].guid, 16))
				continue;
			known = true;
			if (seen[k])
				return snprintf(why, wlen,
						"its metadata table lists "
						"the %s twice",
						items[k].name),
				       why;
			if (len < items[k].length || o < VHDX_TABLE_SIZE ||
			    o > region_len || len > region_len - o)
				return snprintf(why, wlen,
						"its %s item (%" PRIu32
						" bytes at %" PRIu32
						") is not inside its "
						"metadata region (%" PRIu64
						" bytes)",
						items[k].name, len, o,
						region_len),
				       why;
			seen[k] = true;
			off[k] = o;
		}
		if (nitems > NITEMS_SECTORS && !known &&
		    (le32toh(e.le_flags) & ITEM_REQUIRED))
			l->unknown_required++;
	}
	for (int k = 0; k < nitems; k++)
		if (!seen[k])
			return snprintf(why, wlen,
					"its metadata table lists no %s",
					items[k].name),
			       why;
	return NULL;
}

/* Is @size, the @which sector size, one the format forbids?  Says so. */
static bool bad_sector_size(const char *which, uint32_t size, char *why,
			    size_t wlen)
{
	if (size == 512 || size == 4096)
		return false;
	snprintf(why, wlen,
		 "its %s sector size is %" PRIu32
		 ": the format allows 512 or 4096",
		 which, size);
	return true;
}

/* The values of the first @nitems items, read and checked (§2.6.2). */
static const char *read_items(struct ba_io *io, int nitems,
			      const uint32_t off[NITEMS],
			      struct ba_vhdx_layout *l, char *why, size_t wlen)
{
	uint8_t v[NITEMS][16];
	uint64_t size;

	for (int k = 0; k < nitems; k++)
		if (read_at(io, l->meta_off + off[k], items[k].length, v[k],
			    items[k].name, why, wlen))
			return why;
	l->block_size = le32_at(v[ITEM_FILE_PARAMETERS]);
	l->param_flags = le32_at(v[ITEM_FILE_PARAMETERS] + 4);
	l->logical_sector_size = le32_at(v[ITEM_LOGICAL]);
	l->physical_sector_size = le32_at(v[ITEM_PHYSICAL]);
	if (nitems > ITEM_DISK_SIZE) {
		memcpy(&size, v[ITEM_DISK_SIZE], sizeof(size));
		l->disk_size = le64toh(size);
	}
	if (l->block_size < MIB || l->block_size > 256 * MIB ||
	    !ba_is_pow2(l->block_size))
		return snprintf(why, wlen,
				"its block size is %" PRIu32
				": the format allows a power of two from "
				"1 MiB to 256 MiB",
				l->block_size),
		       why;
	if (bad_sector_size("logical", l->logical_sector_size, why, wlen) ||
	    bad_sector_size("physical", l->physical_sector_size, why, wlen))
		return why;
	return NULL;
}

/**
 * ba_vhdx_parse: the region table and the metadata of the VHDX file read
 * through @io, into @l; @strict (the vhdx reader): the BAT region, the
 * virtual disk size and the page 83 item too, and the count of the
 * required regions and items it does not know.
 * Returns: 0 with @l set; 1 when the file is damaged (why, one line, in
 * @why); -ENOMEM.
 */
int ba_vhdx_parse(struct ba_io *io, bool strict, struct ba_vhdx_layout *l,
		  char *why, size_t wlen)
{
	uint8_t *t = malloc(VHDX_TABLE_SIZE);
	uint32_t off[NITEMS] = {0};
	int nitems = strict ? NITEMS : NITEMS_SECTORS;
	const char *bad = NULL;

	memset(l, 0, sizeof(*l));
	if (!why || !wlen) { /* "bad = why" below must mean damaged */
		free(t);
		return -EINVAL;
	}
	if (!t)
		return -ENOMEM;
	if (read_at(io, VHDX_REGION_TABLE_OFF, VHDX_TABLE_SIZE, t,
		    "region table", why, wlen))
		bad = why;
	if (!bad)
		bad = find_regions(t, strict, l, why, wlen);
	if (!bad &&
	    (l->meta_off > io->size || l->meta_len > io->size - l->meta_off)) {
		snprintf(why, wlen,
			 "its metadata region (bytes %" PRIu64 " to %" PRIu64
			 ") ends past the end of the file (%" PRIu64
			 " bytes): truncated",
			 l->meta_off, l->meta_off + l->meta_len, io->size);
		bad = why;
	}
	if (!bad && read_at(io, l->meta_off, VHDX_TABLE_SIZE, t,
			    "metadata table", why, wlen))
		bad = why;
	if (!bad)
		bad = find_items(t, nitems, l, off, why, wlen);
	if (!bad)
		bad = read_items(io, nitems, off, l, why, wlen);
	free(t);
	if (!bad)
		return 0;
	if (bad != why)
		snprintf(why, wlen, "%s", bad);
	return 1;
}

/**
 * ba_vhdx_info: the sector sizes and block size of the layout @l (as
 * ba_vhdx_parse gave it), into @info.
 */
void ba_vhdx_info(const struct ba_vhdx_layout *l, struct ba_image_info *info)
{
	info->cluster_size = l->block_size;
	info->logical_sector_size = l->logical_sector_size;
	info->physical_sector_size = l->physical_sector_size;
	info->logical_source = BLKALIGN_SRC_IMAGE;
	info->physical_source = BLKALIGN_SRC_IMAGE;
}

/**
 * ba_vhdx_read: the sector sizes and block size of the VHDX file read
 * through @io, into @info.
 * Returns: 0 with them set; 1 when the file is damaged (why in
 * info->why, info->damage set); -ENOMEM.
 */
int ba_vhdx_read(struct ba_io *io, struct ba_image_info *info)
{
	struct ba_vhdx_layout l;
	int rc = ba_vhdx_parse(io, false, &l, info->why, sizeof(info->why));

	if (rc == 1)
		info->damage = info->why;
	if (!rc)
		ba_vhdx_info(&l, info);
	return rc;
}
