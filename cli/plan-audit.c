/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan-audit.c - what `plan` and `fix` start from: one image or whole
 * disk audited like `check` (same library call, same topology options),
 * with a dos or GPT table, and its realignment plan.
 */
#include <errno.h>
#include <string.h>

#include "cli.h"

static bool has_partitions(const struct blkalign_device *d)
{
	for (size_t i = 1; i < d->nlayers; i++)
		if (d->layers[i].kind == BLKALIGN_LAYER_PARTITION)
			return true;
	return false;
}

/**
 * cli_audit_plan: audit @path for the command @cmd and plan it.  Returns
 * the plan, or NULL having said why; @status gets the exit bits (16 for
 * bad topology options, 4 when it cannot be audited or planned, 2 when
 * something could not be read).  The caller frees *ctxp and *repp.
 */
struct blkalign_plan *
cli_audit_plan(const struct cli_topo *topo, const struct cli_source *src,
	       const char *path, const char *cmd, struct blkalign_ctx **ctxp,
	       struct blkalign_report **repp, unsigned int *status)
{
	const struct blkalign_device *d;
	struct blkalign_plan *plan = NULL;
	int rc;

	*repp = NULL;
	*ctxp = blkalign_ctx_new();
	if (!*ctxp) {
		cli_warnx("out of memory");
		*status |= BLKALIGN_STATUS_FAILED;
		return NULL;
	}
	blkalign_ctx_set_log_fn(*ctxp, cli_log_to_stderr, NULL);
	if (cli_topo_apply(topo, *ctxp)) {
		*status |= BLKALIGN_STATUS_USAGE;
		return NULL;
	}
	if (src && src->sysroot && cli_set_sysroot(*ctxp, src->sysroot)) {
		*status |= BLKALIGN_STATUS_FAILED;
		return NULL;
	}
	*repp = blkalign_report_new(*ctxp);
	if (!*repp) {
		cli_warnx("out of memory");
		*status |= BLKALIGN_STATUS_FAILED;
		return NULL;
	}
	rc = cli_source_check(*repp, src, path);
	if (src && src->from && blkalign_report_ndevices(*repp) > 1) {
		cli_warnx("'%s' holds %zu devices: name the one to %s",
			  src->from, blkalign_report_ndevices(*repp), cmd);
		*status |= BLKALIGN_STATUS_USAGE;
		return NULL;
	}
	if (rc == -ENOMEM || blkalign_report_ndevices(*repp) != 1) {
		if (!src || !src->from)
			cli_warnx("cannot audit '%s'", path);
		*status |= BLKALIGN_STATUS_FAILED;
		return NULL;
	}
	d = blkalign_report_device(*repp, 0);
	for (size_t k = 0; k < d->nproblems; k++)
		cli_warnx("%s: %s", d->path, d->problems[k]);
	if (d->failed) {
		*status |= BLKALIGN_STATUS_FAILED;
		return NULL;
	}
	*status |= blkalign_report_status(*repp) & BLKALIGN_STATUS_INCOMPLETE;
	if (d->whole_disk) {
		cli_warnx("'%s' is partition %d of /dev/%s: %s works on the "
			  "whole disk: '" PROGRAM " %s --partition %d /dev/%s'",
			  d->path, d->partition_number, d->whole_disk, cmd, cmd,
			  d->partition_number, d->whole_disk);
		*status |= BLKALIGN_STATUS_FAILED;
		return NULL;
	}
	if (!d->scheme && d->table.usable_end && !d->table.usable_from_table &&
	    src && (src->sysroot || src->from) && has_partitions(d) &&
	    d->is_block_device) {
		cli_warnx("'%s': a sysfs tree does not record the table type; "
			  "planned inside what both a dos table and a GPT "
			  "allow, keeping the whole of each partition",
			  d->path);
	} else if (!d->scheme ||
		   (strcmp(d->scheme, "dos") && strcmp(d->scheme, "gpt"))) {
		cli_warnx("'%s': %s needs a dos or GPT partition table on a "
			  "whole disk or image",
			  d->path, cmd);
		*status |= BLKALIGN_STATUS_FAILED;
		return NULL;
	}
	rc = blkalign_plan_new(d, &plan);
	if (rc) {
		cli_warnx("cannot plan '%s': %s", d->path, strerror(-rc));
		*status |= BLKALIGN_STATUS_FAILED;
		return NULL;
	}
	return plan;
}
