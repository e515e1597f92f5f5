/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lvm.c - LVM2 physical volumes: where the extents start (pe_start, from
 * the PV header) and, when the PV belongs to a volume group, the extent
 * size (from the text metadata).
 *
 * Format: lvm2 lib/label/label.h, lib/label/label.c (label scan),
 * lib/format_text/layout.h, text_label.c (_text_read), format-text.c
 * (_raw_read_mda_header, circular metadata buffer), lib/misc/crc.c.
 * All integers little-endian.
 *
 *   label     in one of the first 4 sectors: "LABELONE", sector_xl (its
 *             own sector), crc_xl over bytes 20..511, offset_xl of the PV
 *             header inside the sector, type "LVM2 001".
 *   pv header pv_uuid[32], device_size, then two lists of {offset, size}
 *             (bytes from the PV start), each ended by offset 0: the data
 *             areas (the first offset is pe_start), the metadata areas.
 *   mda       512-byte header (checksum, magic, version 1, start = its own
 *             offset, size, raw_locn[] {offset from mda start, size,
 *             checksum, flags}), then a circular text buffer.
 *
 * Checked in lvm's order: label id, self-location, checksum, type; the
 * lists bounded by the sector; the mda header's checksum, magic, version
 * and start; the text's bounds and checksum.  The text is scanned for
 * "extent_size = N" (sectors) inside the VG section, with a bounded
 * scanner that skips strings and comments.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/probe.h"

#define LABEL_SCAN_SECTORS 4
#define LABEL_ID	   "LABELONE"
#define LVM2_LABEL	   "LVM2 001"
#define FMTT_MAGIC	   " LVM2 x[5A%r0N*>"
#define FMTT_VERSION	   1
#define MDA_HEADER_SIZE	   512
#define INITIAL_CRC	   0xf597a6cfU
#define RAW_LOCN_IGNORED   0x1U
#define TEXT_MAX	   (4 * MIB) /* larger text: size unknown */

struct lvm_label_disk {
	char id[8];	       /* 0x00 "LABELONE" */
	uint64_t le_sector_xl; /* 0x08 sector of this label */
	uint32_t le_crc_xl;    /* 0x10 from 0x14 to end of sector */
	uint32_t le_offset_xl; /* 0x14 pv header, from label start */
	char type[8];	       /* 0x18 "LVM2 001" */
} __attribute__((packed));

struct lvm_disk_locn {
	uint64_t le_offset; /* 0x00 bytes from PV start */
	uint64_t le_size;   /* 0x08 bytes, 0 = to the end */
} __attribute__((packed));

struct lvm_pv_header_disk {
	char pv_uuid[32];	    /* 0x00 */
	uint64_t le_device_size_xl; /* 0x20 bytes */
	/* 0x28: data areas, {0,0}, metadata areas, {0,0} */
} __attribute__((packed));

struct lvm_raw_locn {
	uint64_t le_offset;   /* 0x00 from mda start */
	uint64_t le_size;     /* 0x08 */
	uint32_t le_checksum; /* 0x10 */
	uint32_t le_flags;    /* 0x14 */
} __attribute__((packed));

struct lvm_mda_header_disk {
	uint32_t le_checksum_xl;	  /* 0x00 from 0x04 to 0x1ff */
	char magic[16];			  /* 0x04 FMTT_MAGIC */
	uint32_t le_version;		  /* 0x14 */
	uint64_t le_start;		  /* 0x18 must be its own offset */
	uint64_t le_size;		  /* 0x20 */
	struct lvm_raw_locn raw_locns[1]; /* 0x28, first = committed */
} __attribute__((packed));

_Static_assert(sizeof(struct lvm_label_disk) == 32, "label header is 32");
_Static_assert(offsetof(struct lvm_label_disk, le_crc_xl) == 16,
	       "crc_xl at 16");
_Static_assert(offsetof(struct lvm_label_disk, le_offset_xl) == 20,
	       "offset_xl at 20");
