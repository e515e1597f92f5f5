/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix-status.c - what a fix call's return value means: the exit status
 * blkalign(8) documents for fix, and the word its output uses for what
 * happened to the partition.  Pure functions of the call's result.
 */
#include <errno.h>
#include <signal.h>

#include "fix.h"

/* A refusal: the plan cannot be carried out (no room, contents too big
 * or not sized); an error on the way (a full journal directory too) is
 * a failure. */
static bool refused(const struct blkalign_fix_result *r, int rc)
{
	return rc && r->refused;
}

/**
 * blkalign_fix_status: see blkalign.h.  A refusal 2, an operational
 * error 4 (once the journal exists, it says how to go on), a signal
 * 128 + n.
 */
int blkalign_fix_status(int rc, const struct blkalign_fix_result *r,
			bool dry_run, int stop_signal)
{
	static const struct blkalign_fix_result none;

	if (!r)
		r = &none;
	if (rc == -EINTR)
		return 128 + (stop_signal ? stop_signal : SIGINT);
	if (dry_run && !rc)
		return BLKALIGN_STATUS_FINDINGS;
	if (r->journal_kept && rc)
		return BLKALIGN_STATUS_FAILED;
	if (!rc || rc == -EALREADY)
		return 0;
	return refused(r, rc) ? BLKALIGN_STATUS_INCOMPLETE
			      : BLKALIGN_STATUS_FAILED;
}

/* What a fix call did to partition @pp, in the words of the output. */
const char *ba_fix_action(const struct blkalign_plan_part *pp,
			  const struct ba_fix_res *res, int rc, bool dry_run)
{
	bool moves = pp->new_start != pp->old_start;

	if (dry_run)
		return rc ? "refused" : moves ? "would move" : "would resize";
	if (!rc)
		return moves ? "moved" : "resized";
	if (res->pub.journal_kept)
		return rc == -EINTR ? "stopped" : "failed";
	return refused(&res->pub, rc) ? "refused" : "failed";
}

/* --resume/--rollback refused before writing: no journal, another
 * disk's, a damaged one, one in use or of another format. */
static bool resume_refused(int rc)
{
	return rc == -ENOENT || rc == -ESTALE || rc == -EBADMSG ||
	       rc == -EBUSY || rc == -EPROTO;
}

/* What --resume or --rollback did, in the words of the output. */
const char *ba_fix_resume_action(const struct ba_fix_res *res, int rc)
{
	if (res->pub.rolled_back)
		return "rolled back";
	if (!rc)
		return "finished";
	if (resume_refused(rc))
		return "refused";
	return rc == -EINTR ? "stopped" : "failed";
}
