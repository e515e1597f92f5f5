/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ntfs-dev.c - libntfs-3g reading through struct ba_io (a file, a
 * device or an NBD export alike): a struct ntfs_device whose operations
 * read the region [off, off + size) of the io as pread(2) reads a file
 * of that size (short at its end, which is remembered), and fail every
 * write with EROFS; the volume mounted read-only, never with
 * NTFS_MNT_RECOVER.  As ext.c's io_manager does for libext2fs.
 *
 * libntfs-3g logs through one global handler (null unless built with
 * DEBUG): it is set to the null handler once per process, so that
 * nothing is printed, whatever a libntfs-3g build does by default.
 * Apart from that it keeps no global state a volume shares.
 *
 * Device operations: ntfs-3g include/ntfs-3g/device.h (struct
 * ntfs_device_operations), as its unix_io.c implements them.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <ntfs-3g/types.h>
#include <ntfs-3g/device.h>
#include <ntfs-3g/logging.h>
#include <ntfs-3g/volume.h>

#include "used/ntfs-dev.h"

#define SECTOR 512

static int dev_open(struct ntfs_device *dev, int flags)
{
	struct ntfs_src *s = dev->d_private;

	if ((flags & O_ACCMODE) != O_RDONLY) {
		errno = EROFS;
		return -1;
	}
	if (NDevOpen(dev)) {
		errno = EBUSY;
		return -1;
	}
	s->pos = 0;
	NDevSetReadOnly(dev);
	NDevSetOpen(dev);
	return 0;
}

static int dev_close(struct ntfs_device *dev)
{
	if (!NDevOpen(dev)) {
		errno = EBADF;
		return -1;
	}
	NDevClearOpen(dev);
	return 0;
}

static s64 dev_seek(struct ntfs_device *dev, s64 offset, int whence)
{
	struct ntfs_src *s = dev->d_private;
	s64 base;

	switch (whence) {
	case SEEK_SET:
		base = 0;
		break;
	case SEEK_CUR:
		base = (s64)s->pos;
		break;
	case SEEK_END:
		base = (s64)s->size;
		break;
	default:
		errno = EINVAL;
		return -1;
	}
	if ((offset < 0 && base + offset < 0) ||
	    (offset > 0 && offset > INT64_MAX - base)) {
		errno = EINVAL;
		return -1;
	}
	s->pos = (uint64_t)(base + offset);
	return base + offset;
}

/* As pread(2) on a file of s->size bytes: short at its end. */
static s64 dev_pread(struct ntfs_device *dev, void *buf, s64 count, s64 offset)
{
	struct ntfs_src *s = dev->d_private;
	uint64_t at = (uint64_t)offset, n, done = 0;
	uint8_t *p = buf;

	if (count < 0 || offset < 0) {
		errno = EINVAL;
		return -1;
	}
	n = at < s->size ? s->size - at : 0;
	if (n > (uint64_t)count)
		n = (uint64_t)count;
	if (n < (uint64_t)count && !s->past) {
		s->past = true;
		s->past_at = at + n;
	}
	while (done < n) {
		size_t k = n - done > BA_IO_MAX_READ ? BA_IO_MAX_READ
						     : (size_t)(n - done);
		int rc = ba_io_read_region(s->io, s->off, s->size, at + done, k,
					   p + done);

		if (rc) {
			if (!s->err) {
				s->err = rc < 0 ? rc : -EIO;
				s->err_at = at + done;
			}
			errno = rc < 0 ? -rc : EIO;
			return -1;
		}
		done += k;
	}
	return (s64)n;
}

static s64 dev_read(struct ntfs_device *dev, void *buf, s64 count)
{
	struct ntfs_src *s = dev->d_private;
	s64 n = dev_pread(dev, buf, count, (s64)s->pos);

	if (n > 0)
		s->pos += (uint64_t)n;
	return n;
}

static s64 dev_write(struct ntfs_device *dev, const void *buf, s64 count)
{
	(void)dev, (void)buf, (void)count;
	errno = EROFS;
	return -1;
}

static s64 dev_pwrite(struct ntfs_device *dev, const void *buf, s64 count,
		      s64 offset)
{
	(void)dev, (void)buf, (void)count, (void)offset;
	errno = EROFS;
	return -1;
}

static int dev_sync(struct ntfs_device *dev)
{
	(void)dev;
	return 0;
}

static int dev_stat(struct ntfs_device *dev, struct stat *st)
{
	struct ntfs_src *s = dev->d_private;

	memset(st, 0, sizeof(*st));
	st->st_mode = S_IFREG | 0444;
	st->st_size = (off_t)s->size;
	st->st_blksize = SECTOR;
	return 0;
}

static int dev_ioctl(struct ntfs_device *dev, unsigned long request, void *argp)
{
	(void)dev, (void)request, (void)argp;
	errno = ENOTTY;
	return -1;
}

/* Not const: ntfs_device_alloc takes it so; nothing writes it. */
static struct ntfs_device_operations dev_ops = {
	.open = dev_open,
	.close = dev_close,
	.seek = dev_seek,
	.read = dev_read,
	.write = dev_write,
	.pread = dev_pread,
	.pwrite = dev_pwrite,
	.sync = dev_sync,
	.stat = dev_stat,
	.ioctl = dev_ioctl,
};

static pthread_once_t quiet_once = PTHREAD_ONCE_INIT;

static void quiet(void)
{
	ntfs_log_set_handler(ntfs_log_handler_null);
	ntfs_log_clear_levels(UINT32_MAX);
}

int ba_ntfs_error(const struct ntfs_src *s, int err, const char *what,
		  char *why, size_t len)
{
	if (s->err) {
		snprintf(why, len, "%s: reading byte %" PRIu64 ": %s", what,
			 s->err_at, strerror(-s->err));
		return s->err;
	}
	if (s->past) {
		snprintf(why, len,
			 "%s: its structures point past its end (byte %" PRIu64
			 ")",
			 what, s->past_at);
		return -EBADMSG;
	}
	switch (err) {
	case ENOMEM:
		return -ENOMEM;
	case EOPNOTSUPP:
		snprintf(why, len, "libntfs-3g cannot read it (%s): %s", what,
			 strerror(err));
		return -ENOTSUP; /* copied whole */
	default:
		snprintf(why, len,
			 "%s: %s: run chkdsk /f on it in Windows, then "
			 "ntfsfix -d",
			 what, strerror(err ? err : EIO));
		return -EBADMSG;
	}
}

ntfs_volume *ba_ntfs_open(struct ntfs_src *s, bool full)
{
	struct ntfs_device *dev;
	ntfs_volume *vol;
	int err;

	pthread_once(&quiet_once, quiet);
	dev = ntfs_device_alloc("blkalign", 0, &dev_ops, s);
	if (!dev) {
		errno = ENOMEM;
		return NULL;
	}
	errno = 0;
	vol = full ? ntfs_device_mount(dev, NTFS_MNT_RDONLY)
		   : ntfs_volume_startup(dev, NTFS_MNT_RDONLY);
	if (!vol) {
		err = errno;
		if (NDevOpen(dev))
			dev_close(dev);
		ntfs_device_free(dev);
		errno = err;
	}
	return vol;
}
