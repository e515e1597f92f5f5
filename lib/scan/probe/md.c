/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * md.c - Linux md RAID member superblocks: where the member's data starts
 * and the array geometry (level, layout, chunk, disks) that the layers
 * above must align to.
 *
 * Format: include/uapi/linux/raid/md_p.h and drivers/md/md.c
 * (super_90_load(), super_1_load(), calc_sb_1_csum()); mdadm super0.c and
 * super1.c.  Both superblocks are 4096 bytes.
 *
 *   0.90  at MD_NEW_SIZE_SECTORS(n) = (n & ~127) - 128 sectors, fields in
 *         the byte order of the host that wrote it (we accept both and
 *         say which in a comment below), chunk in bytes, data at 0.
 *   1.0   at ((n - 16) & ~7) sectors (near the end), little-endian.
 *   1.1   at sector 0.   1.2   at sector 8 (4 KiB).
 *         1.x chunk and offsets are in 512-byte sectors, and super_offset
 *         must equal where the superblock was found.
 *
 * Checked in the kernel's order: magic, version, sizes (max_dev), the
 * checksum, self-location; then the geometry (level, disks, layout,
 * chunk) and that the data area lies inside the region.  Locations are
 * tried in libblkid's order (0.90, 1.0, 1.1, 1.2); the first valid
 * superblock wins, so a stale one with a bad checksum does not hide a
 * good one elsewhere.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "probe/probe.h"

#define MD_SB_MAGIC	    0xa92b4efcU
#define MD_SB_BYTES	    4096
#define MD_RESERVED_SECTORS 128			      /* 64 KiB, 0.90 */
#define MD_SB0_DISKS	    27			      /* MD_SB_DISKS, md_p.h */
#define MD_SB1_MAX_DEV	    ((MD_SB_BYTES - 256) / 2) /* 1920 */
#define MD_MIN_STRIPE_CHUNK 4096		      /* a page on x86 */

/* Levels (md_p.h, mdadm.h): -5 faulty, -4 multipath, -1 linear. */
#define LEVEL_FAULTY	(-5)
#define LEVEL_MULTIPATH (-4)
#define LEVEL_LINEAR	(-1)

/* mdp_super_t: 32-bit words in the writer's byte order ("ho" = host). */
struct md_sb0_disk {
	uint32_t ho_md_magic;		   /* 0x00 */
	uint32_t ho_major_version;	   /* 0x04 */
	uint32_t ho_minor_version;	   /* 0x08 */
	uint32_t ho_patch_version;	   /* 0x0c */
	uint32_t ho_gvalid_words;	   /* 0x10 */
	uint32_t ho_set_uuid0;		   /* 0x14 */
	uint32_t ho_ctime;		   /* 0x18 */
	uint32_t ho_level;		   /* 0x1c */
	uint32_t ho_size;		   /* 0x20 KiB used per member */
	uint32_t ho_nr_disks;		   /* 0x24 */
	uint32_t ho_raid_disks;		   /* 0x28 */
	uint32_t ho_md_minor;		   /* 0x2c */
	uint32_t ho_not_persistent;	   /* 0x30 */
	uint32_t ho_set_uuid123[3];	   /* 0x34 */
	uint32_t ho_gstate_creserved[16];  /* 0x40 */
	uint32_t ho_utime;		   /* 0x80 */
	uint32_t ho_state;		   /* 0x84 */
	uint32_t ho_active_disks;	   /* 0x88 */
	uint32_t ho_working_disks;	   /* 0x8c */
	uint32_t ho_failed_disks;	   /* 0x90 */
	uint32_t ho_spare_disks;	   /* 0x94 */
	uint32_t ho_sb_csum;		   /* 0x98 */
	uint32_t ho_gstate_rest[25];	   /* 0x9c events, reshape, ... */
	uint32_t ho_layout;		   /* 0x100 */
	uint32_t ho_chunk_size;		   /* 0x104 bytes */
	uint32_t ho_pstate_rest[62];	   /* 0x108 */
	uint8_t disks_and_this_disk[3584]; /* 0x200 disks[27], this_disk */
} __attribute__((packed));

