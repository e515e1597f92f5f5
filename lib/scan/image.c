/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * image.c - which virtual-disk format an image file is in, from its
 * magic, so that check_file() can hand it to qemu-nbd (nbd.c) instead of
 * reading its bytes as a raw disk.  Only the magic and what the headers
 * say of the disk's geometry are read here (the cluster or block size,
 * the sector sizes: vhdx's metadata in image-vhdx.c, parsed in the
 * sandboxed child blkalign's own readers run in, vdisk-child.c): the
 * formats themselves are qemu's business.
 *
 * Magics as qemu's block drivers probe them (block/qcow2.c, vmdk.c,
 * vhdx.c, vpc.c, vdi.c, qed.c); vpc is also recognised by its footer in
 * the last sector, the only copy a fixed VHD has.
 */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "scan/scan.h"
#include "vdisk.h"

/* Header fields read below, byte offsets in the first sector. */
#define QCOW2_CLUSTER_BITS 0x14	 /* be32 */
#define QED_CLUSTER_SIZE   0x04	 /* le32 */
#define VMDK_GRAIN_SIZE	   0x14	 /* le64, in 512-byte sectors */
#define VDI_SIGNATURE	   0x40	 /* le32 0xbeda107f */
#define VDI_SECTOR_SIZE	   0x168 /* le32 */
#define VDI_BLOCK_SIZE	   0x178 /* le32 */
#define VPC_DATA_OFFSET	   0x10	 /* be64: the dynamic header, or ~0 */
#define VPC_DYN_BLOCK_SIZE 0x20	 /* be32, in the dynamic header */

#define VDI_MAGIC 0xbeda107fU

static uint32_t get_be32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return be32toh(v);
}

static uint32_t get_le32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

static uint64_t get_le64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

/* A cluster size worth reporting: a power of two from 512 B to 2 GiB. */
static uint32_t plausible(uint64_t v)
{
	return v >= 512 && v <= (UINT64_C(1) << 31) && ba_is_pow2(v)
		       ? (uint32_t)v
		       : 0;
}

/* Where qcow2's tables lie (docs/interop/qcow2.txt in qemu's tree). */
#define QCOW2_VERSION		0x04 /* be32: 2 or 3 */
#define QCOW2_L1_SIZE		0x24 /* be32, entries of 8 bytes */
#define QCOW2_L1_OFFSET		0x28 /* be64 */
#define QCOW2_REFCOUNT_OFFSET	0x30 /* be64 */
#define QCOW2_REFCOUNT_CLUSTERS 0x38 /* be32 */

static uint64_t get_be64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return be64toh(v);
}

/* Whether the @what table [off, off + bytes) ends past the file; why in
 * @buf. */
static bool past_end(const char *what, uint64_t off, uint64_t bytes,
		     uint64_t file_size, char *buf, size_t len)
{
	if (off <= file_size && bytes <= file_size - off)
		return false;
	snprintf(buf, len,
		 "its %s table ends at byte %" PRIu64
		 ", past the end of the file (%" PRIu64 " bytes): truncated",
		 what, off + bytes, file_size);
	return true;
}

/* Do [a, a + alen) and [b, b + blen) share a byte? */
static bool overlap(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
	return alen && blen && a < b + blen && b < a + alen;
}

/*
 * A qcow2 file cut short: qemu reads what lies past the end of the file
 * as zeros, so a truncated image would look like an empty disk.  Its
 * L1 and refcount tables must be inside the file.  Nor may they lie
 * over the header's cluster or over each other: qemu does not check
 * that when it opens an image, it reads the entries it finds there
 * (the header's bytes as L2 tables: a disk of zeros or garbage), and
 * never writes an image so (qcow2_check_metadata_overlap refuses such
 * writes; qemu-img check finds the image corrupt).  NULL when all is
 * well, else why not (in @buf).
 */
