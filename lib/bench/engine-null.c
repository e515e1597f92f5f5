/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * engine-null.c - the null engine: every I/O completes at once without
 * touching anything (fio's "null"); for tests of the sweep machinery.
 */
#include <errno.h>
#include <stdlib.h>

#include "engine.h"

struct null_priv {
	struct ba_io_u **done;
	unsigned int ndone;
};

static int null_init(struct ba_engine *e)
{
	struct null_priv *p = calloc(1, sizeof(*p));

	if (!p)
		return -ENOMEM;
	p->done = calloc(e->depth, sizeof(*p->done));
	if (!p->done) {
		free(p);
		return -ENOMEM;
	}
	e->priv = p;
	return 0;
}

static int null_queue(struct ba_engine *e, struct ba_io_u *u)
{
	struct null_priv *p = e->priv;

	if (p->ndone >= e->depth)
		return -EBUSY;
	u->lat_ns = 0;
	u->error = 0;
	p->done[p->ndone++] = u;
	return 0;
}

static int null_reap(struct ba_engine *e, struct ba_io_u **done,
		     unsigned int min, unsigned int max)
{
	struct null_priv *p = e->priv;
	unsigned int n = 0;

	(void)min;
	while (n < max && n < p->ndone) {
		done[n] = p->done[n];
		n++;
	}
	for (unsigned int i = n; i < p->ndone; i++)
		p->done[i - n] = p->done[i];
	p->ndone -= n;
	return (int)n;
}

static void null_cleanup(struct ba_engine *e)
{
	struct null_priv *p = e->priv;

	if (p)
		free(p->done);
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