_Static_assert(sizeof(struct md_sb0_disk) == MD_SB_BYTES,
	       "0.90 superblock is 4096 bytes");
_Static_assert(offsetof(struct md_sb0_disk, ho_level) == 28, "level at 28");
_Static_assert(offsetof(struct md_sb0_disk, ho_raid_disks) == 40,
	       "raid_disks at 40");
_Static_assert(offsetof(struct md_sb0_disk, ho_sb_csum) == 152,
	       "sb_csum at 152");
_Static_assert(offsetof(struct md_sb0_disk, ho_layout) == 256, "layout at 256");
_Static_assert(offsetof(struct md_sb0_disk, ho_chunk_size) == 260,
	       "chunk_size at 260");

/* mdp_superblock_1: little-endian; dev_roles[max_dev] follow at 0x100. */
struct md_sb1_disk {
	uint32_t le_magic;		/* 0x00 */
	uint32_t le_major_version;	/* 0x04 */
	uint32_t le_feature_map;	/* 0x08 */
	uint32_t le_pad0;		/* 0x0c */
	uint8_t set_uuid[16];		/* 0x10 */
	char set_name[32];		/* 0x20 */
	uint64_t le_ctime;		/* 0x40 */
	uint32_t le_level;		/* 0x48 signed */
	uint32_t le_layout;		/* 0x4c */
	uint64_t le_size;		/* 0x50 sectors used per member */
	uint32_t le_chunksize;		/* 0x58 sectors */
	uint32_t le_raid_disks;		/* 0x5c */
	uint32_t le_bitmap_offset;	/* 0x60 */
	uint32_t le_new_level;		/* 0x64 */
	uint64_t le_reshape_position;	/* 0x68 */
	uint32_t le_delta_disks;	/* 0x70 */
	uint32_t le_new_layout;		/* 0x74 */
	uint32_t le_new_chunk;		/* 0x78 */
	uint32_t le_new_offset;		/* 0x7c */
	uint64_t le_data_offset;	/* 0x80 sectors */
	uint64_t le_data_size;		/* 0x88 sectors */
	uint64_t le_super_offset;	/* 0x90 sectors */
	uint64_t le_recovery_offset;	/* 0x98 */
	uint32_t le_dev_number;		/* 0xa0 */
	uint32_t le_cnt_corrected_read; /* 0xa4 */
	uint8_t device_uuid[16];	/* 0xa8 */
	uint8_t devflags;		/* 0xb8 */
	uint8_t bblog_shift;		/* 0xb9 */
	uint16_t le_bblog_size;		/* 0xba */
	uint32_t le_bblog_offset;	/* 0xbc */
	uint64_t le_utime;		/* 0xc0 */
	uint64_t le_events;		/* 0xc8 */
	uint64_t le_resync_offset;	/* 0xd0 */
	uint32_t le_sb_csum;		/* 0xd8 */
	uint32_t le_max_dev;		/* 0xdc */
	uint8_t pad3[32];		/* 0xe0 */
} __attribute__((packed));

_Static_assert(sizeof(struct md_sb1_disk) == 256, "1.x fixed part is 256");
_Static_assert(offsetof(struct md_sb1_disk, le_level) == 72, "level at 72");
_Static_assert(offsetof(struct md_sb1_disk, le_chunksize) == 88,
	       "chunksize at 88");
_Static_assert(offsetof(struct md_sb1_disk, le_raid_disks) == 92,
	       "raid_disks at 92");
_Static_assert(offsetof(struct md_sb1_disk, le_data_offset) == 128,
	       "data_offset at 128");
_Static_assert(offsetof(struct md_sb1_disk, le_super_offset) == 144,
	       "super_offset at 144");
