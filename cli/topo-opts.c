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
	struct blkalign_image_geometry g = t->geom;

	g.size = sizeof(g);
	if (blkalign_ctx_set_image_geometry(ctx, &g)) {
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

/*
 * --from takes the device as it was saved: its topology with it, so the
 * topology options and --sysroot do not go with it.  0, or -EINVAL having
 * said why.
 */
int cli_source_usage(const struct cli_source *src, const struct cli_topo *topo)
{
	static const struct cli_topo none;

	if (!src->from)
		return 0;
	if (src->sysroot) {
		cli_warnx("--from and --sysroot exclude each other");
		return -EINVAL;
	}
	if (memcmp(topo, &none, sizeof(none))) {
		cli_warnx("--from keeps the topology saved in the report: no "
			  "sector size, I/O size, alignment offset or page "
			  "size options with it");
		return -EINVAL;
	}
	return 0;
}

/*
 * Audit @target (NULL: with --from, every device of the report) into @r
 * from where @src says.  Returns what blkalign_check_path() or
 * blkalign_check_saved() return.
 */
int cli_source_check(struct blkalign_report *r, const struct cli_source *src,
		     const char *target)
{
	if (!src || !src->from)
		return blkalign_check_path(r, target);
	/* the library's log says why a report cannot be used */
	return blkalign_check_saved(r, src->from, target);
}
