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
 * incompatible feature this reader does not know, internal snapshots,
 * persistent bitmaps (qemu checks their directory at open).
 *
 * At open, qemu's own checks (qcow2_do_open: header length, refcount
 * order, the refcount, snapshot and L1 tables' qcow2_validate_table,
 * the L1 table's size, the header extensions) fail the image as they
 * fail qemu's open (-EINVAL: qemu-nbd then says why in its words), and
 * so does what qemu reads without a word but never writes, which this
 * reader cannot vouch for: tables past the end of the file or over the
 * header or each other, an L1 entry with reserved bits set or an L2
 * table off the grid or past the file's end.  Under a read, an L2 entry
 * with reserved bits set or a cluster off the grid (qemu fails that
 * read) fails the map with -EINVAL, and the caller hands the image to
 * qemu (target.c): a table entry found bad midway never reads as a disk.
 */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scan/scan.h"
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

#define QCOW2_MIN_CLUSTER_BITS	 9
#define QCOW2_MAX_CLUSTER_BITS	 21
#define QCOW2_V2_HEADER_LENGTH	 72
#define QCOW2_MAX_L1_BYTES	 (32 * MIB) /* qemu's QCOW_MAX_L1_SIZE */
#define QCOW2_MAX_RT_BYTES	 (8 * MIB)  /* QCOW_MAX_REFTABLE_SIZE */
#define QCOW2_MAX_REFCOUNT_ORDER 6
#define QCOW2_COMPRESSION_TYPE	 104 /* a byte, when header_length > 104 */

#define INCOMPAT_DIRTY	  (1ULL << 0) /* refcounts may be stale: reads fine */
#define ENTRY_OFFSET_MASK 0x00fffffffffffe00ULL /* L1E/L2E offset bits */
#define L1E_RESERVED_MASK 0x7f000000000001ffULL
#define L2E_RESERVED_MASK 0x3f000000000001feULL /* standard entries */
#define L2E_COPIED	  (1ULL << 63)
#define L2E_COMPRESSED	  (1ULL << 62)
#define L2E_ZERO	  (1ULL << 0)
#define L2_BATCH	  64 /* entries read at a time */

/* Header extensions (qcow2.txt "Header extensions"), as qemu's
 * qcow2_read_extensions walks them. */
#define EXT_END		   0x00000000U
#define EXT_BACKING_FORMAT 0xe2792acaU
#define EXT_FEATURE_TABLE  0x6803f857U
#define EXT_CRYPTO_HEADER  0x0537be77U
#define EXT_BITMAPS	   0x23852875U
#define EXT_DATA_FILE	   0x44415441U
#define EXT_BUF		   4096 /* bytes of the header cluster read at once */
#define AUTOCLEAR_BITMAPS  (1ULL << 0)

struct qcow2 {
	uint32_t cluster_bits;
	uint64_t cluster_size;
	uint64_t l2_entries; /* per L2 table: cluster_size / 8 */
	uint64_t *l1;	     /* the L1 entries the disk needs, checked */
	uint64_t l1_need;
};

/* Say why in @why; return @rc. */
#define REFUSE(rc, ...) (snprintf(why, len, __VA_ARGS__), (rc))

/*
 * qemu's qcow2_validate_table: @entries of @entry_len bytes at @off,
 * at most @max bytes, on a cluster boundary, ending below 2^63.
 */
static bool table_ok(const struct qcow2 *q, uint64_t off, uint64_t entries,
		     uint64_t entry_len, uint64_t max)
{
	return entries <= max / entry_len &&
	       off <= (uint64_t)INT64_MAX - entries * entry_len &&
	       off % q->cluster_size == 0;
}

static bool overlaps(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
	return alen && blen && a < b + blen && b < a + alen;
}

/*
 * The header extensions from @start to @end (the header cluster), as
 * qemu walks them at open: one that runs past @end fails the open (so
 * do we: -EINVAL, qemu says why); those qemu checks or acts on beyond
 * their length are left to it (-ENOTSUP); the feature name table and
 * unknown ones are only read.  The file's end reads as zeros (an end
 * marker), as qemu's file layer reads it.
 */
