/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * io.c - the one bounded reader every parser of ours goes through, with a
 * file-descriptor backend (images, block devices) and an in-memory one
 * (unit tests, fuzzing).  Reads outside the device are "absent", not
 * errors; short reads inside it are I/O errors.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "scan/scan.h"

/**
 * ba_pread_all: read @len bytes at @off of @fd, again after EINTR and
 * short reads.  Returns: the bytes read (fewer only at the end of the
 * file), or -errno.
 */
ssize_t ba_pread_all(int fd, void *buf, size_t len, uint64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, (char *)buf + done, len - done,
				  (off_t)(off + done));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

/* ba_pread_all, all of it or -EIO: 0 or -errno. */
int ba_pread_full(int fd, void *buf, size_t len, uint64_t off)
{
	ssize_t n = ba_pread_all(fd, buf, len, off);

	return n < 0 ? (int)n : (size_t)n == len ? 0 : -EIO;
}

static ssize_t fd_pread(struct ba_io *io, void *buf, size_t len, uint64_t off)
{
	return ba_pread_all(io->fd, buf, len, off);
}

static ssize_t mem_pread(struct ba_io *io, void *buf, size_t len, uint64_t off)
{
	memcpy(buf, io->mem + off, len);
	return (ssize_t)len;
}

static const struct ba_io_ops fd_ops = {.name = "fd", .pread = fd_pread};
static const struct ba_io_ops mem_ops = {.name = "mem", .pread = mem_pread};

void ba_io_init_fd(struct ba_io *io, int fd, uint64_t size)
{
	memset(io, 0, sizeof(*io));
	io->ops = &fd_ops;
	io->fd = fd;
	io->size = size;
}

void ba_io_init_mem(struct ba_io *io, const void *buf, uint64_t size)
{
	memset(io, 0, sizeof(*io));
	io->ops = &mem_ops;
	io->fd = -1;
	io->mem = buf;
	io->size = size;
}

/**
 * ba_io_read: read exactly @len bytes at @off.
 * Returns: 0; 1 when the range is not inside the device; -EINVAL for a
 * read larger than BA_IO_MAX_READ; -EIO for a short read; -errno.
 */
int ba_io_read(struct ba_io *io, uint64_t off, size_t len, void *buf)
{
	ssize_t n;

	if (len > BA_IO_MAX_READ)
		return -EINVAL;
	if (off > io->size || len > io->size - off)
		return 1;
	n = io->ops->pread(io, buf, len, off);
	if (n < 0)
		return (int)n;
	io->bytes_read += (uint64_t)n;
	return (size_t)n == len ? 0 : -EIO;
}

/**
 * ba_io_read_region: read [at, at + len) of the region [off, off + size)
 * of the device: 1 ("absent") when it is not inside the region, else as
 * ba_io_read().  What every content prober reads through.
 */
int ba_io_read_region(struct ba_io *io, uint64_t off, uint64_t size,
		      uint64_t at, size_t len, void *buf)
{
	if (at > size || len > size - at || off > UINT64_MAX - at)
		return 1;
	return ba_io_read(io, off + at, len, buf);
}

/**
 * ba_io_expose: before libblkid probes [off, off + size) of io->fd, make
 * what it reads there readable (the nbd backend fills its memfd).
 * Returns: 0 or -errno.
 */
int ba_io_expose(struct ba_io *io, uint64_t off, uint64_t size)
{
	if (!io->ops->expose || off > io->size || size > io->size - off)
		return 0;
	return io->ops->expose(io, off, size);
}
