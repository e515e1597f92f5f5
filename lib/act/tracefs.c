/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tracefs.c - a private tracefs instance recording one device's block
 * requests (Documentation/trace/ftrace.rst "Instances",
 * Documentation/trace/events.rst "Event filtering").
 *
 * The global trace state is never touched: events are enabled in
 * instances/blkalign-<pid>, which is removed when tracing stops (an
 * instance takes its buffers, filters and enables with it).  tracefs is
 * mounted at /sys/kernel/tracing when it is not mounted anywhere, and
 * unmounted again afterwards.  Instances left by a killed blkalign (its
 * pid gone) are removed before a new one is made.
 *
 * A device is traced as the disks its requests reach (trace-map.c): a
 * partition as its disk with a filter on its sectors, a dm or md device
 * as the ranges of the disks below it, one OR'ed term each.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "trace.h"

#define INSTANCE_PREFIX	  "blkalign-"
#define DEFAULT_BUFFER_KB 4096
/* event_filter_write() takes less than a page */
#define FILTER_MAX 4000

static int write_file(const char *dir, const char *rel, const char *val)
{
	char path[4096];
	size_t len = strlen(val);
	ssize_t n;
	int fd, rc = 0;

	if (snprintf(path, sizeof(path), "%s/%s", dir, rel) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, val, len);
	if (n < 0)
		rc = -errno;
	else if ((size_t)n != len)
		rc = -EIO;
	close(fd);
	return rc;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A tracefs mount point from /proc/self/mounts, or NULL. */
static char *mounted_tracefs(void)
{
	char line[4096], dev[256], dir[2048], type[64];
	char *found = NULL;
	FILE *f = fopen("/proc/self/mounts", "re");

	if (!f)
		return NULL;
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %2047s %63s", dev, dir, type) != 3 ||
		    strcmp(type, "tracefs"))
			continue;
		/* mount points with spaces are escaped as \040: skip them */
		if (strchr(dir, '\\'))
			continue;
		if (access(dir, F_OK) == 0)
			found = strdup(dir);
	}
	fclose(f);
	return found;
}

/* Find or mount tracefs. */
static int find_tracefs(struct blkalign_trace *t)
{
	static const char *const mp = "/sys/kernel/tracing";
	char probe[128];

	t->tracefs = mounted_tracefs();
	if (t->tracefs)
		return 0;
	if (is_dir(mp) && mount("nodev", mp, "tracefs", 0, NULL) == 0) {
		t->mounted = true;
		t->tracefs = strdup(mp);
		return t->tracefs ? 0 : -ENOMEM;
	}
	/* debugfs mounted: its tracing/ automounts tracefs */
	snprintf(probe, sizeof(probe), "/sys/kernel/debug/tracing/instances");
	if (is_dir(probe)) {
		t->tracefs = strdup("/sys/kernel/debug/tracing");
		return t->tracefs ? 0 : -ENOMEM;
	}
	return errno == EPERM ? -EPERM : -ENODEV;
}

/* Disable the events, clear the filters, remove the instance. */
static int remove_instance(const char *inst)
{
	static const char *const files[] = {
		"events/block/block_rq_issue/enable",
		"events/block/block_rq_complete/enable",
		"events/block/block_rq_issue/filter",
		"events/block/block_rq_complete/filter",
	};

	write_file(inst, "tracing_on", "0");
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		write_file(inst, files[i], "0");
	for (int tries = 0; tries < 50; tries++) {
		if (rmdir(inst) == 0 || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			break;
		usleep(10000);
	}
	return -errno;
}

/* Instances of blkalign processes that no longer exist. */
static void remove_stale(struct blkalign_trace *t, const char *instances)
{
	DIR *d = opendir(instances);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char *end, path[4096];
		long pid;

		if (strncmp(e->d_name, INSTANCE_PREFIX,
			    strlen(INSTANCE_PREFIX)))
			continue;
		errno = 0;
		pid = strtol(e->d_name + strlen(INSTANCE_PREFIX), &end, 10);
		if (errno || *end || pid <= 0 || pid == (long)getpid())
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(path, sizeof(path), "%s/%s", instances, e->d_name);
		if (remove_instance(path) == 0)
			ba_log(t->ctx,
			       "removed the tracefs instance '%s' of a "
			       "blkalign that is gone",
			       path);
	}
	closedir(d);
}