_Static_assert(sizeof(struct lvm_pv_header_disk) == 40, "pv header is 40");
_Static_assert(sizeof(struct lvm_disk_locn) == 16, "disk_locn is 16");
_Static_assert(sizeof(struct lvm_raw_locn) == 24, "raw_locn is 24");
_Static_assert(offsetof(struct lvm_mda_header_disk, raw_locns) == 40,
	       "raw_locn[] at 40");

/* lib/misc/crc.c calc_crc(): the CRC-32 polynomial without the initial
 * and final inversions, so a plain CRC-32 with both undone. */
static uint32_t lvm_crc(uint32_t initial, const void *buf, size_t len)
{
	return ~ba_crc32(~initial, buf, len);
}

/* ---- the text metadata ---- */

static bool is_ident(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || ch == '_' || ch == '.' ||
	       ch == '+' || ch == '-';
}

static bool is_blank(char ch)
{
	return ch == ' ' || ch == '\t';
}

/*
 * Find "extent_size = N" at depth 1 (inside "vgname { ... }"), N decimal
 * sectors.  Strings and comments are skipped so that a description or a
 * tag cannot fake the key.  Returns 0 (found, *sectors set), 1 (absent),
 * -EINVAL (a malformed value).
 */
static int scan_extent_size(const char *t, size_t len, uint64_t *sectors)
{
	static const char key[] = "extent_size";
	unsigned int depth = 0;
	size_t i = 0;

	while (i < len && t[i] != '\0') {
		char ch = t[i];

		if (ch == '#') {
			while (i < len && t[i] != '\n')
				i++;
		} else if (ch == '"') {
			for (i++; i < len && t[i] != '"'; i++)
				if (t[i] == '\\')
					i++;
			i++;
		} else if (ch == '{') {
			depth++;
			i++;
		} else if (ch == '}') {
			depth -= depth > 0;
			i++;
		} else if (is_ident(ch)) {
			size_t start = i;
			uint64_t v = 0;

			while (i < len && is_ident(t[i]))
				i++;
			if (depth != 1 || i - start != sizeof(key) - 1 ||
			    memcmp(t + start, key, sizeof(key) - 1))
				continue;
			while (i < len && is_blank(t[i]))
				i++;
			if (i >= len || t[i] != '=')
				return -EINVAL;
			for (i++; i < len && is_blank(t[i]); i++)
				;
			if (i >= len || t[i] < '0' || t[i] > '9')
				return -EINVAL;
			/* Digits while the byte count still fits. */
			for (; i < len && t[i] >= '0' && t[i] <= '9'; i++) {
				uint64_t d = (uint64_t)(t[i] - '0');

				if (v > (UINT64_MAX / BA_SECTOR - d) / 10)
					return -EINVAL;
				v = v * 10 + d;
			}
			if (v == 0)
				return -EINVAL;
			*sectors = v;
			return 0;
		} else {
			i++;
		}
	}
	return 1;
}

/*
 * The committed text of the metadata area at [mda_off, +mda_size) of the
 * PV at @off (@size bytes): 0 with *text (malloc'd, NUL added) and *len,
 * or *text NULL when the area holds no VG yet; 1 when the area cannot be
 * used (outside the PV, ignored); -EINVAL when its header or checksum
 * lies; -EFBIG for a text past 4 MiB; -errno.
 */
