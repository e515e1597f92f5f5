/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vdisk-vmdk.c - the map of a VMDK hosted sparse extent in one file
 * (createType "monolithicSparse", the layout `qemu-img convert -O vmdk`
 * makes by default), read as qemu's block/vmdk.c reads it
 * (vmdk_open_vmdk4, get_cluster_offset, vmdk_co_preadv); the format is
 * VMware's "Virtual Disk Format 1.1" ("Hosted Sparse Extents": the
 * SparseExtentHeader, grain directory and grain tables).
 *
 * A guest sector's grain is found through the grain directory (one
 * entry per grain table, in sectors of the file) and its grain table
 * (num_gtes_per_gt entries, one per grain): an entry of 0 is a grain
 * never written, which reads as zeros (no parent here); 1 with the
 * zeroed-grain flag is a zeroed grain; any other is the grain's sector
 * in the file.  The embedded descriptor must say what this reader
 * reads: one SPARSE extent, createType "monolithicSparse", no parent.
 * Left to qemu (-ENOTSUP): descriptor files (monolithicFlat,
 * twoGbMaxExtentSparse/Flat, vmfs...), streamOptimized (compressed
 * grains, markers, a footer), VMDK3 "COWD" and ESX seSparse extents,
 * parents (parentCID, parentFileNameHint), versions other than 1-3,
 * header flags this reader does not know.
 */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scan/scan.h"
#include "vdisk.h"

/* The SparseExtentHeader, little-endian ("Hosted Sparse Extent
 * Header"); offsets and sizes in 512-byte sectors. */
struct vmdk_header {
	uint8_t magic[4];	     /* 0x00 "KDMV" */
	uint32_t le_version;	     /* 0x04 1, 2 (zeroed grains), 3 (CBT) */
	uint32_t le_flags;	     /* 0x08 */
	uint64_t le_capacity;	     /* 0x0c virtual size, sectors */
	uint64_t le_grain_size;	     /* 0x14 sectors */
	uint64_t le_desc_offset;     /* 0x1c embedded descriptor */
	uint64_t le_desc_size;	     /* 0x24 */
	uint32_t le_num_gtes_per_gt; /* 0x2c entries per grain table */
	uint64_t le_rgd_offset;	     /* 0x30 redundant grain directory */
	uint64_t le_gd_offset;	     /* 0x38 grain directory */
	uint64_t le_overhead;	     /* 0x40 sectors before the first grain */
	uint8_t unclean_shutdown;    /* 0x48 */
	uint8_t single_eol;	     /* 0x49 '\n' */
	uint8_t non_eol;	     /* 0x4a ' ' */
	uint8_t double_eol1;	     /* 0x4b '\r' */
	uint8_t double_eol2;	     /* 0x4c '\n' */
	uint16_t le_compress;	     /* 0x4d 0 none, 1 deflate */
	uint8_t pad[433];	     /* 0x4f */
} __attribute__((packed));
_Static_assert(sizeof(struct vmdk_header) == 512, "vmdk header");
_Static_assert(offsetof(struct vmdk_header, le_capacity) == 0x0c,
	       "vmdk capacity");
_Static_assert(offsetof(struct vmdk_header, le_num_gtes_per_gt) == 0x2c,
	       "vmdk num_gtes_per_gt");
_Static_assert(offsetof(struct vmdk_header, le_gd_offset) == 0x38,
	       "vmdk gd_offset");
_Static_assert(offsetof(struct vmdk_header, le_compress) == 0x4d,
	       "vmdk compress_algorithm");

#define FLAG_NL_DETECT	 (1U << 0)
#define FLAG_RGD	 (1U << 1)
#define FLAG_ZERO_GRAIN	 (1U << 2)
#define FLAG_COMPRESS	 (1U << 16)
#define FLAG_MARKER	 (1U << 17)
#define FLAGS_KNOWN	 (FLAG_NL_DETECT | FLAG_RGD | FLAG_ZERO_GRAIN)
#define GD_AT_END	 UINT64_MAX /* streamOptimized: in the footer */
#define GTE_ZEROED	 1
#define MAX_GRAIN	 0x200000 /* sectors: qemu's limit, 1 GiB */
#define MAX_GTES	 512	  /* qemu's limit (the spec's only value) */
#define MAX_GD_ENTRIES	 (32 * 1024 * 1024) /* qemu's limit on l1_size */
#define DESC_SECTOR	 1   /* where qemu reads the embedded descriptor */
#define MAX_DESC_SECTORS 128 /* 64 KiB; VMware and qemu write 20 */

