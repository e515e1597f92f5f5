/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysfs.c - reading block device attributes from /sys, or from a saved
 * tree (--sysroot, laid out like util-linux's lsblk dumps).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scan/scan.h"

/* Returns a malloc'ed path below the sysroot (@ctx NULL: the live /sys),
 * or NULL. */
char *ba_sysfs_path(const struct blkalign_ctx *ctx, const char *fmt, ...)
{
	char *rel = NULL, *path = NULL;
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vasprintf(&rel, fmt, ap);
	va_end(ap);
	if (rc < 0)
		return NULL;
	if (asprintf(&path, "%s%s", ctx && ctx->sysroot ? ctx->sysroot : "",
		     rel) < 0)
		path = NULL;
	free(rel);
	return path;
}

int ba_sysfs_read_str(const char *dir, const char *attr, char *buf, size_t len)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd, rc = 0;

	if (len == 0)
		return -EINVAL;
	if (snprintf(path, sizeof(path), "%s/%s", dir, attr) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		rc = -errno;
		n = 0;
	}
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	close(fd);
	return rc;
}

/* Reads a decimal attribute.  Returns 0, -errno, or -EINVAL on junk. */
int ba_sysfs_read_s64(const char *dir, const char *attr, int64_t *out)
{
	char buf[64], *end;
	long long v;
	int rc;

	rc = ba_sysfs_read_str(dir, attr, buf, sizeof(buf));
	if (rc)
		return rc;
	errno = 0;
	v = strtoll(buf, &end, 10);
	if (errno || end == buf || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

/* The device directory of maj:min, resolved; malloc'ed, or NULL. */
char *ba_sysfs_devdir(const struct blkalign_ctx *ctx, unsigned int maj,
		      unsigned int min)
{
	char *link = ba_sysfs_path(ctx, "/sys/dev/block/%u:%u", maj, min);
	char *real;

	if (!link)
		return NULL;
	real = realpath(link, NULL);
	free(link);
	return real;
}

/* The whole-disk directory holding a partition directory; malloc'ed. */
char *ba_sysfs_parent_disk(const char *partdir)
{
	char *dup = strdup(partdir), *slash;

	if (!dup)
		return NULL;
	slash = strrchr(dup, '/');
	if (!slash || slash == dup) {
		free(dup);
		return NULL;
	}
	*slash = '\0';
	return dup;
}