static int read_u32(const char *dir, const char *attr, uint32_t *out)
{
	int64_t v;
	int rc = ba_sysfs_read_s64(dir, attr, &v);

	if (rc)
		return rc;
	if (v < 0 || v > UINT32_MAX)
		return -ERANGE;
	*out = (uint32_t)v;
	return 0;
}

/*
 * The extents of @device on the disks below (trace-map.c); the summary's
 * disk, layer start and sector sizes are those of the first extent, the
 * logical sector size the device's own.
 */
static int resolve_device(struct blkalign_trace *t, const char *device)
{
	char *devdir = NULL, *q = NULL;
	const struct ba_trace_extent *e;
	struct stat st;
	int64_t v = 0;
	int rc;

	if (stat(device, &st) < 0)
		return -errno;
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	devdir = ba_sysfs_devdir(t->ctx, major(st.st_rdev), minor(st.st_rdev));
	if (!devdir)
		return -ENODEV;
	if (ba_sysfs_read_s64(devdir, "size", &v) || v <= 0) {
		rc = -EIO;
		goto out;
	}
	t->size = (uint64_t)v * 512;
	rc = ba_trace_map(t, major(st.st_rdev), minor(st.st_rdev), (uint64_t)v);
	if (rc)
		goto out;
	e = &t->ext[0];
	t->major = e->major;
	t->minor = e->minor;
	t->partition = e->end != BA_TRACE_WHOLE;
	t->start = t->partition ? e->first * 512 : 0;
	t->pss = e->pss;
	t->ao = e->ao;
	/* a partition has no queue/: its disk's */
	if (asprintf(&q, "%s/queue", devdir) < 0) {
		rc = -ENOMEM;
		goto out;
	}
	if (read_u32(q, "logical_block_size", &t->lss)) {
		char *disk = ba_sysfs_parent_disk(devdir);

		free(q);
		q = NULL;
		if (!disk || asprintf(&q, "%s/queue", disk) < 0)
			q = NULL;
		free(disk);
		if (!q || read_u32(q, "logical_block_size", &t->lss))
			t->lss = 512;
	}
out:
	free(q);
	free(devdir);
	return rc;
}

