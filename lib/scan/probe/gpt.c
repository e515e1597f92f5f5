/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gpt.c - validation of both GPT headers and their entry arrays
 * (UEFI Specification 2.10, chapter 5.3), to say which copy is bad.
 * libblkid reads the partitions; it silently falls back to the backup
 * header and does not tell which one it used.
 *
 * Checked in libfdisk's order: signature, header size, header CRC,
 * self-location, usable range, entry size and count (bounded before
 * multiplying), entries CRC.
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scan/scan.h"

#define GPT_SIGNATURE	   "EFI PART"
#define GPT_HEADER_MIN	   92
#define GPT_MAX_ENTRIES	   16384 /* UEFI minimum is 128; be generous */
#define GPT_MAX_ENTRY_SIZE 4096

struct gpt_header_disk {
	char signature[8];	      /* 0x00 "EFI PART" */
	uint32_t le_revision;	      /* 0x08 */
	uint32_t le_header_size;      /* 0x0c */
	uint32_t le_header_crc32;     /* 0x10 */
	uint32_t le_reserved;	      /* 0x14 */
	uint64_t le_my_lba;	      /* 0x18 */
	uint64_t le_alternate_lba;    /* 0x20 */
	uint64_t le_first_usable_lba; /* 0x28 */
	uint64_t le_last_usable_lba;  /* 0x30 */
	uint8_t disk_guid[16];	      /* 0x38 */
	uint64_t le_entries_lba;      /* 0x48 */
	uint32_t le_nentries;	      /* 0x50 */
	uint32_t le_entry_size;	      /* 0x54 */
	uint32_t le_entries_crc32;    /* 0x58 */
} __attribute__((packed));

_Static_assert(sizeof(struct gpt_header_disk) == GPT_HEADER_MIN,
	       "GPT header is 92 bytes");
_Static_assert(offsetof(struct gpt_header_disk, le_entries_lba) == 0x48,
	       "GPT entries LBA at 0x48");

static int bad(struct ba_gpt_header *h, const char *why)
{
	h->state = BA_GPT_BAD;
	h->why = why;
	return 0;
}

/* Used entries (type GUID not zero) outside the usable range. */
static void find_outside(struct ba_gpt_header *h, const uint8_t *buf)
{
	static const uint8_t zero[16];

	for (uint32_t i = 0; i < h->nentries; i++) {
		const uint8_t *e = buf + (size_t)i * h->entry_size;
		uint64_t first, last;

		if (!memcmp(e, zero, sizeof(zero)))
			continue;
		memcpy(&first, e + 32, 8);
		memcpy(&last, e + 40, 8);
		first = le64toh(first);
		last = le64toh(last);
		if (first >= h->first_usable_lba &&
		    last <= h->last_usable_lba && first <= last)
			continue;
		if (h->noutside < sizeof(h->outside) / sizeof(h->outside[0]))
			h->outside[h->noutside] =
				(struct ba_gpt_entry){i + 1, first, last};
		h->noutside++;
	}
}

static int check_entries(struct ba_io *io, uint32_t ss, struct ba_gpt_header *h,
			 uint32_t want_crc)
{
	uint64_t bytes = (uint64_t)h->nentries * h->entry_size;
	uint64_t off, entry_lbas;
	uint8_t *buf;
	int rc;

	if (h->entries_lba > io->size / ss)
		return bad(h, "entry array lies beyond the end of the device");
	if (bytes > BA_IO_MAX_READ)
		return bad(h, "entry array too large");
	/* The entry array lies between the header and the usable range. */
	entry_lbas = (bytes + ss - 1) / ss;
	if (h->entries_lba + entry_lbas > io->size / ss)
		return bad(h, "entry array lies beyond the end of the device");
	if (h->my_lba == 1 ? (h->entries_lba < 2 ||
			      h->entries_lba + entry_lbas > h->first_usable_lba)
			   : (h->entries_lba <= h->last_usable_lba ||
			      h->entries_lba + entry_lbas > h->my_lba))
		return bad(h, "entry array overlaps the header or the "
			      "usable range");
	off = h->entries_lba * ss;
	buf = malloc(bytes ? bytes : 1);
	if (!buf)
		return -ENOMEM;
	rc = ba_io_read(io, off, bytes, buf);
	if (rc < 0) {
		free(buf);
		h->state = BA_GPT_UNREADABLE;
		return 0;
	}
	if (rc == 1)
		bad(h, "entry array lies beyond the end of the device");
	else if (ba_crc32(0, buf, bytes) != want_crc)
		bad(h, "entry array checksum mismatch");
	else
		find_outside(h, buf);
	free(buf);
	return 0;
}

