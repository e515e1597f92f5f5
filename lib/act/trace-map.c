/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace-map.c - where the requests of a traced device reach the disks.
 *
 * block_rq_issue fires only on request-based queues (the disks, loop,
 * nvme, virtio...).  dm and md devices are bio-based: their bios are
 * remapped and split until they reach a disk, and only there do requests
 * appear.  So a device is traced as a list of extents, sectors
 * [first, end) of a request-based disk each:
 *   - a partition: its disk, from the partition's start;
 *   - dm: each target of its table (DM_TABLE_STATUS, dm.c): linear and
 *     crypt map one range to the device below at an offset
 *     (Documentation/admin-guide/device-mapper/linear.rst,
 *     dm-crypt.rst), striped spreads it over its stripes (striped.rst),
 *     zero and error reach no disk; other targets cannot be attributed;
 *   - md: each member (md/dev-X/block), whole: its superblock and bitmap
 *     writes are the array's too, and the layer starts at its data
 *     offset (md/dev-X/offset; Documentation/admin-guide/md.rst); a part
 *     of a RAID-1, 4, 5 or 6 array maps to the stripes that hold it on
 *     every member's data (md/dev-X/size, KiB).
 * Recursively: the device below may be a partition, dm or md again.
 * What cannot be mapped is refused (-EOPNOTSUPP, the reason logged)
 * rather than traced as nothing.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace.h"

#define MAX_DEPTH   16
#define MAX_EXTENTS 4096

struct map {
	struct blkalign_trace *t;
	const char *top; /* the traced device's name, for messages */
};

/* A part [a, b) of an md array, as its members hold it. */
struct md_part {
	bool whole;
	uint64_t a, b;
	uint64_t nd, chunk; /* data members, chunk in sectors */
	uint64_t layer_off;
};

static int map_dev(struct map *m, unsigned int maj, unsigned int min,
		   uint64_t a, uint64_t b, uint64_t layer_off, int depth);