/* A string that grows: tracefs filters have no fixed length. */
static bool appendf(char **buf, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static bool appendf(char **buf, size_t *len, const char *fmt, ...)
{
	char *more = NULL, *n;
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vasprintf(&more, fmt, ap);
	va_end(ap);
	if (k < 0)
		return false;
	n = realloc(*buf, *len + (size_t)k + 1);
	if (!n) {
		free(more);
		return false;
	}
	memcpy(n + *len, more, (size_t)k + 1);
	*len += (size_t)k;
	*buf = n;
	free(more);
	return true;
}

static bool seen_disk(const struct blkalign_trace *t, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (t->ext[k].major == t->ext[i].major &&
		    t->ext[k].minor == t->ext[i].minor)
			return true;
	return false;
}

/**
 * ba_trace_filter: the tracefs event filter of @t's extents, an OR of
 * "dev == D && sector in [first, end)" plus the data-less requests
 * (flushes) of each disk; the filter's dev is the kernel's dev_t,
 * (major << 20) | minor.  When that is longer than @max_len (the
 * kernel takes less than a page), the disks alone: wanted() in trace.c
 * checks the sectors again either way.  Returns a malloc'ed string or
 * NULL (no memory).
 */
char *ba_trace_filter(const struct blkalign_trace *t, size_t max_len)
{
	char *f = NULL;
	size_t len = 0;

	for (int ranges = 1; ranges >= 0; ranges--) {
		bool ok = true;

		free(f);
		f = NULL;
		len = 0;
		for (size_t i = 0; i < t->next && ok; i++) {
			const struct ba_trace_extent *e = &t->ext[i];
			uint32_t dev = (e->major << 20) | e->minor;
			const char * or = len ? " || " : "";

			if (!ranges || e->end == BA_TRACE_WHOLE) {
				if (!seen_disk(t, i))
					ok = appendf(&f, &len, "%sdev == %u",
						     or, dev);
				continue;
			}
			ok = appendf(&f, &len,
				     "%s(dev == %u && sector >= %" PRIu64
				     " && sector < %" PRIu64 ")",
				     or, dev, e->first, e->end);
			if (ok && !seen_disk(t, i))
				ok = appendf(
					&f, &len,
					" || (dev == %u && nr_sector == 0)",
					dev);
		}
		if (!ok) {
			free(f);
			return NULL;
		}
		if (len <= max_len)
			break;
	}
	return f;
}

/**
 * blkalign_trace_new: a tracer for @device (a disk or partition node);
 * nothing is recorded before blkalign_trace_start().  With @device NULL,
 * a tracer fed by blkalign_trace_feed() only (a saved --raw file).
 * Returns: 0, -ENOTBLK (not a block device), -ENODEV, -ENOMEM, -EINVAL
 * (options without their size), -errno.
 */
int blkalign_trace_new(struct blkalign_ctx *ctx, const char *device,
		       const struct blkalign_trace_opts *opts,
		       struct blkalign_trace **out)
{
	struct blkalign_trace_opts copy;
	struct blkalign_trace *t;
	int rc;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (opts &&
	    ba_sized_copy(&copy, sizeof(copy), opts, BA_TRACE_OPTS_SIZE0))
		return -EINVAL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->pipe_fd = -1;
	t->ctx = ctx;
	if (ctx)
		blkalign_ctx_ref(ctx);
	if (opts)
		t->opts = copy;
	if (device) {
		t->device = strdup(device);
		if (!t->device) {
			blkalign_trace_free(t);
			return -ENOMEM;
		}
		if (!ctx) {
			blkalign_trace_free(t);
			return -EINVAL;
		}
		rc = resolve_device(t, device);
		if (rc) {
			blkalign_trace_free(t);
			return rc;
		}
	}
	*out = t;
	return 0;
}

/**
 * blkalign_trace_start: make the tracefs instance, filter and enable the
 * block_rq_issue and block_rq_complete events of the device, open
 * trace_pipe.  Everything is undone on failure.
 * Returns: 0, -EPERM (not root), -ENODEV (no tracefs), -errno.
 */
int blkalign_trace_start(struct blkalign_trace *t)
{
	char kb[32], *instances = NULL, *filter = NULL;
	int rc;

	if (!t || !t->device || t->started)
		return -EINVAL;
	if (geteuid() != 0)
		return -EPERM;
	rc = find_tracefs(t);
	if (rc)
		return rc;
	if (asprintf(&instances, "%s/instances", t->tracefs) < 0 ||
	    asprintf(&t->instance, "%s/" INSTANCE_PREFIX "%ld", instances,
		     (long)getpid()) < 0) {
		free(instances);
		rc = -ENOMEM;
		goto fail;
	}
	remove_stale(t, instances);
	free(instances);
	if (mkdir(t->instance, 0700) < 0 && errno != EEXIST) {
		rc = -errno;
		free(t->instance);
		t->instance = NULL;
		goto fail;
	}
	t->started = true;

	filter = ba_trace_filter(t, FILTER_MAX);
	if (!filter) {
		rc = -ENOMEM;
		goto fail;
	}
	snprintf(kb, sizeof(kb), "%u",
		 t->opts.buffer_size_kb ? t->opts.buffer_size_kb
					: DEFAULT_BUFFER_KB);
	/* mono: issue and completion may be stamped on different CPUs */
	write_file(t->instance, "trace_clock", "mono");
	write_file(t->instance, "buffer_size_kb", kb);
	rc = write_file(t->instance, "events/block/block_rq_issue/filter",
			filter);
	if (!rc)
		rc = write_file(t->instance,
				"events/block/block_rq_complete/filter",
				filter);
	free(filter);
	filter = NULL;
	if (rc)
		goto fail;
	{
		char path[4096];

		snprintf(path, sizeof(path), "%s/trace_pipe", t->instance);
		t->pipe_fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	}
	if (t->pipe_fd < 0) {
		rc = -errno;
		goto fail;
	}
	if ((rc = write_file(t->instance, "events/block/block_rq_issue/enable",
			     "1")) ||
	    (rc = write_file(t->instance,
			     "events/block/block_rq_complete/enable", "1")))
		goto fail;
	ba_trace_recording(t, false);
	ba_trace_write_header(t);
	return 0;
fail:
	ba_tracefs_teardown(t);
	return rc;
}

/** blkalign_trace_fd: trace_pipe, to poll for POLLIN; -1 when stopped. */
int blkalign_trace_fd(const struct blkalign_trace *t)
{
	return t ? t->pipe_fd : -1;
}

/** blkalign_trace_instance: the tracefs instance directory, or NULL. */
const char *blkalign_trace_instance(const struct blkalign_trace *t)
{
	return t ? t->instance : NULL;
}

/**
 * blkalign_trace_read: read what trace_pipe holds now, without waiting.
 * Returns: the number of bytes read, or -errno.
 */
int blkalign_trace_read(struct blkalign_trace *t)
{
	char buf[65536];
	int total = 0;

	if (!t || t->pipe_fd < 0)
		return -EINVAL;
	for (;;) {
		ssize_t n = read(t->pipe_fd, buf, sizeof(buf));
		int rc;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				break;
			return -errno;
		}
		if (n == 0)
			break;
		rc = ba_trace_feed_buffer(t, buf, (size_t)n);
		if (rc)
			return rc;
		total += (int)n;
		if (total > (1 << 24))
			break;
	}
	return total;
}

