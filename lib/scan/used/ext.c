/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ext.c - the blocks an ext2/ext3/ext4 uses, read through libext2fs
 * (e2fsprogs' own library, what e2image -ra and so GParted's moves use):
 * its block bitmaps, with flex_bg and BLOCK_UNINIT groups handled by
 * ext2fs_read_block_bitmap, walked run by run.  Every allocated block
 * is in them: the superblock and its backups, the group descriptors and
 * the reserved GDT blocks, the bitmaps, the inode tables, the journal,
 * the MMP block, directories and file data.  Blocks before
 * s_first_data_block (the boot block of a 1 KiB-block filesystem) are
 * outside the bitmaps and counted used.  With bigalloc the bitmaps are
 * per cluster and the map's unit is the cluster.
 *
 * libext2fs reads through an io_manager of ours over struct ba_io (a
 * file, a device or an NBD export alike), read-only: it cannot write.
 *
 * Trusted only when clean and consistent: the journal needing recovery
 * or a state other than "clean" is refused (-EUCLEAN, e2fsck makes it
 * clean); a filesystem larger than its region, a group's superblock or
 * descriptors outside the filesystem (check_layout), group descriptors
 * that point outside it (ext2fs_check_desc; both keep libext2fs from
 * warning on stderr about out-of-range bits), a checksum that fails, or
 * bitmaps whose used count is not the superblock's
 * (blocks count - free blocks count) are refused (-EBADMSG).  A feature
 * libext2fs does not know: -ENOTSUP (copied whole).  An external journal
 * lives on its own device and does not move with this one: the map of
 * this device is complete without it.
 *
 * Superblock fields: e2fsprogs lib/ext2fs/ext2_fs.h (struct
 * ext2_super_block); the bitmap walk as ext2fs_count_used_blocks does it.
 */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ext2fs/ext2fs.h>

#include "used/used.h"

#define SB_OFFSET 1024
#define IO_PREFIX "blkalign-io:"

/* What the io_manager reads: the region [off, off + size) of io. */
struct ext_src {
	struct ba_io *io;
	uint64_t off, size;
};

/* The text of a libext2fs error, as error_message() gives it, without
 * registering the error table in com_err's global list. */
static const char *ext_strerror(errcode_t err)
{
	const struct error_table *t = &et_ext2_error_table;

	if (err >= t->base && err < t->base + t->n_msgs)
		return t->msgs[err - t->base];
	if (err > 0 && err < 4096)
		return strerror((int)err);
	return "unknown libext2fs error";
}

/* ---- the io_manager: struct ba_io, read-only ---- */

static errcode_t src_read(io_channel ch, unsigned long long block, int count,
			  void *data)
{
	struct ext_src *s = ch->private_data;
	uint64_t at, len;
	uint8_t *p = data;

	if (ch->block_size <= 0 ||
	    block > UINT64_MAX / (uint64_t)ch->block_size)
		return EXT2_ET_LLSEEK_FAILED;
	at = block * (uint64_t)ch->block_size;
	/* a negative count is a byte count (the superblock's read) */
	len = count < 0 ? (uint64_t)(-(int64_t)count)
			: (uint64_t)count * (uint64_t)ch->block_size;
	while (len) {
		size_t n = len > BA_IO_MAX_READ ? BA_IO_MAX_READ : (size_t)len;
		int rc = ba_io_read_region(s->io, s->off, s->size, at, n, p);

		if (rc > 0)
			return EXT2_ET_SHORT_READ; /* past the region */
		if (rc < 0)
			return (errcode_t)-rc;
		at += n;
		p += n;
		len -= n;
	}
	return 0;
}

static errcode_t src_read32(io_channel ch, unsigned long block, int count,
			    void *data)
{
	return src_read(ch, block, count, data);
}

static errcode_t src_write(io_channel ch, unsigned long long block, int count,
			   const void *data)
{
	(void)ch, (void)block, (void)count, (void)data;
	return EROFS;
}

static errcode_t src_write32(io_channel ch, unsigned long block, int count,
			     const void *data)
{
	return src_write(ch, block, count, data);
}

static errcode_t src_write_byte(io_channel ch, unsigned long off, int count,
				const void *data)
{
	(void)ch, (void)off, (void)count, (void)data;
	return EROFS;
}

