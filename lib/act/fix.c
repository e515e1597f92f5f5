/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix.c - `blkalign fix`: one planned partition realigned in place
 * (docs/fix.md).  The library's entry points: prepare (the refusals, the
 * geometry and the fix's identity, the table patches, the journal), then
 * drive the journal's phases to the end (fix-phases.c); resume and
 * rollback start from whatever phase the journal holds, once fix-trust.c
 * has found the journal whole enough and the disk its own.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#include "fix.h"

#define DEFAULT_STEP (16 * MIB)

int ba_fix_fail(struct ba_fix_res *res, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(res->msg, sizeof(res->msg), fmt, ap);
	va_end(ap);
	return rc;
}

#define fail ba_fix_fail

static const char *c_or(const char *content)
{
	return content ? content : "contents";
}

static void fill_result(struct ba_fix_res *res, const struct ba_fix_geom *g,
			const struct ba_fix_run *r)
{
	res->pub.number = (int)g->number;
	res->pub.sector_size = g->lss;
	res->pub.old_start = g->old_start;
	res->pub.old_size = g->old_size;
	res->pub.new_start = g->new_start;
	res->pub.new_size = g->new_size;
	res->pub.bytes_copied = r->moved;
	res->pub.bytes_to_copy = g->new_start == g->old_start ? 0
				 : g->map_nr		      ? g->map_used
							      : g->len;
	res->pub.bytes_skipped = g->new_start == g->old_start ? 0
				 : g->map_nr ? g->len - g->map_used
					     : 0;
	snprintf(res->source, sizeof(res->source), "%s",
		 g->map_source[0] ? g->map_source : "whole");
	res->pub.map_source = res->source;
	res->pub.batch = g->batch;
	res->pub.steps = r->steps;
	res->pub.seconds = r->seconds;
}

static void count_io(struct blkalign_fix_target *t, struct ba_fix_res *res)
{
	res->pub.writes = t->io.writes;
	res->pub.flushes = t->io.flushes;
	res->pub.bytes_read_back = t->io.read_back;
}

static int finish(struct ba_fix_run *r, struct ba_fix_res *res, int rc)
{
	const char *jp = r->j->file.path;

	fill_result(res, &r->j->g, r);
	res->pub.journal_kept = rc != 0;
	if (!rc) {
		if (unlink(jp))
			snprintf(res->msg, sizeof(res->msg),
				 "done, but the journal '%s' could not be "
				 "removed: remove it",
				 jp);
	} else if (rc == -EINTR) {
		fail(res, rc,
		     "stopped; the journal '%s' says where: "
		     "'%s' finishes, '%s' undoes",
		     jp, ba_word(r->ctx, BLKALIGN_WORD_FIX_RESUME),
		     ba_word(r->ctx, BLKALIGN_WORD_ROLLBACK));
	} else if (!res->msg[0]) {
		fail(res, rc,
		     "%s; nothing is lost: the journal '%s' is kept, "
		     "'%s' or '%s' continue from it",
		     strerror(-rc), jp,
		     ba_word(r->ctx, BLKALIGN_WORD_FIX_RESUME),
		     ba_word(r->ctx, BLKALIGN_WORD_ROLLBACK));
	}
	return rc;
}

static uint64_t round_up(uint64_t x, uint64_t g)
{
	return (x + g - 1) / g * g;
}

/*
 * Whether the contents of partition layer @part keep metadata at its
 * end, found by the kernel from the end: md 0.90 and 1.0 (1.1 and 1.2
 * keep theirs at the start), ZFS (two of its four labels), a GPT (its
 * backup header).  A new size would lose them.
 */
static bool metadata_at_end(const struct blkalign_device *d, int part)
{
	for (size_t j = 0; j < d->nlayers; j++) {
		const struct blkalign_layer *l = &d->layers[j];

		if (l->parent != part)
			continue;
		if (l->kind == BLKALIGN_LAYER_ZFS ||
		    l->kind == BLKALIGN_LAYER_TABLE)
			return true;
		if (l->kind == BLKALIGN_LAYER_MD)
			return !l->version || (strcmp(l->version, "1.1") &&
					       strcmp(l->version, "1.2"));
	}
	return false;
}

