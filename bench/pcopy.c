/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pcopy.c - the physical limit of a same-device copy, as a yardstick for
 * bench/move-vs-dd.sh: LEN bytes copied from byte SRC_OFF to byte DST_OFF
 * of one file or block device with O_DIRECT, a reader thread filling a
 * ring of DEPTH buffers of STEP bytes while the main thread writes them
 * out, and one fdatasync at the end.  No journal, no crash safety: what
 * `blkalign fix` would cost if moving the bytes were all it did.
 *
 *   pcopy [--step BYTES] [--depth N] [--sync-every BYTES] [-v]
 *         DEV SRC_OFF DST_OFF LEN
 *
 * --sync-every adds an fdatasync each time that many bytes were written
 * since the last one: fix's flush per level, without its journal, to
 * tell what the flushes cost from what the rest of fix costs.
 *
 * The default step is the one fix uses for the same move: the shift
 * |DST_OFF - SRC_OFF| cut to 4 KiB, at most 16 MiB and at least 4 KiB.
 *
 * Overlapping ranges: with DST_OFF > SRC_OFF the steps go from the end
 * backwards, otherwise from the start forwards, both threads in the same
 * order, and the writer only writes a step the reader has read.  Going
 * backwards, step k covers [a_k, b_k) of the range and its write lands on
 * the source bytes [a_k + shift, b_k + shift): at or above a_k, so in
 * steps 0..k, all read already, while every step the reader still has to
 * read lies below a_k.  Forwards is the mirror image.  So the reader never
 * reads a byte the writer has overwritten and never races a write that is
 * in flight, whatever the read-ahead (the depth) and even with a step
 * longer than the shift; fix's step <= shift is for its crash safety (a
 * step never overwrites its own source), not needed here.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../lib/banned.h"

#define KIB	      1024ULL
#define MIB	      (1024 * KIB)
#define STEP_MAX      (16 * MIB) /* fix's default step */
#define DEPTH_MAX     1024
#define DEFAULT_DEPTH 4

/* One copy: its geometry, the ring and the state the two threads share. */
struct copy {
	const char *path;
	int fd;
	uint64_t src, dst, len, step;
	uint64_t sync_every, unsynced, syncs; /* the writer's */
	unsigned int depth;
	bool backward;
	uint64_t nsteps;
	char **buf;

	pthread_mutex_t lock;
	pthread_cond_t cond;
	uint64_t nread, nwritten; /* steps done by each thread */
	bool stop;		  /* set by a thread that failed */
	int err;		  /* its errno, and what it was doing */
	const char *what;
	uint64_t err_off;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pcopy [--step BYTES] [--depth N] [--sync-every BYTES] "
		"[-v] DEV SRC_OFF DST_OFF LEN\n"
		"  copies LEN bytes from byte SRC_OFF to byte DST_OFF of "
		"DEV (O_DIRECT, overlap-safe)\n"
		"  --step BYTES  bytes per I/O (default: the shift cut to "
		"4 KiB, 4 KiB-16 MiB)\n"
		"  --depth N     buffers in the ring (default %d)\n"
		"  --sync-every BYTES  an fdatasync after each BYTES "
		"written\n"
		"  -v            say what was copied and how fast\n",
		DEFAULT_DEPTH);
}

/* A byte count, with an optional K, M or G (binary) suffix. */
static int parse_u64(const char *s, uint64_t *v)
{
	static const char units[] = "KMG";
	const char *u;
	unsigned long long n;
	unsigned int shift = 0;
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno)
		return -1;
	u = *end ? strchr(units, *end) : NULL;
	if (u) {
		shift = 10 * (unsigned int)(u - units + 1);
		end++;
	}
	if (*end || n > UINT64_MAX >> shift)
		return -1;
	*v = (uint64_t)n << shift;
	return 0;
}

/* Step @k's offset and length, relative to the start of the range. */
static void step_at(const struct copy *c, uint64_t k, uint64_t *off,
		    uint64_t *len)
{
	uint64_t end;

	if (!c->backward) {
		*off = k * c->step;
		*len = c->len - *off < c->step ? c->len - *off : c->step;
		return;
	}
	end = c->len - k * c->step;
	*off = end > c->step ? end - c->step : 0;
	*len = end - *off;
}

/* Read or write @len bytes at @off in full: short transfers continued,
 * EINTR retried.  Returns 0 or an errno (EIO for an unexpected end). */
