/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix-readback.c - the targets whose writes can be lost with no error,
 * and the read-back that catches it.
 *
 * A loop device whose backing file system runs out of space completes a
 * short write as whole: on its aio path (the kernel's lo_complete_rq,
 * 6.1 to 6.18 at least) only a short *read* is retried or failed, so the
 * pages past the first one the file system refused are never written,
 * pwrite(2) on the loop device returns the full count, and a later read
 * gives the file's hole (zeros) or its old bytes.  A level recorded done
 * over such a write is never written again: the data is lost.  So on a
 * loop device, and on any device stacked on one (device-mapper, md),
 * every write of fix is read back past the cache (the target is
 * O_DIRECT) and compared; a difference is -EIO, and fix stops there with
 * its journal kept, as for any other write error.  Where the move's
 * ranges could be allocated ahead in the backing file (fix-reserve.c),
 * the writes inside them cannot come out short and are not read back.
 *
 * Other block devices and image files report a failed write themselves
 * (a short pwrite, ENOSPC, EIO); they are not read back: it would cost a
 * third of the copy's I/O on a real disk.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fix.h"

#define READBACK_CHUNK ((size_t)1 << 20)
#define MAX_DEPTH      8

/* Is the block device of sysfs directory @dir (/sys/dev/block/M:m, or a
 * holder's slave link) a loop device, a partition of one, or stacked on
 * one? */
static bool dir_on_loop(const char *dir, int depth)
{
	char p[PATH_MAX];
	struct stat st;
	struct dirent *e;
	bool found = false;
	DIR *d;

	if (depth > MAX_DEPTH)
		return false;
	if (snprintf(p, sizeof(p), "%s/loop", dir) < (int)sizeof(p) &&
	    !stat(p, &st))
		return true;
	/* a partition: its disk is the directory above */
	if (snprintf(p, sizeof(p), "%s/partition", dir) < (int)sizeof(p) &&
	    !stat(p, &st) &&
	    snprintf(p, sizeof(p), "%s/..", dir) < (int)sizeof(p))
		return dir_on_loop(p, depth + 1);
	if (snprintf(p, sizeof(p), "%s/slaves", dir) >= (int)sizeof(p))
		return false;
	d = opendir(p);
	while (d && !found && (e = readdir(d))) {
		char s[PATH_MAX];

		if (e->d_name[0] == '.' ||
		    snprintf(s, sizeof(s), "%s/slaves/%s", dir, e->d_name) >=
			    (int)sizeof(s))
			continue;
		found = dir_on_loop(s, depth + 1);
	}
	if (d)
		closedir(d);
	return found;
}

/**
 * ba_file_lossy: can a write to the open block device @fd be lost with
 * no error (a loop device, or a device on one: see above)?
 */
bool ba_file_lossy(int fd)
{
	char dir[64];
	struct stat st;

	if (fstat(fd, &st) || !S_ISBLK(st.st_mode))
		return false;
	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", major(st.st_rdev),
		 minor(st.st_rdev));
	return dir_on_loop(dir, 0);
}

/**
 * ba_file_readback: do the @len bytes at @off of @f, just written from
 * @buf, read back the same?  Read in chunks of at most 1 MiB (a level is
 * 24 MiB: holding it twice would pass fix's memory bound).  Returns 0,
 * -EIO when they differ, -ENOMEM or the read's -errno.
 */
int ba_file_readback(struct ba_file *f, const void *buf, size_t len,
		     uint64_t off)
{
	size_t chunk = len < READBACK_CHUNK ? len : READBACK_CHUNK;
	uint8_t *back = ba_file_alloc(chunk);
	int rc = back ? 0 : -ENOMEM;

	for (size_t done = 0; !rc && done < len; done += chunk) {
		size_t n = len - done < chunk ? len - done : chunk;

		rc = ba_file_read(f, back, n, off + done);
		if (!rc && memcmp(back, (const uint8_t *)buf + done, n))
			rc = -EIO;
	}
	free(back);
	return rc;
}
