/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix-holders.c - who holds a busy disk, and the command that lets go of
 * it.  The kernel refuses the exclusive open of a disk while the disk or
 * one of its partitions is mounted or claimed: by an md array, or by a
 * device-mapper device (an LVM logical volume, a dm-crypt mapping, a
 * kpartx partition).  sysfs names the claimers (holders/), the dm uuid
 * says which subsystem made a mapping (Documentation/admin-guide/
 * device-mapper: LVM's "LVM-", cryptsetup's "CRYPT-", kpartx's "part"),
 * and mountinfo names the mounts.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "fix.h"

struct says {
	char *buf;
	size_t len, used;
	int n;
};

static void add(struct says *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* One more reason, "; "-separated; the same text twice only once. */
static void add(struct says *s, const char *fmt, ...)
{
	char one[512];
	va_list ap;
	int w;

	va_start(ap, fmt);
	vsnprintf(one, sizeof(one), fmt, ap);
	va_end(ap);
	if (s->used && strstr(s->buf, one))
		return;
	w = snprintf(s->buf + s->used, s->len - s->used, "%s%s",
		     s->n ? "; " : "", one);
	if (w > 0)
		s->used = (size_t)w >= s->len - s->used ? s->len - 1
							: s->used + (size_t)w;
	s->n++;
}

static bool read_attr(const char *dir, const char *attr, char *buf, size_t len)
{
	return ba_sysfs_read_str(dir, attr, buf, len) == 0;
}

/* LVM's dm name "<vg>-<lv>", each with '-' doubled: the VG's name. */
static void vg_of(const char *dm, char *vg, size_t len)
{
	size_t o = 0;

	for (size_t i = 0; dm[i] && o + 1 < len; i++) {
		if (dm[i] == '-' && dm[i + 1] != '-')
			break;
		if (dm[i] == '-')
			i++;
		vg[o++] = dm[i];
	}
	vg[o] = '\0';
}

static void holders_of(struct says *s, const char *dir, const char *what,
		       const char *disk, int depth);

/* What @hdir (a holder of @what) is, and how to let go of it. */
static void holder(struct says *s, const char *hdir, const char *what,
		   const char *disk, int depth)
{
	const char *name = strrchr(hdir, '/') + 1;
	char dm[128], uuid[160], vg[128];

	/* what holds the holder lets go first */
	holders_of(s, hdir, name, disk, depth + 1);
	if (read_attr(hdir, "md/level", uuid, sizeof(uuid))) {
		add(s, "'%s' is in the md array '%s' (mdadm --stop /dev/%s)",
		    what, name, name);
		return;
	}
	if (!read_attr(hdir, "dm/name", dm, sizeof(dm))) {
		add(s, "'%s' is held by '%s'", what, name);
		return;
	}
	if (!read_attr(hdir, "dm/uuid", uuid, sizeof(uuid)))
		uuid[0] = '\0';
	if (!strncmp(uuid, "LVM-", 4)) {
		vg_of(dm, vg, sizeof(vg));
		add(s,
		    "'%s' is a physical volume of the active volume group "
		    "'%s' (vgchange -an %s)",
		    what, vg, vg);
	} else if (!strncmp(uuid, "CRYPT-", 6)) {
		add(s,
		    "'%s' is open as the dm-crypt mapping '%s' "
		    "(cryptsetup close %s)",
		    what, dm, dm);
	} else if (!strncmp(uuid, "part", 4)) {
		/* one command removes all of them: say it once */
		add(s, "'%s' has kpartx mappings (kpartx -d /dev/%s)", what,
		    disk);
	} else {
		add(s, "'%s' is mapped by '%s' (dmsetup remove %s)", what, dm,
		    dm);
	}
}

/* Every holder of the device of sysfs directory @dir. */
static void holders_of(struct says *s, const char *dir, const char *what,
		       const char *disk, int depth)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *h;

	if (depth > 8 || snprintf(path, sizeof(path), "%s/holders", dir) >=
				 (int)sizeof(path))
		return;
	h = opendir(path);
	if (!h)
		return;
	while ((e = readdir(h))) {
		char link[PATH_MAX + 256], real[PATH_MAX];

		if (e->d_name[0] == '.')
			continue;
		snprintf(link, sizeof(link), "%s/%s", path, e->d_name);
		if (realpath(link, real))
			holder(s, real, what, disk, depth);
	}
	closedir(h);
}

/* Where the device of sysfs directory @dir (named @what) is mounted. */
static void mounted(struct says *s, const char *dir, const char *what)
{
	char line[4096], dev[32];
	FILE *f;

	if (!read_attr(dir, "dev", dev, sizeof(dev)))
		return;
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char mm[32], where[2048];

		if (sscanf(line, "%*s %*s %31s %*s %2047s", mm, where) == 2 &&
		    !strcmp(mm, dev))
			add(s, "'%s' is mounted on '%s' (umount %s)", what,
			    where, where);
	}
	fclose(f);
}

/**
 * ba_fix_holders: why the disk @dev is busy, as "; "-separated reasons,
 * each with the command that lets go, into @buf.  Returns: how many
 * reasons (0: sysfs names none).
 */
int ba_fix_holders(const struct blkalign_ctx *ctx, dev_t dev, char *buf,
		   size_t len)
{
	struct says s = {.buf = buf, .len = len};
	char *p, diskdir[PATH_MAX];
	struct dirent *e;
	const char *disk;
	DIR *d;

	if (!buf || !len)
		return 0;
	buf[0] = '\0';
	p = ba_sysfs_path(ctx, "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (!p || !realpath(p, diskdir)) {
		free(p);
		return 0;
	}
	free(p);
	disk = strrchr(diskdir, '/') + 1;
	holders_of(&s, diskdir, disk, disk, 0);
	mounted(&s, diskdir, disk);
	d = opendir(diskdir);
	while (d && (e = readdir(d))) {
		char sub[PATH_MAX + 256], v[32];

		snprintf(sub, sizeof(sub), "%s/%s", diskdir, e->d_name);
		if (e->d_name[0] == '.' ||
		    !read_attr(sub, "partition", v, sizeof(v)))
			continue;
		holders_of(&s, sub, e->d_name, disk, 0);
		mounted(&s, sub, e->d_name);
	}
	if (d)
		closedir(d);
	return s.n;
}
