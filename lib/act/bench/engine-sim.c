/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * engine-sim.c - the latency-injecting test engine: a device model
 * instead of a device.  Physical sectors of physical_sector_size bytes
 * start at alignment_offset; a read costs read_ns, a write write_ns plus
 * rmw_ns for every physical sector it covers only in part (the drive
 * reads it, merges and writes it back: domain-facts §3.2).  Optional
 * seeded noise multiplies each latency by (1 + noise * N(0,1)).
 *
 * The content is a pattern of the byte offset: reads return it, and
 * writes are compared with it, so tests can check that a write sweep
 * rewrote exactly the bytes it read.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

struct sim_priv {
	struct blkalign_bench_sim m;
	uint64_t rng;
	struct ba_done_queue done;
	uint64_t bytes_changed;
	uint64_t ios;
};

/* uniform in (0, 1) */
static double uniform(uint64_t *s)
{
	return ((double)(ba_splitmix64(s) >> 11) + 0.5) / 9007199254740992.0;
}

static double gaussian(uint64_t *s)
{
	double u1 = uniform(s), u2 = uniform(s);

	return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

static uint8_t pattern(uint64_t off)
{
	uint64_t x = off / 8 * 0x9e3779b97f4a7c15ull;

	return (uint8_t)(x >> (56 - (off % 8) * 8));
}

/* Physical sectors that [off, off + len) covers only in part: 0, 1, 2. */
static unsigned int partial_sectors(const struct blkalign_bench_sim *m,
				    uint64_t off, uint64_t len)
{
	uint64_t pss = m->physical_sector_size, ao = m->alignment_offset % pss;
	uint64_t a = (off + pss - ao) % pss, b = (off + len + pss - ao) % pss;

	if (!len)
		return 0;
	/* one sector holding both ends, neither on a boundary */
	if (a && b && (off + pss - ao) / pss == (off + len + pss - ao) / pss)
		return 1;
	return (a != 0) + (b != 0);
}

static int sim_init(struct ba_engine *e)
{
	struct sim_priv *p = calloc(1, sizeof(*p));

	if (!p)
		return -ENOMEM;
	if (e->sim)
		p->m = *e->sim;
	if (!p->m.physical_sector_size)
		p->m.physical_sector_size = 4096;
	if (!p->m.read_ns)
		p->m.read_ns = 100000;
	if (!p->m.write_ns)
		p->m.write_ns = 100000;
	p->rng = p->m.seed;
	if (ba_done_queue_init(&p->done, e->depth)) {
		free(p);
		return -ENOMEM;
	}
	e->priv = p;
	return 0;
}

static int sim_queue(struct ba_engine *e, struct ba_io_u *u)
{
	struct sim_priv *p = e->priv;
	double lat;

	if (p->done.n >= p->done.cap)
		return -EBUSY;
	if (u->dir == BA_IO_READ) {
		uint8_t *b = u->buf;

		for (size_t i = 0; i < u->len; i++)
			b[i] = pattern(u->offset + i);
		lat = (double)p->m.read_ns;
	} else {
		const uint8_t *b = u->buf;

		for (size_t i = 0; i < u->len; i++)
			p->bytes_changed += b[i] != pattern(u->offset + i);
		lat = (double)p->m.write_ns +
		      (double)p->m.rmw_ns *
			      partial_sectors(&p->m, u->offset, u->len);
	}
	if (p->m.noise > 0)
		lat *= 1.0 + p->m.noise * gaussian(&p->rng);
	if (lat < 1000)
		lat = 1000;
	u->lat_ns = (uint64_t)lat;
	u->error = 0;
	p->ios++;
	return ba_done_queue_push(&p->done, u);
}

static int sim_reap(struct ba_engine *e, struct ba_io_u **done,
		    unsigned int min, unsigned int max)
{
	struct sim_priv *p = e->priv;

	(void)min;
	return (int)ba_done_queue_pop(&p->done, done, max);
}

static void sim_cleanup(struct ba_engine *e)
{
	struct sim_priv *p = e->priv;

	if (p)
		ba_done_queue_free(&p->done);
	free(p);
	e->priv = NULL;
}

uint64_t ba_engine_sim_bytes_changed(const struct ba_engine *e)
{
	const struct sim_priv *p = e->priv;

	return p ? p->bytes_changed : 0;
}

uint64_t ba_engine_sim_ios(const struct ba_engine *e)
{
	const struct sim_priv *p = e->priv;

	return p ? p->ios : 0;
}

const struct ba_engine_ops ba_engine_sim = {
	.name = "sim",
	.needs_fd = false,
	.init = sim_init,
	.queue = sim_queue,
	.reap = sim_reap,
	.cleanup = sim_cleanup,
};