struct vmdk {
	uint64_t grain;	     /* bytes */
	uint64_t gt_span;    /* bytes a grain table maps */
	uint32_t gtes;	     /* entries per grain table */
	uint64_t gd_offset;  /* bytes */
	uint32_t gd_entries; /* grain tables */
	bool zero_grain;     /* GTE 1 reads as zeros */
};

/* The value of @key in a descriptor line "key = value" or
 * key="value": points into @line, its length in *@n; NULL if another. */
static const char *desc_value(const char *line, size_t len, const char *key,
			      size_t *n)
{
	size_t k = strlen(key), i, j;

	if (len <= k || memcmp(line, key, k))
		return NULL;
	for (i = k; i < len && (line[i] == ' ' || line[i] == '\t'); i++)
		;
	if (i == len || line[i] != '=')
		return NULL;
	for (i++; i < len && (line[i] == ' ' || line[i] == '\t'); i++)
		;
	for (j = len; j > i && (line[j - 1] == ' ' || line[j - 1] == '\t' ||
				line[j - 1] == '\r');
	     j--)
		;
	if (j - i >= 2 && line[i] == '"' && line[j - 1] == '"') {
		i++;
		j--;
	}
	*n = j - i;
	return line + i;
}

static bool is_word(const char *s, size_t n, const char *w)
{
	return n == strlen(w) && !memcmp(s, w, n);
}

/* strlen(@w) when the line @s of @n bytes starts with @w and goes on */
static size_t starts(const char *s, size_t n, const char *w)
{
	size_t k = strlen(w);

	return n > k && !memcmp(s, w, k) ? k : 0;
}

/*
 * The embedded descriptor @d (NUL-terminated): createType
 * "monolithicSparse", parentCID ffffffff, no parentFileNameHint (qemu's
 * backing file), a CID (qemu will not open without one), and exactly one
 * extent line, "RW|RDONLY <capacity> SPARSE "file"".
 */
static int check_desc(const char *d, uint64_t capacity, char *why, size_t len)
{
	bool cid = false, pcid = false, mono = false;
	unsigned int extents = 0;
	const char *p = d, *v;
	size_t n, i;

	if (strstr(d, "parentFileNameHint")) {
		snprintf(why, len, "a vmdk with a parent is left to qemu");
		return -ENOTSUP;
	}
	while (*p) {
		const char *e = strchr(p, '\n');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		const char *line = p;

		p += l + (e != NULL);
		while (l && (*line == ' ' || *line == '\t')) {
			line++;
			l--;
		}
		while (l && (line[l - 1] == '\r' || line[l - 1] == ' '))
			l--;
		if (!l || *line == '#')
			continue;
		if ((v = desc_value(line, l, "createType", &n))) {
			if (!is_word(v, n, "monolithicSparse")) {
				snprintf(why, len,
					 "vmdk createType \"%.*s\" is left to "
					 "qemu",
					 (int)(n < 40 ? n : 40), v);
				return -ENOTSUP;
			}
			mono = true;
		} else if ((v = desc_value(line, l, "parentCID", &n))) {
			if (!is_word(v, n, "ffffffff")) {
				snprintf(why, len,
					 "a vmdk with a parent (parentCID "
					 "%.*s) is left to qemu",
					 (int)(n < 16 ? n : 16), v);
				return -ENOTSUP;
			}
			pcid = true;
		} else if (desc_value(line, l, "CID", &n)) {
			cid = n > 0;
		} else if ((i = starts(line, l, "RW ")) ||
			   (i = starts(line, l, "RDONLY ")) ||
			   (i = starts(line, l, "NOACCESS "))) {
			uint64_t sectors = 0;
			bool digits = false;

			if (++extents > 1) {
				snprintf(why, len,
					 "a vmdk of several extents is left to "
					 "qemu");
				return -ENOTSUP;
			}
			if (*line == 'N') {
				snprintf(why, len,
					 "a vmdk NOACCESS extent is left to "
					 "qemu");
				return -ENOTSUP;
			}
			for (; i < l && line[i] >= '0' && line[i] <= '9'; i++) {
				if (sectors > (UINT64_MAX - 9) / 10)
					break;
				sectors = sectors * 10 +
					  (uint64_t)(line[i] - '0');
				digits = true;
			}
			if (!digits || l - i < 8 ||
			    memcmp(line + i, " SPARSE ", 8) ||
			    sectors != capacity) {
				snprintf(why, len,
					 "vmdk extent \"%.*s\" is not this "
					 "file's sparse extent: left to qemu",
					 (int)(l < 60 ? l : 60), line);
				return -ENOTSUP;
			}
		}
	}
	if (!mono || !pcid || !extents) {
		snprintf(why, len,
			 "a vmdk descriptor without %s is left to qemu",
			 !mono	 ? "createType"
			 : !pcid ? "parentCID"
				 : "an extent");
		return -ENOTSUP;
	}
	if (!cid) {
		snprintf(why, len, "vmdk descriptor without a CID");
		return -EINVAL;
	}
	return 0;
}

