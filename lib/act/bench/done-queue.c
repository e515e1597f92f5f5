/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * done-queue.c - the completion FIFO of the engines that complete I/O at
 * once (null, sim): queue pushes, reap pops in order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

int ba_done_queue_init(struct ba_done_queue *q, unsigned int cap)
{
	q->v = calloc(cap ? cap : 1, sizeof(*q->v));
	q->n = 0;
	q->cap = cap;
	return q->v ? 0 : -ENOMEM;
}

/* 0, or -EBUSY when @cap units wait already (the queue depth). */
int ba_done_queue_push(struct ba_done_queue *q, struct ba_io_u *u)
{
	if (q->n >= q->cap)
		return -EBUSY;
	q->v[q->n++] = u;
	return 0;
}

/* Up to @max of the oldest completions into @out; how many. */
unsigned int ba_done_queue_pop(struct ba_done_queue *q, struct ba_io_u **out,
			       unsigned int max)
{
	unsigned int n = max < q->n ? max : q->n;

	memcpy(out, q->v, n * sizeof(*out));
	memmove(q->v, q->v + n, (q->n - n) * sizeof(*q->v));
	q->n -= n;
	return n;
}

void ba_done_queue_free(struct ba_done_queue *q)
{
	free(q->v);
	q->v = NULL;
	q->n = q->cap = 0;
}
