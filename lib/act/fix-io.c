/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix-io.c - the files fix reads and writes: the target (O_DIRECT when
 * the file system allows it) and the journal.  Every read, write and
 * flush goes through the I/O backend the caller chose (struct
 * blkalign_fix_io, as e2fsprogs' io_manager): the system's calls by
 * default; the crash tests select one of their own (tests/fault/) that
 * kills, cuts the power or fails at the N-th write.  The library itself
 * has no test hooks.
 *
 * An image in a qemu format (qcow2, vmdk...) is written through a
 * private qemu-nbd (lib/scan/nbd.c): a backend is handed a channel
 * (struct blkalign_fix_channel, the file itself) whose descriptor is the
 * image file's, opened read-only, and the system backend turns each call
 * on it into an NBD read, write or flush of the export the channel
 * holds.  So every backend, the crash tests' too, drives an image
 * exactly as it drives a raw one, nothing can write the image file's own
 * bytes, and there is no limit on the images open at once.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fix.h"

/*
 * The channel a backend is handed is the file itself: its descriptor
 * (blkalign_fix_channel_fd) and, for an image in a qemu format or an NBD
 * URI, the export that stands in for it.
 */
static struct ba_file *file_of(struct blkalign_fix_channel *ch)
{
	return (struct ba_file *)ch;
}

static struct blkalign_fix_channel *channel_of(struct ba_file *f)
{
	return (struct blkalign_fix_channel *)f;
}

/**
 * blkalign_fix_channel_fd: the file descriptor of the file @ch stands
 * for (the image file, read-only, when an NBD export is written in its
 * place: the system backend does that), or -1.
 */
int blkalign_fix_channel_fd(const struct blkalign_fix_channel *ch)
{
	return ch ? ((const struct ba_file *)ch)->fd : -1;
}

static int sys_read(void *data, enum blkalign_fix_file file,
		    struct blkalign_fix_channel *ch, void *buf, size_t len,
		    uint64_t off)
{
	struct ba_file *f = file_of(ch);

	(void)data;
	(void)file;
	if (f->nbd)
		return ba_nbd_pread(f->nbd, buf, len, off);
	return ba_pread_full(f->fd, buf, len, off); /* short: past the end */
}

static int sys_write(void *data, enum blkalign_fix_file file,
		     struct blkalign_fix_channel *ch, const void *buf,
		     size_t len, uint64_t off)
{
	struct ba_file *f = file_of(ch);
	const uint8_t *p = buf;

	(void)data;
	(void)file;
	if (f->nbd)
		return ba_nbd_pwrite(f->nbd, buf, len, off);
	while (len) {
		ssize_t n = pwrite(f->fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

static int sys_flush(void *data, enum blkalign_fix_file file,
		     struct blkalign_fix_channel *ch)
{
	struct ba_file *f = file_of(ch);

	(void)data;
	(void)file;
	if (f->nbd)
		return ba_nbd_flush(f->nbd);
	return fdatasync(f->fd) ? -errno : 0;
}

static const struct blkalign_fix_io sys_io = {
	.size = sizeof(struct blkalign_fix_io),
	.read = sys_read,
	.write = sys_write,
	.flush = sys_flush,
};

/** blkalign_fix_io_default: pread, pwrite and fdatasync, whole. */
const struct blkalign_fix_io *blkalign_fix_io_default(void)
{
	return &sys_io;
}

/* @io with the caller's backend @ops (a copy, of its size), or the
 * system's when there is none or it lacks a read, write or flush. */
void ba_fix_io_init(struct ba_fix_io *io, const struct blkalign_fix_io *ops)
{
	memset(io, 0, sizeof(*io));
	if (!ops ||
	    ba_sized_copy(&io->ops, sizeof(io->ops), ops, BA_FIX_IO_SIZE0) ||
	    !io->ops.read || !io->ops.write || !io->ops.flush)
		io->ops = sys_io;
}

void *ba_file_alloc(size_t len)
{
	void *p = NULL;

	if (posix_memalign(&p, 4096, len ? len : 4096))
		return NULL;
	memset(p, 0, len);
	return p;
}

/**
 * ba_file_buffer: an O_DIRECT buffer of @len bytes that the caller fills
 * by reading before it uses it: not zeroed (zeroing tens of MiB costs
 * more than a level's flush), and in huge pages where the kernel has
 * them for the asking, so that the first read faults in few pages.
 */
void *ba_file_buffer(size_t len)
{
	size_t huge = (size_t)2 << 20;
	void *p = NULL;

	if (len < huge)
		return ba_file_alloc(len);
	if (posix_memalign(&p, huge, len))
		return NULL;
	(void)madvise(p, len, MADV_HUGEPAGE); /* only a hint */
	return p;
}

/* @f, not open yet: its name, its role and its backend. */
static void file_init(struct ba_file *f, struct ba_fix_io *io,
		      enum blkalign_fix_file which, const char *path)
{
	memset(f, 0, sizeof(*f));
	f->fd = -1;
	f->path = path;
	f->which = which;
	f->io = io;
}

/**
 * ba_file_open: open @path with @flags (plus O_DIRECT when @direct and the
 * file system takes it), its I/O through @io.  Returns 0 or -errno.
 */
int ba_file_open(struct ba_file *f, struct ba_fix_io *io,
		 enum blkalign_fix_file which, const char *path, int flags,
		 bool direct)
{
	struct stat st;
	int fd = -1;

	file_init(f, io, which, path);
	if (direct)
		fd = open(path, flags | O_DIRECT | O_CLOEXEC, 0600);
	if (fd < 0 && (!direct || errno == EINVAL))
		fd = open(path, flags | O_CLOEXEC, 0600);
	else
		f->direct = direct;
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		int e = -errno;

		close(fd);
		return e;
	}
	if (S_ISBLK(st.st_mode)) {
		if (ioctl(fd, BLKGETSIZE64, &f->size)) {
			int e = -errno;

			close(fd);
			return e;
		}
	} else {
		f->size = (uint64_t)st.st_size;
	}
	f->fd = fd;
	return 0;
}

/*
 * The export @n as the target @f, @fd the descriptor that stands for it
 * (the image file's, or the memfd's): refused when @writable and it takes
 * no writes or flushes.  On failure @n and @fd are closed.
 */
static int take_export(struct ba_file *f, int fd, struct ba_nbd *n,
		       bool writable, char *why, size_t len)
{
	int rc = 0;

	if (writable && !ba_nbd_writable(n)) {
		rc = -EROFS;
		snprintf(why, len,
			 "the export is read-only or takes no flushes");
	}
	if (rc) {
		ba_nbd_close(n);
		close(fd);
		return rc;
	}
	f->fd = fd;
	f->nbd = n;
	f->size = ba_nbd_size(n);
	return 0;
}

/*
 * The image file @path (open read-only as @fd) in the qemu format
 * @format as the target @f: the disk it holds, served by a private
 * qemu-nbd (writable when @writable).  @fd is the target's or closed.
 */
static int open_image(struct ba_file *f, int fd, const char *path,
		      const char *format, bool writable, char *why, size_t len)
{
	struct ba_nbd *n = NULL;
	int rc = ba_nbd_open_image(path, format, writable, &n, why, len);

	if (rc) {
		close(fd);
		return rc;
	}
	return take_export(f, fd, n, writable, why, len);
}

/*
 * The NBD export @uri as the target @f: @f->fd is a descriptor that
 * stands for it (the memory file's, duplicated).
 */
static int open_uri(struct ba_file *f, const char *uri, bool writable,
		    char *why, size_t len)
{
	struct ba_nbd *n = NULL;
	int fd, rc;

	rc = ba_nbd_open_uri(uri, &n, why, len);
	if (rc)
		return rc;
	fd = fcntl(ba_nbd_fd(n), F_DUPFD_CLOEXEC, 0);
	if (fd < 0) {
		rc = -errno;
		snprintf(why, len, "%s", strerror(-rc));
		ba_nbd_close(n);
		return rc;
	}
	return take_export(f, fd, n, writable, why, len);
}

/**
 * ba_file_open_target: open the target @path of fix: a block device or
 * a raw image (O_DIRECT where it can, O_RDWR and for a block device
 * O_EXCL when @writable), an image in a qemu format through NBD, or an
 * NBD URI.
 * Returns 0 or -errno; @why says more when it is not errno's own story.
 */
int ba_file_open_target(struct ba_file *f, struct ba_fix_io *io,
			const char *path, bool writable, char *why, size_t len)
{
	struct ba_image_info info;
	struct stat st;
	int fd, rc, flags;

	snprintf(why, len, "%s", "");
	file_init(f, io, BLKALIGN_FIX_FILE_TARGET, path);
	if (ba_nbd_is_uri(path))
		return open_uri(f, path, writable, why, len);
	if (stat(path, &st))
		return -errno;
	if (S_ISREG(st.st_mode)) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		/* an image in a qemu format keeps @fd: its lock, its
		 * identity */
		rc = ba_image_sniff(fd, (uint64_t)st.st_size, &info);
		if (rc > 0 && !info.damage)
			return open_image(f, fd, path, info.format, writable,
					  why, len);
		close(fd);
		if (rc > 0) {
			snprintf(why, len, "%s", info.damage);
			return -EINVAL;
		}
	}
	flags = !writable	      ? O_RDONLY
		: S_ISBLK(st.st_mode) ? O_RDWR | O_EXCL
				      : O_RDWR;
	rc = ba_file_open(f, io, BLKALIGN_FIX_FILE_TARGET, path, flags, true);
	if (!rc && writable)
		f->lossy = ba_file_lossy(f->fd);
	return rc;
}

/* Close @f; one never opened (zeroed: no backend) or closed is left. */
void ba_file_close(struct ba_file *f)
{
	if (!f->io || f->fd < 0)
		return;
	if (f->io->ops.close)
		f->io->ops.close(f->io->ops.data, f->which, channel_of(f));
	if (f->nbd) {
		ba_nbd_close(f->nbd);
		f->nbd = NULL;
	}
	close(f->fd);
	f->fd = -1;
}

int ba_file_read(struct ba_file *f, void *buf, size_t len, uint64_t off)
{
	return f->io->ops.read(f->io->ops.data, f->which, channel_of(f), buf,
			       len, off);
}

/* Write @len bytes of @buf at @off of @f; read back on a target whose
 * writes can be lost unsaid (f->lossy, fix-readback.c) unless they lie
 * in its reserved ranges (fix-reserve.c). */
int ba_file_write(struct ba_file *f, const void *buf, size_t len, uint64_t off)
{
	int rc;

	__atomic_add_fetch(&f->io->writes, 1, __ATOMIC_RELAXED);
	rc = f->io->ops.write(f->io->ops.data, f->which, channel_of(f), buf,
			      len, off);
	if (rc || !f->lossy || ba_file_reserved(f, off, len))
		return rc;
	__atomic_add_fetch(&f->io->read_back, len, __ATOMIC_RELAXED);
	return ba_file_readback(f, buf, len, off);
}

int ba_file_flush(struct ba_file *f)
{
	__atomic_add_fetch(&f->io->flushes, 1, __ATOMIC_RELAXED);
	return f->io->ops.flush(f->io->ops.data, f->which, channel_of(f));
}

/**
 * ba_file_verify: does @f hold the @len bytes of @buf at @off (read back
 * past any cache: the target is O_DIRECT)?  0, -EIO when not, -errno.
 */
int ba_file_verify(struct ba_file *f, const void *buf, size_t len, uint64_t off)
{
	uint8_t *back = ba_file_buffer(len);
	int rc;

	if (!back)
		return -ENOMEM;
	rc = ba_file_read(f, back, len, off);
	if (!rc && memcmp(back, buf, len))
		rc = -EIO;
	free(back);
	return rc;
}

/**
 * ba_file_write_check: write @len bytes of @buf at @off, flush, and read
 * them back (ba_file_verify).  For the bytes fix puts back from its
 * journal (head, boundaries, batches, table), which exist nowhere else.
 */
int ba_file_write_check(struct ba_file *f, const void *buf, size_t len,
			uint64_t off)
{
	int rc = ba_file_write(f, buf, len, off);

	if (!rc)
		rc = ba_file_flush(f);
	return rc ? rc : ba_file_verify(f, buf, len, off);
}
