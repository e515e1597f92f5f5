/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix-reserve.c - the writes of a move to a loop device that need not be
 * read back: the move's ranges allocated ahead in the backing file.
 *
 * A loop device loses a write only when its backing file system cannot
 * give the file a page it lacks (fix-readback.c).  Before the first
 * write, the bytes the move writes (each extent of its map at the
 * partition's old start and at its new one: a rollback writes the old)
 * are allocated in the backing file with fallocate(2), mode 0: a hole
 * becomes an unwritten extent, which reads as zeros as the hole did, and
 * no byte changes.  On a file system that writes in place (ext4, XFS,
 * tmpfs), a write into allocated space needs no new space, cannot come
 * out short, and is not read back.  No room is a refusal before anything
 * is written, where the read-back would have stopped the move part-way.
 *
 * Everything else keeps the read-back of every write: a file system that
 * copies on write (btrfs; XFS's shared extents, asked with FIEMAP), one
 * that cannot fallocate (ext2, ext3 without extents, FAT), a backing file
 * renamed or replaced, a device stacked on the loop (device-mapper, md:
 * their mapping is not read here), and the writes outside the ranges
 * (the table, the hidden head, the contents' patches).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fix.h"

#define EXT4_MAGIC  0xEF53
#define XFS_MAGIC   0x58465342
#define TMPFS_MAGIC 0x01021994

/* The backing file of the loop device (or loop partition) @dev, opened
 * for writing, and where @dev's byte 0 is in it. */
struct backing {
	int fd;
	uint64_t base;
	long fs;
	char name[4096];
};

/* The loop disk's sysfs directory for @dev (a loop device or a partition
 * of one: its start added to *@base); NULL for anything else. */
static char *loop_dir(const struct stat *st, uint64_t *base)
{
	char *dir = ba_sysfs_path(NULL, "/sys/dev/block/%u:%u",
				  major(st->st_rdev), minor(st->st_rdev));
	char *disk;
	struct stat s;
	int64_t start;
	char p[4200];

	*base = 0;
	if (!dir)
		return NULL;
	snprintf(p, sizeof(p), "%s/loop", dir);
	if (!stat(p, &s))
		return dir;
	snprintf(p, sizeof(p), "%s/partition", dir);
	disk = stat(p, &s) || ba_sysfs_read_s64(dir, "start", &start) ||
			       start < 0
		       ? NULL
		       : ba_sysfs_parent_disk(dir);
	free(dir);
	if (disk) {
		snprintf(p, sizeof(p), "%s/loop", disk);
		if (!stat(p, &s)) {
			*base = (uint64_t)start * 512;
			return disk;
		}
	}
	free(disk);
	return NULL;
}

/* Open the backing file of @dev into @b: 0, or -errno (-ENODEV: not a
 * loop device or partition of one; -ESTALE: the name sysfs gives is no
 * longer the file the loop device reads). */
static int open_backing(int dev, struct backing *b)
{
	struct loop_info64 li;
	struct stat st;
	struct statfs sf;
	uint64_t base;
	char *dir;
	int rc;

	if (fstat(dev, &st) || !S_ISBLK(st.st_mode))
		return -ENODEV;
	dir = loop_dir(&st, &base);
	if (!dir)
		return -ENODEV;
	rc = ba_sysfs_read_str(dir, "loop/backing_file", b->name,
			       sizeof(b->name));
	free(dir);
	if (rc)
		return rc;
	if (ioctl(dev, LOOP_GET_STATUS64, &li))
		return -errno;
	b->fd = open(b->name, O_RDWR | O_CLOEXEC | O_NOCTTY);
	if (b->fd < 0)
		return -errno;
	if (fstat(b->fd, &st) || !S_ISREG(st.st_mode) ||
	    st.st_dev != li.lo_device || st.st_ino != li.lo_inode ||
	    fstatfs(b->fd, &sf)) {
		close(b->fd);
		return -ESTALE;
	}
	b->fs = (long)sf.f_type;
	b->base = li.lo_offset + base;
	return 0;
}

/* Does any extent of [off, off + len) of @fd share its blocks (XFS
 * reflink: a write there copies)?  Unsure (no FIEMAP) counts as yes. */
static bool shared(int fd, uint64_t off, uint64_t len)
{
	enum { N = 64 };
	struct fiemap *fm =
		calloc(1, sizeof(*fm) + N * sizeof(fm->fm_extents[0]));
	uint64_t end = off + len;
	bool yes = false;

	if (!fm)
		return true;
	while (!yes && off < end) {
		memset(fm, 0, sizeof(*fm));
		fm->fm_start = off;
		fm->fm_length = end - off;
		fm->fm_extent_count = N;
		if (ioctl(fd, FS_IOC_FIEMAP, fm)) {
			yes = true;
			break;
		}
		if (!fm->fm_mapped_extents)
			break;
		for (uint32_t i = 0; i < fm->fm_mapped_extents; i++) {
			const struct fiemap_extent *e = &fm->fm_extents[i];

			if (e->fe_flags & FIEMAP_EXTENT_SHARED)
				yes = true;
			off = e->fe_logical + e->fe_length;
			if (e->fe_flags & FIEMAP_EXTENT_LAST)
				off = end;
		}
	}
	free(fm);
	return yes;
}

/* Allocate @dev's bytes [off, off + len) in @b: 0, -ENOSPC, or another
 * -errno (the read-back stays). */
static int reserve(const struct backing *b, uint64_t off, uint64_t len)
{
	off += b->base;
	if (fallocate(b->fd, 0, (off_t)off, (off_t)len))
		return -errno;
	if (b->fs == XFS_MAGIC && shared(b->fd, off, len))
		return -EOPNOTSUPP;
	return 0;
}

/**
 * ba_fix_reserve: on a target whose writes are read back (dev->lossy),
 * allocate the bytes the move of @j writes in the loop device's backing
 * file and, where that makes them safe, spare them the read-back (see
 * above).  Returns 0 (reserved or not), or -ENOSPC with @why naming the
 * file and the bytes (nothing on the disk written).
 */
int ba_fix_reserve(struct ba_file *dev, const struct ba_journal *j, char *why,
		   size_t len)
{
	struct ba_fix_reserved *r = &dev->reserved;
	struct backing b;
	uint64_t bytes = 0;
	int rc = 0;

	memset(r, 0, sizeof(*r));
	if (!dev->lossy || dev->nbd || j->g.new_start == j->g.old_start ||
	    open_backing(dev->fd, &b))
		return 0;
	r->whole.len = j->g.len;
	r->ext = j->map ? j->map : &r->whole;
	r->nr = j->map ? j->g.map_nr : 1;
	r->base[0] = j->g.old_start;
	r->base[1] = j->g.new_start;
	if (b.fs != EXT4_MAGIC && b.fs != XFS_MAGIC && b.fs != TMPFS_MAGIC)
		rc = -EOPNOTSUPP;
	for (uint64_t i = 0; i < r->nr; i++)
		bytes += 2 * r->ext[i].len;
	for (uint64_t i = 0; !rc && i < r->nr; i++)
		for (int k = 0; !rc && k < 2; k++)
			rc = reserve(&b, r->base[k] + r->ext[i].off,
				     r->ext[i].len);
	close(b.fd);
	if (rc == -ENOSPC)
		snprintf(why, len,
			 "no room for it in the file system of '%s', the "
			 "loop device's backing file: the move and its "
			 "rollback write %llu bytes there, which the file "
			 "must hold allocated (a write the loop device "
			 "cannot place is lost with no error); free space "
			 "there first",
			 b.name, (unsigned long long)bytes);
	if (rc)
		memset(r, 0, sizeof(*r));
	return rc == -ENOSPC ? rc : 0;
}

/* Forget @dev's reserved ranges (their map is about to be freed). */
void ba_fix_unreserve(struct ba_file *dev)
{
	memset(&dev->reserved, 0, sizeof(dev->reserved));
}

/*
 * Do the bytes [off, off + len) of @f lie inside one of its reserved
 * ranges (allocated ahead, the read-back spared)?
 */
bool ba_file_reserved(const struct ba_file *f, uint64_t off, uint64_t len)
{
	const struct ba_fix_reserved *r = &f->reserved;

	for (int k = 0; r->nr && k < 2; k++) {
		uint64_t lo = 0, hi = r->nr, rel;

		if (off < r->base[k])
			continue;
		rel = off - r->base[k];
		/* the last extent starting at or before rel */
		while (hi - lo > 1) {
			uint64_t mid = lo + (hi - lo) / 2;

			if (r->ext[mid].off <= rel)
				lo = mid;
			else
				hi = mid;
		}
		if (r->ext[lo].off <= rel &&
		    rel + len <= r->ext[lo].off + r->ext[lo].len)
			return true;
	}
	return false;
}