static const char *qcow2_damage(const uint8_t *s, uint64_t file_size, char *buf,
				size_t len)
{
	uint32_t version = get_be32(s + QCOW2_VERSION);
	uint32_t bits = get_be32(s + 0x14);
	uint64_t l1 = get_be64(s + QCOW2_L1_OFFSET);
	uint64_t l1_bytes = (uint64_t)get_be32(s + QCOW2_L1_SIZE) * 8;
	uint64_t rt = get_be64(s + QCOW2_REFCOUNT_OFFSET);
	uint64_t rt_bytes, cluster;

	if (version != 2 && version != 3)
		return snprintf(buf, len, "unknown qcow2 version %u", version),
		       buf;
	if (bits < 9 || bits > 21)
		return snprintf(buf, len, "cluster_bits %u is out of range",
				bits),
		       buf;
	cluster = UINT64_C(1) << bits;
	rt_bytes = (uint64_t)get_be32(s + QCOW2_REFCOUNT_CLUSTERS) << bits;
	if (past_end("L1", l1, l1_bytes, file_size, buf, len) ||
	    past_end("refcount", rt, rt_bytes, file_size, buf, len))
		return buf;
	if (overlap(l1, l1_bytes, 0, cluster) ||
	    overlap(rt, rt_bytes, 0, cluster))
		return snprintf(buf, len,
				"its %s table (bytes %" PRIu64 " to %" PRIu64
				") lies over its header (the first %" PRIu64
				" bytes): damaged",
				overlap(l1, l1_bytes, 0, cluster) ? "L1"
								  : "refcount",
				overlap(l1, l1_bytes, 0, cluster) ? l1 : rt,
				overlap(l1, l1_bytes, 0, cluster)
					? l1 + l1_bytes
					: rt + rt_bytes,
				cluster),
		       buf;
	if (overlap(l1, l1_bytes, rt, rt_bytes))
		return snprintf(buf, len,
				"its L1 table (bytes %" PRIu64 " to %" PRIu64
				") and refcount table (bytes %" PRIu64
				" to %" PRIu64 ") overlap: damaged",
				l1, l1 + l1_bytes, rt, rt + rt_bytes),
		       buf;
	return NULL;
}

/*
 * The format of the first sector @s, or NULL for none of ours.  The
 * cluster size goes to @cluster (0: not recorded in the first sector:
 * vhdx keeps it in its metadata region, vpc in the dynamic header the
 * footer points to, a vmdk descriptor in its extent files).
 */
static const char *sniff_head(const uint8_t s[BA_SECTOR], uint32_t *cluster)
{
	*cluster = 0;
	if (!memcmp(s, "QFI\xfb", 4)) {
		uint32_t bits = get_be32(s + QCOW2_CLUSTER_BITS);

		*cluster = bits < 32 ? plausible(UINT64_C(1) << bits) : 0;
		return "qcow2";
	}
	if (!memcmp(s, "QED\0", 4)) {
		*cluster = plausible(get_le32(s + QED_CLUSTER_SIZE));
		return "qed";
	}
	if (!memcmp(s, "KDMV", 4)) {
		uint64_t grain = get_le64(s + VMDK_GRAIN_SIZE);

		*cluster = grain < (UINT64_C(1) << 32)
				   ? plausible(grain * BA_SECTOR)
				   : 0;
		return "vmdk";
	}
	if (!memcmp(s, "# Disk DescriptorFile", 21))
		return "vmdk";
	if (!memcmp(s, "vhdxfile", 8))
		return "vhdx";
	if (!memcmp(s, "conectix", 8))
		return "vpc";
	if (!memcmp(s, "<<< ", 4) && get_le32(s + VDI_SIGNATURE) == VDI_MAGIC) {
		*cluster = plausible(get_le32(s + VDI_BLOCK_SIZE));
		return "vdi";
	}
	return NULL;
}

/*
 * The sector sizes of a disk in @fmt (header @s), and for vpc the block
 * size its dynamic header records.  vhdx records both sizes in its
 * metadata (image-vhdx.c); a vdi header its sector size (qemu's vdi.c
 * opens only 512); VHD's unit is the 512-byte sector by definition
 * (Virtual Hard Disk Image Format Specification, 2006: every offset and
 * the CHS geometry count them), as is VMDK's (grains, extents and the
 * descriptor count 512-byte sectors); neither records a physical one.
 * qcow2 and qed count bytes and record none.  Returns 0, or -errno of a
 * read (1: damaged, for vhdx: why in @info).
 */
