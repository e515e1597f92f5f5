/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dm.c - where a device-mapper device really starts: its table's first
 * target (linear, striped or crypt) names the device below and the offset
 * on it (Documentation/admin-guide/device-mapper/linear.rst, striped.rst,
 * dm-crypt.rst).  The device below may be a partition (its start is
 * added) or a dm device itself - a kpartx partition of a multipath or
 * linear device, an LV on a dm-crypt mapping - whose table is followed in
 * turn, down to the disk or md array that holds the data.
 *
 * The table comes from the kernel (DM_TABLE_STATUS on
 * /dev/mapper/control, linux/dm-ioctl.h) or, in a saved tree
 * (--sysroot), from the file dm/table next to dm/name: sysfs has no
 * table, so blkalign's tree recorder saves `dmsetup table` there.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/dm-ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "scan/scan.h"

#define DM_BUF_SIZE (64 * 1024)

/* dm-crypt's optional "sector_size:<bytes>" (the encryption sector). */
static uint32_t crypt_sector_size(const char *opts)
{
	const char *p = strstr(opts, "sector_size:");
	unsigned int v;

	if (!p || sscanf(p, "sector_size:%u", &v) != 1)
		return 512;
	return v;
}

/*
 * One table line: "<start> <length> <type> <params>", e.g.
 * "0 1000000 linear 254:144 2055",
 * "0 2097152 striped 2 128 8:16 2048 8:32 2048" or
 * "0 45056 crypt aes-xts-plain64 <key> 0 254:36 32768 1 sector_size:4096".
 * Only the first device and its offset matter for where the data starts.
 */
int ba_dm_parse_line(const char *line, struct ba_dm_target *t)
{
	char type[16];
	unsigned int maj, min;
	unsigned long long start, len, off, chunk;
	unsigned int stripes;
	int n = 0;

	memset(t, 0, sizeof(*t));
	if (sscanf(line, "%llu %llu %15s %n", &start, &len, type, &n) != 3 ||
	    n <= 0)
		return -EINVAL;
	line += n;
	snprintf(t->type, sizeof(t->type), "%s", type);
	t->start_sectors = start;
	t->length_sectors = len;
	if (!strcmp(type, "linear")) {
		if (sscanf(line, "%u:%u %llu", &maj, &min, &off) != 3)
			return -EINVAL;
	} else if (!strcmp(type, "striped")) {
		if (sscanf(line, "%u %llu %u:%u %llu", &stripes, &chunk, &maj,
			   &min, &off) != 5 ||
		    stripes == 0 || chunk == 0)
			return -EINVAL;
		t->stripes = stripes;
		t->chunk_sectors = chunk;
	} else if (!strcmp(type, "crypt")) {
		/* <cipher> <key> <iv_offset> <device> <offset> [<#opts> ...] */
		if (sscanf(line, "%*s %*s %llu %u:%u %llu %n", &chunk, &maj,
			   &min, &off, &n) != 4)
			return -EINVAL;
		t->sector_size = crypt_sector_size(line + n);
	} else {
		return 1; /* a target we do not place */
	}
	if (off > UINT64_MAX / 512)
		return -ERANGE;
	t->major = maj;
	t->minor = min;
	t->offset_sectors = off;
	return 0;
}

/*
 * Every target of the table from the kernel, one "<start> <length>
 * <type> <params>" line each, into a malloc'ed *@out.  The specs of a
 * DM_TABLE_STATUS answer follow one another at ->next bytes from the
 * first one (linux/dm-ioctl.h).
 */