int ba_lvm_mda_text(struct ba_io *io, uint64_t off, uint64_t size,
		    uint64_t mda_off, uint64_t mda_size, char **text,
		    size_t *len)
{
	uint8_t hbuf[MDA_HEADER_SIZE];
	struct lvm_mda_header_disk h;
	uint64_t t_off, t_size, first;
	uint32_t flags;
	char *t;
	int rc;

	*text = NULL;
	*len = 0;
	if (mda_off > size || mda_size > size - mda_off ||
	    mda_size <= MDA_HEADER_SIZE)
		return 1;
	rc = ba_io_read(io, off + mda_off, sizeof(hbuf), hbuf);
	if (rc)
		return rc;
	memcpy(&h, hbuf, sizeof(h));
	if (lvm_crc(INITIAL_CRC, hbuf + 4, sizeof(hbuf) - 4) !=
	    le32toh(h.le_checksum_xl))
		return -EINVAL;
	if (memcmp(h.magic, FMTT_MAGIC, sizeof(h.magic)) ||
	    le32toh(h.le_version) != FMTT_VERSION ||
	    le64toh(h.le_start) != mda_off)
		return -EINVAL;

	t_off = le64toh(h.raw_locns[0].le_offset);
	t_size = le64toh(h.raw_locns[0].le_size);
	flags = le32toh(h.raw_locns[0].le_flags);
	if (flags & RAW_LOCN_IGNORED)
		return 1;
	if (t_off == 0 || t_size == 0)
		return 0; /* a PV without a VG: no text yet */
	/* The text lives in the circular buffer [512, mda_size). */
	if (t_off < MDA_HEADER_SIZE || t_off >= mda_size ||
	    t_size > mda_size - MDA_HEADER_SIZE)
		return -EINVAL;
	if (t_size > TEXT_MAX)
		return -EFBIG;

	t = malloc(t_size + 1);
	if (!t)
		return -ENOMEM;
	/* Wrapped text continues right after the header. */
	first = mda_size - t_off < t_size ? mda_size - t_off : t_size;
	rc = ba_io_read(io, off + mda_off + t_off, first, t);
	if (!rc && first < t_size)
		rc = ba_io_read(io, off + mda_off + MDA_HEADER_SIZE,
				t_size - first, t + first);
	if (!rc && lvm_crc(INITIAL_CRC, t, t_size) !=
			   le32toh(h.raw_locns[0].le_checksum))
		rc = -EINVAL;
	if (rc) {
		free(t);
		return rc;
	}
	t[t_size] = '\0';
	*text = t;
	*len = t_size;
	return 0;
}

/* The extent size the area's text gives (0: no VG, or unknown). */
static int read_mda(struct ba_io *io, uint64_t off, uint64_t size,
		    uint64_t mda_off, uint64_t mda_size, uint64_t *extent_bytes)
{
	uint64_t sectors = 0;
	size_t len;
	char *text;
	int rc;

	*extent_bytes = 0;
	rc = ba_lvm_mda_text(io, off, size, mda_off, mda_size, &text, &len);
	if (rc == -EFBIG)
		return 0; /* legal but too large to read: unknown */
	if (rc || !text)
		return rc;
	rc = scan_extent_size(text, len, &sectors);
	if (rc == 0)
		*extent_bytes = sectors * BA_SECTOR;
	else if (rc == 1)
		rc = 0; /* text without an extent size: no VG */
	free(text);
	return rc;
}

/* ---- label and PV header ---- */

/*
 * Check the label in @sec (sector @index) and decode the PV header.
 * Returns 0 (@pv filled), 1 (no label here), -EINVAL.
 */
static int parse_label(const uint8_t *sec, uint64_t index, uint64_t size,
		       struct ba_lvm_pv *pv)
{
	struct lvm_label_disk l;
	struct lvm_pv_header_disk pvh;
	struct ba_cur cur;
	uint64_t loc_off, loc_size;
	bool first = true;
	uint32_t hoff;

	memset(pv, 0, sizeof(*pv));
	memcpy(&l, sec, sizeof(l));
	if (memcmp(l.id, LABEL_ID, sizeof(l.id)))
		return 1;
	if (le64toh(l.le_sector_xl) != index)
		return -EINVAL;
	if (lvm_crc(INITIAL_CRC, sec + 20, BA_SECTOR - 20) !=
	    le32toh(l.le_crc_xl))
		return -EINVAL;
	if (memcmp(l.type, LVM2_LABEL, sizeof(l.type)))
		return -EINVAL;
	hoff = le32toh(l.le_offset_xl);
	if (hoff < sizeof(l))
		return -EINVAL;