_Static_assert(offsetof(struct md_sb1_disk, le_sb_csum) == 216,
	       "sb_csum at 216");

static bool level_known(int32_t level)
{
	switch (level) {
	case LEVEL_FAULTY:
	case LEVEL_MULTIPATH:
	case LEVEL_LINEAR:
	case 0:
	case 1:
	case 4:
	case 5:
	case 6:
	case 10:
		return true;
	default:
		return false;
	}
}

static bool level_stripes(int32_t level)
{
	return level == 0 || level == 4 || level == 5 || level == 6 ||
	       level == 10;
}

/*
 * Fill the geometry shared by both formats and check it.  md_data_disks
 * follows the kernel's io_opt (raid5.c: chunk * (disks - max_degraded);
 * raid10.c raid10_nr_stripes(): disks / near_copies when that divides,
 * else disks), so that chunk * data_disks is the full stripe the kernel
 * advertises.  Far and offset copies do not narrow the stripe: the first
 * copy is striped over every member.
 */
static int set_geometry(struct ba_content *c, int32_t level, uint32_t layout,
			uint32_t raid_disks, uint64_t chunk_bytes,
			uint32_t max_disks)
{
	uint32_t near, far;

	if (!level_known(level))
		return -EINVAL;
	if (raid_disks == 0 || raid_disks > max_disks)
		return -EINVAL;
	c->md_level = level;
	c->md_layout = layout;
	c->md_raid_disks = raid_disks;

	switch (level) {
	case 0:
	case LEVEL_LINEAR:
		c->md_data_disks = raid_disks;
		break;
	case 1:
	case LEVEL_MULTIPATH:
	case LEVEL_FAULTY:
		c->md_data_disks = 1;
		break;
	case 4:
	case 5:
		if (raid_disks < 2)
			return -EINVAL;
		c->md_data_disks = raid_disks - 1;
		break;
	case 6:
		if (raid_disks < 4)
			return -EINVAL;
		c->md_data_disks = raid_disks - 2;
		break;
	case 10:
		/* raid10.c setup_geo(): layout >> 19 must be 0, bits 17-18
		 * are the far-set version (0..2), 1 < copies <= disks. */
		near = layout & 0xff;
		far = (layout >> 8) & 0xff;
		if ((layout >> 19) || ((layout >> 17) & 3) == 3 || near == 0 ||
		    far == 0 || near * far < 2 || near * far > raid_disks)
			return -EINVAL;
		c->md_data_disks =
			raid_disks % near ? raid_disks : raid_disks / near;
		break;
	}

	/*
	 * raid4/5/6 and raid10 need a power-of-two chunk of at least a page
	 * (raid5.c raid5_check_reshape(), raid10.c setup_geo()); raid0
	 * takes any multiple of a sector.  Non-striped levels keep their
	 * "chunk" only as a rounding unit: report 0 so nothing aligns to it.
	 */
	if (level_stripes(level)) {
		if (chunk_bytes < MD_MIN_STRIPE_CHUNK ||
		    chunk_bytes % BA_SECTOR)
			return -EINVAL;
		if (level != 0 && !ba_is_pow2(chunk_bytes))
			return -EINVAL;
		c->md_chunk = chunk_bytes;
	}
	return 0;
}

/* ---- 0.90 ---- */

static uint32_t fold16(uint32_t csum)
{
	return ((csum & 0xffff) + (csum >> 16)) & 0xffff;
}

static uint32_t sb0_get(uint32_t field, bool big)
{
	return big ? be32toh(field) : le32toh(field);
}

/* drivers/md/md.c calc_sb_csum() + md_csum_fold(): sum of the 1024 words
 * in the writer's byte order with sb_csum taken as 0, folded to 16 bits
 * before comparing (the kernel compares folded values). */