/* The refusals of a plan that fix cannot carry out. */
static int refuse_plan(const struct blkalign_ctx *ctx,
		       const struct blkalign_device *d,
		       const struct blkalign_plan_part *pp,
		       const struct blkalign_fix_opts *o, uint32_t lss,
		       struct ba_fix_res *res)
{
	const char *c = pp->content;

	if (pp->action == BLKALIGN_PLAN_IMPOSSIBLE)
		return fail(res, -ENOSPC, "it cannot be realigned: %s",
			    pp->reason ? pp->reason : "no room");
	if (pp->action == BLKALIGN_PLAN_NONE)
		return fail(res, -EALREADY, "it is aligned");
	if (!pp->used_known && !o->copy_all)
		return fail(res, -EOPNOTSUPP,
			    "it holds %s, which blkalign cannot size: "
			    "%s copies the whole partition",
			    c ? c : "nothing it recognises",
			    ba_word(ctx, BLKALIGN_WORD_COPY_ALL));
	if (pp->new_size != pp->old_size && metadata_at_end(d, pp->layer))
		return fail(res, -EOPNOTSUPP,
			    "it holds %s with metadata at its end: its size "
			    "would have to stay",
			    c);
	if (pp->new_size < pp->used_size)
		return fail(res, -EFBIG,
			    "its contents need %llu bytes, the new size is "
			    "%llu",
			    (unsigned long long)pp->used_size,
			    (unsigned long long)pp->new_size);
	if (!lss || pp->new_start % lss || pp->new_size % lss ||
	    pp->old_start % lss)
		return fail(res, -EINVAL, "the plan is not in whole sectors");
	return 0;
}

/* The geometry of the move, and a new fix id. */
static int make_geom(const struct blkalign_ctx *ctx,
		     const struct blkalign_device *d,
		     const struct blkalign_plan_part *pp,
		     const struct blkalign_fix_opts *o, struct ba_fix_geom *g,
		     struct ba_fix_res *res)
{
	uint32_t lss = (uint32_t)d->topology.logical_sector_size.value;
	uint64_t shift, step = o->max_step ? o->max_step : DEFAULT_STEP;
	int rc = refuse_plan(ctx, d, pp, o, lss, res);

	if (rc) {
		res->pub.refused = rc != -EALREADY && rc != -EINVAL;
		return rc;
	}
	if (step > BA_FIX_STEP_MAX)
		step = BA_FIX_STEP_MAX;
	memset(g, 0, sizeof(*g));
	g->disk_size = d->size;
	g->lss = lss;
	g->number = (uint32_t)pp->number;
	g->old_start = pp->old_start;
	g->old_size = pp->old_size;
	g->new_start = pp->new_start;
	g->new_size = pp->new_size;
	g->len = round_up(pp->used_size, lss);
	if (g->len > pp->old_size || g->len > pp->new_size)
		g->len = pp->old_size < pp->new_size ? pp->old_size
						     : pp->new_size;
	g->head_len = g->len < BA_FIX_HEAD_MAX ? g->len : BA_FIX_HEAD_MAX;
	shift = pp->new_start > pp->old_start ? pp->new_start - pp->old_start
					      : pp->old_start - pp->new_start;
	g->batch = shift && shift < BA_FIX_BATCH_BELOW;
	if (!g->batch && shift < step)
		step = shift;
	/* whole 4 KiB pieces when it can: see piece() in fix-move.c */
	step = step >= 4096 && lss <= 4096 ? step / 4096 * 4096
					   : step / lss * lss;
	g->step = step < lss ? lss : step;
	ba_fix_chains(g);
	snprintf(g->path, sizeof(g->path), "%s", d->path);
	snprintf(g->version, sizeof(g->version), "%s", BLKALIGN_VERSION);
	g->created = (uint64_t)time(NULL);
	if (getrandom(g->id, sizeof(g->id), 0) != (ssize_t)sizeof(g->id))
		return fail(res, -EIO, "cannot draw a random fix id: %s",
			    strerror(errno));
	return 0;
}

