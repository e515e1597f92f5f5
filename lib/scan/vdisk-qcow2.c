/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vdisk-qcow2.c - the map of a qcow2 image (versions 2 and 3), read as
 * qemu's block/qcow2.c and qcow2-cluster.c read it; the format is
 * docs/interop/qcow2.txt in qemu's tree.
 *
 * A guest offset's cluster is found through the L1 table (one entry per
 * L2 table) and its L2 table (one entry per cluster): an entry of zero,
 * or one with the zero flag, reads as zeros (no backing file here);
 * otherwise it gives the cluster's offset in the file, or for a
 * compressed cluster its deflate stream.  Left to qemu (-ENOTSUP): a
 * backing file, encryption, an external data file, zstd compression,
 * extended L2 entries (subclusters), an image marked corrupt, any
 * incompatible feature this reader does not know.
 */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blkalignP.h"
#include "vdisk.h"

/* The header, big-endian (qcow2.txt "Header"); v3 fields from 72 on. */
struct qcow2_header {
	uint8_t magic[4];		     /* 0x00 "QFI\xfb" */
	uint32_t be_version;		     /* 0x04 */
	uint64_t be_backing_file_offset;     /* 0x08 */
	uint32_t be_backing_file_size;	     /* 0x10 */
	uint32_t be_cluster_bits;	     /* 0x14 */
	uint64_t be_size;		     /* 0x18 virtual size, bytes */
	uint32_t be_crypt_method;	     /* 0x20 */
	uint32_t be_l1_size;		     /* 0x24 entries */
	uint64_t be_l1_table_offset;	     /* 0x28 */
	uint64_t be_refcount_table_offset;   /* 0x30 */
	uint32_t be_refcount_table_clusters; /* 0x38 */
	uint32_t be_nb_snapshots;	     /* 0x3c */
	uint64_t be_snapshots_offset;	     /* 0x40 */
	uint64_t be_incompatible_features;   /* 0x48 v3 */
	uint64_t be_compatible_features;     /* 0x50 */
	uint64_t be_autoclear_features;	     /* 0x58 */
	uint32_t be_refcount_order;	     /* 0x60 */
	uint32_t be_header_length;	     /* 0x64 */
} __attribute__((packed));
_Static_assert(sizeof(struct qcow2_header) == 104, "qcow2 header");
_Static_assert(offsetof(struct qcow2_header, be_l1_table_offset) == 0x28,
	       "qcow2 l1_table_offset");
_Static_assert(offsetof(struct qcow2_header, be_header_length) == 0x64,
	       "qcow2 header_length");

#define QCOW2_MIN_CLUSTER_BITS 9
#define QCOW2_MAX_CLUSTER_BITS 21
#define QCOW2_MAX_L1_BYTES     (32 * MIB) /* qemu's QCOW_MAX_L1_SIZE */

#define INCOMPAT_DIRTY                                        \
	(1ULL << 0) /* refcounts may be stale: reads are fine \
		     */
#define ENTRY_OFFSET_MASK 0x00fffffffffffe00ULL /* L1E/L2E offset bits */
#define L2E_COMPRESSED	  (1ULL << 62)
#define L2E_ZERO	  (1ULL << 0)
#define L2_BATCH	  64 /* entries read at a time */

struct qcow2 {
	uint32_t cluster_bits;
	uint64_t cluster_size;
	uint64_t l2_entries; /* per L2 table: cluster_size / 8 */
	uint64_t l1_offset;
	uint32_t l1_size;
};

static int qcow2_open(struct ba_vdisk *vd, char *why, size_t len)
{
	struct qcow2_header h;
	struct qcow2 *q;
	uint32_t version, bits;
	uint64_t incompat = 0, per_l1, need;
	int rc = ba_io_read(vd->file, 0, sizeof(h), &h);

	if (rc) {
		snprintf(why, len, "cannot read the qcow2 header");
		return rc > 0 ? -EINVAL : rc;
	}
	version = be32toh(h.be_version);
	bits = be32toh(h.be_cluster_bits);
	if (memcmp(h.magic, "QFI\xfb", 4) || (version != 2 && version != 3)) {
		snprintf(why, len, "qcow2 version %" PRIu32 " is left to qemu",
			 version);
		return -ENOTSUP;
	}
	if (bits < QCOW2_MIN_CLUSTER_BITS || bits > QCOW2_MAX_CLUSTER_BITS) {
		snprintf(why, len,
			 "qcow2 cluster bits %" PRIu32 " out of range", bits);
		return -EINVAL;
	}
	if (version == 3) {
		if (be32toh(h.be_header_length) < sizeof(h)) {
			snprintf(why, len, "qcow2 v3 header shorter than 104");
			return -EINVAL;
		}
		incompat = be64toh(h.be_incompatible_features);
	}
	if (incompat & ~INCOMPAT_DIRTY) {
		snprintf(why, len,
			 "qcow2 incompatible features %#" PRIx64
			 " (corrupt, data file, zstd, subclusters...) "
			 "are left to qemu",
			 incompat);
		return -ENOTSUP;
	}
	if (h.be_backing_file_offset || h.be_crypt_method) {
		snprintf(why, len, "a qcow2 %s is left to qemu",
			 h.be_crypt_method ? "encryption" : "backing file");
		return -ENOTSUP;
	}
	q = calloc(1, sizeof(*q));
	if (!q) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	vd->priv = q;
	q->cluster_bits = bits;
	q->cluster_size = UINT64_C(1) << bits;
	q->l2_entries = q->cluster_size / 8;
	q->l1_offset = be64toh(h.be_l1_table_offset);
	q->l1_size = be32toh(h.be_l1_size);
	vd->size = be64toh(h.be_size);
	per_l1 = q->cluster_size * q->l2_entries;
	need = vd->size / per_l1 + (vd->size % per_l1 != 0);
	if (q->l1_size < need ||
	    (uint64_t)q->l1_size * 8 > QCOW2_MAX_L1_BYTES ||
	    q->l1_offset % q->cluster_size || q->l1_offset > vd->file->size ||
	    (uint64_t)q->l1_size * 8 > vd->file->size - q->l1_offset) {
		snprintf(why, len,
			 "qcow2 L1 table (%" PRIu32 " entries at %" PRIu64
			 ") does not fit the disk or the file",
			 q->l1_size, q->l1_offset);
		return -EINVAL;
	}
	return 0;
}