static int read_extensions(struct ba_vdisk *vd, uint64_t start, uint64_t end,
			   uint64_t autoclear, char *why, size_t len)
{
	uint8_t *buf = malloc(EXT_BUF);
	uint64_t at = start, buf_at = 0, buf_len = 0;
	int rc = 0;

	if (!buf)
		return REFUSE(-ENOMEM, "out of memory");
	while (at < end && !rc) {
		uint32_t e[2], magic, elen;

		if (at < buf_at || at + 8 > buf_at + buf_len) {
			uint64_t fsize = vd->file->size;

			buf_at = at;
			buf_len = fsize > at ? fsize - at : 0;
			if (buf_len > EXT_BUF)
				buf_len = EXT_BUF;
			if (buf_len > end - at)
				buf_len = end - at;
			if (buf_len < 8)
				break; /* zeros: the end */
			rc = ba_io_read(vd->file, at, (size_t)buf_len, buf);
			if (rc) {
				rc = rc > 0 ? -EINVAL : rc;
				break;
			}
		}
		memcpy(e, buf + (at - buf_at), sizeof(e));
		magic = be32toh(e[0]);
		elen = be32toh(e[1]);
		at += 8;
		if (at > end || elen > end - at)
			rc = REFUSE(-EINVAL,
				    "qcow2 header extension %#" PRIx32
				    " of %" PRIu32
				    " bytes runs past the header "
				    "cluster",
				    magic, elen);
		else if (magic == EXT_END)
			break;
		else if (magic == EXT_BACKING_FORMAT && elen >= 16)
			rc = REFUSE(-EINVAL,
				    "qcow2 backing format name of %" PRIu32
				    " bytes",
				    elen);
		else if (magic == EXT_CRYPTO_HEADER || magic == EXT_DATA_FILE ||
			 (magic == EXT_BITMAPS &&
			  (elen != 24 || (autoclear & AUTOCLEAR_BITMAPS))))
			rc = REFUSE(-ENOTSUP,
				    "qcow2 header extension %#" PRIx32
				    " (encryption, data file, bitmaps) is left "
				    "to qemu",
				    magic);
		at += ((uint64_t)elen + 7) & ~UINT64_C(7);
	}
	free(buf);
	return rc;
}

/*
 * The L1 entries the disk needs (a size past them is qemu's VM state),
 * each an L2 table on a cluster boundary inside the file with no
 * reserved bit set, kept in q->l1: qemu reads an entry with reserved
 * bits as if they were clear and a table past the file's end as zeros
 * (an empty disk), neither of which an image qemu wrote holds.
 */
static int read_l1(struct ba_vdisk *vd, struct qcow2 *q, uint64_t l1_off,
		   char *why, size_t len)
{
	uint64_t fsize = vd->file->size;
	int rc;

	if (!q->l1_need)
		return 0;
	q->l1 = malloc(q->l1_need * 8);
	if (!q->l1)
		return REFUSE(-ENOMEM, "out of memory");
	for (uint64_t i = 0; i < q->l1_need; i += BA_IO_MAX_READ / 8) {
		uint64_t n = q->l1_need - i < BA_IO_MAX_READ / 8
				     ? q->l1_need - i
				     : BA_IO_MAX_READ / 8;

		rc = ba_io_read(vd->file, l1_off + 8 * i, (size_t)n * 8,
				q->l1 + i);
		if (rc)
			return REFUSE(rc > 0 ? -EINVAL : rc,
				      "cannot read the qcow2 L1 table");
	}
	for (uint64_t i = 0; i < q->l1_need; i++) {
		uint64_t e = be64toh(q->l1[i]), l2 = e & ENTRY_OFFSET_MASK;

		q->l1[i] = e;
		if ((e & L1E_RESERVED_MASK) || l2 % q->cluster_size ||
		    (l2 && (l2 > fsize || q->cluster_size > fsize - l2)))
			return REFUSE(-EINVAL,
				      "qcow2 L1 entry %" PRIu64 " (%#" PRIx64
				      ") is not an L2 table inside the file",
				      i, e);
	}
	return 0;
}

