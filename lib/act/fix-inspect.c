/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix-inspect.c - `blkalign fix --inspect`: what a journal holds (every
 * copy of every part checked), whether a disk is its disk, and what
 * --resume and --rollback would do there or why they would refuse
 * (fix-trust.c decides, as it does for them); with no journal, what the
 * marker on the disk says.  Reads only.  The facts are gathered here
 * and written as text or JSON by fix-inspect-out.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fix.h"

static void gather(struct ba_fix_inspect *in)
{
	struct ba_fix_run r = {0};
	char why[512];

	ba_fix_io_init(&in->io, NULL);
	if (in->target && !ba_file_open_target(&in->dev, &in->io, in->target,
					       false, why, sizeof(why))) {
		in->have_dev = true;
		if (ba_fix_ident_of(in->ctx, in->dev.fd, &in->ident))
			memset(&in->ident, 0, sizeof(in->ident));
	}
	if (!in->journal) {
		if (in->target)
			in->marker = ba_fix_disk_marker(
				in->target, in->have_dev ? in->dev.nbd : NULL,
				&in->m, &in->marker_off);
		return;
	}
	in->open_rc = ba_journal_open(&in->j, &in->io, in->journal, true);
	if (in->open_rc == -ENOENT && in->target)
		in->marker = ba_fix_disk_marker(
			in->target, in->have_dev ? in->dev.nbd : NULL, &in->m,
			&in->marker_off);
	if (in->open_rc)
		return;
	r.dev = in->have_dev ? &in->dev : NULL;
	r.j = &in->j;
	if (in->have_dev)
		in->match_rc = ba_fix_match(&in->dev, &in->ident, &in->j,
					    in->why, sizeof(in->why));
	in->lacks[0] = ba_fix_lacks(&r, false, false);
	in->lacks[1] = ba_fix_lacks(&r, true, false);
}

/* 0 both ways can go on, 1 one of them, 2 neither (or no journal). */
static int verdict(const struct ba_fix_inspect *in)
{
	if (!in->journal || in->open_rc || (in->have_dev && in->match_rc))
		return 2;
	return (in->lacks[0] != NULL) + (in->lacks[1] != NULL);
}

/**
 * blkalign_fix_inspect: see blkalign.h.
 */
int blkalign_fix_inspect(struct blkalign_ctx *ctx, const char *target,
			 const char *journal, bool as_json, FILE *out)
{
	struct ba_fix_inspect *in = calloc(1, sizeof(*in));
	int rc;

	if (!in)
		return -ENOMEM;
	if ((!target && !journal) || !out) {
		free(in);
		return -EINVAL;
	}
	in->ctx = ctx;
	in->target = target;
	in->journal = journal;
	gather(in);
	rc = as_json ? ba_fix_inspect_json(in, out)
		     : (ba_fix_inspect_text(in, out), 0);
	if (!rc)
		rc = verdict(in);
	if (!in->open_rc && in->journal)
		ba_journal_close(&in->j);
	if (in->have_dev)
		ba_file_close(&in->dev);
	free(in);
	return rc;
}
