/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vdisk-vmdk.c - the map of a monolithicSparse VMDK (one hosted sparse
 * extent with its descriptor inside), read as qemu's block/vmdk.c reads
 * it; the format is VMware's "Virtual Disk Format 1.1" (§ "Hosted Sparse
 * Extent Header", "Grain Directories and Grain Tables").
 *
 * A guest offset's grain is found through the grain directory (one
 * sector number per grain table) and its grain table (one sector number
 * per grain): 0 reads as zeros (no parent here), and so does 1 when the
 * header's zeroed-grain flag is set; otherwise the grain is at that
 * sector of the file.  Left to qemu (-ENOTSUP): compressed grains
 * (streamOptimized), a grain directory at the end, an extent without an
 * embedded descriptor (split sparse files: the descriptor is elsewhere),
 * a descriptor whose create type is not monolithicSparse, with more
 * than one extent, or with a parent.
 */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blkalignP.h"
#include "vdisk.h"

/* SparseExtentHeader, little-endian; sector counts and offsets. */
struct vmdk_header {
	uint32_t le_magic;		/* 0x00 "KDMV" */
	uint32_t le_version;		/* 0x04 1, 2 or 3 */
	uint32_t le_flags;		/* 0x08 */
	uint64_t le_capacity;		/* 0x0c sectors */
	uint64_t le_grain_size;		/* 0x14 sectors */
	uint64_t le_descriptor_offset;	/* 0x1c sectors */
	uint64_t le_descriptor_size;	/* 0x24 sectors */
	uint32_t le_num_gtes_per_gt;	/* 0x2c */
	uint64_t le_rgd_offset;		/* 0x30 sectors */
	uint64_t le_gd_offset;		/* 0x38 sectors */
	uint64_t le_overhead;		/* 0x40 sectors */
	uint8_t unclean_shutdown;	/* 0x48 */
	char newline_test[4];		/* 0x49 */
	uint16_t le_compress_algorithm; /* 0x4d */
	uint8_t pad[433];		/* 0x4f */
} __attribute__((packed));
_Static_assert(sizeof(struct vmdk_header) == 512, "vmdk header");
_Static_assert(offsetof(struct vmdk_header, le_gd_offset) == 0x38,
	       "vmdk gd_offset");
_Static_assert(offsetof(struct vmdk_header, le_compress_algorithm) == 0x4d,
	       "vmdk compress_algorithm");

#define VMDK_MAGIC	  0x564d444bU /* "KDMV" */
#define FLAG_ZEROED_GRAIN (1U << 2)
#define FLAG_COMPRESSED	  (1U << 16)
#define FLAG_MARKERS	  (1U << 17)
#define GD_AT_END	  UINT64_MAX
#define GTE_ZEROED	  1
#define MAX_GRAIN_SECTORS 0x200000    /* qemu: "Invalid granularity" above */
#define MAX_GTES	  512	      /* qemu: "L2 table size too big" above */
#define MAX_GD_BYTES	  (512 * MIB) /* qemu: "L1 size too big" */
#define MAX_DESCRIPTOR	  (64 * KIB)

struct vmdk {
	uint64_t grain_bytes;
	uint32_t gtes;	   /* entries per grain table */
	uint64_t gd;	   /* the grain directory, bytes into the file */
	uint64_t gd_count; /* its entries */
	bool zeroed_grain;
};

/* The line of @text (NUL-terminated) that starts with @key, or NULL. */
static const char *line_with(const char *text, const char *key)
{
	for (const char *p = text; p && *p;
	     p = strchr(p, '\n'), p = p ? p + 1 : p)
		if (!strncmp(p, key, strlen(key)))
			return p;
	return NULL;
}

/*
 * The embedded descriptor: monolithicSparse, one SPARSE extent of
 * @capacity sectors, no parent.  Returns 0 or -ENOTSUP with why.
 */
static int check_descriptor(struct ba_vdisk *vd, const struct vmdk_header *h,
			    uint64_t capacity, char *why, size_t len)
{
	uint64_t off = le64toh(h->le_descriptor_offset);
	uint64_t size = le64toh(h->le_descriptor_size);
	const char *l, *type;
	char *d;
	int extents = 0, rc = 0;

	if (!off || !size || size > MAX_DESCRIPTOR / BA_SECTOR) {
		snprintf(why, len,
			 "a VMDK extent without an embedded "
			 "descriptor is left to qemu");
		return -ENOTSUP;
	}
	d = calloc(1, size * BA_SECTOR + 1);
	if (!d) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	rc = off > UINT64_MAX / BA_SECTOR
		     ? 1
		     : ba_io_read(vd->file, off * BA_SECTOR, size * BA_SECTOR,
				  d);
	if (rc) {
		snprintf(why, len, "cannot read the VMDK descriptor");
		rc = rc > 0 ? -EINVAL : rc;
		goto out;
	}
	type = line_with(d, "createType=");
	for (l = d; (l = strchr(l, '\n')); l++)
		if (!strncmp(l + 1, "RW ", 3) || !strncmp(l + 1, "RDONLY ", 7))
			extents++;
	if (!type || strncmp(type, "createType=\"monolithicSparse\"", 29) ||
	    extents != 1) {
		snprintf(why, len,
			 "a VMDK that is not one monolithicSparse "
			 "extent is left to qemu");
		rc = -ENOTSUP;
		goto out;
	}
	l = line_with(d, "parentCID=");
	if (l && strncmp(l, "parentCID=ffffffff", 18)) {
		snprintf(why, len, "a VMDK with a parent is left to qemu");
		rc = -ENOTSUP;
		goto out;
	}
	l = strstr(d, "\nRW ");
	if (!l)
		l = strstr(d, "\nRDONLY ");
	if (!l || !strstr(l, " SPARSE ") ||
	    strtoull(strchr(l + 1, ' ') + 1, NULL, 10) != capacity) {
		snprintf(why, len,
			 "a VMDK whose extent is not SPARSE of its "
			 "capacity is left to qemu");
		rc = -ENOTSUP;
	}
out:
	free(d);
	return rc;
}

