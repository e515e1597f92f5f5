/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * engine-uring.c - io_uring through liburing (fio's "io_uring"): queue
 * prepares and submits, reap waits for completions; up to depth I/Os in
 * flight.  Latency is from submission to the reap that saw it.
 */
#include <errno.h>
#include <liburing.h>
#include <stdlib.h>

#include "engine.h"

struct uring_priv {
	struct io_uring ring;
	unsigned int inflight;
};

static int uring_init(struct ba_engine *e)
{
	struct uring_priv *p = calloc(1, sizeof(*p));
	int rc;

	if (!p)
		return -ENOMEM;
	rc = io_uring_queue_init(e->depth, &p->ring, 0);
	if (rc < 0) {
		free(p);
		return rc;
	}
	e->priv = p;
	return 0;
}

static int uring_queue(struct ba_engine *e, struct ba_io_u *u)
{
	struct uring_priv *p = e->priv;
	struct io_uring_sqe *sqe;
	int rc;

	if (p->inflight >= e->depth)
		return -EBUSY;
	sqe = io_uring_get_sqe(&p->ring);
	if (!sqe)
		return -EBUSY;
	if (u->dir == BA_IO_WRITE)
		io_uring_prep_write(sqe, e->fd, u->buf, (unsigned int)u->len,
				    u->offset);
	else
		io_uring_prep_read(sqe, e->fd, u->buf, (unsigned int)u->len,
				   u->offset);
	io_uring_sqe_set_data(sqe, u);
	u->start_ns = ba_now_ns();
	rc = io_uring_submit(&p->ring);
	if (rc < 0)
		return rc;
	p->inflight++;
	return 0;
}

static int uring_reap(struct ba_engine *e, struct ba_io_u **done,
		      unsigned int min, unsigned int max)
{
	struct uring_priv *p = e->priv;
	unsigned int n = 0;

	while (n < max && p->inflight) {
		struct io_uring_cqe *cqe;
		struct ba_io_u *u;
		int rc = n < min ? io_uring_wait_cqe(&p->ring, &cqe)
				 : io_uring_peek_cqe(&p->ring, &cqe);

		if (rc == -EINTR)
			continue;
		if (rc == -EAGAIN)
			break;
		if (rc < 0)
			return rc;
		u = io_uring_cqe_get_data(cqe);
		u->lat_ns = ba_now_ns() - u->start_ns;
		u->error = cqe->res < 0			? cqe->res
			   : (size_t)cqe->res != u->len ? -EIO
							: 0;
		io_uring_cqe_seen(&p->ring, cqe);
		p->inflight--;
		done[n++] = u;
	}
	return (int)n;
}

static void uring_cleanup(struct ba_engine *e)
{
	struct uring_priv *p = e->priv;

	if (p)
		io_uring_queue_exit(&p->ring);
	free(p);
	e->priv = NULL;
}

const struct ba_engine_ops ba_engine_uring = {
	.name = "uring",
	.needs_fd = true,
	.init = uring_init,
	.queue = uring_queue,
	.reap = uring_reap,
	.cleanup = uring_cleanup,
};
