/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * md-sysfs.c - md RAID as the kernel describes it in sysfs
 * (Documentation/admin-guide/md.rst): an array's md/level, raid_disks,
 * chunk_size and layout, each member's md/dev-<name>/offset (where its
 * data starts, in sectors), and the holders/ and slaves/ links between
 * arrays and members.  Used on live machines and on saved trees
 * (--sysroot), where no superblock can be read.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scan/scan.h"

struct md_geom {
	int32_t level;
	uint32_t raid_disks, data_disks, layout;
	uint64_t chunk;
	char version[16];
};

static int md_level(const char *s, int32_t *level)
{
	char *end;
	long v;

	if (!strcmp(s, "linear")) {
		*level = -1;
		return 0;
	}
	if (strncmp(s, "raid", 4))
		return -EINVAL;
	v = strtol(s + 4, &end, 10);
	if (end == s + 4 || *end || v < 0 || v > 10)
		return -EINVAL;
	*level = (int32_t)v;
	return 0;
}

/* Data disks per stripe: what io_opt = chunk x data disks counts. */
static uint32_t data_disks(int32_t level, uint32_t disks, uint32_t layout)
{
	uint32_t copies;

	switch (level) {
	case 0:
	case -1:
		return disks;
	case 1:
		return 1;
	case 4:
	case 5:
		return disks > 1 ? disks - 1 : 0;
	case 6:
		return disks > 2 ? disks - 2 : 0;
	case 10:
		/*
		 * Like the kernel's raid10_nr_stripes(): near copies (bits
		 * 0-7) narrow the stripe, far/offset copies do not.
		 */
		copies = layout & 0xff;
		return copies && disks % copies == 0 ? disks / copies : disks;
	}
	return 0;
}

static int read_geom(const char *arraydir, struct md_geom *g)
{
	char buf[64];
	int64_t v;

	memset(g, 0, sizeof(*g));
	if (ba_sysfs_read_str(arraydir, "md/level", buf, sizeof(buf)) ||
	    md_level(buf, &g->level))
		return -EINVAL;
	if (ba_sysfs_read_s64(arraydir, "md/raid_disks", &v) || v <= 0 ||
	    v > 4096)
		return -EINVAL;
	g->raid_disks = (uint32_t)v;
	if (ba_sysfs_read_s64(arraydir, "md/chunk_size", &v) == 0 && v > 0)
		g->chunk = (uint64_t)v;
	if (ba_sysfs_read_s64(arraydir, "md/layout", &v) == 0 && v >= 0)
		g->layout = (uint32_t)v;
	if (ba_sysfs_read_str(arraydir, "md/metadata_version", g->version,
			      sizeof(g->version)))
		g->version[0] = '\0';
	g->data_disks = data_disks(g->level, g->raid_disks, g->layout);
	return 0;
}

static void set_raid(struct ba_device *d, struct blkalign_layer *l,
		     const struct md_geom *g)
{
	l->raid_level = g->level;
	l->raid_disks = g->raid_disks;
	l->raid_data_disks = g->data_disks;
	l->raid_chunk = g->chunk;
	l->raid_stripe_width = g->chunk * g->data_disks;
	l->version =
		g->version[0] ? ba_pool_strdup(&d->pool, g->version) : NULL;
}

static const char *base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/*
 * The array @arraydir holds member @member: where the member's data
 * starts, in bytes from the member's own start, and how much of it the
 * array uses (0 when unknown).
 */
static int member_offset(const char *arraydir, const char *member,
			 uint64_t *off, uint64_t *size)
{
	char attr[NAME_MAX + 32];
	int64_t v;

	snprintf(attr, sizeof(attr), "md/dev-%s/offset", member);
	if (ba_sysfs_read_s64(arraydir, attr, &v) || v < 0)
		return -EINVAL;
	*off = (uint64_t)v * 512;
	snprintf(attr, sizeof(attr), "md/dev-%s/size", member);
	if (ba_sysfs_read_s64(arraydir, attr, &v) || v < 0 ||
	    (uint64_t)v > UINT64_MAX / 1024)
		v = 0;
	*size = (uint64_t)v * 1024;
	return 0;
}

/**
 * ba_md_holders: for layer @idx of @d (a partition or the disk) whose
 * sysfs directory is @dir, add a child layer for every md array that
 * holds it, starting where the member's data starts, or name the array
 * of the md layer its superblock gave.
 * Returns: 0 or -ENOMEM.
 */