static int vmdk_open(struct ba_vdisk *vd, char *why, size_t len)
{
	struct vmdk_header h;
	struct vmdk *v;
	uint64_t capacity, grain, per_gt, gd;
	uint32_t flags, version, gtes;
	int rc = ba_io_read(vd->file, 0, sizeof(h), &h);

	if (rc) {
		snprintf(why, len, "cannot read the VMDK header");
		return rc > 0 ? -EINVAL : rc;
	}
	flags = le32toh(h.le_flags);
	version = le32toh(h.le_version);
	gd = le64toh(h.le_gd_offset);
	if (le32toh(h.le_magic) != VMDK_MAGIC || version < 1 || version > 3 ||
	    (flags & (FLAG_COMPRESSED | FLAG_MARKERS)) ||
	    h.le_compress_algorithm || gd == GD_AT_END) {
		snprintf(why, len,
			 "a VMDK of version %" PRIu32 ", flags %#" PRIx32
			 " (compressed, streamOptimized) "
			 "is left to qemu",
			 version, flags);
		return -ENOTSUP;
	}
	capacity = le64toh(h.le_capacity);
	grain = le64toh(h.le_grain_size);
	gtes = le32toh(h.le_num_gtes_per_gt);
	if (!grain || grain > MAX_GRAIN_SECTORS || !ba_is_pow2(grain) ||
	    !gtes || gtes > MAX_GTES || capacity > UINT64_MAX / BA_SECTOR ||
	    !gd || gd > UINT64_MAX / BA_SECTOR) {
		snprintf(why, len,
			 "VMDK grain of %" PRIu64 " sectors, %" PRIu32
			 " entries a table, capacity %" PRIu64 ": out of range",
			 grain, gtes, capacity);
		return -EINVAL;
	}
	rc = check_descriptor(vd, &h, capacity, why, len);
	if (rc)
		return rc;
	v = calloc(1, sizeof(*v));
	if (!v) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	vd->priv = v;
	vd->size = capacity * BA_SECTOR;
	v->grain_bytes = grain * BA_SECTOR;
	v->gtes = gtes;
	v->gd = gd * BA_SECTOR;
	v->zeroed_grain = flags & FLAG_ZEROED_GRAIN;
	per_gt = v->grain_bytes * gtes;
	v->gd_count = vd->size / per_gt + (vd->size % per_gt != 0);
	if (v->gd_count * 4 > MAX_GD_BYTES || v->gd > vd->file->size ||
	    v->gd_count * 4 > vd->file->size - v->gd) {
		snprintf(why, len,
			 "VMDK grain directory (%" PRIu64 " entries at %" PRIu64
			 ") does not fit the file",
			 v->gd_count, v->gd);
		return -EINVAL;
	}
	return 0;
}

static int vmdk_map(struct ba_vdisk *vd, uint64_t off, struct ba_vext *ext)
{
	const struct vmdk *v = vd->priv;
	uint64_t grain = off / v->grain_bytes, in = off % v->grain_bytes;
	uint32_t gde, gte;
	int rc = ba_vdisk_read_le32(vd, v->gd + 4 * (grain / v->gtes), &gde);

	if (rc)
		return rc;
	if (!gde) {
		ext->kind = BA_VEXT_ZERO;
		ext->len = (v->gtes - grain % v->gtes) * v->grain_bytes - in;
		return 0;
	}
	rc = ba_vdisk_read_le32(
		vd, (uint64_t)gde * BA_SECTOR + 4 * (grain % v->gtes), &gte);
	if (rc)
		return rc;
	ext->len = v->grain_bytes - in;
	if (!gte || (v->zeroed_grain && gte == GTE_ZEROED)) {
		ext->kind = BA_VEXT_ZERO;
		return 0;
	}
	ext->kind = BA_VEXT_DATA;
	ext->file_off = (uint64_t)gte * BA_SECTOR + in;
	return 0;
}

const struct ba_vdisk_format ba_vdisk_vmdk = {
	.name = "vmdk",
	.open = vmdk_open,
	.map = vmdk_map,
};
