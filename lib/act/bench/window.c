/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * window.c - the aligned-size window of the soft-block-size comparison:
 * a loop device over the first bytes of a partition, offset 0, its size
 * rounded down to a multiple of the page (and of the physical sector),
 * so that the kernel gives it a 4096-byte soft block size where the
 * partition has a smaller one.  Made through /dev/loop-control
 * (LOOP_CONFIGURE, or LOOP_SET_FD + LOOP_SET_STATUS64 on kernels before
 * 5.8), with direct I/O to the partition: its writes reach the disk as
 * the window's requests, not through the partition's page cache again.
 *
 * LO_FLAGS_AUTOCLEAR is set: the loop device is released when its last
 * opener closes it, so it goes away even if bench is killed.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "engine.h"

/**
 * blkalign_bench_window_size: the size of the aligned window over a
 * layer of @size bytes: rounded down to a multiple of max(@page_size,
 * @physical_sector_size) (4096 when both are 0).  Pure.
 */
uint64_t blkalign_bench_window_size(uint64_t size,
				    uint32_t physical_sector_size,
				    uint32_t page_size)
{
	uint64_t g = page_size ? page_size : 4096;

	if (physical_sector_size > g)
		g = physical_sector_size;
	return size / g * g;
}

static void set_name(struct loop_info64 *info, const char *name)
{
	size_t n = strlen(name);

	if (n >= sizeof(info->lo_file_name))
		n = sizeof(info->lo_file_name) - 1;
	memcpy(info->lo_file_name, name, n);
	info->lo_file_name[n] = '\0';
}

/* Before LOOP_CONFIGURE (Linux 5.8): the same in three steps. */
static int configure_old(int lfd, int backing, const struct loop_info64 *info)
{
	struct loop_info64 i = *info;

	if (ioctl(lfd, LOOP_SET_FD, backing) < 0)
		return -errno;
	i.lo_flags &= ~(uint32_t)(LO_FLAGS_DIRECT_IO | LO_FLAGS_READ_ONLY);
	if (ioctl(lfd, LOOP_SET_STATUS64, &i) < 0) {
		int rc = -errno;

		ioctl(lfd, LOOP_CLR_FD, 0);
		return rc;
	}
	if (info->lo_flags & LO_FLAGS_DIRECT_IO)
		ioctl(lfd, LOOP_SET_DIRECT_IO, 1UL);
	return 0;
}

/**
 * ba_window_create: a loop device over @backing (an open partition,
 * O_RDONLY when @read_only), offset 0, @size bytes.  Fills @w (fd open
 * read-write, or read-only, buffered).  Returns 0 or -errno.
 */
int ba_window_create(int backing, uint64_t size, bool read_only,
		     const char *name, struct ba_window *w)
{
	struct loop_info64 info;
	uint64_t got = 0;
	int ctl, rc = -EBUSY;

	memset(w, 0, sizeof(*w));
	w->fd = -1;
	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return -errno;
	memset(&info, 0, sizeof(info));
	info.lo_offset = 0;
	info.lo_sizelimit = size;
	info.lo_flags = LO_FLAGS_DIRECT_IO | LO_FLAGS_AUTOCLEAR |
			(read_only ? LO_FLAGS_READ_ONLY : 0);
	set_name(&info, name ? name : "blkalign-window");
	/* another program may take the free device first: try again */
	for (int tries = 0; tries < 16 && w->fd < 0; tries++) {
		struct loop_config cfg;
		int n = ioctl(ctl, LOOP_CTL_GET_FREE);
		int lfd;

		if (n < 0) {
			rc = -errno;
			break;
		}
		snprintf(w->path, sizeof(w->path), "/dev/loop%d", n);
		lfd = open(w->path,
			   (read_only ? O_RDONLY : O_RDWR) | O_CLOEXEC);
		if (lfd < 0) {
			rc = -errno;
			if (rc == -ENOENT)
				break;
			continue;
		}
		memset(&cfg, 0, sizeof(cfg));
		cfg.fd = (uint32_t)backing;
		cfg.info = info;
		if (ioctl(lfd, LOOP_CONFIGURE, &cfg) == 0) {
			rc = 0;
		} else if (errno == EINVAL || errno == ENOTTY) {
			rc = configure_old(lfd, backing, &info);
		} else {
			rc = -errno;
		}
		if (rc) {
			close(lfd);
			if (rc == -EBUSY)
				continue;
			break;
		}
		w->fd = lfd;
		w->number = n;
	}
	close(ctl);
	if (w->fd < 0)
		return rc;
	if (ioctl(w->fd, LOOP_GET_STATUS64, &info) == 0)
		w->direct_io = info.lo_flags & LO_FLAGS_DIRECT_IO;
	if (ioctl(w->fd, BLKGETSIZE64, &got) < 0 || got != size) {
		rc = got != size ? -EIO : -errno;
		ba_window_remove(w);
		return rc;
	}
	return 0;
}

/**
 * ba_window_remove: detach the window and close it.  With autoclear the
 * kernel releases it on this last close at the latest.
 */
void ba_window_remove(struct ba_window *w)
{
	if (w->fd < 0)
		return;
	ioctl(w->fd, LOOP_CLR_FD, 0);
	close(w->fd);
	w->fd = -1;
}
