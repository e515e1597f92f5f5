/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare.c - throughput tests: the same sequential workload through two
 * nodes in interleaved rounds, and one node's plain throughput.
 *
 * soft-block-size (seeds 000, 002): buffered sequential writes (or reads)
 *   of the first bytes of a partition, through the partition node and
 *   through a loop window over the same bytes whose size is a multiple of
 *   the page (window.c).  The page cache writes a block device back in
 *   requests of at most max_segments x soft block size: a partition whose
 *   size is odd gets 512-byte blocks, and 8 times more requests
 *   (domain-facts §1).  Before the timed rounds, one pass per side runs
 *   under a tracefs trace of the partition (trace.c), so the requests the
 *   disk got are counted without the tracer weighing on the timings; the
 *   model (model.c) predicts the same counts for both sides.
 * whole-vs-partition (seed 001): O_DIRECT sequential I/O through the
 *   engines on the partition from its start, and on the whole disk from
 *   the partition start rounded up to 1 MiB: the same workload, aligned
 *   and as the partition is.
 * seq, rand: one node's throughput through an engine at a queue depth,
 *   the job fio runs (bench/fio-vs-bench.sh).
 *
 * Writes rewrite the bytes just read at the same offsets (the buffered
 * tests read the whole region first, with O_DIRECT; the engine tests read
 * a batch, then time its rewrite), so the content never changes,
 * whenever the run stops.  Rounds alternate which side goes first, and
 * only complete rounds count.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "engine.h"
#include "analyze/analyze.h"
#include "scan/scan.h"