static bool sb0_csum_ok(const uint8_t *buf, uint32_t disk, bool big)
{
	uint64_t sum = 0;
	uint32_t csum;

	for (size_t i = 0; i < MD_SB_BYTES; i += 4) {
		uint32_t w;

		if (i == offsetof(struct md_sb0_disk, ho_sb_csum))
			continue;
		memcpy(&w, buf + i, 4);
		sum += sb0_get(w, big);
	}
	csum = (uint32_t)(sum & 0xffffffff) + (uint32_t)(sum >> 32);
	return fold16(csum) == fold16(disk);
}

static int probe_sb0(const uint8_t *buf, uint64_t sb_sector,
		     struct ba_content *c)
{
	struct md_sb0_disk sb;
	uint64_t used;
	uint32_t minor;
	bool big;
	int rc;

	memcpy(&sb, buf, sizeof(sb));
	/*
	 * The magic tells the byte order: a superblock from a little-endian
	 * host (x86, most arm) reads as le32, one from a big-endian host
	 * (s390, ppc, sparc) as be32.  Both are accepted, as libblkid does.
	 */
	if (le32toh(sb.ho_md_magic) == MD_SB_MAGIC)
		big = false;
	else if (be32toh(sb.ho_md_magic) == MD_SB_MAGIC)
		big = true;
	else
		return 1;
	minor = sb0_get(sb.ho_minor_version, big);
	if (sb0_get(sb.ho_major_version, big) != 0 || minor < 90 || minor > 91)
		return -EINVAL;
	if (!sb0_csum_ok(buf, sb0_get(sb.ho_sb_csum, big), big))
		return -EINVAL;

	rc = set_geometry(c, (int32_t)sb0_get(sb.ho_level, big),
			  sb0_get(sb.ho_layout, big),
			  sb0_get(sb.ho_raid_disks, big),
			  sb0_get(sb.ho_chunk_size, big), MD_SB0_DISKS);
	if (rc)
		return rc;
	if (sb0_get(sb.ho_nr_disks, big) > MD_SB0_DISKS)
		return -EINVAL;

	/* The data area is [0, size KiB) and must end before the
	 * superblock (linear and multipath use the whole member). */
	used = (uint64_t)sb0_get(sb.ho_size, big) * 1024;
	if (used > sb_sector * BA_SECTOR)
		return -EINVAL;
	snprintf(c->version, sizeof(c->version), "0.%u", minor);
	c->data_offset = 0;
	c->data_size = used;
	c->md_super_offset = sb_sector * BA_SECTOR;
	return 0;
}

/* ---- 1.x ---- */

/* md.c calc_sb_1_csum(): le32 words over 256 + 2 * max_dev bytes with
 * sb_csum taken as 0, a trailing le16, folded once from 64 bits. */
static bool sb1_csum_ok(const uint8_t *buf, uint32_t max_dev,
			uint32_t disk_csum)
{
	size_t size = 256 + (size_t)max_dev * 2, i;
	uint64_t sum = 0;
	uint32_t csum;

	for (i = 0; i + 4 <= size; i += 4) {
		uint32_t w;

		if (i == offsetof(struct md_sb1_disk, le_sb_csum))
			continue;
		memcpy(&w, buf + i, 4);
		sum += le32toh(w);
	}
	if (size - i == 2) {
		uint16_t h;

		memcpy(&h, buf + i, 2);
		sum += le16toh(h);
	}
	csum = (uint32_t)(sum & 0xffffffff) + (uint32_t)(sum >> 32);
	return csum == disk_csum;
}

