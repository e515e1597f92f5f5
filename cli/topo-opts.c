/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * topo-opts.c - the image topology options that check, plan and model
 * share (-b, --physical-sector-size, --min-io, --opt-io,
 * --alignment-offset, --page-size): parsed in one place and applied to
 * the library context in one place.
 */
#include <errno.h>
#include <getopt.h>
#include <string.h>

#include "cli.h"

static int size_arg(const char *name, const char *arg, uint32_t *out)
{
	uint64_t v;

	if (cli_parse_size(arg, &v) || v > UINT32_MAX) {
		cli_warnx("invalid %s '%s'", name, arg);
		return -EINVAL;
	}
	*out = (uint32_t)v;
	return 0;
}

/**
 * cli_topo_opt: handle getopt's @c if it is a topology option.
 * Returns: 1 handled, 0 not a topology option, -EINVAL on a bad argument
 * (already reported).
 */
int cli_topo_opt(struct cli_topo *t, int c, const char *arg)
{
	int64_t ao;

	switch (c) {
	case 'b':
		return size_arg("logical sector size", arg,
				&t->geom.logical_sector_size)
			       ? -EINVAL
			       : 1;
	case CLI_OPT_PSS:
		return size_arg("physical sector size", arg,
				&t->geom.physical_sector_size)
			       ? -EINVAL
			       : 1;
	case CLI_OPT_MIN_IO:
		return size_arg("minimum I/O size", arg,
				&t->geom.minimum_io_size)
			       ? -EINVAL
			       : 1;
	case CLI_OPT_OPT_IO:
		return size_arg("optimal I/O size", arg,
				&t->geom.optimal_io_size)
			       ? -EINVAL
			       : 1;
	case CLI_OPT_AO:
		if (cli_parse_int(arg, 0, 65535, &ao)) {
			cli_warnx("invalid alignment offset '%s'", arg);
			return -EINVAL;
		}
		t->geom.alignment_offset = (int32_t)ao;
		t->geom.alignment_offset_set = true;
		return 1;
	case CLI_OPT_PAGE:
		return size_arg("page size", arg, &t->page) ? -EINVAL : 1;
	}
	return 0;
}

/**
 * cli_topo_apply: give the options to @ctx.
 * Returns: 0, or -EINVAL when they are impossible (already reported).
 */
int cli_topo_apply(const struct cli_topo *t, struct blkalign_ctx *ctx)
{
	if (blkalign_ctx_set_image_geometry(ctx, &t->geom)) {
		cli_warnx("impossible image geometry: sector sizes must be "
			  "powers of two from 512 to 65536 with physical >= "
			  "logical, I/O sizes multiples of the logical sector");
		return -EINVAL;
	}
	if (t->page && blkalign_ctx_set_page_size(ctx, t->page)) {
		cli_warnx("invalid page size '%u'", t->page);
		return -EINVAL;
	}
	return 0;
}

/* --sysroot: the saved sysfs tree, or a message saying why not. */
int cli_set_sysroot(struct blkalign_ctx *ctx, const char *dir)
{
	int rc = blkalign_ctx_set_sysroot(ctx, dir);

	if (rc == -ENOTDIR)
		cli_warnx("no sysfs tree at '%s': it has no sys/block (a tree "
			  "saved as lsblk --sysroot reads it)",
			  dir);
	else if (rc)
		cli_warnx("cannot use '%s' as the sysfs root: %s", dir,
			  strerror(-rc));
	return rc;
}