#define SBS_REGION     (64 * MIB)  /* default bytes per pass, buffered */
#define SBS_REGION_MAX (256 * MIB) /* held in memory for rewrites */
#define SEQ_REGION     (256 * MIB) /* default bytes per pass, engines */
#define BATCH_BYTES    (64 * MIB)  /* rewrite batches, engines */
#define SAME_WITHIN    1.1	   /* ratios within 10% are "the same" */
#define MAX_RAND_SLOTS (1u << 24)

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double ba_median_double(double *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* +1 when @a is more than 10% above @b, -1 more than 10% below, else 0 */
static int direction(double a, double b)
{
	if (a <= 0 || b <= 0)
		return 0;
	/* (exactly 10% counts as a difference, whatever the rounding) */
	if (a >= b * SAME_WITHIN * (1 - 1e-12))
		return 1;
	if (b >= a * SAME_WITHIN * (1 - 1e-12))
		return -1;
	return 0;
}

/**
 * blkalign_bench_compare_judge: from the samples and counts in @c, the
 * medians, ratios, directions and whether they agree with the model.
 * Pure.  Returns 0 or -EINVAL.
 */
int blkalign_bench_compare_judge(struct blkalign_bench_compare *c)
{
	struct blkalign_bench_side *a, *b;

	if (!c || !c->nsides || c->nsides > 2)
		return -EINVAL;
	for (size_t i = 0; i < c->nsides; i++) {
		struct blkalign_bench_side *s = &c->sides[i];
		double v[BLKALIGN_BENCH_MAX_ROUNDS];
		uint32_t n = s->samples;

		if (n > BLKALIGN_BENCH_MAX_ROUNDS)
			return -EINVAL;
		memcpy(v, s->bytes_per_s, n * sizeof(*v));
		s->median_bytes_per_s = ba_median_double(v, n);
		s->min_bytes_per_s = n ? v[0] : 0;
		s->max_bytes_per_s = n ? v[n - 1] : 0;
		s->request_avg = s->requests ? (double)s->request_bytes /
						       (double)s->requests
					     : 0;
	}
	c->ratio = c->request_ratio = c->model_ratio = 0;
	c->measured_direction = c->request_direction = c->model_direction = 0;
	c->agreement = c->request_agreement = NULL;
	if (c->nsides < 2)
		return 0;
	a = &c->sides[0];
	b = &c->sides[1];
	if (a->median_bytes_per_s > 0)
		c->ratio = b->median_bytes_per_s / a->median_bytes_per_s;
	c->measured_direction =
		direction(b->median_bytes_per_s, a->median_bytes_per_s);
	if (a->traced && b->traced && b->requests) {
		c->request_ratio = (double)a->requests / (double)b->requests;
		c->request_direction =
			direction((double)a->requests, (double)b->requests);
	}
	if (!a->model_requests || !b->model_requests)
		return 0;
	c->model_ratio = (double)a->model_requests / (double)b->model_requests;
	c->model_direction = (a->model_requests > b->model_requests) -
			     (a->model_requests < b->model_requests);
	if (c->sides[0].samples && c->sides[1].samples)
		c->agreement = c->measured_direction == c->model_direction
				       ? "agrees"
				       : "disagrees";
	if (a->traced && b->traced)
		c->request_agreement =
			c->request_direction == c->model_direction
				? "agrees"
				: "disagrees";
	return 0;
}

static bool should_stop(const struct blkalign_bench_opts *o,
			struct blkalign_bench_compare *c, uint64_t t0)
{
	if (o->stop && *o->stop) {
		c->interrupted = true;
		return true;
	}
	if (o->runtime > 0 && (double)(ba_now_ns() - t0) / 1e9 >= o->runtime) {
		c->runtime_exceeded = true;
		return true;
	}
	return false;
}

/* A comparison and what its sides point to. */
struct ba_bench_compare {
	struct blkalign_bench_compare pub;
	double bytes_per_s[2][BLKALIGN_BENCH_MAX_ROUNDS];
	char path[2][PATH_MAX];
};

/* Side @i of @c (made by blkalign_bench_compare): the node @path. */
static void side_init(struct blkalign_bench_compare *c, size_t i,
		      const char *label, const char *path, int fd,
		      uint64_t offset)
{
	struct ba_bench_compare *bc = (struct ba_bench_compare *)c;
	struct blkalign_bench_side *s = &c->sides[i];
	uint64_t size = 0;
	int bsz = 0;
	struct stat st;

	s->label = label;
	snprintf(bc->path[i], sizeof(bc->path[i]), "%s", path);
	s->path = bc->path[i];
	s->bytes_per_s = bc->bytes_per_s[i];
	s->offset = offset;
	if (fstat(fd, &st) == 0 && S_ISBLK(st.st_mode)) {
		if (ioctl(fd, BLKGETSIZE64, &size) == 0)
			s->device_size = size;
		if (ioctl(fd, BLKBSZGET, &bsz) == 0 && bsz > 0)
			s->soft_block_size = (uint32_t)bsz;
	} else if (fstat(fd, &st) == 0) {
		s->device_size = (uint64_t)st.st_size;
	}
}

static int full_pwrite(int fd, const void *buf, size_t len, uint64_t off)
{
	while (len) {
		ssize_t n = pwrite(fd, buf, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		buf = (const char *)buf + n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

/*
 * One buffered pass over [0, region) of @fd, from a cold page cache:
 * writes of @data (what the region holds) then fdatasync, or reads.
 * Returns 0, 1 when stopped (the pass does not count), or -errno.
 */
static int buffered_pass(int fd, const struct blkalign_bench_opts *o,
			 struct blkalign_bench_compare *c, const void *data,
			 void *scratch, uint64_t t_start, uint64_t *ns)
{
	uint64_t t0;
	int rc;

	fdatasync(fd);
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	t0 = ba_now_ns();
	for (uint64_t off = 0; off < c->region_size; off += c->io_size) {
		size_t n = c->region_size - off < c->io_size
				   ? (size_t)(c->region_size - off)
				   : c->io_size;

		if (should_stop(o, c, t_start))
			return 1;
		rc = c->write
			     ? full_pwrite(fd, (const char *)data + off, n, off)
			     : ba_pread_full(fd, scratch, n, off);
		if (rc)
			return rc;
	}
	if (c->write && fdatasync(fd) < 0)
		return -errno;
	*ns = ba_now_ns() - t0;
	return 0;
}

/* One untimed pass of @side under a trace of @traced (the partition). */
static void traced_pass(struct blkalign_ctx *ctx, const char *traced, int fd,
			const struct blkalign_bench_opts *o,
			struct blkalign_bench_compare *c,
			struct blkalign_bench_side *side, const void *data,
			void *scratch, uint64_t t_start)
{
	struct blkalign_trace *t = NULL;
	const struct blkalign_trace_summary *s;
	const struct blkalign_trace_dir *d;
	uint64_t ns;
	int rc;

	if (c->trace_note)
		return;
	if (geteuid() != 0) {
		c->trace_note = "not root: no tracefs, throughput only";
		return;
	}
	rc = blkalign_trace_new(ctx, traced, NULL, &t);
	if (!rc)
		rc = blkalign_trace_start(t);
	if (rc) {
		c->trace_note = rc == -ENODEV ? "tracefs is not available: "
						"throughput only"
					      : "tracefs could not be used: "
						"throughput only";
		blkalign_trace_free(t);
		return;
	}
	rc = buffered_pass(fd, o, c, data, scratch, t_start, &ns);
	if (blkalign_trace_stop(t) == 0 && rc == 0) {
		s = blkalign_trace_summary(t);
		d = c->write ? &s->write : &s->read;
		side->traced = true;
		side->requests = d->requests;
		side->request_bytes = d->bytes;
		side->request_max = d->request_max;
		if (s->lost_events)
			c->note = "the trace lost events: request counts are "
				  "low";
	}
	blkalign_trace_free(t);
}

/* What model predicts for the partition and for the window. */
static void model_sides(struct blkalign_ctx *ctx, const char *path,
			struct blkalign_bench_compare *c, uint64_t window)
{
	struct blkalign_report *rep = blkalign_report_new(ctx);
	const struct blkalign_device *d;
	struct blkalign_model_geometry g = {.size = sizeof(g)};
	struct blkalign_model_layer l = BLKALIGN_MODEL_LAYER_INIT, lw;
	struct ba_model_cost m, mw;
	struct blkalign_workload w = BLKALIGN_WORKLOAD_INIT;
	size_t li = 0;

	if (!rep || blkalign_check_path(rep, path) ||
	    !blkalign_report_ndevices(rep))
		goto out;
	d = blkalign_report_device(rep, 0);
	for (size_t i = 1; i < d->nlayers; i++)
		if (d->layers[i].kind == BLKALIGN_LAYER_PARTITION)
			li = i;
	if (blkalign_model_geometry_from_device(d, &g) ||
	    blkalign_model_layer_from_device(d, li, &l))
		goto out;
	blkalign_model_geometry_defaults(&g);
	lw = l;
	lw.length = window;
	if (blkalign_workload_preset(
		    c->write ? "seq-write-buffered" : "seq-read", &w))
		goto out;
	w.io_size = c->io_size;
	w.total = c->region_size;
	if (ba_model_cost(&g, &l, &w, BLKALIGN_KERNEL_CURRENT, &m) ||
	    ba_model_cost(&g, &lw, &w, BLKALIGN_KERNEL_CURRENT, &mw))
		goto out;
	c->sides[0].model_requests = m.pub.requests;
	c->sides[0].model_request_cap = m.pub.request_cap;
	c->sides[1].model_requests = mw.pub.requests;
	c->sides[1].model_request_cap = mw.pub.request_cap;
out:
	blkalign_report_unref(rep);
}

static int progress(const struct blkalign_bench_opts *o,
		    struct blkalign_bench_compare *c, uint64_t t0)
{
	if (o->progress &&
	    o->progress(o->progress_data, c->rounds_done, c->rounds_planned,
			(double)(ba_now_ns() - t0) / 1e9)) {
		c->interrupted = true;
		return 1;
	}
	return 0;
}

/* A reference to the caller's context, or a new one with the defaults. */
static struct blkalign_ctx *own_ctx(struct blkalign_ctx *caller)
{
	if (!caller)
		return blkalign_ctx_new();
	blkalign_ctx_ref(caller);
	return caller;
}

static int soft_block_size(struct blkalign_ctx *caller, const char *path,
			   const struct blkalign_bench_opts *o,
			   struct blkalign_bench_compare *c)
{
	struct ba_window w = {.fd = -1};
	struct blkalign_ctx *ctx = NULL;
	void *data = NULL, *scratch = NULL;
	int fd = -1, fds[2], rc = 0;
	unsigned int pss = 0;
	uint64_t size = 0, window, t0;
	long ra = 0, page = sysconf(_SC_PAGESIZE);
	struct stat st;

	c->engine = "psync";
	c->direct = false;
	c->queue_depth = 1;
	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	fd = open(path, (c->write ? O_RDWR | O_EXCL : O_RDONLY) | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, BLKGETSIZE64, &size) < 0) {
		rc = -errno;
		goto out;
	}
	ioctl(fd, BLKPBSZGET, &pss);
	window = blkalign_bench_window_size(size, pss,
					    page > 0 ? (uint32_t)page : 4096);
	c->region_size = o->region_size ? o->region_size : SBS_REGION;
	if (c->region_size > SBS_REGION_MAX)
		c->region_size = SBS_REGION_MAX;
	if (c->region_size > window)
		c->region_size = window;
	c->region_size -= c->region_size % 4096;
	if (!c->region_size) {
		rc = -ENOSPC;
		goto out;
	}
	if (posix_memalign(&scratch, 4096, c->io_size)) {
		rc = -ENOMEM;
		goto out;
	}
	if (c->write) {
		/* what the region holds: every write puts it back */
		int dfd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);

		if (posix_memalign(&data, 4096, c->region_size)) {
			if (dfd >= 0)
				close(dfd);
			rc = -ENOMEM;
			goto out;
		}
		rc = ba_pread_full(dfd >= 0 ? dfd : fd, data, c->region_size,
				   0);
		if (dfd >= 0)
			close(dfd);
		if (rc)
			goto out;
	}
	rc = ba_window_create(fd, window, !c->write, path, &w);
	if (rc) {
		c->note = "cannot make the loop window";
		goto out;
	}
	/* the same readahead on both sides: reads compare block sizes */
	if (ioctl(fd, BLKRAGET, &ra) == 0)
		ioctl(w.fd, BLKRASET, (unsigned long)ra);
	if (!w.direct_io)
		c->note = "the loop window has no direct I/O: its writes go "
			  "through the partition's page cache too";
	c->nsides = 2;
	side_init(c, 0, "partition", path, fd, 0);
	side_init(c, 1, "window", w.path, w.fd, 0);
	fds[0] = fd;
	fds[1] = w.fd;

	ctx = own_ctx(caller);
	if (ctx)
		model_sides(ctx, path, c, window);
	t0 = ba_now_ns();
	for (int i = 0; i < 2 && ctx; i++)
		traced_pass(ctx, path, fds[i], o, c, &c->sides[i], data,
			    scratch, t0);
	if (!ctx)
		c->trace_note = "out of memory: throughput only";
	for (uint32_t r = 0; r < c->rounds_planned && !rc; r++) {
		uint64_t ns[2];

		/* the first side alternates: drift hits both alike */
		for (int k = 0; k < 2 && !rc; k++) {
			int i = (int)(r % 2) ^ k;

			rc = buffered_pass(fds[i], o, c, data, scratch, t0,
					   &ns[i]);
		}
		if (rc)
			break;
		for (int i = 0; i < 2; i++)
			c->sides[i].bytes_per_s[c->sides[i].samples++] =
				(double)c->region_size * 1e9 /
				(double)(ns[i] ? ns[i] : 1);
		c->rounds_done++;
		if (progress(o, c, t0))
			break;
	}
	c->seconds = (double)(ba_now_ns() - t0) / 1e9;
	if (rc == 1)
		rc = 0;
	if (!rc)
		rc = blkalign_bench_compare_judge(c);
out:
	ba_window_remove(&w);
	if (fd >= 0)
		close(fd);
	free(data);
	free(scratch);
	blkalign_ctx_unref(ctx);
	return rc;
}

/*
 * Run the I/Os at @offs[0..n) through @e, at most e->depth in flight;
 * io i uses bufs[i] when @per_io, else a slot buffer.  Returns 0, 1 when
 * stopped, or -errno; *ns the time from the first submission to the
 * last completion.
 */
static int run_ios(struct ba_engine *e, struct ba_io_u *slots, void **bufs,
		   bool per_io, const uint64_t *offs, size_t n,
		   enum ba_io_dir dir, uint32_t len,
		   const struct blkalign_bench_opts *o,
		   struct blkalign_bench_compare *c, uint64_t t_start,
		   uint64_t *ns)
{
	struct ba_io_u *done[256], *free_slots[256];
	unsigned int nfree = 0, inflight = 0, depth = e->depth;
	size_t next = 0;
	uint64_t t0 = ba_now_ns(), sim_ns = 0;
	int rc = 0;

	if (depth > 256)
		depth = 256;
	for (unsigned int i = 0; i < depth; i++)
		free_slots[nfree++] = &slots[i];
	while (next < n || inflight) {
		int got;

		while (next < n && nfree && !rc) {
			struct ba_io_u *u = free_slots[--nfree];

			*u = (struct ba_io_u){
				.dir = dir,
				.offset = offs[next],
				.len = len,
				.buf = per_io ? bufs[next] : bufs[u - slots],
			};
			rc = e->ops->queue(e, u);
			if (rc) {
				free_slots[nfree++] = u;
				break;
			}
			next++;
			inflight++;
		}
		if (!inflight)
			break;
		got = e->ops->reap(e, done, 1, depth);
		if (got < 0)
			return got;
		for (int i = 0; i < got; i++) {
			sim_ns += done[i]->lat_ns;
			if (done[i]->error && !rc)
				rc = done[i]->error;
			free_slots[nfree++] = done[i];
		}
		inflight -= (unsigned int)got;
		if (!rc && next < n && should_stop(o, c, t_start))
			rc = 1;
	}
	/* the sim engine's clock: its latencies, depth at a time */
	*ns = e->ops == &ba_engine_sim ? sim_ns / depth : ba_now_ns() - t0;
	return rc;
}

/* A side of an engine test: its node open, its engine. */
struct eside {
	int fd;
	struct ba_engine e;
	uint64_t base; /* bytes: where the region starts on it */
	struct blkalign_bench_sim sim; /* the sim drive seen from this node */
};

/*
 * One pass over the region of @s: reads, or batches read (untimed) then
 * rewritten (timed).  @offs holds the region's io offsets from 0, in
 * the pass's order.
 */
static int engine_pass(struct eside *s, struct ba_io_u *slots, void **bufs,
		       size_t nbufs, const uint64_t *order, size_t nios,
		       const struct blkalign_bench_opts *o,
		       struct blkalign_bench_compare *c, uint64_t t_start,
		       uint64_t *ns)
{
	uint64_t offs[4096], t = 0;
	size_t batch = c->write ? nbufs : sizeof(offs) / sizeof(offs[0]);
	int rc = 0;

	if (batch > sizeof(offs) / sizeof(offs[0]))
		batch = sizeof(offs) / sizeof(offs[0]);
	*ns = 0;
	for (size_t i = 0; i < nios && !rc; i += batch) {
		size_t n = nios - i < batch ? nios - i : batch;

		for (size_t k = 0; k < n; k++)
			offs[k] = s->base + order[i + k] * c->io_size;
		if (c->write) {
			rc = run_ios(&s->e, slots, bufs, true, offs, n,
				     BA_IO_READ, c->io_size, o, c, t_start, &t);
			if (rc)
				break;
		}
		rc = run_ios(&s->e, slots, bufs, c->write, offs, n,
			     c->write ? BA_IO_WRITE : BA_IO_READ, c->io_size, o,
			     c, t_start, &t);
		*ns += t;
	}
	return rc;
}

static int open_direct(const char *path, bool write, bool excl, bool *direct)
{
	int flags = (write ? O_RDWR : O_RDONLY) | O_CLOEXEC;
	struct stat st;
	int fd;

	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode))
		return -ENOTBLK;
	if (S_ISBLK(st.st_mode) && write && excl)
		flags |= O_EXCL;
	fd = open(path, flags | O_DIRECT);
	*direct = fd >= 0;
	if (fd < 0 && errno == EINVAL && S_ISREG(st.st_mode))
		fd = open(path, flags);
	return fd < 0 ? -errno : fd;
}