static int qcow2_open(struct ba_vdisk *vd, char *why, size_t len)
{
	struct qcow2_header h;
	struct qcow2 *q;
	uint32_t version, bits, hlen = QCOW2_V2_HEADER_LENGTH;
	uint64_t incompat = 0, autoclear = 0, size, per_l1, l1_off, rt_off,
		 rt_bytes, l1_bytes, fsize = vd->file->size;
	uint32_t l1_size, rt_clusters;
	uint8_t ctype = 0;
	int rc = ba_io_read(vd->file, 0, sizeof(h), &h);

	if (rc)
		return REFUSE(rc > 0 ? -EINVAL : rc,
			      "cannot read the qcow2 header");
	version = be32toh(h.be_version);
	bits = be32toh(h.be_cluster_bits);
	if (memcmp(h.magic, "QFI\xfb", 4) || (version != 2 && version != 3))
		return REFUSE(-ENOTSUP,
			      "qcow2 version %" PRIu32 " is left to qemu",
			      version);
	if (bits < QCOW2_MIN_CLUSTER_BITS || bits > QCOW2_MAX_CLUSTER_BITS)
		return REFUSE(-EINVAL,
			      "qcow2 cluster bits %" PRIu32 " out of range",
			      bits);
	if (version == 3) {
		hlen = be32toh(h.be_header_length);
		if (hlen < sizeof(h))
			return REFUSE(-EINVAL,
				      "qcow2 v3 header shorter than 104");
		incompat = be64toh(h.be_incompatible_features);
		autoclear = be64toh(h.be_autoclear_features);
		if (be32toh(h.be_refcount_order) > QCOW2_MAX_REFCOUNT_ORDER)
			return REFUSE(-EINVAL,
				      "qcow2 refcount order %" PRIu32 " past 6",
				      be32toh(h.be_refcount_order));
	}
	if (hlen > (UINT32_C(1) << bits))
		return REFUSE(-EINVAL,
			      "qcow2 header of %" PRIu32 " bytes exceeds "
			      "its cluster",
			      hlen);
	if (incompat & ~INCOMPAT_DIRTY)
		return REFUSE(-ENOTSUP,
			      "qcow2 incompatible features %#" PRIx64
			      " (corrupt, data file, zstd, subclusters...) "
			      "are left to qemu",
			      incompat);
	if (h.be_backing_file_offset || h.be_crypt_method)
		return REFUSE(-ENOTSUP, "a qcow2 %s is left to qemu",
			      h.be_crypt_method ? "encryption"
						: "backing file");
	/* a compression type other than zlib, without its incompatible
	 * bit: qemu refuses the image */
	if (hlen > QCOW2_COMPRESSION_TYPE &&
	    ba_io_read(vd->file, QCOW2_COMPRESSION_TYPE, 1, &ctype) < 0)
		return REFUSE(-EIO, "cannot read the qcow2 header");
	if (ctype)
		return REFUSE(-ENOTSUP,
			      "qcow2 compression type %u is left to qemu",
			      ctype);
	if (h.be_nb_snapshots)
		return REFUSE(-ENOTSUP,
			      "a qcow2 with internal snapshots is left to "
			      "qemu");
	q = calloc(1, sizeof(*q));
	if (!q)
		return REFUSE(-ENOMEM, "out of memory");
	vd->priv = q;
	q->cluster_bits = bits;
	q->cluster_size = UINT64_C(1) << bits;
	q->l2_entries = q->cluster_size / 8;
	l1_off = be64toh(h.be_l1_table_offset);
	l1_size = be32toh(h.be_l1_size);
	l1_bytes = (uint64_t)l1_size * 8;
	rt_off = be64toh(h.be_refcount_table_offset);
	rt_clusters = be32toh(h.be_refcount_table_clusters);
	rt_bytes = (uint64_t)rt_clusters << bits;
	size = be64toh(h.be_size);
	per_l1 = q->cluster_size * q->l2_entries;
	q->l1_need = size / per_l1 + (size % per_l1 != 0);
	/* qemu's checks at open (qcow2_do_open), in its order */
	if (!rt_clusters ||
	    !table_ok(q, rt_off, rt_clusters, q->cluster_size,
		      QCOW2_MAX_RT_BYTES) ||
	    !table_ok(q, be64toh(h.be_snapshots_offset), 0, 1, 1))
		return REFUSE(-EINVAL,
			      "qcow2 refcount table (%" PRIu32
			      " clusters at %" PRIu64 ") or snapshot table "
			      "offset invalid",
			      rt_clusters, rt_off);
	if (!table_ok(q, l1_off, l1_size, 8, QCOW2_MAX_L1_BYTES) ||
	    q->l1_need > INT32_MAX || l1_size < q->l1_need)
		return REFUSE(-EINVAL,
			      "qcow2 L1 table (%" PRIu32 " entries at %" PRIu64
			      ") does not fit the disk",
			      l1_size, l1_off);
	/*
	 * What qemu does not check at open but never writes: tables past
	 * the end of the file (read as zeros), over the header cluster or
	 * over each other.
	 */
	if (l1_off > fsize || l1_bytes > fsize - l1_off || rt_off > fsize ||
	    rt_bytes > fsize - rt_off ||
	    overlaps(l1_off, l1_bytes, 0, q->cluster_size) ||
	    overlaps(rt_off, rt_bytes, 0, q->cluster_size) ||
	    overlaps(l1_off, l1_bytes, rt_off, rt_bytes))
		return REFUSE(-EINVAL,
			      "qcow2 L1 table (%" PRIu64 " bytes at %" PRIu64
			      ") and refcount table (%" PRIu64
			      " bytes at %" PRIu64
			      ") are not apart inside the file after its "
			      "header",
			      l1_bytes, l1_off, rt_bytes, rt_off);
	rc = read_extensions(vd, hlen, q->cluster_size, autoclear, why, len);
	if (!rc)
		rc = read_l1(vd, q, l1_off, why, len);
	if (rc)
		return rc;
	/* qemu: total_sectors = size / 512 */
	vd->size = size & ~UINT64_C(511);
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
			if (v & L2E_COPIED)
				return -EINVAL; /* never on a compressed one */
			ext->kind = BA_VEXT_DEFLATE;
			ext->file_off = off;
			ext->zlen = sectors * 512 - (off & 511);
			ext->unit_len = (uint32_t)q->cluster_size;
			ext->len = q->cluster_size - in_cluster;
			return 0;
		}
		/*
		 * qemu fails a read of a cluster off the cluster grid (zero
		 * or data: corrupt) and reads reserved bits as if clear:
		 * neither is an image it wrote.  A bad entry fails its own
		 * map, not the run before it.
		 */
		if ((v & L2E_RESERVED_MASK) || host % q->cluster_size) {
			if (k == 0)
				return -EINVAL;
			break;
		}
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
	uint64_t l2;
	int rc;

	if (l1_index >= q->l1_need)
		return -EINVAL; /* off < size: cannot be */
	/* checked at open: on the grid, inside the file */
	l2 = q->l1[l1_index] & ENTRY_OFFSET_MASK;
	if (!l2) {
		/* no L2 table: the whole range it would map is zeros */
		ext->kind = BA_VEXT_ZERO;
		ext->len = (q->l2_entries - l2_index) * q->cluster_size -
			   in_cluster;
		return 0;
	}
	rc = map_l2(vd, q, l2, l2_index, in_cluster, ext);
	if (!rc && ext->kind == BA_VEXT_DEFLATE)
		ext->unit_start = off - in_cluster;
	return rc;
}

static void qcow2_close(struct ba_vdisk *vd)
{
	struct qcow2 *q = vd->priv;

	if (q)
		free(q->l1);
}

const struct ba_vdisk_format ba_vdisk_qcow2 = {
	.name = "qcow2",
	.open = qcow2_open,
	.map = qcow2_map,
	.close = qcow2_close,
};