static errcode_t src_set_blksize(io_channel ch, int blksize)
{
	if (blksize <= 0)
		return EXT2_ET_INVALID_ARGUMENT;
	ch->block_size = blksize;
	return 0;
}

static errcode_t src_flush(io_channel ch)
{
	(void)ch;
	return 0;
}

static errcode_t src_close(io_channel ch)
{
	if (--ch->refcount > 0)
		return 0;
	free(ch->name);
	free(ch);
	return 0;
}

static errcode_t src_open(const char *name, int flags, io_channel *out);

static struct struct_io_manager src_manager = {
	.magic = EXT2_ET_MAGIC_IO_MANAGER,
	.name = "blkalign ba_io (read-only)",
	.open = src_open,
	.close = src_close,
	.set_blksize = src_set_blksize,
	.read_blk = src_read32,
	.write_blk = src_write32,
	.flush = src_flush,
	.write_byte = src_write_byte,
	.read_blk64 = src_read,
	.write_blk64 = src_write,
};

/* @name is IO_PREFIX and the address of the struct ext_src, which lives
 * on ba_used_ext's stack for as long as the filesystem is open. */
static errcode_t src_open(const char *name, int flags, io_channel *out)
{
	size_t plen = strlen(IO_PREFIX);
	unsigned long long addr;
	io_channel ch;
	char *end;

	if (flags & IO_FLAG_RW)
		return EROFS;
	if (!name || strncmp(name, IO_PREFIX, plen))
		return EXT2_ET_BAD_DEVICE_NAME;
	errno = 0;
	addr = strtoull(name + plen, &end, 16);
	if (errno || *end || !addr)
		return EXT2_ET_BAD_DEVICE_NAME;
	ch = calloc(1, sizeof(*ch));
	if (!ch)
		return EXT2_ET_NO_MEMORY;
	ch->name = strdup(name);
	if (!ch->name) {
		free(ch);
		return EXT2_ET_NO_MEMORY;
	}
	ch->magic = EXT2_ET_MAGIC_IO_CHANNEL;
	ch->manager = &src_manager;
	ch->block_size = 1024;
	ch->refcount = 1;
	ch->private_data = (void *)(uintptr_t)addr;
	*out = ch;
	return 0;
}

/* ---- the map ---- */

/*
 * Before libext2fs allocates anything by what the superblock says: the
 * magic, a clean state, and a size inside the region (so the group
 * count, the descriptors and the bitmaps are bounded by @size).
 */
static int precheck(struct ba_io *io, uint64_t off, uint64_t size, char *why,
		    size_t len)
{
	struct ext2_super_block sb;
	uint32_t log, incompat;
	uint64_t blocks;
	uint16_t state;
	int rc;

	_Static_assert(sizeof(sb) == 1024, "ext2 superblock is 1024 bytes");
	rc = ba_io_read_region(io, off, size, SB_OFFSET, sizeof(sb), &sb);
	if (rc) {
		snprintf(why, len, "no room for an ext2/3/4 superblock");
		return rc < 0 ? rc : -EINVAL;
	}
	if (le16toh(sb.s_magic) != EXT2_SUPER_MAGIC) {
		snprintf(why, len, "no ext2/3/4 superblock (magic 0x%04x)",
			 le16toh(sb.s_magic));
		return -EINVAL;
	}
	incompat = le32toh(sb.s_feature_incompat);
	state = le16toh(sb.s_state);
	if ((incompat & EXT3_FEATURE_INCOMPAT_RECOVER) ||
	    !(state & EXT2_VALID_FS) || (state & EXT2_ERROR_FS)) {
		snprintf(why, len, "%s: run e2fsck -f on it first",
			 (incompat & EXT3_FEATURE_INCOMPAT_RECOVER)
				 ? "its journal needs recovery (it was not "
				   "cleanly unmounted)"
			 : (state & EXT2_ERROR_FS)
				 ? "errors were recorded on it"
				 : "it was not cleanly unmounted");
		return -EUCLEAN;
	}
	log = le32toh(sb.s_log_block_size);
	if (log > EXT2_MAX_BLOCK_LOG_SIZE - EXT2_MIN_BLOCK_LOG_SIZE) {
		snprintf(why, len, "its superblock says blocks of 2^%u KiB",
			 log);
		return -EBADMSG;
	}
	blocks = le32toh(sb.s_blocks_count);
	if (incompat & EXT4_FEATURE_INCOMPAT_64BIT)
		blocks |= (uint64_t)le32toh(sb.s_blocks_count_hi) << 32;
	if (blocks > (size >> (EXT2_MIN_BLOCK_LOG_SIZE + log))) {
		snprintf(why, len,
			 "its superblock says %" PRIu64 " blocks of %u bytes, "
			 "more than its %" PRIu64 " bytes hold",
			 blocks, EXT2_MIN_BLOCK_SIZE << log, size);
		return -EBADMSG;
	}
	return 0;
}