/* The disk node of partition @fd: /dev/<disk>, and the partition start. */
static int disk_of(struct blkalign_ctx *ctx, int fd, char *disk, size_t len,
		   uint64_t *start)
{
	struct stat st;
	char *dir, *diskdir;
	int64_t v;
	int rc = 0;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	dir = ba_sysfs_devdir(ctx, major(st.st_rdev), minor(st.st_rdev));
	if (!dir)
		return -ENODEV;
	if (ba_sysfs_read_s64(dir, "partition", &v) ||
	    ba_sysfs_read_s64(dir, "start", &v) || v < 0) {
		free(dir);
		return -EMEDIUMTYPE;
	}
	*start = (uint64_t)v * 512;
	diskdir = ba_sysfs_parent_disk(dir);
	if (!diskdir)
		rc = -ENODEV;
	else
		snprintf(disk, len, "/dev/%s", strrchr(diskdir, '/') + 1);
	free(dir);
	free(diskdir);
	return rc;
}

static int engine_test(struct blkalign_ctx *caller, const char *path,
		       const struct blkalign_bench_opts *o,
		       struct blkalign_bench_compare *c)
{
	struct eside s[2] = {{.fd = -1}, {.fd = -1}};
	struct blkalign_ctx *ctx = NULL;
	struct ba_io_u *slots = NULL;
	void **bufs = NULL;
	uint64_t *order = NULL, nios, rng = o->seed, t0, avail[2];
	size_t nbufs = 0;
	char disk[64];
	bool direct = false;
	int rc = 0;