static int xfer(int fd, char *buf, uint64_t len, uint64_t off, bool write,
		uint64_t *at)
{
	while (len) {
		ssize_t n = write ? pwrite(fd, buf, len, (off_t)off)
				  : pread(fd, buf, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		*at = off;
		if (n < 0)
			return errno;
		if (n == 0)
			return write ? ENOSPC : EIO;
		buf += n;
		off += (uint64_t)n;
		len -= (uint64_t)n;
	}
	return 0;
}

/* Record the first failure and wake the other thread. */
static void fail(struct copy *c, int err, const char *what, uint64_t off)
{
	pthread_mutex_lock(&c->lock);
	if (!c->stop) {
		c->stop = true;
		c->err = err;
		c->what = what;
		c->err_off = off;
	}
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
}

/*
 * One side of the copy, the reader (@write false) or the writer: step
 * after step, the reader at most depth steps ahead of the writer (the
 * ring), the writer only on steps the reader has finished.
 */
static void pump(struct copy *c, bool write)
{
	uint64_t k;

	for (k = 0; k < c->nsteps; k++) {
		uint64_t off, len, at;
		bool stop;
		int err;

		pthread_mutex_lock(&c->lock);
		while (!c->stop && (write ? c->nwritten == c->nread
					  : c->nread - c->nwritten == c->depth))
			pthread_cond_wait(&c->cond, &c->lock);
		stop = c->stop;
		pthread_mutex_unlock(&c->lock);
		if (stop)
			return;
		step_at(c, k, &off, &len);
		err = xfer(c->fd, c->buf[k % c->depth], len,
			   (write ? c->dst : c->src) + off, write, &at);
		if (err) {
			fail(c, err, write ? "write" : "read", at);
			return;
		}
		if (write && c->sync_every &&
		    (c->unsynced += len) >= c->sync_every) {
			c->unsynced = 0;
			c->syncs++;
			if (fdatasync(c->fd)) {
				fail(c, errno, "flush", c->dst + off);
				return;
			}
		}
		pthread_mutex_lock(&c->lock);
		if (write)
			c->nwritten++;
		else
			c->nread++;
		pthread_cond_broadcast(&c->cond);
		pthread_mutex_unlock(&c->lock);
	}
}

static void *reader(void *arg)
{
	pump(arg, false);
	return NULL;
}

/* The size of @fd and the alignment O_DIRECT needs on it. */
static int geometry(int fd, uint64_t *size, uint64_t *align, bool *blk)
{
	struct stat st;
	int lss;

	*size = 0;
	*align = 512;
	*blk = false;
	if (fstat(fd, &st))
		return errno;
	*blk = S_ISBLK(st.st_mode);
	if (!*blk) {
		*size = (uint64_t)st.st_size;
		return 0;
	}
	if (ioctl(fd, BLKGETSIZE64, size) || ioctl(fd, BLKSSZGET, &lss))
		return errno;
	if (lss > 512)
		*align = (uint64_t)lss;
	return 0;
}

/* Check the arguments against the device and size the ring. */
static int plan(struct copy *c, uint64_t step)
{
	uint64_t size, align, shift;
	bool blk;
	int err = geometry(c->fd, &size, &align, &blk);

	if (err) {
		fprintf(stderr, "pcopy: cannot size '%s': %s\n", c->path,
			strerror(err));
		return -1;
	}
	if (c->src % align || c->dst % align || c->len % align ||
	    step % align) {
		fprintf(stderr,
			"pcopy: offsets, length and step must be multiples of "
			"%" PRIu64 " bytes for O_DIRECT on '%s'\n",
			align, c->path);
		return -1;
	}
	if (c->src > size || c->len > size - c->src ||
	    (blk && (c->dst > size || c->len > size - c->dst))) {
		fprintf(stderr,
			"pcopy: %" PRIu64 " bytes from %" PRIu64 " to %" PRIu64
			" do not fit in '%s' (%" PRIu64 " bytes)\n",
			c->len, c->src, c->dst, c->path, size);
		return -1;
	}
	shift = c->dst > c->src ? c->dst - c->src : c->src - c->dst;
	if (!step) {
		step = shift < STEP_MAX ? shift / 4096 * 4096 : STEP_MAX;
		if (step < 4096)
			step = 4096;
		if (step % align)
			step = (step + align - 1) / align * align;
	}
	c->step = step;
	c->backward = c->dst > c->src;
	c->nsteps = (c->len + step - 1) / step;
	return 0;
}

static int alloc_ring(struct copy *c)
{
	/* no buffer longer than the whole copy, 4 KiB aligned */
	uint64_t bytes = c->step < c->len ? c->step : c->len;
	unsigned int i;

	bytes = (bytes + 4095) / 4096 * 4096;
	c->buf = calloc(c->depth, sizeof(*c->buf));
	if (!c->buf)
		return ENOMEM;
	for (i = 0; i < c->depth; i++) {
		int err = posix_memalign((void **)&c->buf[i], 4096, bytes);
		if (err) {
			c->buf[i] = NULL;
			return err;
		}
	}
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"step", required_argument, NULL, 's'},
		{"depth", required_argument, NULL, 'd'},
		{"sync-every", required_argument, NULL, 'S'},
		{"verbose", no_argument, NULL, 'v'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct copy c = {.fd = -1, .depth = DEFAULT_DEPTH};
	uint64_t step = 0, depth = DEFAULT_DEPTH;
	bool verbose = false, started = false;
	pthread_t thr;
	double t0, t1, secs;
	int opt, err, ret = 1;
	unsigned int i;

	while ((opt = getopt_long(argc, argv, "s:d:S:vh", opts, NULL)) != -1) {
		switch (opt) {
		case 's':
			if (parse_u64(optarg, &step) || !step) {
				fprintf(stderr, "pcopy: bad step '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'd':
			if (parse_u64(optarg, &depth) || !depth ||
			    depth > DEPTH_MAX) {
				fprintf(stderr,
					"pcopy: bad depth '%s' (1-%d)\n",
					optarg, DEPTH_MAX);
				return 2;
			}
			break;
		case 'S':
			if (parse_u64(optarg, &c.sync_every) || !c.sync_every) {
				fprintf(stderr,
					"pcopy: bad --sync-every '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (argc - optind != 4) {
		usage(stderr);
		return 2;
	}
	c.path = argv[optind];
	if (parse_u64(argv[optind + 1], &c.src) ||
	    parse_u64(argv[optind + 2], &c.dst) ||
	    parse_u64(argv[optind + 3], &c.len)) {
		fprintf(stderr, "pcopy: offsets and length are byte counts\n");
		return 2;
	}
	c.depth = (unsigned int)depth;

	c.fd = open(c.path, O_RDWR | O_DIRECT | O_CLOEXEC);
	if (c.fd < 0) {
		fprintf(stderr, "pcopy: cannot open '%s' with O_DIRECT: %s\n",
			c.path, strerror(errno));
		return 1;
	}
	if (plan(&c, step))
		goto out;
	err = alloc_ring(&c);
	if (err) {
		fprintf(stderr,
			"pcopy: cannot allocate %u buffers of %" PRIu64
			" bytes: %s\n",
			c.depth, c.step, strerror(err));
		goto out;
	}
	pthread_mutex_init(&c.lock, NULL);
	pthread_cond_init(&c.cond, NULL);
	started = true;

	t0 = now();
	err = pthread_create(&thr, NULL, reader, &c);
	if (err) {
		fprintf(stderr, "pcopy: cannot start the reader: %s\n",
			strerror(err));
		goto out;
	}
	pump(&c, true);
	pthread_join(thr, NULL);
	if (c.stop) {
		fprintf(stderr,
			"pcopy: cannot %s '%s' at byte %" PRIu64 ": %s\n",
			c.what, c.path, c.err_off, strerror(c.err));
		goto out;
	}
	t1 = now();
	if (fdatasync(c.fd)) {
		fprintf(stderr, "pcopy: cannot flush '%s': %s\n", c.path,
			strerror(errno));
		goto out;
	}
	secs = now() - t0;
	if (verbose)
		printf("pcopy: %" PRIu64 " bytes from %" PRIu64 " to %" PRIu64
		       " of '%s', %s, step %" PRIu64 ", depth %u: %.3f s "
		       "(the last fdatasync %.3f s, %" PRIu64 " before), "
		       "%.1f MB/s\n",
		       c.len, c.src, c.dst, c.path,
		       c.backward ? "backwards" : "forwards", c.step, c.depth,
		       secs, secs - (t1 - t0), c.syncs,
		       secs > 0 ? (double)c.len / secs / 1e6 : 0.0);
	ret = 0;
out:
	if (started) {
		pthread_cond_destroy(&c.cond);
		pthread_mutex_destroy(&c.lock);
	}
	if (c.buf)
		for (i = 0; i < c.depth; i++)
			free(c.buf[i]);
	free(c.buf);
	if (c.fd >= 0 && close(c.fd) && !ret) {
		fprintf(stderr, "pcopy: cannot close '%s': %s\n", c.path,
			strerror(errno));
		ret = 1;
	}
	return ret;
}