/* Undo blkalign_trace_start(): instance, then tracefs if we mounted it. */
void ba_tracefs_teardown(struct blkalign_trace *t)
{
	if (t->pipe_fd >= 0) {
		close(t->pipe_fd);
		t->pipe_fd = -1;
	}
	if (t->instance) {
		int rc = remove_instance(t->instance);

		if (rc)
			ba_log(t->ctx,
			       "cannot remove the tracefs instance "
			       "'%s': %s",
			       t->instance, strerror(-rc));
		free(t->instance);
		t->instance = NULL;
	}
	if (t->mounted && t->tracefs) {
		if (umount(t->tracefs) == 0)
			t->mounted = false;
		else
			ba_log(t->ctx, "cannot unmount '%s': %s", t->tracefs,
			       strerror(errno));
	}
	t->started = false;
}

/**
 * blkalign_trace_stop: disable the events, read what is left, remove the
 * instance (and unmount tracefs when it was mounted for this trace).
 * Returns: 0 or -errno from the last read.
 */
int blkalign_trace_stop(struct blkalign_trace *t)
{
	int rc = 0;

	if (!t)
		return -EINVAL;
	if (!t->started)
		return 0;
	write_file(t->instance, "events/block/block_rq_issue/enable", "0");
	write_file(t->instance, "events/block/block_rq_complete/enable", "0");
	ba_trace_recording(t, true);
	if (t->pipe_fd >= 0) {
		rc = blkalign_trace_read(t);
		while (rc > 0)
			rc = blkalign_trace_read(t);
	}
	ba_tracefs_teardown(t);
	return rc < 0 ? rc : 0;
}

/** blkalign_trace_free: stop if needed and free @t. */
void blkalign_trace_free(struct blkalign_trace *t)
{
	if (!t)
		return;
	if (t->started || t->pipe_fd >= 0 || t->instance)
		ba_tracefs_teardown(t);
	for (int i = 0; i < BA_TRACE_NDIRS; i++)
		free(t->dirs[i].lat_us);
	free(t->inflight);
	free(t->ext);
	free(t->below);
	free(t->line);
	free(t->tracefs);
	free(t->device);
	blkalign_ctx_unref(t->ctx);
	free(t);
}