	s[0].e.ops = ba_engine_find(o->engine);
	if (!s[0].e.ops)
		return -ENOENT;
	/* no I/O: the sim engine, whose latencies make the time */
	if (!s[0].e.ops->needs_fd && s[0].e.ops != &ba_engine_sim)
		return -EINVAL;
	s[0].sim = s[1].sim = o->sim;
	c->engine = s[0].e.ops->name;
	/* whole vs partition: the disk is the one opened exclusively */
	rc = open_direct(path, c->write,
			 c->test != BLKALIGN_BENCH_TEST_WHOLE_VS_PARTITION,
			 &direct);
	if (rc < 0)
		return rc;
	s[0].fd = rc;
	rc = 0;
	c->direct = direct;
	c->nsides = 1;
	side_init(c, 0, "target", path, s[0].fd, o->offset);
	avail[0] = c->sides[0].device_size > o->offset
			   ? c->sides[0].device_size - o->offset
			   : 0;
	s[0].base = o->offset;
	if (c->test == BLKALIGN_BENCH_TEST_WHOLE_VS_PARTITION) {
		uint64_t start = 0, dstart, pss;

		ctx = own_ctx(caller);
		rc = ctx ? disk_of(ctx, s[0].fd, disk, sizeof(disk), &start)
			 : -ENOMEM;
		if (rc)
			goto out;
		/* the disk: opened exclusively when writing, so nothing
		 * mounts a partition meanwhile; the partition is not */
		s[1] = s[0];
		rc = open_direct(disk, c->write, true, &direct);
		if (rc < 0)
			goto out;
		s[0].fd = rc;
		rc = 0;
		c->direct = c->direct && direct;
		dstart = (start + MIB - 1) / MIB * MIB;
		c->nsides = 2;
		side_init(c, 0, "disk", disk, s[0].fd, dstart);
		c->sides[1] = (struct blkalign_bench_side){0};
		side_init(c, 1, "partition", path, s[1].fd, 0);
		s[0].base = dstart;
		s[1].base = 0;
		/* the partition's byte 0 is the disk's byte start */
		if (!s[1].sim.physical_sector_size)
			s[1].sim.physical_sector_size = 4096;
		pss = s[1].sim.physical_sector_size;
		s[1].sim.alignment_offset =
			(uint32_t)((s[1].sim.alignment_offset % pss + pss -
				    start % pss) %
				   pss);
		avail[0] = c->sides[0].device_size > dstart
				   ? c->sides[0].device_size - dstart
				   : 0;
		avail[1] = c->sides[1].device_size;
		if (avail[1] < avail[0])
			avail[0] = avail[1];
		s[1].e.ops = s[0].e.ops;
	}
	c->region_size = o->region_size ? o->region_size : SEQ_REGION;
	if (c->region_size > avail[0])
		c->region_size = avail[0];
	c->region_size -= c->region_size % c->io_size;
	nios = c->region_size / c->io_size;
	if (!nios || nios > MAX_RAND_SLOTS) {
		rc = nios ? -E2BIG : -ENOSPC;
		goto out;
	}
	order = malloc(nios * sizeof(*order));
	nbufs = c->write ? BATCH_BYTES / c->io_size : c->queue_depth;
	if (nbufs < c->queue_depth)
		nbufs = c->queue_depth;
	if (nbufs > 4096)
		nbufs = 4096;
	if (nbufs > nios)
		nbufs = nios < c->queue_depth ? c->queue_depth : nios;
	bufs = calloc(nbufs, sizeof(*bufs));
	slots = calloc(c->queue_depth < 256 ? c->queue_depth : 256,
		       sizeof(*slots));
	if (!order || !bufs || !slots) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < nbufs; i++) {
		if (posix_memalign(&bufs[i], 4096, c->io_size)) {
			rc = -ENOMEM;
			goto out;
		}
		memset(bufs[i], 0, c->io_size);
	}
	for (uint64_t i = 0; i < nios; i++)
		order[i] = i;
	for (size_t i = 0; i < c->nsides; i++) {
		s[i].e.fd = s[i].fd;
		s[i].e.depth = c->queue_depth;
		s[i].e.sim = &s[i].sim;
		rc = s[i].e.ops->init(&s[i].e);
		if (rc) {
			for (size_t k = 0; k < i; k++)
				s[k].e.ops->cleanup(&s[k].e);
			s[0].e.ops = NULL;
			goto out;
		}
	}
	c->queue_depth = s[0].e.depth; /* psync: 1, whatever was asked */
	t0 = ba_now_ns();
	for (uint32_t r = 0; r < c->rounds_planned && !rc; r++) {
		uint64_t ns[2] = {0, 0};

		if (c->test == BLKALIGN_BENCH_TEST_RAND)
			for (uint64_t i = nios; i > 1; i--) {
				uint64_t j = ba_splitmix64(&rng) % i, t;

				t = order[i - 1];
				order[i - 1] = order[j];
				order[j] = t;
			}
		for (size_t k = 0; k < c->nsides && !rc; k++) {
			size_t i = c->nsides == 2 ? (r % 2) ^ k : 0;

			rc = engine_pass(&s[i], slots, bufs, nbufs, order, nios,
					 o, c, t0, &ns[i]);
		}
		if (rc)
			break;
		for (size_t i = 0; i < c->nsides; i++)
			c->sides[i].bytes_per_s[c->sides[i].samples++] =
				(double)c->region_size * 1e9 /
				(double)(ns[i] ? ns[i] : 1);
		c->rounds_done++;
		if (progress(o, c, t0))
			break;
	}
	c->seconds = (double)(ba_now_ns() - t0) / 1e9;
	for (size_t i = 0; i < c->nsides; i++)
		s[i].e.ops->cleanup(&s[i].e);
	if (rc == 1)
		rc = 0;
	if (!rc)
		rc = blkalign_bench_compare_judge(c);
