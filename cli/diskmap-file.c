/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * diskmap-file.c - check's and plan's --svg and --html: the disk map
 * written to a temporary file beside the one named, made before the
 * audit (an unwritable place fails at once) and renamed over it once
 * whole, so that a reader never sees half a picture.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* Start the map for @path: 0, or the status after saying why. */
unsigned int cli_diskmap_open(struct cli_diskmap *m, const char *path,
			      enum blkalign_diskmap_format f)
{
	const char *slash = strrchr(path, '/');
	int dirlen = slash ? (int)(slash - path) + 1 : 0;
	mode_t mask;
	int fd, n;

	memset(m, 0, sizeof(*m));
	m->path = path;
	n = snprintf(NULL, 0, "%.*s.%s.XXXXXX", dirlen, path,
		     slash ? slash + 1 : path);
	m->tmp = malloc((size_t)n + 1);
	m->map = blkalign_diskmap_new(f);
	if (!m->tmp || !m->map) {
		cli_warnx("out of memory");
		goto fail;
	}
	snprintf(m->tmp, (size_t)n + 1, "%.*s.%s.XXXXXX", dirlen, path,
		 slash ? slash + 1 : path);
	fd = mkostemp(m->tmp, O_CLOEXEC);
	if (fd < 0) {
		cli_warnx("cannot write '%s': %s", path, strerror(errno));
		goto fail;
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) || !(m->f = fdopen(fd, "w"))) {
		cli_warnx("cannot write '%s': %s", path, strerror(errno));
		close(fd);
		unlink(m->tmp);
		goto fail;
	}
	return 0;
fail:
	blkalign_diskmap_free(m->map);
	free(m->tmp);
	memset(m, 0, sizeof(*m));
	return BLKALIGN_STATUS_FAILED;
}

/* Draw the devices @r holds now. */
unsigned int cli_diskmap_add(struct cli_diskmap *m,
			     const struct blkalign_report *r)
{
	for (size_t i = 0; m->map && i < blkalign_report_ndevices(r); i++) {
		const struct blkalign_device *d = blkalign_report_device(r, i);

		if (blkalign_device_get_failed(d))
			continue;
		if (blkalign_diskmap_add_device(m->map, d)) {
			cli_warnx("cannot draw '%s': out of memory",
				  blkalign_device_get_path(d));
			return BLKALIGN_STATUS_FAILED;
		}
	}
	return 0;
}

/* Write the map out and put it in place (@ok false: drop it). */
unsigned int cli_diskmap_close(struct cli_diskmap *m, bool ok)
{
	unsigned int status = 0;
	int rc = 0;

	if (!m->map)
		return 0;
	if (ok)
		rc = blkalign_diskmap_write(m->map, m->f);
	if (fflush(m->f) == EOF || fsync(fileno(m->f)))
		rc = rc ? rc : -errno;
	if (fclose(m->f) == EOF && !rc)
		rc = -errno;
	if (ok && !rc && rename(m->tmp, m->path))
		rc = -errno;
	if (!ok || rc)
		unlink(m->tmp);
	if (rc) {
		cli_warnx("cannot write '%s': %s", m->path, strerror(-rc));
		status = BLKALIGN_STATUS_FAILED;
	}
	blkalign_diskmap_free(m->map);
	free(m->tmp);
	memset(m, 0, sizeof(*m));
	return status;
}
