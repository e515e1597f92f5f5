/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan-audit.c - what `plan` starts from: one image or whole disk
 * audited like `check` (same library call, same topology options, or a
 * saved report), and its plan (blkalign_report_plan).
 */
#include <errno.h>

#include "cli.h"

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
	cli_set_words(*ctxp);
	if (!*ctxp) {
		cli_warnx("out of memory");
		*status |= BLKALIGN_STATUS_FAILED;
		return NULL;
	}
	blkalign_ctx_set_log_fn(*ctxp, cli_log_to_stderr, NULL);
	/* what each move copies: the contents' used blocks, as fix reads
	 * them */
	blkalign_ctx_set_used_maps(*ctxp, true);
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
	rc = blkalign_report_plan(*repp, cmd, 0, &plan);
	if (!blkalign_device_get_failed(d))
		*status |= blkalign_report_status(*repp) &
			   BLKALIGN_STATUS_INCOMPLETE;
	if (rc) {
		*status |= BLKALIGN_STATUS_FAILED;
		return NULL;
	}
	return plan;
}