/*
 * The blocks ext2fs_reserve_super_and_bgd marks for each group (the
 * superblock, the descriptors and reserved GDT blocks, a meta_bg's
 * descriptor block) inside the filesystem: ext2fs_check_desc and the
 * bitmaps' reading mark them, and libext2fs warns on stderr (com_err)
 * about a block number outside its bitmap.  0 or -EBADMSG with @why.
 */
static int check_layout(ext2_filsys fs, char *why, size_t len)
{
	blk64_t first = fs->super->s_first_data_block;
	blk64_t blocks = ext2fs_blocks_count(fs->super);
	blk64_t super, old, new;

	if (EXT2FS_CLUSTER_RATIO(fs) > 1 && first) {
		snprintf(why, len,
			 "it has bigalloc and a first data block of %llu, "
			 "not 0: run e2fsck -f on it",
			 (unsigned long long)first);
		return -EBADMSG;
	}
	for (dgrp_t g = 0; g < fs->group_desc_count; g++) {
		ext2fs_super_and_bgd_loc2(fs, g, &super, &old, &new, NULL);
		if (((super || !g) && (super < first || super >= blocks)) ||
		    (old && (old < first || old >= blocks)) ||
		    (new && (new < first || new >= blocks))) {
			snprintf(why, len,
				 "the superblock or descriptors of its group "
				 "%u lie outside it: run e2fsck -f on it",
				 (unsigned int)g);
			return -EBADMSG;
		}
	}
	return 0;
}

/* -errno for a libext2fs error, with @why saying what failed. */
static int ext_error(errcode_t err, const char *what, char *why, size_t len)
{
	int rc;

	switch (err) {
	case EXT2_ET_UNSUPP_FEATURE:
	case EXT2_ET_RO_UNSUPP_FEATURE:
	case EXT2_ET_UNIMPLEMENTED:
	case EXT2_ET_REV_TOO_HIGH:
	case EXT2_ET_UNKNOWN_CSUM:
	case EXT2_ET_EXTERNAL_JOURNAL_NOSUPP:
		snprintf(why, len, "libext2fs cannot read it (%s): %s", what,
			 ext_strerror(err));
		return -ENOTSUP; /* copied whole */
	case EXT2_ET_NO_MEMORY:
		return -ENOMEM;
	case EXT2_ET_SB_CSUM_INVALID:
	case EXT2_ET_BLOCK_BITMAP_CSUM_INVALID:
	case EXT2_ET_CORRUPT_SUPERBLOCK:
	case EXT2_ET_BAD_DESC_SIZE:
	case EXT2_ET_UNEXPECTED_BLOCK_SIZE:
	case EXT2_ET_GDESC_BAD_BLOCK_MAP:
	case EXT2_ET_GDESC_BAD_INODE_MAP:
	case EXT2_ET_GDESC_BAD_INODE_TABLE:
		snprintf(why, len, "%s: %s: run e2fsck -f on it", what,
			 ext_strerror(err));
		return -EBADMSG;
	case EXT2_ET_SHORT_READ:
	case EXT2_ET_BLOCK_BITMAP_READ:
	case EXT2_ET_GDESC_READ:
		rc = -EIO;
		break;
	default:
		rc = err > 0 && err < 4096 ? -(int)err : -EINVAL;
		break;
	}
	snprintf(why, len, "%s: %s", what, ext_strerror(err));
	return rc;
}

/*
 * Add the block bitmap's runs of used clusters (blocks without bigalloc)
 * and the blocks before s_first_data_block; *used: the clusters the
 * bitmap marks.  find_first_set/zero take and give block numbers, whole
 * clusters with bigalloc; a run is cut at the filesystem's end.
 */
