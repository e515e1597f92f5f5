/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan-report.c - what `plan` and `fix` start from: the one device a
 * report holds, a whole disk or image with a dos or GPT table, and its
 * realignment plan; or, said through the context's log, why not.
 */
#include <errno.h>
#include <string.h>

#include "analyze/analyze.h"
#include "plan.h"

static bool has_partitions(const struct blkalign_device *d)
{
	for (size_t i = 1; i < d->nlayers; i++)
		if (d->layers[i].kind == BLKALIGN_LAYER_PARTITION)
			return true;
	return false;
}

static bool dos_or_gpt(const struct blkalign_device *d)
{
	return d->scheme &&
	       (!strcmp(d->scheme, "dos") || !strcmp(d->scheme, "gpt"));
}

/*
 * A disk described by a sysfs tree or a saved report, not read: the
 * table type is not recorded, but the partitions and the usable space
 * are, which is enough to plan inside what both table types allow.
 */
static bool described_only(const struct blkalign_report *r,
			   const struct ba_device *d)
{
	const struct blkalign_device *p = &d->pub;

	return !p->scheme && p->table.usable_end &&
	       !p->table.usable_from_table && (r->ctx->sysroot || d->saved) &&
	       has_partitions(p) && p->is_block_device;
}

/**
 * blkalign_report_plan: see blkalign.h.
 */
int blkalign_report_plan(struct blkalign_report *r, const char *cmd,
			 unsigned int flags, struct blkalign_plan **out)
{
	const struct blkalign_device *d;
	struct ba_device *bd;
	struct ba_plan *p;
	int rc;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!r || !cmd || r->ndevices != 1)
		return -EINVAL;
	bd = r->devices[0];
	d = &bd->pub;
	for (size_t k = 0; k < d->nproblems; k++)
		ba_log(r->ctx, "%s: %s", d->path, d->problems[k]);
	if (d->failed)
		return -EINVAL;
	if (d->whole_disk) {
		ba_log(r->ctx,
		       "'%s' is partition %d of /dev/%s: %s works on the "
		       "whole disk: '%s %s %s %d /dev/%s'",
		       d->path, d->partition_number, d->whole_disk, cmd,
		       ba_word(r->ctx, BLKALIGN_WORD_PROGRAM), cmd,
		       ba_word(r->ctx, BLKALIGN_WORD_PARTITION),
		       d->partition_number, d->whole_disk);
		return -EINVAL;
	}
	if (!(flags & BLKALIGN_PLAN_TABLE_READ) && described_only(r, bd)) {
		ba_log(r->ctx,
		       "'%s': a sysfs tree does not record the table type; "
		       "planned inside what both a dos table and a GPT "
		       "allow, keeping the whole of each partition",
		       d->path);
	} else if (!dos_or_gpt(d)) {
		ba_log(r->ctx,
		       "'%s': %s needs a dos or GPT partition table on a "
		       "whole disk or image",
		       d->path, cmd);
		return -EINVAL;
	}
	rc = blkalign_plan_new(d, out);
	if (rc) {
		ba_log(r->ctx, "cannot plan '%s': %s", d->path, strerror(-rc));
		return rc;
	}
	p = (struct ba_plan *)*out;
	p->report = r;
	p->held = bd;
	ba_device_hold(r, bd);
	return 0;
}