/* The embedded descriptor of @h: read, bounded, and checked. */
static int read_desc(struct ba_vdisk *vd, const struct vmdk_header *h,
		     uint64_t capacity, char *why, size_t len)
{
	uint64_t at = le64toh(h->le_desc_offset);
	uint64_t sectors = le64toh(h->le_desc_size);
	char *d;
	size_t n;
	int rc;

	if (at != DESC_SECTOR || sectors == 0 || sectors > MAX_DESC_SECTORS) {
		snprintf(why, len,
			 "a vmdk descriptor of %" PRIu64 " sectors at sector "
			 "%" PRIu64 " is left to qemu",
			 sectors, at);
		return -ENOTSUP;
	}
	n = (size_t)sectors * 512;
	if (n > vd->file->size - 512) {
		snprintf(why, len, "vmdk descriptor past the end of the file");
		return -EINVAL;
	}
	d = malloc(n + 1);
	if (!d) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	rc = ba_io_read(vd->file, at * 512, n, d);
	if (rc) {
		snprintf(why, len, "cannot read the vmdk descriptor");
		free(d);
		return rc > 0 ? -EINVAL : rc;
	}
	d[n] = '\0'; /* the text ends at its first NUL, as qemu reads it */
	rc = check_desc(d, capacity, why, len);
	free(d);
	return rc;
}

static int vmdk_open(struct ba_vdisk *vd, char *why, size_t len)
{
	struct vmdk_header h;
	struct vmdk *m;
	uint32_t version, flags, gtes;
	uint64_t capacity, grain, gd, gd_entries, fsize = vd->file->size;
	int rc = ba_io_read(vd->file, 0, sizeof(h), &h);

	if (rc) {
		snprintf(why, len, "cannot read the vmdk header");
		return rc > 0 ? -EINVAL : rc;
	}
	if (memcmp(h.magic, "KDMV", 4)) {
		/* a descriptor file, a VMDK3 or seSparse extent */
		const char *ct = memmem(&h, sizeof(h), "createType=\"", 12);
		const char *v = ct ? ct + 12 : NULL;
		const char *e =
			v ? memchr(v, '"',
				   sizeof(h) - (size_t)(v - (const char *)&h))
			  : NULL;

		if (e)
			snprintf(why, len,
				 "a vmdk descriptor file (createType \"%.*s\") "
				 "is left to qemu",
				 (int)(e - v < 40 ? e - v : 40), v);
		else
			snprintf(why, len,
				 "a vmdk that is not a hosted sparse extent "
				 "is left to qemu");
		return -ENOTSUP;
	}
	version = le32toh(h.le_version);
	flags = le32toh(h.le_flags);
	capacity = le64toh(h.le_capacity);
	grain = le64toh(h.le_grain_size);
	gtes = le32toh(h.le_num_gtes_per_gt);
	gd = le64toh(h.le_gd_offset);
	if (version < 1 || version > 3) {
		snprintf(why, len, "vmdk version %" PRIu32 " is left to qemu",
			 version);
		return -ENOTSUP;
	}
	if (le16toh(h.le_compress) || (flags & (FLAG_COMPRESS | FLAG_MARKER)) ||
	    gd == GD_AT_END) {
		snprintf(why, len,
			 "a vmdk of compressed grains (streamOptimized) is "
			 "left to qemu");
		return -ENOTSUP;
	}
	if (flags & ~FLAGS_KNOWN) {
		snprintf(why, len, "vmdk flags %#" PRIx32 " are left to qemu",
			 flags);
		return -ENOTSUP;
	}
	if (capacity == 0) {
		/* qemu then reads the descriptor as a descriptor file's */
		snprintf(why, len,
			 "a vmdk sparse extent of capacity 0 is left "
			 "to qemu");
		return -ENOTSUP;
	}
	if (capacity > UINT64_MAX / 512) {
		snprintf(why, len,
			 "vmdk capacity %" PRIu64 " sectors overflows",
			 capacity);
		return -EINVAL;
	}
	if (grain == 0 || grain > MAX_GRAIN || (grain & (grain - 1))) {
		snprintf(why, len,
			 "vmdk grain size %" PRIu64
			 " sectors is not a power of two up to %u",
			 grain, MAX_GRAIN);
		return -EINVAL;
	}
	if (gtes == 0 || gtes > MAX_GTES) {
		snprintf(why, len,
			 "vmdk grain tables of %" PRIu32
			 " entries (1 to %u expected)",
			 gtes, MAX_GTES);
		return -EINVAL;
	}
	/* grain <= 2^21, gtes <= 2^9: a table maps at most 2^30 sectors */
	gd_entries = (capacity + grain * gtes - 1) / (grain * gtes);
	if (gd_entries > MAX_GD_ENTRIES || gd == 0 || gd > fsize / 512 ||
	    gd_entries * 4 > fsize - gd * 512) {
		snprintf(why, len,
			 "vmdk grain directory (%" PRIu64
			 " entries at sector %" PRIu64
			 ") does not fit the file",
			 gd_entries, gd);
		return -EINVAL;
	}
	if (le64toh(h.le_overhead) > fsize / 512 + (fsize % 512 != 0)) {
		snprintf(why, len,
			 "vmdk file truncated: its grains start at sector "
			 "%" PRIu64,
			 le64toh(h.le_overhead));
		return -EINVAL;
	}
	rc = read_desc(vd, &h, capacity, why, len);
	if (rc)
		return rc;
	m = calloc(1, sizeof(*m));
	if (!m) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	vd->priv = m;
	m->grain = grain * 512;
	m->gtes = gtes;
	m->gt_span = m->grain * gtes;
	m->gd_offset = gd * 512;
	m->gd_entries = (uint32_t)gd_entries;
	m->zero_grain = flags & FLAG_ZERO_GRAIN;
	vd->size = capacity * 512;
	return 0;
}

