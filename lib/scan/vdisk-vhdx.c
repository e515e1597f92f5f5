/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vdisk-vhdx.c - the map of a VHDX image, read as qemu's block/vhdx.c
 * reads it; the format is MS-VHDX v1.00 (Microsoft, "VHDX Format
 * Specification v1.00", 2012).
 *
 * The two headers (§2.2.2) at 64 and 128 KiB, each 4 KiB under a
 * CRC-32C: the current one is the valid one with the larger sequence
 * number (two valid ones with the same number must be identical, as
 * Disk2vhd writes them).  The region table (§2.2.3, image-vhdx.c's
 * ba_vhdx_parse) gives the BAT and the metadata, whose items give the
 * block size, the virtual disk size and the logical sector size
 * (§2.6.2).  The BAT (§2.5) has one entry per payload block, with a
 * sector bitmap entry after every chunk ratio of them, chunk ratio =
 * 2^23 * logical sector size / block size: a payload block's state in
 * the entry's low 3 bits, its offset in MiB in bits 20-63.  As qemu
 * reads them: FULLY_PRESENT (6) is in the file; NOT_PRESENT (0),
 * UNDEFINED (1), ZERO (2), UNMAPPED (3) and the 0.95 draft's UNMAPPED
 * (5) read as zeros; PARTIALLY_PRESENT (7), only valid in differencing
 * disks, and 4 fail the read (-EINVAL here).
 *
 * Left to qemu (-ENOTSUP): a log to replay (a non-zero log GUID in the
 * current header), a differencing disk (HasParent), logical sectors of
 * 4096 bytes (qemu 7.2 opens 512 only), a required region or metadata
 * item this reader does not know.
 */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scan/scan.h"
#include "vdisk.h"

/* A header (§2.2.2), little-endian; the rest of its 4 KiB is reserved. */
struct vhdx_header {
	char signature[4];	     /* 0x00 "head" */
	uint32_t le_checksum;	     /* 0x04 CRC-32C of the 4 KiB, this zero */
	uint64_t le_sequence_number; /* 0x08 */
	uint8_t file_write_guid[16]; /* 0x10 */
	uint8_t data_write_guid[16]; /* 0x20 */
	uint8_t log_guid[16];	     /* 0x30 zero: no log to replay */
	uint16_t le_log_version;     /* 0x40 0 */
	uint16_t le_version;	     /* 0x42 1 */
	uint32_t le_log_length;	     /* 0x44 multiple of 1 MiB */
	uint64_t le_log_offset;	     /* 0x48 multiple of 1 MiB */
} __attribute__((packed));
_Static_assert(sizeof(struct vhdx_header) == 0x50, "vhdx header");
_Static_assert(offsetof(struct vhdx_header, log_guid) == 0x30, "vhdx log_guid");
_Static_assert(offsetof(struct vhdx_header, le_log_offset) == 0x48,
	       "vhdx log_offset");

#define HEADER_SIZE	    (4 * KIB)
#define HEADER1_OFF	    (64 * KIB)
#define HEADER2_OFF	    (128 * KIB)
#define HEADER_SECTION	    MIB /* the file's first MiB: headers, tables */
#define LOG_UNIT	    MIB /* the log's offset and length unit */
#define MAX_DISK_SIZE	    (64 * 1024 * 1024 * MIB) /* 64 TiB, §2.6.2.2 */
#define PARAM_HAS_PARENT    (1u << 1)
#define BAT_STATE_MASK	    7
#define BAT_OFFSET_MASK	    (~(MIB - 1)) /* FileOffsetMB, bits 20-63 */
#define PAYLOAD_NOT_PRESENT 0
#define PAYLOAD_UNDEFINED   1
#define PAYLOAD_ZERO	    2
#define PAYLOAD_UNMAPPED    3
#define PAYLOAD_UNMAP_V095  5
#define PAYLOAD_FULL	    6
#define BAT_BATCH	    64	 /* entries read at a time by map */
#define SCAN_BATCH	    4096 /* by the check at open */

struct vhdx {
	uint64_t block_size;
	uint64_t chunk_ratio; /* payload entries between bitmap entries */
	uint64_t bat_off;
	uint64_t bat_entries;
	uint64_t disk_size; /* Virtual Disk Size, as recorded */
	uint64_t log_off, log_len;
	uint64_t meta_off, meta_len;
	uint64_t bat_len;
};

static bool overlaps(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
	return alen && blen && a < b + blen && b < a + alen;
}

/* Read the header at @off into @h; true when it is valid (§2.2.2.1). */
static bool read_header(struct ba_vdisk *vd, uint64_t off,
			struct vhdx_header *h, uint8_t *buf)
{
	uint32_t sum;

	if (ba_io_read(vd->file, off, HEADER_SIZE, buf))
		return false;
	memcpy(h, buf, sizeof(*h));
	sum = le32toh(h->le_checksum);
	memset(buf + 4, 0, 4);
	return ba_crc32c(buf, HEADER_SIZE) == sum &&
	       !memcmp(h->signature, "head", 4) && le16toh(h->le_version) == 1;
}

/* The current header into @h, as qemu's vhdx_parse_header chooses it. */
static int current_header(struct ba_vdisk *vd, struct vhdx_header *h, char *why,
			  size_t len)
{
	struct vhdx_header h2;
	uint8_t *buf = malloc(HEADER_SIZE);
	bool ok1, ok2;
	uint64_t s1, s2;

	if (!buf) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	ok1 = read_header(vd, HEADER1_OFF, h, buf);
	ok2 = read_header(vd, HEADER2_OFF, &h2, buf);
	free(buf);
	s1 = le64toh(h->le_sequence_number);
	s2 = le64toh(h2.le_sequence_number);
	if (!ok1 && !ok2) {
		snprintf(why, len, "no valid VHDX header (at 64 or 128 KiB)");
		return -EINVAL;
	}
	if (ok1 && ok2 && s1 == s2 && memcmp(h, &h2, sizeof(h2))) {
		snprintf(why, len,
			 "two different VHDX headers with one sequence "
			 "number %" PRIu64,
			 s1);
		return -EINVAL;
	}
	if (!ok1 || (ok2 && s2 > s1))
		*h = h2;
	return 0;
}

/*
 * Every FULLY_PRESENT payload block in the file, outside the header
 * section, the log and the tables, as qemu's vhdx_check_bat_entries
 * requires at open (the last block may end with the disk).
 */
static int check_bat(struct ba_vdisk *vd, const struct vhdx *x, char *why,
		     size_t len)
{
	uint64_t *e = malloc(SCAN_BATCH * sizeof(*e));
	uint64_t fsize = vd->file->size;
	int rc = 0;

	if (!e) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	for (uint64_t i = 0; i < x->bat_entries && !rc;) {
		size_t n = x->bat_entries - i < SCAN_BATCH
				   ? (size_t)(x->bat_entries - i)
				   : SCAN_BATCH;

		rc = ba_io_read(vd->file, x->bat_off + 8 * i, n * 8, e);
		if (rc) {
			snprintf(why, len, "cannot read the VHDX BAT");
			rc = rc > 0 ? -EINVAL : rc;
			break;
		}
		for (size_t k = 0; k < n && !rc; k++) {
			uint64_t idx = i + k, v = le64toh(e[k]);
			uint64_t block = idx - idx / (x->chunk_ratio + 1);
			uint64_t off = v & BAT_OFFSET_MASK,
				 blen = x->block_size;

			/* no data (most entries: one comparison), or a
			 * sector bitmap */
			if ((v & BAT_STATE_MASK) != PAYLOAD_FULL ||
			    (idx + 1) % (x->chunk_ratio + 1) == 0)
				continue;
			if (x->disk_size - block * x->block_size < blen)
				blen = x->disk_size - block * x->block_size;
			if (off < HEADER_SECTION || off > fsize ||
			    blen > fsize - off ||
			    overlaps(off, blen, x->log_off, x->log_len) ||
			    overlaps(off, blen, x->bat_off, x->bat_len) ||
			    overlaps(off, blen, x->meta_off, x->meta_len)) {
				snprintf(why, len,
					 "VHDX BAT entry %" PRIu64
					 ": block at %" PRIu64
					 " is not in the file's data (%" PRIu64
					 " bytes)",
					 idx, off, fsize);
				rc = -EINVAL;
			}
		}
		i += n;
	}
	free(e);
	return rc;
}

/* The headers, the log, the regions and the metadata items, into @x. */
static int check_layout(struct ba_vdisk *vd, struct vhdx *x, char *why,
			size_t len)
{
	struct ba_vhdx_layout l;
	struct vhdx_header h;
	uint64_t blocks;
	int rc = current_header(vd, &h, why, len);

	if (rc)
		return rc;
	x->log_off = le64toh(h.le_log_offset);
	x->log_len = le32toh(h.le_log_length);
	if (le16toh(h.le_log_version) != 0 || x->log_off < LOG_UNIT ||
	    x->log_off % LOG_UNIT || x->log_len % LOG_UNIT) {
		snprintf(why, len,
			 "VHDX log (version %u, %" PRIu64 " bytes at %" PRIu64
			 ") is not one the format allows",
			 le16toh(h.le_log_version), x->log_len, x->log_off);
		return -EINVAL;
	}
	for (size_t i = 0; i < sizeof(h.log_guid); i++)
		if (h.log_guid[i]) {
			snprintf(why, len,
				 "a VHDX log to replay (non-zero log GUID) "
				 "is left to qemu");
			return -ENOTSUP;
		}
	rc = ba_vhdx_parse(vd->file, true, &l, why, len);
	if (rc)
		return rc > 0 ? -EINVAL : rc;
	if (l.unknown_required) {
		snprintf(why, len,
			 "VHDX regions or metadata items this reader does "
			 "not know (%" PRIu32 " required) are left to qemu",
			 l.unknown_required);
		return -ENOTSUP;
	}
	if (l.param_flags & PARAM_HAS_PARENT) {
		snprintf(why, len,
			 "a differencing VHDX (HasParent) is left to qemu");
		return -ENOTSUP;
	}
	if (l.logical_sector_size != 512) {
		snprintf(why, len,
			 "VHDX logical sectors of %" PRIu32
			 " bytes are left to qemu (7.2 opens 512 only)",
			 l.logical_sector_size);
		return -ENOTSUP;
	}
	if (l.disk_size > MAX_DISK_SIZE) {
		snprintf(why, len,
			 "VHDX virtual disk size %" PRIu64
			 " is past the format's 64 TiB",
			 l.disk_size);
		return -EINVAL;
	}
	x->block_size = l.block_size;
	x->chunk_ratio =
		(UINT64_C(1) << 23) * l.logical_sector_size / l.block_size;
	x->disk_size = l.disk_size;
	x->meta_off = l.meta_off;
	x->meta_len = l.meta_len;
	x->bat_off = l.bat_off;
	x->bat_len = l.bat_len;
	blocks = l.disk_size / l.block_size + (l.disk_size % l.block_size != 0);
	x->bat_entries = blocks ? blocks + (blocks - 1) / x->chunk_ratio : 0;
	if (x->bat_entries > l.bat_len / 8 || l.bat_off < HEADER_SECTION ||
	    l.bat_off > vd->file->size ||
	    x->bat_entries * 8 > vd->file->size - l.bat_off) {
		snprintf(why, len,
			 "VHDX BAT (%" PRIu64 " entries at %" PRIu64
			 ", region of %" PRIu64
			 " bytes) does not fit the disk or the file",
			 x->bat_entries, l.bat_off, l.bat_len);
		return -EINVAL;
	}
	if (overlaps(x->log_off, x->log_len, x->bat_off, x->bat_len) ||
	    overlaps(x->log_off, x->log_len, x->meta_off, x->meta_len) ||
	    overlaps(x->bat_off, x->bat_len, x->meta_off, x->meta_len) ||
	    x->meta_off < HEADER_SECTION) {
		snprintf(why, len,
			 "VHDX log, BAT and metadata regions overlap");
		return -EINVAL;
	}
	return 0;
}

static int vhdx_open(struct ba_vdisk *vd, char *why, size_t len)
{
	struct vhdx *x = calloc(1, sizeof(*x));
	int rc;

	if (!x) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	vd->priv = x;
	rc = check_layout(vd, x, why, len);
	if (!rc)
		rc = check_bat(vd, x, why, len);
	if (rc)
		return rc;
	/* qemu: total_sectors = virtual disk size >> logical sector bits */
	vd->size = x->disk_size & ~UINT64_C(511);
	return 0;
}

static enum ba_vext_kind entry_kind(uint64_t v, int *rc)
{
	switch (v & BAT_STATE_MASK) {
	case PAYLOAD_NOT_PRESENT:
	case PAYLOAD_UNDEFINED:
	case PAYLOAD_ZERO:
	case PAYLOAD_UNMAPPED:
	case PAYLOAD_UNMAP_V095:
		return BA_VEXT_ZERO;
	case PAYLOAD_FULL:
		return BA_VEXT_DATA;
	default: /* PARTIALLY_PRESENT, 4: qemu fails the read */
		*rc = -EINVAL;
		return BA_VEXT_ZERO;
	}
}

/* The run of blocks from @off: as many of a kind as the entries of one
 * chunk (up to a batch) show, contiguous in the file for DATA. */
static int vhdx_map(struct ba_vdisk *vd, uint64_t off, struct ba_vext *ext)
{
	const struct vhdx *x = vd->priv;
	uint64_t block = off / x->block_size;
	uint64_t in_block = off % x->block_size;
	uint64_t idx = block + block / x->chunk_ratio;
	uint64_t left = x->chunk_ratio - block % x->chunk_ratio;
	uint64_t e[BAT_BATCH], host0 = 0;
	size_t n = left < BAT_BATCH ? (size_t)left : BAT_BATCH, k;
	uint64_t fsize = vd->file->size;
	int rc;

	if (idx >= x->bat_entries)
		return -EINVAL;
	if (n > x->bat_entries - idx)
		n = (size_t)(x->bat_entries - idx);
	rc = ba_io_read(vd->file, x->bat_off + 8 * idx, n * 8, e);
	if (rc)
		return rc > 0 ? -EINVAL : rc;
	for (k = 0; k < n; k++) {
		uint64_t v = le64toh(e[k]);
		uint64_t host = v & BAT_OFFSET_MASK;
		enum ba_vext_kind kind = entry_kind(v, &rc);

		/* a bad entry (the offset checked at open, kept here as the
		 * map's own bound) fails its own map, not the run before */
		if (!rc && kind == BA_VEXT_DATA &&
		    (host < HEADER_SECTION || host >= fsize))
			rc = -EINVAL;
		if (rc) {
			if (k == 0)
				return rc;
			rc = 0;
			break;
		}
		if (k == 0) {
			ext->kind = kind;
			host0 = host;
		} else if (kind != ext->kind ||
			   (kind == BA_VEXT_DATA &&
			    host != host0 + k * x->block_size)) {
			break;
		}
	}
	ext->len = k * x->block_size - in_block;
	if (ext->kind == BA_VEXT_DATA)
		ext->file_off = host0 + in_block;
	return 0;
}

const struct ba_vdisk_format ba_vdisk_vhdx = {
	.name = "vhdx",
	.open = vhdx_open,
	.map = vhdx_map,
};