static int read_header(struct ba_io *io, uint32_t ss, uint64_t lba,
		       struct ba_gpt_header *h)
{
	struct gpt_header_disk raw;
	uint64_t last_lba = io->size / ss - 1;
	uint8_t *sector;
	uint32_t hsize, crc;
	int rc;

	memset(h, 0, sizeof(*h));
	if (io->size / ss < 3 || lba > last_lba)
		return 0;
	sector = malloc(ss);
	if (!sector)
		return -ENOMEM;
	rc = ba_io_read(io, lba * ss, ss, sector);
	if (rc) {
		free(sector);
		if (rc < 0)
			h->state = BA_GPT_UNREADABLE;
		return 0;
	}
	memcpy(&raw, sector, sizeof(raw));
	if (memcmp(raw.signature, GPT_SIGNATURE, 8) != 0) {
		free(sector);
		return 0;
	}
	hsize = le32toh(raw.le_header_size);
	h->my_lba = le64toh(raw.le_my_lba);
	h->alternate_lba = le64toh(raw.le_alternate_lba);
	h->first_usable_lba = le64toh(raw.le_first_usable_lba);
	h->last_usable_lba = le64toh(raw.le_last_usable_lba);
	h->entries_lba = le64toh(raw.le_entries_lba);
	h->nentries = le32toh(raw.le_nentries);
	h->entry_size = le32toh(raw.le_entry_size);
	h->state = BA_GPT_OK;

	if (hsize < GPT_HEADER_MIN || hsize > ss) {
		free(sector);
		return bad(h, "header size out of range");
	}
	/* The CRC covers the header with its own CRC field zeroed. */
	memset(sector + offsetof(struct gpt_header_disk, le_header_crc32), 0,
	       4);
	crc = ba_crc32(0, sector, hsize);
	free(sector);
	if (crc != le32toh(raw.le_header_crc32))
		return bad(h, "header checksum mismatch");
	if (h->my_lba != lba)
		return bad(h, "header does not point to its own location");
	if (h->first_usable_lba > h->last_usable_lba)
		return bad(h, "first usable LBA after last usable LBA");
	{
		/* the disk it was written for: its backup header is its
		 * last LBA (the primary's alternate) */
		uint64_t want =
			lba == 1 && h->alternate_lba > h->last_usable_lba
				? h->alternate_lba + 1
				: h->last_usable_lba + 1;

		if (want <= UINT64_MAX / ss && want * ss > io->size)
			h->short_by = want * ss - io->size;
	}
	if (h->last_usable_lba > last_lba)
		return bad(h, "usable range runs past the end of the device "
			      "(truncated image?)");
	/* (a primary pointing at itself is read past: the backup is then
	 * looked for at the last LBA) */
	if (lba == 1 ? !h->alternate_lba : h->alternate_lba != 1)
		return bad(h, lba == 1 ? "alternate LBA (the backup header) "
					 "is 0"
				       : "alternate LBA does not point to "
					 "the primary header (LBA 1)");
	if (h->entry_size < 128 || h->entry_size > GPT_MAX_ENTRY_SIZE ||
	    h->entry_size % 8)
		return bad(h, "entry size out of range");
	if (h->nentries == 0 || h->nentries > GPT_MAX_ENTRIES)
		return bad(h, "absurd number of entries");
	return check_entries(io, ss, h, le32toh(raw.le_entries_crc32));
}

/**
 * ba_gpt_check: validate the primary header (LBA 1) and the backup (the
 * primary's alternate LBA when the primary is sane, else the last LBA).
 * Returns: 0 (states in @out), or -ENOMEM.
 */
int ba_gpt_check(struct ba_io *io, uint32_t sector_size,
		 struct ba_gpt_check *out)
{
	uint64_t last_lba, alt;
	int rc;

	memset(out, 0, sizeof(*out));
	if (sector_size < 512 || io->size / sector_size < 3)
		return 0;
	last_lba = io->size / sector_size - 1;
	rc = read_header(io, sector_size, 1, &out->primary);
	if (rc)
		return rc;
	alt = last_lba;
	if (out->primary.state == BA_GPT_OK &&
	    out->primary.alternate_lba <= last_lba &&
	    out->primary.alternate_lba > 1)
		alt = out->primary.alternate_lba;
	rc = read_header(io, sector_size, alt, &out->backup);
	if (rc)
		return rc;
	if (out->primary.state == BA_GPT_OK &&
	    out->backup.state == BA_GPT_ABSENT)
		bad(&out->backup,
		    alt == last_lba
			    ? "no backup header at the last LBA (truncated or resized?)"
			    : "no backup header where the primary says it is");
	return 0;
}
