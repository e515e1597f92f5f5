/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench.c - `bench` entry points: open the target the safe way for the
 * test (read-only unless writing; a block device for writing with
 * O_EXCL, which the kernel refuses while it is mounted or held by md,
 * LVM, another O_EXCL opener...), pick the engine, run the sweep.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine.h"
#include "analyze/analyze.h"
#include "scan/scan.h"

static const struct ba_engine_ops *const engines[] = {
	&ba_engine_psync,
#ifdef HAVE_LIBURING
	&ba_engine_uring,
#endif
	&ba_engine_null,
	&ba_engine_sim,
};

#define NENGINES (sizeof(engines) / sizeof(engines[0]))

const struct ba_engine_ops *ba_engine_find(const char *name)
{
	for (size_t i = 0; i < NENGINES; i++)
		if (!strcmp(engines[i]->name, name ? name : "psync"))
			return engines[i];
	return NULL;
}

/** blkalign_bench_engines: the engine names, NULL-terminated. */
const char *const *blkalign_bench_engines(void)
{
	static const char *names[NENGINES + 1];

	for (size_t i = 0; i < NENGINES; i++)
		names[i] = engines[i]->name;
	names[NENGINES] = NULL;
	return names;
}

/**
 * blkalign_bench_opts_init: the defaults into @o, a struct of @size bytes
 * as the caller was built (blkalign_bench_opts_defaults passes its
 * sizeof): a caller with an older, shorter struct gets the fields it has.
 */
void blkalign_bench_opts_init(struct blkalign_bench_opts *o, size_t size)
{
	struct blkalign_bench_opts d = {
		.size = size,
		.engine = "psync",
		.io_size = 4096,
		.phase_step = 512,
		.nphases = 0, /* io_size / phase_step */
		.rounds = 32,
		.queue_depth = 1,
		.seed = 1,
	};

	if (!o || size < sizeof(size_t))
		return;
	memset(o, 0, size);
	memcpy(o, &d, size < sizeof(d) ? size : sizeof(d));
}

/* Open @path for the sweep; fills size, claimed topology, direct. */
static int open_target(const char *path, bool write,
		       struct blkalign_bench_result *r)
{
	struct stat st;
	int flags = (write ? O_RDWR : O_RDONLY) | O_CLOEXEC;
	int fd;

	if (stat(path, &st) < 0)
		return -errno;
	if (S_ISBLK(st.st_mode)) {
		r->is_block_device = true;
		if (write)
			flags |= O_EXCL; /* EBUSY: mounted or held */
	} else if (!S_ISREG(st.st_mode)) {
		return -ENOTBLK;
	}
	fd = open(path, flags | O_DIRECT);
	r->direct = fd >= 0;
	/* tmpfs and some others refuse O_DIRECT: images there go buffered */
	if (fd < 0 && errno == EINVAL && !r->is_block_device)
		fd = open(path, flags);
	if (fd < 0)
		return -errno;
	if (r->is_block_device) {
		int lss = 0;
		unsigned int pss = 0;
		int ao = 0;
		uint64_t size = 0;

		if (ioctl(fd, BLKGETSIZE64, &size) < 0) {
			int rc = -errno;

			close(fd);
			return rc;
		}
		r->device_size = size;
		if (ioctl(fd, BLKSSZGET, &lss) == 0 && lss > 0)
			r->claimed_logical_sector_size = (uint32_t)lss;
		if (ioctl(fd, BLKPBSZGET, &pss) == 0)
			r->claimed_physical_sector_size = pss;
		if (ioctl(fd, BLKALIGNOFF, &ao) == 0 && ao > 0)
			r->claimed_alignment_offset = (uint32_t)ao;
	} else {
		r->device_size = (uint64_t)st.st_size;
	}
	return fd;
}

/* A sweep's result and the phases it points to. */
struct ba_bench_result {
	struct blkalign_bench_result pub;
	struct blkalign_bench_phase phases[BLKALIGN_BENCH_MAX_PHASES];
};

static int sweep(struct blkalign_ctx *ctx, const char *path,
		 const struct blkalign_bench_opts *o,
		 struct blkalign_bench_result *out)
{
	struct ba_engine e = {0};
	int rc, fd = -1;

	out->path = path;
	e.ops = ba_engine_find(o->engine);
	if (!e.ops)
		return -ENOENT;
	out->engine = e.ops->name;
	if (path) {
		/* no-I/O engines still look, read-only, for the size */
		fd = open_target(path, o->write && e.ops->needs_fd, out);
		if (fd < 0)
			return fd;
		if (!e.ops->needs_fd) {
			close(fd);
			fd = -1;
			out->direct = false;
		}
	} else if (e.ops->needs_fd) {
		return -EINVAL;
	} else {
		out->device_size = o->region_size ? o->offset + o->region_size
						  : o->offset + (1ull << 30);
	}
	if (out->claimed_logical_sector_size > o->phase_step && fd >= 0) {
		ba_log(ctx,
		       "the phase step %" PRIu32 " is below the logical "
		       "sector size of '%s' (%" PRIu32 "): direct I/O "
		       "cannot start there",
		       o->phase_step, path, out->claimed_logical_sector_size);
		rc = -EDOM;
		goto out;
	}
	e.fd = fd;
	e.depth = o->queue_depth ? o->queue_depth : 1;
	e.sim = &o->sim;
	rc = e.ops->init(&e);
	if (rc)
		goto out;
	rc = ba_bench_sweep_engine(&e, o, out);
	e.ops->cleanup(&e);
out:
	if (fd >= 0)
		close(fd);
	return rc;
}

/**
 * blkalign_bench_sweep: run the phase sweep on @path (an image file or a
 * block device; may be NULL for the engines "null" and "sim", which do
 * no I/O, and then the region is region_size or 1 GiB).
 *
 * Returns 0 and *out (also when stopped early: see rounds_done), -EINVAL
 * for bad options, -ENOENT for an unknown engine, -EBUSY for a block
 * device that is mounted or held when writing, -EDOM when phase_step is
 * below the device's logical sector size (said through @ctx's log),
 * -ENOSPC when the region is too small for the sweep, -ENOMEM, or the
 * -errno of the failed open or I/O.
 */
int blkalign_bench_sweep(struct blkalign_ctx *ctx, const char *path,
			 const struct blkalign_bench_opts *given,
			 struct blkalign_bench_result **out)
{
	struct blkalign_bench_opts copy;
	struct ba_bench_result *r;
	int rc;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!given ||
	    ba_sized_copy(&copy, sizeof(copy), given, BA_BENCH_OPTS_SIZE0))
		return -EINVAL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->pub.phases = r->phases;
	rc = sweep(ctx, path, &copy, &r->pub);
	if (rc) {
		free(r);
		return rc;
	}
	*out = &r->pub;
	return 0;
}

void blkalign_bench_result_free(struct blkalign_bench_result *r)
{
	free(r); /* pub is the first member of struct ba_bench_result */
}