/* The run of clusters from @l2_index of the L2 table at @l2: as many
 * entries of a kind as one batch shows (contiguous in the file for DATA). */
static int map_l2(struct ba_vdisk *vd, const struct qcow2 *q, uint64_t l2,
		  uint64_t l2_index, uint64_t in_cluster, struct ba_vext *ext)
{
	uint64_t e[L2_BATCH];
	size_t n = q->l2_entries - l2_index < L2_BATCH
			   ? (size_t)(q->l2_entries - l2_index)
			   : L2_BATCH;
	uint64_t host0 = 0;
	size_t k;
	int rc = ba_io_read(vd->file, l2 + 8 * l2_index, n * 8, e);

	if (rc)
		return rc > 0 ? -EINVAL : rc;
	for (k = 0; k < n; k++) {
		uint64_t v = be64toh(e[k]);
		uint64_t host = v & ENTRY_OFFSET_MASK;
		enum ba_vext_kind kind =
			(v & L2E_ZERO) || !host ? BA_VEXT_ZERO : BA_VEXT_DATA;

		if (v & L2E_COMPRESSED) {
			uint32_t shift = 62 - (q->cluster_bits - 8);
			uint64_t off = v & ((UINT64_C(1) << shift) - 1);
			uint64_t sectors =
				((v >> shift) &
				 ((UINT64_C(1) << (q->cluster_bits - 8)) - 1)) +
				1;

			if (k)
				break;
			ext->kind = BA_VEXT_DEFLATE;
			ext->file_off = off;
			ext->zlen = sectors * 512 - (off & 511);
			ext->unit_len = (uint32_t)q->cluster_size;
			ext->len = q->cluster_size - in_cluster;
			return 0;
		}
		if (kind == BA_VEXT_DATA && host % q->cluster_size)
			return -EINVAL; /* qemu: corrupt, unaligned cluster */
		if (k == 0) {
			ext->kind = kind;
			host0 = host;
		} else if (kind != ext->kind ||
			   (kind == BA_VEXT_DATA &&
			    host != host0 + k * q->cluster_size)) {
			break;
		}
	}
	ext->len = k * q->cluster_size - in_cluster;
	if (ext->kind == BA_VEXT_DATA)
		ext->file_off = host0 + in_cluster;
	return 0;
}

static int qcow2_map(struct ba_vdisk *vd, uint64_t off, struct ba_vext *ext)
{
	const struct qcow2 *q = vd->priv;
	uint64_t cluster = off >> q->cluster_bits;
	uint64_t in_cluster = off & (q->cluster_size - 1);
	uint64_t l1_index = cluster / q->l2_entries;
	uint64_t l2_index = cluster % q->l2_entries;
	uint64_t l1e, l2;
	int rc;

	if (l1_index >= q->l1_size) {
		ext->kind = BA_VEXT_ZERO;
		ext->len = vd->size - off;
		return 0;
	}
	rc = ba_vdisk_read_be64(vd, q->l1_offset + 8 * l1_index, &l1e);
	if (rc)
		return rc;
	l2 = l1e & ENTRY_OFFSET_MASK;
	if (!l2) {
		/* no L2 table: the whole range it would map is zeros */
		ext->kind = BA_VEXT_ZERO;
		ext->len = (q->l2_entries - l2_index) * q->cluster_size -
			   in_cluster;
		return 0;
	}
	if (l2 % q->cluster_size)
		return -EINVAL; /* qemu: corrupt, unaligned L2 table */
	rc = map_l2(vd, q, l2, l2_index, in_cluster, ext);
	if (!rc && ext->kind == BA_VEXT_DEFLATE)
		ext->unit_start = off - in_cluster;
	return rc;
}

const struct ba_vdisk_format ba_vdisk_qcow2 = {
	.name = "qcow2",
	.open = qcow2_open,
	.map = qcow2_map,
};
