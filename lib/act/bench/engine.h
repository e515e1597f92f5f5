/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * engine.h - I/O engines for the benchmarks, in the style of fio's
 * ioengines: an ops table (init, queue, reap, cleanup) per engine, so the
 * sweep is the same code over real I/O (psync, uring), no I/O (null) and
 * a latency model (sim).
 */
#ifndef BLKALIGN_BENCH_ENGINE_H
#define BLKALIGN_BENCH_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blkalign.h"

/* splitmix64: the benchmarks' reproducible offsets and data. */
static inline uint64_t ba_splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

enum ba_io_dir { BA_IO_READ = 0, BA_IO_WRITE };

/* One I/O unit: filled in by the caller, completed by the engine. */
struct ba_io_u {
	enum ba_io_dir dir;
	uint64_t offset; /* bytes */
	size_t len;	 /* bytes */
	void *buf;	 /* aligned to 4096 */
	/* set by the engine on completion */
	uint64_t lat_ns; /* submission to completion */
	int error;	 /* 0 or -errno (short I/O: -EIO) */
	/* engine private */
	uint64_t start_ns;
};

/*
 * The completions of an engine that finishes I/O as it is queued (null,
 * sim): a FIFO of up to @cap units that reap hands out (done-queue.c).
 */
struct ba_done_queue {
	struct ba_io_u **v;
	unsigned int n, cap;
};

int ba_done_queue_init(struct ba_done_queue *q, unsigned int cap);
int ba_done_queue_push(struct ba_done_queue *q, struct ba_io_u *u);
unsigned int ba_done_queue_pop(struct ba_done_queue *q, struct ba_io_u **out,
			       unsigned int max);
void ba_done_queue_free(struct ba_done_queue *q);

struct ba_engine;

struct ba_engine_ops {
	const char *name;
	bool needs_fd; /* does real I/O on the target */
	int (*init)(struct ba_engine *e);
	/* Submit @u; it completes in a later reap. 0 or -errno. */
	int (*queue)(struct ba_engine *e, struct ba_io_u *u);
	/* Wait for at least @min completions, return up to @max in @done. */
	int (*reap)(struct ba_engine *e, struct ba_io_u **done,
		    unsigned int min, unsigned int max);
	void (*cleanup)(struct ba_engine *e);
};

struct ba_engine {
	const struct ba_engine_ops *ops;
	int fd;
	unsigned int depth;		      /* most I/Os in flight */
	const struct blkalign_bench_sim *sim; /* "sim" only */
	void *priv;
};

extern const struct ba_engine_ops ba_engine_psync;
extern const struct ba_engine_ops ba_engine_null;
extern const struct ba_engine_ops ba_engine_sim;
#ifdef HAVE_LIBURING
extern const struct ba_engine_ops ba_engine_uring;
#endif

const struct ba_engine_ops *ba_engine_find(const char *name);
uint64_t ba_now_ns(void);

/*
 * The sweep over an open engine (sweep.c): pure but for the engine and
 * the clock.  @r is filled from @o and the device size already in @r.
 */
int ba_bench_sweep_engine(struct ba_engine *e,
			  const struct blkalign_bench_opts *o,
			  struct blkalign_bench_result *r);

/* The loop window of the soft-block-size comparison (window.c). */
struct ba_window {
	int fd;	    /* open on the loop device, buffered */
	int number; /* /dev/loopN */
	char path[64];
	bool direct_io; /* the loop does direct I/O to the partition */
};

int ba_window_create(int backing, uint64_t size, bool read_only,
		     const char *name, struct ba_window *w);
void ba_window_remove(struct ba_window *w);

/* Median of @n values (sorts them). */
double ba_median_double(double *v, size_t n);

/* The sim engine's record of what writes did to the content. */
uint64_t ba_engine_sim_bytes_changed(const struct ba_engine *e);
uint64_t ba_engine_sim_ios(const struct ba_engine *e);

#endif /* BLKALIGN_BENCH_ENGINE_H */