	/* The header and both lists must end inside the label sector. */
	ba_cur_init(&cur, sec, BA_SECTOR);
	if (ba_cur_seek(&cur, hoff) || ba_cur_bytes(&cur, &pvh, sizeof(pvh)))
		return -EINVAL;
	memcpy(pv->pvid, pvh.pv_uuid, sizeof(pvh.pv_uuid));
	pv->device_size = le64toh(pvh.le_device_size_xl);
	pv->label_sector = (uint32_t)index;
	for (;;) {
		if (ba_cur_le64(&cur, &loc_off) || ba_cur_le64(&cur, &loc_size))
			return -EINVAL;
		if (loc_off == 0)
			break;
		if (first) {
			pv->pe_start = loc_off;
			pv->da_size = loc_size;
			first = false;
		}
	}
	if (first)
		return -EINVAL; /* no data area at all */
	for (;;) {
		if (ba_cur_le64(&cur, &loc_off) || ba_cur_le64(&cur, &loc_size))
			return -EINVAL;
		if (loc_off == 0)
			break;
		if (pv->nmdas < BA_LVM_MAX_MDAS) {
			pv->mdas[pv->nmdas].offset = loc_off;
			pv->mdas[pv->nmdas].size = loc_size;
			pv->nmdas++;
		}
	}

	/* Extents start after the label and inside the region. */
	if (pv->pe_start < (index + 1) * BA_SECTOR || pv->pe_start >= size)
		return -EINVAL;
	return 0;
}

int ba_lvm_pv_read(struct ba_io *io, uint64_t off, uint64_t size,
		   struct ba_lvm_pv *pv)
{
	uint8_t buf[LABEL_SCAN_SECTORS * BA_SECTOR];
	int rc = 1, err = 1;

	memset(pv, 0, sizeof(*pv));
	if (off > UINT64_MAX - size)
		return -EINVAL;
	if (size < sizeof(buf))
		return 1;
	rc = ba_io_read(io, off, sizeof(buf), buf);
	if (rc)
		return rc;

	/* label.c: the first sector with a valid label wins; a bad one
	 * is ignored. */
	for (size_t i = 0; i < LABEL_SCAN_SECTORS; i++) {
		rc = parse_label(buf + i * BA_SECTOR, i, size, pv);
		if (rc == 0)
			return 0;
		if (rc < 0 && err == 1)
			err = rc;
	}
	memset(pv, 0, sizeof(*pv));
	return err;
}

static int lvm_probe(struct ba_io *io, uint64_t off, uint64_t size,
		     struct ba_content *out)
{
	struct ba_lvm_pv pv;
	struct ba_content c;
	uint64_t extent = 0;
	size_t i;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = ba_lvm_pv_read(io, off, size, &pv);
	if (rc)
		return rc;

	memset(&c, 0, sizeof(c));
	c.kind = BA_CONTENT_LVM;
	snprintf(c.type, sizeof(c.type), "LVM2_member");
	snprintf(c.version, sizeof(c.version), LVM2_LABEL);
	c.lvm_pe_start = pv.pe_start;
	c.data_offset = pv.pe_start;
	c.data_size = pv.da_size ? pv.da_size : size - pv.pe_start;

	/* The first metadata area that is usable gives the extent size. */
	for (i = 0; i < pv.nmdas; i++) {
		rc = read_mda(io, off, size, pv.mdas[i].offset, pv.mdas[i].size,
			      &extent);
		if (rc <= 0)
			break;
	}
	if (rc < 0)
		return rc;
	c.lvm_extent_size = extent;
	*out = c;
	return 0;
}

const struct ba_prober ba_lvm_prober = {
	.name = "LVM2_member",
	.kind = BA_CONTENT_LVM,
	.probe = lvm_probe,
};