static const char *tmpdir_of(const struct blkalign_fix_opts *o, char *buf,
			     size_t len)
{
	if (o->tmpdir)
		return o->tmpdir;
	snprintf(buf, len, "%s", o->journal);
	return dirname(buf);
}

/* What prepare reads of the disk into @j: the head, the boundaries, the
 * table's patches and those of what the contents keep at the partition's
 * end; and the old table as a script next to the journal. */
static int read_disk(struct blkalign_fix_target *t,
		     const struct blkalign_device *d,
		     const struct blkalign_plan_part *pp,
		     const struct blkalign_fix_opts *o, struct ba_journal *j,
		     struct ba_fix_res *res)
{
	struct ba_file *dev = &t->file;
	char tbuf[4096], old[4096], src[64], why[448];
	int rc;

	j->head = ba_file_alloc(j->g.head_len);
	if (!j->head)
		return -ENOMEM;
	rc = ba_file_read(dev, j->head, j->g.head_len, j->g.old_start);
	if (rc)
		return fail(res, rc, "cannot read it: %s", strerror(-rc));
	j->g.fs_patch = ba_fix_fs_patch_kind(pp->content, j->head,
					     j->g.head_len, j->g.old_start);
	if (ba_fix_bound_len(&j->g)) {
		struct ba_fix_run tmp = {.dev = dev, .j = j};
		uint64_t blen = ba_fix_bound_len(&j->g);

		j->bound = ba_file_buffer(blen);
		rc = j->bound ? ba_fix_read_bounds(
					&tmp, j->g.new_start > j->g.old_start,
					j->g.old_start, j->bound)
			      : -ENOMEM;
		if (rc)
			return fail(res, rc, "cannot read it: %s",
				    strerror(-rc));
		j->g.bound_hash = XXH3_64bits(j->bound, (size_t)blen);
	}
	rc = ba_fix_table_patches(dev, d, j, tmpdir_of(o, tbuf, sizeof(tbuf)),
				  res->msg, sizeof(res->msg));
	if (rc)
		return rc;
	rc = ba_fix_end_patches(dev, j, pp->content);
	if (rc)
		return fail(res, rc, "cannot read its end: %s", strerror(-rc));
	rc = ba_fix_map_read(dev, d, pp, o, j, why, sizeof(why));
	if (rc == -EUCLEAN || rc == -EBADMSG) {
		res->pub.refused = true;
		return fail(res, rc,
			    "%s holds %s whose used blocks cannot be trusted: "
			    "%s; or move it whole with %s",
			    pp->name, c_or(pp->content), why,
			    ba_word(t->ctx, BLKALIGN_WORD_COPY_ALL));
	}
	if (rc)
		return fail(res, rc, "cannot read which blocks its %s uses: %s",
			    c_or(pp->content), why[0] ? why : strerror(-rc));
	rc = ba_fix_reserve(dev, j, why, sizeof(why));
	if (rc) {
		res->pub.refused = true;
		return fail(res, rc, "cannot move %s: %s; nothing was written",
			    pp->name, why);
	}
	snprintf(old, sizeof(old), "%s.old.sfdisk", o->journal);
	rc = ba_fix_save_old_table(
		ba_fix_table_source(dev, d->path, src, sizeof(src)), j->g.lss,
		old);
	if (rc)
		return fail(res, rc, "cannot save the old table to '%s': %s",
			    old, strerror(-rc));
	return 0;
}