int ba_md_holders(struct ba_device *d, int idx, const char *dir)
{
	struct dirent **names = NULL;
	char *holders = NULL;
	int n, rc = 0;

	struct blkalign_layer *read = NULL;

	/* A superblock read from the device already placed the member:
	 * the holder only names its array. */
	for (size_t k = 0; k < d->nlayers && !read; k++)
		if (d->layers[k].parent == idx &&
		    d->layers[k].kind == BLKALIGN_LAYER_MD)
			read = &d->layers[k];
	if (asprintf(&holders, "%s/holders", dir) < 0)
		return -ENOMEM;
	n = scandir(holders, &names, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		char *link = NULL, *arraydir = NULL;
		struct blkalign_layer *l;
		struct md_geom g;
		uint64_t off, size;

		if (name[0] == '.')
			continue;
		if (asprintf(&link, "%s/%s", holders, name) < 0) {
			rc = -ENOMEM;
			break;
		}
		arraydir = realpath(link, NULL);
		free(link);
		if (!arraydir)
			continue;
		if (read_geom(arraydir, &g) ||
		    member_offset(arraydir, base(dir), &off, &size) ||
		    off > d->layers[idx].size) {
			free(arraydir);
			continue;
		}
		free(arraydir);
		if (read) {
			read->array = ba_pool_strdup(&d->pool, name);
			break;
		}
		l = ba_device_add_layer(d);
		if (!l) {
			rc = -ENOMEM;
			break;
		}
		l->array = ba_pool_strdup(&d->pool, name);
		l->kind = BLKALIGN_LAYER_MD;
		l->parent = idx;
		l->name = ba_pool_printf(&d->pool, "%s:%s", d->layers[idx].name,
					 name);
		l->type = "linux_raid_member";
		l->data_offset = off;
		l->start = d->layers[idx].start + off;
		/* md/dev-X/size: usable KiB after the offset (1.0 and 0.90
		 * keep their superblock after the data). */
		l->size = size && size <= d->layers[idx].size - off
				  ? size
				  : d->layers[idx].size - off;
		set_raid(d, l, &g);
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(holders);
	return rc;
}

/* Where member @memberdir (a disk or partition) of @arraydir keeps its
 * data on its disk. */
struct member_place {
	char *diskdir; /* the member's disk, to free */
	uint64_t abs;  /* bytes from the disk's start */
	uint32_t pss;
	uint64_t ao;
};

/* Returns: 0, or -EINVAL when sysfs does not say. */
static int member_place(const char *arraydir, const char *memberdir,
			struct member_place *p)
{
	int64_t start = 0, v, ao = 0;
	uint64_t off, size;

	memset(p, 0, sizeof(*p));
	if (member_offset(arraydir, base(memberdir), &off, &size))
		return -EINVAL;
	if (ba_sysfs_read_s64(memberdir, "start", &start) == 0) {
		if (start < 0)
			return -EINVAL;
		p->diskdir = ba_sysfs_parent_disk(memberdir);
		if (!p->diskdir)
			return -EINVAL;
	} else {
		start = 0;
		p->diskdir = strdup(memberdir);
		if (!p->diskdir)
			return -EINVAL;
	}
	if (ba_sysfs_read_s64(p->diskdir, "queue/physical_block_size", &v) ||
	    v < 512 || v > 65536 || (v & (v - 1))) {
		free(p->diskdir);
		p->diskdir = NULL;
		return -EINVAL;
	}
	p->pss = (uint32_t)v;
	if (ba_sysfs_read_s64(p->diskdir, "alignment_offset", &ao) || ao < 0)
		ao = 0;
	p->ao = (uint64_t)ao;
	p->abs = (uint64_t)start * 512 + off;
	return 0;
}

/* The member directories of @arraydir (slaves/, resolved), or n < 0. */
static int members_of(const char *arraydir, char ***out)
{
	struct dirent **names = NULL;
	char *slaves = NULL, **dirs;
	int n, k = 0;

	*out = NULL;
	if (asprintf(&slaves, "%s/slaves", arraydir) < 0)
		return -1;
	n = scandir(slaves, &names, NULL, alphasort);
	dirs = n > 0 ? calloc((size_t)n, sizeof(*dirs)) : NULL;
	for (int i = 0; i < n; i++) {
		char *link = NULL;

		if (dirs && names[i]->d_name[0] != '.' &&
		    asprintf(&link, "%s/%s", slaves, names[i]->d_name) >= 0) {
			dirs[k] = realpath(link, NULL);
			k += dirs[k] != NULL;
		}
		free(link);
		free(names[i]);
	}
	free(names);
	free(slaves);
	*out = dirs;
	return dirs ? k : -1;
}

static void free_members(char **dirs, int n)
{
	for (int i = 0; i < n; i++)
		free(dirs[i]);
	free(dirs);
}

/*
 * Where the members' data sits on their disks (slaves/): the largest
 * physical sector among them and how many start off their disk's grid
 * (md's writes to those members are read-modify-writes at a 512e
 * drive, whatever the array's own alignment_offset says: the kernel
 * reports -1 for an array of misaligned members).
 */
static void members_grid(const char *arraydir, struct blkalign_layer *l)
{
	char **dirs;
	int n = members_of(arraydir, &dirs);

	for (int i = 0; i < n; i++) {
		struct member_place p;

		if (member_place(arraydir, dirs[i], &p))
			continue;
		free(p.diskdir);
		if (p.pss > l->raid_member_physical)
			l->raid_member_physical = p.pss;
		l->raid_members_misaligned +=
			ba_off_grid(p.abs, p.ao, p.pss) != 0;
	}
	free_members(dirs, n);
}

/**
 * ba_md_mirror_starts: when @arraydir is a RAID-1, where byte @off of
 * the array lies on each member's disk, into @d's dm placement (a dm
 * device on a mirror: every copy's start is judged).
 * Returns: 0 or -ENOMEM.
 */
int ba_md_mirror_starts(struct ba_device *d, const char *arraydir, uint64_t off)
{
	char level[16], **dirs;
	int n, rc = 0;

	if (ba_sysfs_read_str(arraydir, "md/level", level, sizeof(level)) ||
	    strcmp(level, "raid1"))
		return 0;
	n = members_of(arraydir, &dirs);
	if (n <= 0) {
		free_members(dirs, n);
		return 0;
	}
	d->dm.members =
		ba_pool_calloc(&d->pool, (size_t)n, sizeof(*d->dm.members));
	if (!d->dm.members)
		rc = -ENOMEM;
	for (int i = 0; i < n && !rc; i++) {
		struct ba_dm_member *m = &d->dm.members[d->dm.nmembers];
		struct member_place p;

		if (member_place(arraydir, dirs[i], &p))
			continue;
		m->disk = ba_pool_strdup(&d->pool, base(p.diskdir));
		free(p.diskdir);
		if (!m->disk) {
			rc = -ENOMEM;
			break;
		}
		m->start = p.abs + off;
		m->pss = p.pss;
		m->ao = p.ao;
		d->dm.nmembers++;
	}
	free_members(dirs, n);
	return rc;
}

/**
 * ba_md_array: when @dir is an md array, mark @d as one and record its
 * geometry and its members' grid on layer 0.  Returns: true for an md
 * array.
 */
bool ba_md_array(struct ba_device *d, const char *dir)
{
	struct md_geom g;

	if (read_geom(dir, &g))
		return false;
	d->md_array = true;
	set_raid(d, &d->layers[0], &g);
	members_grid(dir, &d->layers[0]);
	return true;
}

/**
 * ba_sysfs_stack: what sysfs says about the layers of @d: whether the
 * disk is an md array, and which md arrays hold the disk or its
 * partitions (subdirectories of @diskdir named like the layers).
 * Returns: 0 or -ENOMEM.
 */
int ba_sysfs_stack(struct ba_device *d, const char *diskdir)
{
	size_t n = d->nlayers;
	int rc;

	if (!diskdir || !n)
		return 0;
	ba_md_array(d, diskdir);
	rc = ba_md_holders(d, 0, diskdir);
	for (size_t i = 1; i < n && !rc; i++) {
		char *dir = NULL;

		if (d->layers[i].kind != BLKALIGN_LAYER_PARTITION)
			continue;
		if (asprintf(&dir, "%s/%s", diskdir, d->layers[i].name) < 0)
			return -ENOMEM;
		rc = ba_md_holders(d, (int)i, dir);
		free(dir);
	}
	return rc;
}
