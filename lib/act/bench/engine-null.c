/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * engine-null.c - the null engine: every I/O completes at once without
 * touching anything (fio's "null"); for tests of the sweep machinery.
 */
#include <errno.h>
#include <stdlib.h>

#include "engine.h"

struct null_priv {
	struct ba_done_queue done;
};

static int null_init(struct ba_engine *e)
{
	struct null_priv *p = calloc(1, sizeof(*p));

	if (!p)
		return -ENOMEM;
	if (ba_done_queue_init(&p->done, e->depth)) {
		free(p);
		return -ENOMEM;
	}
	e->priv = p;
	return 0;
}

static int null_queue(struct ba_engine *e, struct ba_io_u *u)
{
	struct null_priv *p = e->priv;

	u->lat_ns = 0;
	u->error = 0;
	return ba_done_queue_push(&p->done, u);
}

static int null_reap(struct ba_engine *e, struct ba_io_u **done,
		     unsigned int min, unsigned int max)
{
	struct null_priv *p = e->priv;

	(void)min;
	return (int)ba_done_queue_pop(&p->done, done, max);
}

static void null_cleanup(struct ba_engine *e)
{
	struct null_priv *p = e->priv;

	if (p)
		ba_done_queue_free(&p->done);
	free(p);
	e->priv = NULL;
}

const struct ba_engine_ops ba_engine_null = {
	.name = "null",
	.needs_fd = false,
	.init = null_init,
	.queue = null_queue,
	.reap = null_reap,
	.cleanup = null_cleanup,
};