static const char *base(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static int read_dev(const char *dir, unsigned int *maj, unsigned int *min)
{
	char buf[32];

	if (ba_sysfs_read_str(dir, "dev", buf, sizeof(buf)) ||
	    sscanf(buf, "%u:%u", maj, min) != 2)
		return -ENODEV;
	return 0;
}

static uint32_t read_u32_or(const char *dir, const char *attr, uint32_t dflt)
{
	int64_t v;

	if (ba_sysfs_read_s64(dir, attr, &v) || v <= 0 || v > UINT32_MAX)
		return dflt;
	return (uint32_t)v;
}

/**
 * ba_trace_extent_add: append @e to the extents of @t.
 * Returns: 0, -ENOMEM, -E2BIG past MAX_EXTENTS.
 */
int ba_trace_extent_add(struct blkalign_trace *t,
			const struct ba_trace_extent *e)
{
	if (t->next == t->ext_cap) {
		size_t cap = t->ext_cap ? t->ext_cap * 2 : 8;
		struct ba_trace_extent *n;

		if (t->next >= MAX_EXTENTS)
			return -E2BIG;
		n = realloc(t->ext, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		t->ext = n;
		t->ext_cap = cap;
	}
	t->ext[t->next++] = *e;
	return 0;
}

/* A request-based disk: one extent, judged on its own geometry. */
static int map_disk(struct map *m, const char *dir, unsigned int maj,
		    unsigned int min, uint64_t a, uint64_t b,
		    uint64_t layer_off)
{
	struct ba_trace_extent e = {.major = maj, .minor = min};
	char *mq = NULL;
	struct stat st;
	int64_t size = 0;
	bool rq;

	/* blk-mq queues have mq/; bio-based ones (zram, brd, pmem) issue
	 * no requests at all */
	if (asprintf(&mq, "%s/mq", dir) < 0)
		return -ENOMEM;
	rq = stat(mq, &st) == 0;
	free(mq);
	if (!rq) {
		ba_log(m->t->ctx,
		       "'%s' lies on '%s', a bio-based device that issues no "
		       "block requests to trace",
		       m->top, base(dir));
		return -EOPNOTSUPP;
	}
	ba_sysfs_read_s64(dir, "size", &size);
	e.first = a;
	e.end = a == 0 && size > 0 && b >= (uint64_t)size ? BA_TRACE_WHOLE : b;
	e.layer_off = layer_off;
	e.pss = read_u32_or(dir, "queue/physical_block_size", 512);
	e.ao = read_u32_or(dir, "alignment_offset", 0);
	snprintf(e.name, sizeof(e.name), "%s", base(dir));
	return ba_trace_extent_add(m->t, &e);
}

/*
 * [a, b) of a layer striped over @nd data devices in chunks of @chunk
 * sectors: the range on each device holding its stripes, [*lo, *hi).
 */
static void stripes_of(uint64_t a, uint64_t b, uint64_t chunk, uint64_t nd,
		       uint64_t *lo, uint64_t *hi)
{
	uint64_t stripe = chunk * nd;

	*lo = a / stripe * chunk;
	*hi = (b + stripe - 1) / stripe * chunk;
}

/* One dm-striped target: "<n> <chunk> <dev> <off> [<dev> <off>]...". */
static int map_striped(struct map *m, const char *params, uint64_t ts,
		       uint64_t tl, uint64_t lo, uint64_t hi, uint64_t a,
		       uint64_t layer_off, int depth)
{
	unsigned int n, maj, min;
	unsigned long long chunk, off;
	uint64_t rlo, rhi;
	int used, rc;

	if (sscanf(params, "%u %llu %n", &n, &chunk, &used) != 2 || !n ||
	    !chunk)
		return -EINVAL;
	params += used;
	stripes_of(lo - ts, hi - ts, chunk, n, &rlo, &rhi);
	if (rhi > tl / n)
		rhi = tl / n;
	for (unsigned int i = 0; i < n; i++) {
		if (sscanf(params, "%u:%u %llu %n", &maj, &min, &off, &used) !=
		    3)
			return -EINVAL;
		params += used;
		rc = map_dev(m, maj, min, off + rlo, off + rhi,
			     layer_off + (ts - a + rlo) * 512, depth + 1);
		if (rc)
			return rc;
	}
	return 0;
}

/* One table line, for the part [a, b) of the dm device traced. */
static int map_target(struct map *m, const char *dm, const char *line,
		      uint64_t a, uint64_t b, uint64_t layer_off, int depth)
{
	unsigned long long ts, tl, off;
	unsigned int maj, min;
	char type[32];
	uint64_t lo, hi;
	int n = 0;

	if (sscanf(line, "%llu %llu %31s %n", &ts, &tl, type, &n) != 3)
		return -EINVAL;
	line += n;
	lo = a > ts ? a : ts;
	hi = b < ts + tl ? b : ts + tl;
	if (lo >= hi)
		return 0;
	if (!strcmp(type, "zero") || !strcmp(type, "error"))
		return 0;
	if (!strcmp(type, "striped"))
		return map_striped(m, line, ts, tl, lo, hi, a, layer_off,
				   depth);
	if (!strcmp(type, "linear")) {
		if (sscanf(line, "%u:%u %llu", &maj, &min, &off) != 3)
			return -EINVAL;
	} else if (!strcmp(type, "crypt")) {
		/* <cipher> <key> <iv_offset> <device> <offset> [<#opt> ...] */
		if (sscanf(line, "%*s %*s %*u %u:%u %llu", &maj, &min, &off) !=
		    3)
			return -EINVAL;
	} else {
		ba_log(m->t->ctx,
		       "'%s' lies on '%s', a device-mapper '%s' target: its "
		       "requests to the disks below cannot be attributed "
		       "(only linear, crypt and striped can)",
		       m->top, dm, type);
		return -EOPNOTSUPP;
	}
	return map_dev(m, maj, min, off + (lo - ts), off + (hi - ts),
		       layer_off + (lo - a) * 512, depth + 1);
}

static int map_dm(struct map *m, const char *dir, uint64_t a, uint64_t b,
		  uint64_t layer_off, int depth)
{
	char *table = NULL, *line, *nl;
	int rc = ba_dm_table(m->t->ctx, dir, &table);

	if (rc)
		return rc == 1 ? -ENODEV : rc;
	for (line = table; *line && !rc; line = nl) {
		nl = line + strcspn(line, "\n");
		if (*nl)
			*nl++ = '\0';
		rc = map_target(m, base(dir), line, a, b, layer_off, depth);
	}
	if (!rc && line == table)
		rc = -ENOENT; /* no table loaded */
	free(table);
	return rc;
}

static int is_member(const struct dirent *e)
{
	return !strncmp(e->d_name, "dev-", 4);
}

/* One member of an md array: md/dev-X/{block,offset,size}. */
static int map_member(struct map *m, const char *md, const char *dev,
		      const struct md_part *p, int depth)
{
	char *rdev = NULL, *block = NULL;
	unsigned int maj, min;
	int64_t off, kib;
	uint64_t lo, hi;
	int rc;

	if (asprintf(&rdev, "%s/%s", md, dev) < 0)
		return -ENOMEM;
	if (asprintf(&block, "%s/block", rdev) < 0) {
		free(rdev);
		return -ENOMEM;
	}
	{
		char *real = realpath(block, NULL);

		free(block);
		block = real;
	}
	rc = -ENODEV;
	if (!block || read_dev(block, &maj, &min) ||
	    ba_sysfs_read_s64(rdev, "offset", &off) ||
	    ba_sysfs_read_s64(rdev, "size", &kib) || off < 0 || kib < 0)
		goto out;
	if (p->whole) {
		/* the whole member: its superblock and bitmap writes are
		 * the array's too; the layer starts at the data offset */
		int64_t msize;

		if (ba_sysfs_read_s64(block, "size", &msize) || msize <= 0)
			goto out;
		rc = map_dev(m, maj, min, 0, (uint64_t)msize,
			     p->layer_off - (uint64_t)off * 512, depth + 1);
		goto out;
	} else {
		stripes_of(p->a, p->b, p->chunk, p->nd, &lo, &hi);
		if (hi > (uint64_t)kib * 2)
			hi = (uint64_t)kib * 2;
	}
	rc = lo < hi ? map_dev(m, maj, min, (uint64_t)off + lo,
			       (uint64_t)off + hi,
			       p->layer_off - p->a * 512 + lo * 512, depth + 1)
		     : 0;
out:
	free(block);
	free(rdev);
	return rc;
}

/* The md array @dir: level, members, for the part [a, b) of it. */
static int map_md(struct map *m, const char *dir, uint64_t a, uint64_t b,
		  uint64_t layer_off, int depth)
{
	struct md_part p = {.a = a, .b = b, .layer_off = layer_off};
	struct dirent **names = NULL;
	char level[32], *md = NULL;
	int64_t size = 0, disks = 0, chunk = 0;
	int n, rc = 0;

	if (ba_sysfs_read_str(dir, "md/level", level, sizeof(level)))
		return -ENODEV;
	ba_sysfs_read_s64(dir, "size", &size);
	ba_sysfs_read_s64(dir, "md/raid_disks", &disks);
	ba_sysfs_read_s64(dir, "md/chunk_size", &chunk);
	p.whole = a == 0 && size > 0 && b >= (uint64_t)size;
	if (!p.whole) {
		if (!strcmp(level, "raid1"))
			p.nd = 1, chunk = 512;
		else if (!strcmp(level, "raid4") || !strcmp(level, "raid5"))
			p.nd = disks > 1 ? (uint64_t)disks - 1 : 0;
		else if (!strcmp(level, "raid6"))
			p.nd = disks > 2 ? (uint64_t)disks - 2 : 0;
		if (!p.nd || chunk < 512) {
			ba_log(m->t->ctx,
			       "'%s' is a part of '%s', a %s array: where its "
			       "requests reach the members cannot be told "
			       "(only for RAID-1, 4, 5 and 6)",
			       m->top, base(dir), level);
			return -EOPNOTSUPP;
		}
		p.chunk = (uint64_t)chunk / 512;
	}
	if (asprintf(&md, "%s/md", dir) < 0)
		return -ENOMEM;
	n = scandir(md, &names, is_member, alphasort);
	if (n <= 0) {
		ba_log(m->t->ctx,
		       "'%s' lies on '%s', an md array without members", m->top,
		       base(dir));
		rc = n < 0 ? -errno : -EOPNOTSUPP;
	}
	for (int i = 0; i < n; i++) {
		if (!rc)
			rc = map_member(m, md, names[i]->d_name, &p, depth);
		free(names[i]);
	}
	free(names);
	free(md);
	return rc;
}

/* [a, b) of the device maj:min, whose layer offset at a is @layer_off. */
static int map_dev(struct map *m, unsigned int maj, unsigned int min,
		   uint64_t a, uint64_t b, uint64_t layer_off, int depth)
{
	char *dir, *disk = NULL, name[256];
	unsigned int dmaj, dmin;
	int64_t v;
	int rc;

	if (depth > MAX_DEPTH)
		return -ELOOP;
	dir = ba_sysfs_devdir(m->t->ctx, maj, min);
	if (!dir)
		return -ENODEV;
	if (ba_sysfs_read_s64(dir, "partition", &v) == 0) {
		int64_t start;

		disk = ba_sysfs_parent_disk(dir);
		if (!disk)
			rc = -ENOMEM;
		else if (ba_sysfs_read_s64(dir, "start", &start) || start < 0 ||
			 read_dev(disk, &dmaj, &dmin))
			rc = -EIO;
		else
			rc = map_dev(m, dmaj, dmin, a + (uint64_t)start,
				     b + (uint64_t)start, layer_off, depth + 1);
	} else if (!ba_sysfs_read_str(dir, "dm/name", name, sizeof(name))) {
		rc = map_dm(m, dir, a, b, layer_off, depth);
	} else if (!ba_sysfs_read_str(dir, "md/level", name, sizeof(name))) {
		rc = map_md(m, dir, a, b, layer_off, depth);
	} else {
		rc = map_disk(m, dir, maj, min, a, b, layer_off);
	}
	free(disk);
	free(dir);
	return rc;
}

/**
 * ba_trace_map: the extents of the device maj:min (@size_sectors long)
 * on the request-based disks below it, appended to @t->ext.
 * Returns: 0, -EOPNOTSUPP when a layer cannot be mapped (logged), -ELOOP,
 * -ENODEV, -ENOMEM, -errno.
 */
int ba_trace_map(struct blkalign_trace *t, unsigned int major,
		 unsigned int minor, uint64_t size_sectors)
{
	struct map m = {.t = t, .top = t->device ? base(t->device) : "?"};
	int rc = map_dev(&m, major, minor, 0, size_sectors, 0, 0);

	if (!rc && !t->next) {
		ba_log(t->ctx, "'%s' reaches no disk: nothing to trace", m.top);
		rc = -EOPNOTSUPP;
	}
	return rc;
}