out:
	for (size_t i = 0; bufs && i < nbufs; i++)
		free(bufs[i]);
	free(bufs);
	free(slots);
	free(order);
	for (int i = 0; i < 2; i++)
		if (s[i].fd >= 0)
			close(s[i].fd);
	blkalign_ctx_unref(ctx);
	return rc;
}

static int compare(struct blkalign_ctx *ctx, const char *path,
		   const struct blkalign_bench_opts *o,
		   struct blkalign_bench_compare *out)
{
	out->test = o->test;
	out->path = path;
	out->write = o->write;
	out->io_size = o->io_size;
	out->queue_depth = o->queue_depth ? o->queue_depth : 1;
	out->rounds_planned = o->rounds;
	if (!o->io_size || o->io_size % 512 || !o->rounds ||
	    o->rounds > BLKALIGN_BENCH_MAX_ROUNDS || o->offset % 512)
		return -EINVAL;
	switch (o->test) {
	case BLKALIGN_BENCH_TEST_SOFT_BLOCK_SIZE:
		return soft_block_size(ctx, path, o, out);
	case BLKALIGN_BENCH_TEST_WHOLE_VS_PARTITION:
	case BLKALIGN_BENCH_TEST_SEQ:
	case BLKALIGN_BENCH_TEST_RAND:
		return engine_test(ctx, path, o, out);
	case BLKALIGN_BENCH_TEST_PHASE_SWEEP:
		break;
	}
	return -EINVAL;
}