static int table_ioctl_all(unsigned int maj, unsigned int min, char **out)
{
	struct dm_ioctl *io;
	char *text = NULL, *first;
	size_t len = 0, off = 0;
	FILE *f;
	int fd, rc = 0;

	fd = open("/dev/mapper/control", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	io = calloc(1, DM_BUF_SIZE);
	if (!io) {
		close(fd);
		return -ENOMEM;
	}
	io->version[0] = DM_VERSION_MAJOR;
	io->data_size = DM_BUF_SIZE;
	io->data_start = sizeof(*io);
	io->flags = DM_STATUS_TABLE_FLAG;
	io->dev = ((uint64_t)maj << 8) | (min & 0xff) |
		  ((uint64_t)(min & ~0xffU) << 12);
	if (ioctl(fd, DM_TABLE_STATUS, io) < 0) {
		rc = -errno;
		goto out;
	}
	if (io->flags & DM_BUFFER_FULL_FLAG || io->data_start >= DM_BUF_SIZE) {
		rc = -E2BIG;
		goto out;
	}
	f = open_memstream(&text, &len);
	if (!f) {
		rc = -ENOMEM;
		goto out;
	}
	first = (char *)io + io->data_start;
	for (uint32_t i = 0; i < io->target_count; i++) {
		struct dm_target_spec *spec =
			(struct dm_target_spec *)(first + off);
		size_t room = DM_BUF_SIZE - io->data_start - off;

		if (off + sizeof(*spec) > DM_BUF_SIZE - io->data_start) {
			rc = -EIO;
			break;
		}
		fprintf(f, "%llu %llu %.*s %.*s\n",
			(unsigned long long)spec->sector_start,
			(unsigned long long)spec->length,
			(int)sizeof(spec->target_type), spec->target_type,
			(int)(room - sizeof(*spec)), (char *)(spec + 1));
		if (spec->next <= off && i + 1 < io->target_count) {
			rc = -EIO;
			break;
		}
		off = spec->next;
	}
	if (fclose(f) || rc) {
		free(text);
		rc = rc ? rc : -ENOMEM;
		goto out;
	}
	*out = text;
out:
	free(io);
	close(fd);
	return rc;
}

/* The first line of the table from the kernel, into @buf. */
static int table_ioctl(unsigned int maj, unsigned int min, char *buf,
		       size_t len)
{
	char *text = NULL;
	int rc = table_ioctl_all(maj, min, &text);

	if (rc)
		return rc;
	if (!*text)
		rc = -ENOENT;
	else
		snprintf(buf, len, "%.*s", (int)strcspn(text, "\n"), text);
	free(text);
	return rc;
}

/**
 * ba_dm_table: the whole table of the dm device @devdir, one target a
 * line, malloc'ed into *@out (from the kernel, or a saved tree's
 * dm/table).  Returns: 0, 1 when it is not a dm device, -errno.
 */
int ba_dm_table(const struct blkalign_ctx *ctx, const char *devdir, char **out)
{
	char name[256], dev[32];
	unsigned int maj, min;

	*out = NULL;
	if (ba_sysfs_read_str(devdir, "dm/name", name, sizeof(name)))
		return 1;
	if (ctx->sysroot) {
		char *buf = malloc(DM_BUF_SIZE);
		int rc;

		if (!buf)
			return -ENOMEM;
		rc = ba_sysfs_read_str(devdir, "dm/table", buf, DM_BUF_SIZE);
		if (rc) {
			free(buf);
			return rc;
		}
		*out = buf;
		return 0;
	}
	if (ba_sysfs_read_str(devdir, "dev", dev, sizeof(dev)) ||
	    sscanf(dev, "%u:%u", &maj, &min) != 2)
		return -EINVAL;
	return table_ioctl_all(maj, min, out);
}

/**
 * ba_dm_first_target: the first target of the dm device @devdir
 * (maj:min), from the kernel or from a saved tree's dm/table.
 * Returns: 0, 1 when it is not a dm device or the target type is not
 * placed (only linear and striped are), -errno.
 */
int ba_dm_first_target(const struct blkalign_ctx *ctx, const char *devdir,
		       struct ba_dm_target *t)
{
	char line[512], dev[32];
	unsigned int maj, min;
	int rc;

	if (ba_sysfs_read_str(devdir, "dm/name", line, sizeof(line)))
		return 1;
	if (ctx->sysroot) {
		rc = ba_sysfs_read_str(devdir, "dm/table", line, sizeof(line));
		if (rc)
			return rc;
		line[strcspn(line, "\n")] = '\0';
	} else {
		if (ba_sysfs_read_str(devdir, "dev", dev, sizeof(dev)) ||
		    sscanf(dev, "%u:%u", &maj, &min) != 2)
			return -EINVAL;
		rc = table_ioctl(maj, min, line, sizeof(line));
		if (rc)
			return rc;
	}
	return ba_dm_parse_line(line, t);
}

/* The name of a sysfs device directory: its last component. */
static const char *dir_name(const char *dir)
{
	const char *slash = strrchr(dir, '/');

	return slash ? slash + 1 : dir;
}

static bool has_attr(const char *dir, const char *attr)
{
	char buf[64];

	return ba_sysfs_read_str(dir, attr, buf, sizeof(buf)) == 0;
}

#define MAX_DM_DEPTH 8

/*
 * Follow @t down from the dm device it came from: through dm devices
 * below (their first target), then a partition (its start), to the disk
 * or md array holding the data.  @start is the offset on t's device, in
 * bytes; on success @start is absolute on *@bottom, a sysfs directory
 * the caller frees.  Returns: 0, 1 when the chain cannot be placed (an
 * offset past a lower table's first target, a target not placed, too
 * deep), -errno.
 */
static int follow_down(const struct blkalign_ctx *ctx,
		       const struct ba_dm_target *top, uint64_t *start,
		       char **bottom)
{
	struct ba_dm_target t = *top;
	char *lower = NULL;
	int rc;

	*bottom = NULL;
	for (int depth = 0; depth < MAX_DM_DEPTH; depth++) {
		struct ba_dm_target below;
		uint64_t off;

		lower = ba_sysfs_devdir(ctx, t.major, t.minor);
		if (!lower)
			return 1;
		if (!has_attr(lower, "dm/name")) {
			/* a partition (add its start) or the bottom device */
			int64_t part_start;

			if (has_attr(lower, "partition") &&
			    ba_sysfs_read_s64(lower, "start", &part_start) ==
				    0 &&
			    part_start >= 0) {
				char *disk = ba_sysfs_parent_disk(lower);

				free(lower);
				if (!disk)
					return -ENOMEM;
				lower = disk;
				*start += (uint64_t)part_start * 512;
			}
			*bottom = lower;
			return 0;
		}
		rc = ba_dm_first_target(ctx, lower, &below);
		free(lower);
		if (rc)
			return rc;
		/* the offset must fall inside the lower table's first target */
		off = *start / 512;
		if (off < below.start_sectors ||
		    off - below.start_sectors >= below.length_sectors)
			return 1;
		*start = (below.offset_sectors + off - below.start_sectors) *
				 512 +
			 *start % 512;
		t = below;
	}
	return 1;
}

/**
 * ba_dm_stack: when @d is a dm device whose first target is linear,
 * striped or crypt, record where it starts on the device below, on the
 * disk or md array at the bottom of the chain, and that device's grid
 * (physical sector, alignment offset; chunk and stripe of an md array):
 * rules-table.c judges the start on them, in place of the start rule on
 * layer 0.  Returns: 0.
 */
int ba_dm_stack(const struct blkalign_ctx *ctx, struct ba_device *d,
		const char *devdir)
{
	struct blkalign_layer *l = &d->layers[0];
	struct ba_dm_target t;
	char *lower = NULL, *bottom = NULL;
	int64_t pss = 0, ao = 0, v;
	uint64_t start;
	int rc;

	rc = ba_dm_first_target(ctx, devdir, &t);
	if (rc == 1)
		return 0;
	if (rc) {
		ba_device_problem(d,
				  "cannot read the device-mapper table of "
				  "'%s': %s",
				  d->pub.name, strerror(-rc));
		return 0;
	}
	start = t.offset_sectors * 512;
	l->lower_device = ba_pool_printf(&d->pool, "%u:%u", t.major, t.minor);
	l->lower_start = start;
	l->type = ba_pool_printf(&d->pool, "dm-%s", t.type);
	d->dm.sector_size = t.sector_size;
	lower = ba_sysfs_devdir(ctx, t.major, t.minor);
	if (!lower)
		return 0;
	l->lower_device = ba_pool_strdup(&d->pool, dir_name(lower));
	free(lower);
	rc = follow_down(ctx, &t, &start, &bottom);
	if (rc) {
		if (rc < 0)
			ba_device_problem(d,
					  "cannot follow '%s' down to its "
					  "disk: %s",
					  d->pub.name, strerror(-rc));
		free(bottom);
		return rc == -ENOMEM ? rc : 0;
	}
	ba_sysfs_read_s64(bottom, "queue/physical_block_size", &pss);
	ba_sysfs_read_s64(bottom, "alignment_offset", &ao);
	if (has_attr(bottom, "md/level")) {
		if (ba_sysfs_read_s64(bottom, "queue/minimum_io_size", &v) ==
			    0 &&
		    v > 0)
			d->dm.chunk = (uint64_t)v;
		if (ba_sysfs_read_s64(bottom, "queue/optimal_io_size", &v) ==
			    0 &&
		    v > 0)
			d->dm.stripe = (uint64_t)v;
	}
	d->dm.disk = ba_pool_strdup(&d->pool, dir_name(bottom));
	rc = has_attr(bottom, "md/level")
		     ? ba_md_mirror_starts(d, bottom, start)
		     : 0;
	free(bottom);
	if (rc)
		return rc;
	if (pss < 512 || !d->dm.disk)
		return d->dm.disk ? 0 : -ENOMEM;
	if (ao < 0)
		ao = 0;
	d->dm.placed = true;
	d->dm.start = start;
	d->dm.pss = (uint64_t)pss;
	d->dm.ao = (uint64_t)ao;
	return 0;
}