static int probe_sb1(const uint8_t *buf, uint64_t sb_sector, int minor,
		     uint64_t sectors, struct ba_content *c)
{
	struct md_sb1_disk sb;
	uint64_t data_offset, data_size, end;
	uint32_t max_dev;
	int rc;

	memcpy(&sb, buf, sizeof(sb));
	if (le32toh(sb.le_magic) != MD_SB_MAGIC)
		return 1;
	max_dev = le32toh(sb.le_max_dev);
	if (le32toh(sb.le_major_version) != 1 || max_dev > MD_SB1_MAX_DEV)
		return -EINVAL;
	if (!sb1_csum_ok(buf, max_dev, le32toh(sb.le_sb_csum)))
		return -EINVAL;
	/* A 1.2 superblock copied to sector 0 is not a 1.1 one. */
	if (le64toh(sb.le_super_offset) != sb_sector)
		return -EINVAL;

	rc = set_geometry(c, (int32_t)le32toh(sb.le_level),
			  le32toh(sb.le_layout), le32toh(sb.le_raid_disks),
			  (uint64_t)le32toh(sb.le_chunksize) * BA_SECTOR,
			  MD_SB1_MAX_DEV);
	if (rc)
		return rc;

	/*
	 * Data lies after the superblock for 1.1/1.2 and ends before it for
	 * 1.0 (super_1_load() checks data_size against the same limits).
	 * Compare in sectors, subtracting only what is known to fit.
	 */
	data_offset = le64toh(sb.le_data_offset);
	data_size = le64toh(sb.le_data_size);
	end = minor == 0 ? sb_sector : sectors;
	if (data_offset >= end)
		return -EINVAL;
	if (minor != 0 && data_offset <= sb_sector)
		return -EINVAL;
	if (data_size > end - data_offset)
		return -EINVAL;

	snprintf(c->version, sizeof(c->version), "1.%d", minor);
	c->data_offset = data_offset * BA_SECTOR;
	c->data_size = data_size * BA_SECTOR;
	c->md_super_offset = sb_sector * BA_SECTOR;
	return 0;
}

/* ---- the prober ---- */

enum sb_kind { SB0, SB1 };

static int try_at(struct ba_io *io, uint64_t off, uint64_t sectors,
		  enum sb_kind kind, uint64_t sb_sector, int minor,
		  struct ba_content *out)
{
	uint8_t buf[MD_SB_BYTES];
	struct ba_content c;
	int rc;

	if (sb_sector > sectors ||
	    sectors - sb_sector < MD_SB_BYTES / BA_SECTOR)
		return 1;
	rc = ba_io_read(io, off + sb_sector * BA_SECTOR, sizeof(buf), buf);
	if (rc)
		return rc;
	memset(&c, 0, sizeof(c));
	c.kind = BA_CONTENT_MD;
	snprintf(c.type, sizeof(c.type), "linux_raid_member");
	if (kind == SB0)
		rc = probe_sb0(buf, sb_sector, &c);
	else
		rc = probe_sb1(buf, sb_sector, minor, sectors, &c);
	if (rc == 0)
		*out = c;
	return rc;
}

static int md_probe(struct ba_io *io, uint64_t off, uint64_t size,
		    struct ba_content *out)
{
	uint64_t sectors = size / BA_SECTOR;
	int err = 1, rc;
	struct {
		enum sb_kind kind;
		int minor;
		bool fits;
		uint64_t sector;
	} where[] = {
		{SB0, 90, sectors >= MD_RESERVED_SECTORS,
		 (sectors & ~(uint64_t)127) - MD_RESERVED_SECTORS},
		{SB1, 0, sectors >= 24, (sectors - 16) & ~(uint64_t)7},
		{SB1, 1, true, 0},
		{SB1, 2, true, 8},
	};

	memset(out, 0, sizeof(*out));
	if (off > UINT64_MAX - size)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		if (!where[i].fits)
			continue;
		rc = try_at(io, off, sectors, where[i].kind, where[i].sector,
			    where[i].minor, out);
		if (rc == 0)
			return 0;
		/* Remember the first real failure: an I/O error, or a
		 * superblock that lies when no other one is valid. */
		if (rc < 0 && err == 1)
			err = rc;
	}
	return err;
}

const struct ba_prober ba_md_prober = {
	.name = "linux_raid_member",
	.kind = BA_CONTENT_MD,
	.probe = md_probe,
};
