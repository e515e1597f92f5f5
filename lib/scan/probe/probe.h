/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * probe.h - the content probers: what a partition (or a whole disk)
 * holds and where its data starts, decoded from on-disk structures by
 * bounded parsers, one format per file (lib/scan/probe/<format>.c).
 *
 * libblkid says *what* is there (TYPE); these parsers read the fields
 * libblkid does not expose: md data_offset and chunk, LVM pe_start, LUKS
 * payload offset and sector size, filesystem block size and RAID hints,
 * ZFS ashift.
 */
#ifndef BLKALIGN_PROBE_H
#define BLKALIGN_PROBE_H

#include "scan/scan.h"

enum ba_content_kind {
	BA_CONTENT_NONE = 0,
	BA_CONTENT_MD,	  /* md RAID member */
	BA_CONTENT_LVM,	  /* LVM2 physical volume */
	BA_CONTENT_LUKS,  /* LUKS1/LUKS2 container */
	BA_CONTENT_FS,	  /* filesystem (and swap) */
	BA_CONTENT_ZFS,	  /* ZFS vdev */
	BA_CONTENT_TABLE, /* a partition table inside a partition */
};

/*
 * What one region holds.  Offsets are bytes relative to the start of the
 * region probed; sizes in bytes; 0 means "not set / not known".
 */
struct ba_content {
	enum ba_content_kind kind;
	char type[32];	  /* "linux_raid_member", "ext4", ... */
	char version[16]; /* "1.2", "0.90", "2", ... */

	uint64_t data_offset; /* where the payload/data starts */
	uint64_t data_size;   /* bytes of payload/data, if known */
	uint64_t used_size;   /* bytes the content really uses */
	uint32_t block_size;  /* fs block, LUKS2 sector, md: 0 */
	uint32_t sector_size; /* fs sector size (XFS), else 0 */

	/* md */
	int32_t md_level; /* -1 linear, 0, 1, 4, 5, 6, 10 */
	uint32_t md_layout;
	uint32_t md_raid_disks;
	uint32_t md_data_disks;	  /* raid5 -1, raid6 -2, raid10 by layout */
	uint64_t md_chunk;	  /* bytes */
	uint64_t md_super_offset; /* bytes from region start */

	/* LVM */
	uint64_t lvm_pe_start;	  /* bytes (== data_offset) */
	uint64_t lvm_extent_size; /* bytes, 0 when no VG metadata */

	/* filesystem RAID hints, in bytes (ext4 stride/stripe_width,
	 * XFS sunit/swidth) */
	uint64_t fs_stride;
	uint64_t fs_stripe_width;

	/* ZFS */
	uint32_t zfs_ashift;

	/* why a structure that lies (-EINVAL/-ERANGE) cannot be used, in
	 * words, with the numbers it does tell ("" when the errno says it) */
	char note[256];
};

/*
 * A prober reads the region [off, off + size) of @io.
 * Returns 0 when found (and @out filled), 1 when absent, -errno on an
 * I/O error, -EINVAL/-ERANGE on a structure that lies (out of bounds,
 * impossible values).
 */
struct ba_prober {
	const char *name; /* libblkid TYPE(s) it handles */
	enum ba_content_kind kind;
	int (*probe)(struct ba_io *io, uint64_t off, uint64_t size,
		     struct ba_content *out);
};

extern const struct ba_prober ba_md_prober;
extern const struct ba_prober ba_lvm_prober;
extern const struct ba_prober ba_luks_prober;
extern const struct ba_prober ba_ext_prober;
extern const struct ba_prober ba_xfs_prober;
extern const struct ba_prober ba_btrfs_prober;
extern const struct ba_prober ba_fat_prober;
extern const struct ba_prober ba_exfat_prober;
uint32_t ba_exfat_boot_sum(uint32_t sum, const uint8_t *p, size_t len,
			   uint64_t at);
extern const struct ba_prober ba_ntfs_prober;
extern const struct ba_prober ba_swap_prober;
extern const struct ba_prober ba_zfs_prober;
extern const struct ba_prober ba_gpt_nested_prober;

/* An LVM2 PV's label and header (probe/lvm.c), in bytes from its start. */
#define BA_LVM_MAX_MDAS 8 /* lvm writes at most 2 */
struct ba_lvm_pv {
	char pvid[33]; /* the 32 characters of the PV's id, NUL */
	uint64_t device_size;
	uint64_t pe_start, da_size; /* the first data area; 0: to the end */
	uint32_t label_sector;
	size_t nmdas;
	struct {
		uint64_t offset, size;
	} mdas[BA_LVM_MAX_MDAS];
};

/* The PV label in the first 4 sectors of [off, off + size) of @io: 0,
 * 1 when absent, -EINVAL when it lies, -errno. */
int ba_lvm_pv_read(struct ba_io *io, uint64_t off, uint64_t size,
		   struct ba_lvm_pv *pv);
int ba_lvm_mda_text(struct ba_io *io, uint64_t off, uint64_t size,
		    uint64_t mda_off, uint64_t mda_size, char **text,
		    size_t *len);

/* A bounded cursor over a buffer: getters fail with -ERANGE on overrun. */
struct ba_cur {
	const uint8_t *p;
	size_t len, pos;
};

void ba_cur_init(struct ba_cur *c, const void *p, size_t len);
int ba_cur_seek(struct ba_cur *c, size_t pos);
int ba_cur_skip(struct ba_cur *c, size_t n);
int ba_cur_u8(struct ba_cur *c, uint8_t *v);
int ba_cur_le16(struct ba_cur *c, uint16_t *v);
int ba_cur_le32(struct ba_cur *c, uint32_t *v);
int ba_cur_le64(struct ba_cur *c, uint64_t *v);
int ba_cur_be16(struct ba_cur *c, uint16_t *v);
int ba_cur_be32(struct ba_cur *c, uint32_t *v);
int ba_cur_be64(struct ba_cur *c, uint64_t *v);
int ba_cur_bytes(struct ba_cur *c, void *dst, size_t n);

#endif /* BLKALIGN_PROBE_H */
