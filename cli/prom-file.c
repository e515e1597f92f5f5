/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * prom-file.c - check --prometheus FILE: the metrics written to a
 * temporary file beside FILE (".FILE.XXXXXX": node_exporter's textfile
 * collector reads only *.prom) and renamed over it, mode 0644, so that
 * the collector reads the old file or the new one, never half of one.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* @path's directory ("." for a bare name) into @dir, its base name. */
static int split(const char *path, char *dir, size_t dlen, const char **base)
{
	const char *slash = strrchr(path, '/');
	size_t n;

	*base = slash ? slash + 1 : path;
	if (!**base)
		return -EISDIR;
	if (!slash) {
		snprintf(dir, dlen, ".");
		return 0;
	}
	n = (size_t)(slash - path);
	if (!n)
		n = 1; /* "/x.prom" */
	if (n >= dlen)
		return -ENAMETOOLONG;
	memcpy(dir, path, n);
	dir[n] = '\0';
	return 0;
}

/**
 * cli_prom_file_check: can the metrics go to @path?  Its directory must
 * exist and be writable, and @path must not be a directory: said before
 * the audit, not after it.  Returns 0 or the exit status.
 */
int cli_prom_file_check(const char *path)
{
	char dir[4096];
	const char *base;
	struct stat st;
	int rc;

	rc = split(path, dir, sizeof(dir), &base);
	if (!rc && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		rc = -EISDIR;
	if (!rc && access(dir, W_OK | X_OK))
		rc = -errno;
	if (rc) {
		cli_warnx("cannot write metrics to '%s': %s", path,
			  strerror(-rc));
		return BLKALIGN_STATUS_FAILED;
	}
	return 0;
}

/**
 * cli_prom_file_write: the metrics of @p to @path, atomically.
 * Returns 0 or the exit status (the reason said on stderr).
 */
int cli_prom_file_write(struct blkalign_prometheus *p, const char *path)
{
	char dir[4096], tmp[4096 + 256];
	const char *base, *what = "write";
	FILE *f = NULL;
	bool made = false;
	int fd = -1, rc;

	rc = split(path, dir, sizeof(dir), &base);
	if (rc)
		goto out;
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dir, base) >=
	    sizeof(tmp)) {
		rc = -ENAMETOOLONG;
		goto out;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		rc = -errno;
		goto out;
	}
	made = true;
	if (fchmod(fd, 0644) || !(f = fdopen(fd, "w"))) {
		rc = -errno;
		goto out;
	}
	fd = -1;
	rc = blkalign_prometheus_write(p, f);
	if (!rc && (fflush(f) == EOF || fsync(fileno(f))))
		rc = -errno;
	if (fclose(f) == EOF && !rc)
		rc = -errno;
	f = NULL;
	if (!rc && rename(tmp, path)) {
		rc = -errno;
		what = "move";
	}
out:
	if (f)
		fclose(f);
	if (fd >= 0)
		close(fd);
	if (rc && made)
		unlink(tmp);
	if (!rc)
		return 0;
	cli_warnx("cannot %s metrics to '%s': %s", what, path, strerror(-rc));
	return BLKALIGN_STATUS_FAILED;
}