static int sector_sizes(int fd, uint64_t size, const uint8_t s[BA_SECTOR],
			struct ba_image_info *info)
{
	const char *fmt = info->format;

	if (!strcmp(fmt, "vhdx")) {
		/* a parse of untrusted metadata: in the readers' sandbox */
		struct ba_vhdx_layout l;
		int rc = ba_vdisk_child_vhdx(fd, size, &l, info->why,
					     sizeof(info->why));

		if (rc == 1 || rc == -ECHILD)
			info->damage = info->why;
		if (!rc)
			ba_vhdx_info(&l, info);
		return rc == -ECHILD ? 1 : rc;
	}
	if (!strcmp(fmt, "vdi")) {
		uint32_t lss = get_le32(s + VDI_SECTOR_SIZE);

		if (lss == 512 || lss == 4096) {
			info->logical_sector_size = lss;
			info->logical_source = BLKALIGN_SRC_IMAGE;
		}
		return 0;
	}
	if (!strcmp(fmt, "vpc") || !strcmp(fmt, "vmdk")) {
		info->logical_sector_size = 512;
		info->logical_source = BLKALIGN_SRC_FORMAT;
	}
	if (!strcmp(fmt, "vpc")) {
		uint64_t dyn = get_be64(s + VPC_DATA_OFFSET);
		uint8_t h[BA_SECTOR];

		/* a fixed VHD (~0) allocates nothing: it has no blocks */
		if (dyn > size || size - dyn < sizeof(h))
			return 0;
		if (ba_pread_full(fd, h, sizeof(h), dyn) == 0 &&
		    !memcmp(h, "cxsparse", 8))
			info->cluster_size =
				plausible(get_be32(h + VPC_DYN_BLOCK_SIZE));
	}
	return 0;
}

/**
 * ba_image_sniff: the virtual-disk format of the image file @fd of @size
 * bytes, from its first sector and (vpc's footer) its last, with the
 * geometry its headers record.
 * Returns: 1 with @info filled (info->damage set when qemu would misread
 * it or it contradicts its format), 0 for a raw image (also one too
 * short to hold a header, but for a VMDK descriptor file), or -errno
 * when the file cannot be read.
 */
int ba_image_sniff(int fd, uint64_t size, struct ba_image_info *info)
{
	uint8_t s[BA_SECTOR];
	int rc;

	memset(info, 0, sizeof(*info));
	memset(s, 0, sizeof(s));
	rc = ba_pread_full(fd, s, size < sizeof(s) ? size : sizeof(s), 0);
	if (rc)
		return rc;
	/* shorter than a header: a VMDK descriptor file (VMware's often
	 * are; qemu reads one of any size), or raw */
	if (size < BA_SECTOR && memcmp(s, "# Disk DescriptorFile", 21))
		return 0;
	info->format = sniff_head(s, &info->cluster_size);
	if (info->format && !strcmp(info->format, "qcow2"))
		info->damage =
			qcow2_damage(s, size, info->why, sizeof(info->why));
	if (!info->format) {
		rc = ba_pread_full(fd, s, sizeof(s), size - BA_SECTOR);
		if (rc)
			return rc;
		if (memcmp(s, "conectix", 8))
			return 0;
		info->format = "vpc";
	}
	rc = sector_sizes(fd, size, s, info);
	return rc < 0 ? rc : 1;
}

/**
 * ba_image_open_hint: after qemu-nbd refused the image of @info, append
 * to its message @why (of @len bytes) what the image records that qemu
 * does not read, if that is known: a VHDX of 4096-byte logical sectors
 * (qemu 7.2's vhdx driver opens 512 only: -ENOTSUP once it has read the
 * sector size items).
 */
void ba_image_open_hint(const struct ba_image_info *info, char *why, size_t len)
{
	size_t n = strlen(why);

	if (strcmp(info->format, "vhdx") || info->logical_sector_size != 4096 ||
	    n >= len)
		return;
	snprintf(why + n, len - n,
		 " (its metadata records 4096-byte logical sectors; qemu's "
		 "vhdx driver reads 512-byte ones only)");
}