/* The run from grain @index of the grain table at byte @gt: the entries
 * of one kind that follow (contiguous in the file for DATA). */
static int map_gt(struct ba_vdisk *vd, const struct vmdk *m, uint64_t gt,
		  uint32_t index, uint64_t in_grain, struct ba_vext *ext)
{
	uint32_t e[MAX_GTES];
	size_t n = m->gtes - index, k;
	uint64_t host0 = 0;
	int rc = ba_io_read(vd->file, gt + 4 * (uint64_t)index, n * 4, e);

	if (rc)
		return rc > 0 ? -EINVAL : rc;
	for (k = 0; k < n; k++) {
		uint32_t v = le32toh(e[k]);
		enum ba_vext_kind kind =
			!v || (v == GTE_ZEROED && m->zero_grain) ? BA_VEXT_ZERO
								 : BA_VEXT_DATA;
		uint64_t host = (uint64_t)v * 512;

		if (k == 0) {
			ext->kind = kind;
			host0 = host;
		} else if (kind != ext->kind ||
			   (kind == BA_VEXT_DATA &&
			    host != host0 + k * m->grain)) {
			break;
		}
	}
	ext->len = k * m->grain - in_grain;
	if (ext->kind == BA_VEXT_DATA)
		ext->file_off = host0 + in_grain;
	return 0;
}

static int vmdk_map(struct ba_vdisk *vd, uint64_t off, struct ba_vext *ext)
{
	const struct vmdk *m = vd->priv;
	uint64_t gd_index = off / m->gt_span;
	uint64_t in_gt = off % m->gt_span;
	uint32_t gde;
	int rc;

	if (gd_index >= m->gd_entries)
		return -EINVAL; /* off < size: cannot be */
	rc = ba_vdisk_read_le32(vd, m->gd_offset + 4 * gd_index, &gde);
	if (rc)
		return rc;
	if (!gde) {
		/* no grain table: the whole range it would map is zeros */
		ext->kind = BA_VEXT_ZERO;
		ext->len = m->gt_span - in_gt;
		return 0;
	}
	return map_gt(vd, m, (uint64_t)gde * 512, (uint32_t)(in_gt / m->grain),
		      in_gt % m->grain, ext);
}

const struct ba_vdisk_format ba_vdisk_vmdk = {
	.name = "vmdk",
	.open = vmdk_open,
	.map = vmdk_map,
};