/**
 * blkalign_bench_compare: run test @o->test (not the phase sweep) on
 * @path, auditing it (the model's prediction, the disk of a partition)
 * with @ctx (its log and sysroot; NULL: the defaults): a partition for
 * soft-block-size and whole-vs-partition, an image file or a block device for
 * seq and rand.  io_size, queue_depth, region_size, rounds, write, runtime,
 * stop and progress are taken from @o.
 *
 * Returns 0 and *out (also when stopped early: see rounds_done), -EINVAL
 * for bad options, -ENOENT for an unknown engine, -ENOMEM, -ENOTBLK when
 * a block device is needed, -EMEDIUMTYPE when a partition is needed, -EBUSY
 * when writing to a device in use, -ENOSPC when the target is too small, or the
 * -errno of the failed open, window or I/O.
 */
int blkalign_bench_compare(struct blkalign_ctx *ctx, const char *path,
			   const struct blkalign_bench_opts *given,
			   struct blkalign_bench_compare **out)
{
	struct blkalign_bench_opts copy;
	struct ba_bench_compare *c;
	int rc;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!given || !path ||
	    ba_sized_copy(&copy, sizeof(copy), given, BA_BENCH_OPTS_SIZE0))
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	for (size_t i = 0; i < 2; i++)
		c->pub.sides[i].bytes_per_s = c->bytes_per_s[i];
	rc = compare(ctx, path, &copy, &c->pub);
	if (rc) {
		free(c);
		return rc;
	}
	*out = &c->pub;
	return 0;
}

void blkalign_bench_compare_free(struct blkalign_bench_compare *c)
{
	free(c); /* pub is the first member of struct ba_bench_compare */
}