/**
 * ba_fix_partition: realign partition @pp of the audited disk @d
 * (audited through @t's lock) as planned.  Returns 0, or -errno with
 * res->msg saying why (and, once the journal exists, how to resume
 * or roll back).  A dry run (o->dry_run) needs no @t.
 */
int ba_fix_partition(const struct blkalign_ctx *ctx,
		     struct blkalign_fix_target *t,
		     const struct blkalign_device *d,
		     const struct blkalign_plan_part *pp,
		     const struct blkalign_fix_opts *given,
		     struct ba_fix_res *res)
{
	struct blkalign_fix_opts copy, *o = &copy;
	struct ba_journal *j;
	struct ba_fix_run r = {0};
	int rc;

	memset(res, 0, sizeof(*res));
	if (!d || !pp || !given ||
	    ba_sized_copy(&copy, sizeof(copy), given, BA_FIX_OPTS_SIZE0) ||
	    !o->journal || (!t && !o->dry_run))
		return -EINVAL;
	j = calloc(1, sizeof(*j));
	if (!j)
		return -ENOMEM;
	rc = make_geom(ctx, d, pp, o, &j->g, res);
	if (rc)
		goto out;
	rc = blkalign_fix_check_journal(d->path, o->journal, res->msg,
					sizeof(res->msg));
	if (rc == -EEXIST)
		ba_fix_journal_exists(ctx, res->msg, sizeof(res->msg));
	if (rc == -ENOENT &&
	    o->dry_run) { /* its directory: made when writing */
		rc = 0;
		res->msg[0] = '\0';
	}
	if (rc)
		goto out;
	if (o->dry_run) {
		fill_result(res, &j->g, &r);
		/* no map is read before the run (plan reads it): "whole"
		 * here would say a used-blocks move copies everything */
		if (!o->copy_all)
			res->pub.map_source = NULL;
		if (j->g.new_start != j->g.old_start)
			snprintf(
				res->msg, sizeof(res->msg),
				"would copy %s%llu bytes%s in %s mode: %u "
				"region%s side by side, steps of %llu bytes",
				o->copy_all ? "" : "at most ",
				(unsigned long long)j->g.len,
				o->copy_all
					? ""
					: " (only the used blocks, by the map "
					  "read when it runs: plan counts them)",
				j->g.batch ? "batch" : "step", j->g.chains,
				j->g.chains == 1 ? "" : "s",
				(unsigned long long)j->g.step);
		goto out;
	}
	t->io.writes = t->io.flushes = t->io.read_back = 0;
	j->g.ident = t->ident;
	if (t->file.size != d->size) {
		rc = fail(res, -ESTALE, "'%s' changed size since the audit",
			  d->path);
		goto out;
	}
	rc = read_disk(t, d, pp, o, j, res);
	if (rc)
		goto out;
	j->st.phase = BA_PH_PREPARED;
	rc = ba_journal_create(j, &t->io, o->journal);
	if (rc) {
		char old[4096];

		fail(res, rc,
		     "cannot write the journal '%s': %s; nothing was "
		     "written to the disk",
		     o->journal, strerror(-rc));
		snprintf(old, sizeof(old), "%s.old.sfdisk", o->journal);
		unlink(old); /* no fix: no old table to keep */
		goto out;
	}
	r.ctx = t->ctx;
	r.dev = &t->file;
	r.j = j;
	r.opts = o;
	r.total = j->g.new_start == j->g.old_start ? 0
		  : j->map			   ? j->g.map_used
						   : j->g.len;
	if (o->copying && r.total)
		o->copying(o->progress_data, pp->number, r.total, j->g.len,
			   j->g.map_source, pp->content);
	rc = finish(&r, res, ba_fix_drive(&r, res));
out:
	if (t) {
		count_io(t, res);
		ba_fix_unreserve(&t->file); /* its map goes with j */
	}
	ba_journal_close(j);
	free(j);
	return rc;
}