static int walk(ext2_filsys fs, struct ba_used_map *m, uint64_t *used,
		char *why, size_t len)
{
	blk64_t start = fs->super->s_first_data_block;
	blk64_t end = ext2fs_blocks_count(fs->super) - 1, a, b;
	unsigned int shift = EXT2_BLOCK_SIZE_BITS(fs->super);
	errcode_t err;
	int rc;

	*used = 0;
	rc = ba_used_add(m, 0, (uint64_t)start << shift);
	while (!rc && start <= end) {
		err = ext2fs_find_first_set_block_bitmap2(fs->block_map, start,
							  end, &a);
		if (err == ENOENT)
			break;
		if (err)
			return ext_error(err, "walking its block bitmap", why,
					 len);
		err = ext2fs_find_first_zero_block_bitmap2(fs->block_map, a,
							   end, &b);
		if (err == ENOENT)
			b = end + 1;
		else if (err)
			return ext_error(err, "walking its block bitmap", why,
					 len);
		if (b > end)
			b = end + 1;
		if (b <= a) { /* cannot be: a is set */
			snprintf(why, len,
				 "libext2fs found block %llu both "
				 "used and free",
				 (unsigned long long)a);
			return -EIO;
		}
		*used += EXT2FS_B2C(fs, b - 1) - EXT2FS_B2C(fs, a) + 1;
		rc = ba_used_add(m, (uint64_t)a << shift,
				 (uint64_t)(b - a) << shift);
		start = b;
	}
	if (rc == -E2BIG)
		snprintf(why, len, "its free space is in more than %u pieces",
			 BA_USED_MAX_EXTENTS);
	return rc;
}

int ba_used_ext(struct ba_io *io, uint64_t off, uint64_t size,
		struct ba_used_map *m, char *why, size_t len)
{
	struct ext_src src = {io, off, size};
	uint64_t used, clusters, free_blocks;
	ext2_filsys fs = NULL;
	char name[64];
	errcode_t err;
	int rc;

	rc = precheck(io, off, size, why, len);
	if (rc)
		return rc;
	snprintf(name, sizeof(name), IO_PREFIX "%" PRIxPTR, (uintptr_t)&src);
	err = ext2fs_open2(name, NULL, EXT2_FLAG_64BITS, 0, 0, &src_manager,
			   &fs);
	if (err) {
		fs = NULL; /* ext2fs_open2 freed it */
		rc = ext_error(err, "opening it with libext2fs", why, len);
		goto out;
	}
	rc = check_layout(fs, why, len);
	if (rc)
		goto out;
	err = ext2fs_check_desc(fs);
	if (err) {
		rc = ext_error(err, "checking its group descriptors", why, len);
		goto out;
	}
	/* what e2fsck checks first: a descriptor's BLOCK_UNINIT flag is
	 * only believed with its checksum right */
	for (dgrp_t g = 0; g < fs->group_desc_count; g++) {
		if (!ext2fs_group_desc_csum_verify(fs, g)) {
			snprintf(why, len,
				 "the checksum of its group descriptor %u is "
				 "wrong: run e2fsck -f on it",
				 (unsigned int)g);
			rc = -EBADMSG;
			goto out;
		}
	}
	err = ext2fs_read_block_bitmap(fs);
	if (err) {
		rc = ext_error(err, "reading its block bitmaps", why, len);
		goto out;
	}
	m->unit = EXT2_CLUSTER_SIZE(fs->super);
	rc = walk(fs, m, &used, why, len);
	if (rc)
		goto out;

	/*
	 * The superblock's free count is in blocks: with bigalloc, the
	 * free clusters' blocks (e2fsck's pass 5 sets it so).
	 */
	clusters = EXT2FS_B2C(fs, ext2fs_blocks_count(fs->super) - 1) -
		   EXT2FS_B2C(fs, fs->super->s_first_data_block) + 1;
	free_blocks = ext2fs_free_blocks_count(fs->super);
	if (used > clusters || EXT2FS_C2B(fs, clusters - used) != free_blocks) {
		snprintf(why, len,
			 "its block bitmaps leave %" PRIu64 " blocks free, "
			 "its superblock says %" PRIu64 ": run e2fsck -f "
			 "on it",
			 used > clusters
				 ? 0
				 : (uint64_t)EXT2FS_C2B(fs, clusters - used),
			 free_blocks);
		rc = -EBADMSG;
	}
out:
	if (fs)
		ext2fs_close_free(&fs);
	return rc;
}
