/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * engine-psync.c - pread/pwrite on the target's fd (O_DIRECT when the
 * file system allows it), one I/O at a time: queue does the I/O and
 * times it, reap hands it back (fio's "psync").
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"

uint64_t ba_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int psync_init(struct ba_engine *e)
{
	e->depth = 1;
	e->priv = NULL;
	return 0;
}

static int psync_queue(struct ba_engine *e, struct ba_io_u *u)
{
	ssize_t n;

	if (e->priv)
		return -EBUSY;
	u->start_ns = ba_now_ns();
	do {
		if (u->dir == BA_IO_WRITE)
			n = pwrite(e->fd, u->buf, u->len, (off_t)u->offset);
		else
			n = pread(e->fd, u->buf, u->len, (off_t)u->offset);
	} while (n < 0 && errno == EINTR);
	u->lat_ns = ba_now_ns() - u->start_ns;
	u->error = n < 0 ? -errno : (size_t)n != u->len ? -EIO : 0;
	e->priv = u;
	return 0;
}

static int psync_reap(struct ba_engine *e, struct ba_io_u **done,
		      unsigned int min, unsigned int max)
{
	(void)min;
	if (!e->priv || !max)
		return 0;
	done[0] = e->priv;
	e->priv = NULL;
	return 1;
}

static void psync_cleanup(struct ba_engine *e)
{
	e->priv = NULL;
}

const struct ba_engine_ops ba_engine_psync = {
	.name = "psync",
	.needs_fd = true,
	.init = psync_init,
	.queue = psync_queue,
	.reap = psync_reap,
	.cleanup = psync_cleanup,
};