/* Why the journal at @path cannot be opened, in words. */
static int journal_error(struct blkalign_fix_target *t, const char *path,
			 bool rollback, int rc, uint32_t old_format,
			 struct ba_fix_res *res)
{
	struct ba_fix_marker m;
	uint64_t off;

	switch (rc) {
	case -ENOENT:
		if (ba_fix_disk_marker(t->path, t->file.nbd, &m, &off) == 1)
			return fail(res, rc,
				    "no journal '%s', but '%s' carries the "
				    "marker of an interrupted fix at byte %llu "
				    "(%s): '%s %s' says what can be recovered",
				    path, t->path, (unsigned long long)off,
				    m.what,
				    ba_word(t->ctx, BLKALIGN_WORD_FIX_INSPECT),
				    t->path);
		return fail(res, rc, "no journal '%s': nothing to %s", path,
			    rollback ? "roll back" : "resume");
	case -EBUSY:
		return fail(res, rc,
			    "the journal '%s' is in use by another blkalign "
			    "fix",
			    path);
	case -EPROTO:
		return fail(res, rc,
			    "the journal '%s' was written by blkalign 0.1.0 "
			    "(journal format %u), which this version does "
			    "not read: finish it with that version",
			    path, old_format);
	case -EBADMSG:
		return fail(res, rc,
			    "'%s' is not a journal, or both copies of its "
			    "header are damaged: nothing can be resumed from "
			    "it ('%s' says more)",
			    path, ba_word(t->ctx, BLKALIGN_WORD_FIX_INSPECT));
	default:
		return fail(res, rc, "cannot read the journal '%s': %s", path,
			    strerror(-rc));
	}
}

/**
 * ba_fix_resume: finish (or, with @rollback, undo) the fix whose
 * journal is o->journal, on the locked target @t: only once the journal
 * holds what that needs and the disk is the journal's (fix-trust.c).
 */
int ba_fix_resume(struct blkalign_fix_target *t, bool rollback,
		  const struct blkalign_fix_opts *given, struct ba_fix_res *res)
{
	struct blkalign_fix_opts copy, *o = &copy;
	struct ba_journal *j;
	struct ba_fix_run r = {0};
	int rc;

	memset(res, 0, sizeof(*res));
	if (!t || !given ||
	    ba_sized_copy(&copy, sizeof(copy), given, BA_FIX_OPTS_SIZE0) ||
	    !o->journal)
		return -EINVAL;
	t->io.writes = t->io.flushes = t->io.read_back = 0;
	j = calloc(1, sizeof(*j));
	if (!j)
		return -ENOMEM;
	rc = ba_journal_open(j, &t->io, o->journal, false);
	if (rc) {
		journal_error(t, o->journal, rollback, rc, j->h.old_format,
			      res);
		res->pub.journal_kept = rc != -ENOENT;
		free(j);
		return rc;
	}
	r.ctx = t->ctx;
	r.dev = &t->file;
	r.j = j;
	r.opts = o;
	r.total = j->g.new_start == j->g.old_start ? 0
		  : j->map			   ? j->g.map_used
						   : j->g.len;
	rc = ba_fix_trust(&r, t, rollback, res->msg, sizeof(res->msg));
	if (!rc) {
		char why[BA_FIX_MSG - 128];

		rc = ba_fix_reserve(r.dev, j, why, sizeof(why));
		if (rc)
			snprintf(res->msg, sizeof(res->msg),
				 "cannot go on: %s; nothing more was written, "
				 "the journal is kept",
				 why);
	}
	if (rc) {
		fill_result(res, &j->g, &r);
		res->pub.journal_kept = true; /* refused: left as it is */
		goto out;
	}
	if (rollback)
		rc = ba_fix_start_rollback(&r);
	if (!rc)
		rc = ba_fix_drive(&r, res);
	rc = finish(&r, res, rc);
out:
	count_io(t, res);
	ba_fix_unreserve(&t->file); /* its map goes with j */
	ba_journal_close(j);
	free(j);
	return rc;
}
