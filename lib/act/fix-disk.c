/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix-disk.c - `blkalign fix` on a whole disk (docs/fix.md): audit and
 * plan it, fix (or, dry, describe) one partition, in an order that keeps
 * every move clear of the partitions not yet moved, audit and plan again
 * for the next, and the run's exit status (fix-status.c); or --resume and
 * --rollback, exactly what the journal describes.  The outcomes and their
 * messages belong to the run, freed with blkalign_fix_run_free.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fix.h"

#define MAX_ROUNDS 128

struct run {
	struct blkalign_fix_run pub;
	struct blkalign_fix_outcome v[MAX_ROUNDS];
	struct ba_fix_res res[MAX_ROUNDS]; /* v[i] while it is made */
	int *optional;
	bool no_partition; /* the partition asked for is not there */
};

static struct run *run_new(void)
{
	struct run *r = calloc(1, sizeof(*r));

	if (r)
		r->pub.outcomes = r->v;
	return r;
}

/* The results into the outcomes, with their messages (NULL: none). */
static struct blkalign_fix_run *publish(struct run *r)
{
	for (size_t i = 0; i < r->pub.noutcomes; i++) {
		r->v[i].res = r->res[i].pub;
		r->v[i].res.message = r->res[i].msg[0] ? r->res[i].msg : NULL;
	}
	r->pub.optional = r->optional;
	return &r->pub;
}

void blkalign_fix_run_free(struct blkalign_fix_run *pub)
{
	struct run *r = (struct run *)pub; /* pub is the first member */

	if (!r)
		return;
	free(r->optional);
	free(r);
}

/* One device audited through @ctx like `check`, with a dos or GPT table,
 * and its plan; NULL having said why.  An image in a qemu format is read
 * (or an NBD export) through @t's own NBD connection: it holds the
 * image's write lock, so no second qemu-nbd may open it. */
static struct blkalign_plan *audit_plan(struct blkalign_ctx *ctx,
					const struct blkalign_fix_target *t,
					const char *path,
					struct blkalign_report **rep)
{
	struct blkalign_plan *plan = NULL;
	int rc;

	*rep = blkalign_report_new(ctx);
	if (!*rep) {
		ba_log(ctx, "out of memory");
		return NULL;
	}
	if (t && t->file.nbd)
		rc = ba_check_image_nbd(*rep, path, t->file.nbd);
	else
		rc = blkalign_check_path(*rep, path);
	if (rc == -ENOMEM || blkalign_report_ndevices(*rep) != 1) {
		ba_log(ctx, "cannot audit '%s'", path);
		return NULL;
	}
	blkalign_report_plan(*rep, "fix", BLKALIGN_PLAN_TABLE_READ, &plan);
	return plan;
}

/* A partition holding the marker of an interrupted fix: say so. */
static bool interrupted(const struct blkalign_ctx *ctx,
			const struct blkalign_device *d)
{
	for (size_t i = 0; i < d->nfindings; i++)
		if (!strcmp(d->findings[i].code, "fix-interrupted")) {
			ba_log(ctx, "%s", d->findings[i].message);
			ba_log(ctx,
			       "finish that fix first: '%s %s FILE %s' (or "
			       "%s)",
			       ba_word(ctx, BLKALIGN_WORD_FIX_RESUME),
			       ba_word(ctx, BLKALIGN_WORD_JOURNAL), d->path,
			       ba_word(ctx, BLKALIGN_WORD_ROLLBACK));
			return true;
		}
	return false;
}

static bool wanted(const struct blkalign_plan_part *pp, int only)
{
	if (only)
		return pp->number == only && pp->action != BLKALIGN_PLAN_NONE;
	return pp->action == BLKALIGN_PLAN_MOVE ||
	       pp->action == BLKALIGN_PLAN_RESIZE ||
	       pp->action == BLKALIGN_PLAN_IMPOSSIBLE;
}

static bool done(const struct run *r, int number)
{
	for (size_t i = 0; i < r->pub.noutcomes; i++)
		if (r->res[i].pub.number == number)
			return true;
	return false;
}

static bool overlap(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
	return a < b + blen && b < a + alen;
}

/* Where @o is while @pp moves: where it is now, or in a dry run, where
 * it was said to go when that was said before. */
static bool in_the_way(const struct run *r, const struct blkalign_plan_part *pp,
		       const struct blkalign_plan_part *o, bool dry_run)
{
	bool moved = dry_run && done(r, o->number) &&
		     (o->action == BLKALIGN_PLAN_MOVE ||
		      o->action == BLKALIGN_PLAN_RESIZE);

	return moved ? overlap(pp->new_start, pp->new_size, o->new_start,
			       o->new_size)
		     : overlap(pp->new_start, pp->new_size, o->old_start,
			       o->old_size);
}

/*
 * The next partition to fix, or NULL: the first in table order whose
 * new place is clear of every other partition, the impossible ones last
 * (a move of another may make room for them: the next round's plan
 * says).  The plan is of the whole disk: a partition that grows or
 * moves into the place of the next one waits until that one has moved
 * on (the plan moved it right, into free space).  @blocked: when one is
 * wanted but every wanted one waits on another, the number of a
 * partition in the way, else 0.
 */
static const struct blkalign_plan_part *
next_part(const struct run *r, const struct blkalign_plan *plan, int only,
	  bool dry_run, int *blocked)
{
	*blocked = 0;
	for (size_t k = 0; k < 2 * plan->nparts; k++) {
		const struct blkalign_plan_part *pp =
			&plan->parts[k % plan->nparts];
		bool clear = true;

		if (!wanted(pp, only) || done(r, pp->number) ||
		    (k < plan->nparts) !=
			    (pp->action != BLKALIGN_PLAN_IMPOSSIBLE))
			continue;
		for (size_t o = 0; o < plan->nparts && clear; o++)
			if (o != k % plan->nparts &&
			    pp->action != BLKALIGN_PLAN_IMPOSSIBLE &&
			    in_the_way(r, pp, &plan->parts[o], dry_run)) {
				clear = false;
				*blocked = plan->parts[o].number;
			}
		if (clear)
			return pp;
	}
	return NULL;
}

/* @plan has partition @number (aligned or not). */
static bool has_part(const struct blkalign_plan *plan, int number)
{
	for (size_t k = 0; k < plan->nparts; k++)
		if (plan->parts[k].number == number)
			return true;
	return false;
}

/* Nothing to do: the partitions that may move, and how far. */
static int say_optional(struct run *r, const struct blkalign_plan *plan)
{
	r->optional =
		calloc(plan->nparts ? plan->nparts : 1, sizeof(*r->optional));
	if (!r->optional)
		return -ENOMEM;
	for (size_t k = 0; k < plan->nparts; k++)
		if (plan->parts[k].action == BLKALIGN_PLAN_OPTIONAL)
			r->optional[r->pub.noptional++] = plan->parts[k].number;
	r->pub.grain = plan->grain;
	return 0;
}

/* Partition @pp of @plan fixed (or described) as the next outcome. */
static void fix_one(struct run *r, const struct blkalign_ctx *ctx,
		    struct blkalign_fix_target *t,
		    const struct blkalign_plan *plan,
		    const struct blkalign_plan_part *pp,
		    const struct blkalign_fix_opts *o)
{
	size_t i = r->pub.noutcomes++;
	struct ba_fix_res *res = &r->res[i];
	int rc;

	rc = ba_fix_partition(ctx, o->dry_run ? NULL : t, plan->device, pp, o,
			      res);
	r->v[i].rc = rc;
	r->v[i].action = ba_fix_action(pp, res, rc, o->dry_run);
	r->pub.status = blkalign_status_merge(
		r->pub.status, blkalign_fix_status(rc, &res->pub, o->dry_run,
						   o->stop ? *o->stop : 0));
	if (rc && !res->pub.number) {
		res->pub.number = pp->number;
		res->pub.old_start = pp->old_start;
		res->pub.old_size = pp->old_size;
		res->pub.new_start = pp->new_start;
		res->pub.new_size = pp->new_size;
		res->pub.sector_size = (uint32_t)plan->device->topology
					       .logical_sector_size.value;
	}
}

/* One round: audit, plan, the next partition.  false: the run ends. */
static bool round_one(struct run *r, struct blkalign_ctx *ctx,
		      struct blkalign_fix_target *t, const char *path,
		      const struct blkalign_fix_opts *o, int only)
{
	struct blkalign_report *rep = NULL;
	struct blkalign_plan *plan = audit_plan(ctx, t, path, &rep);
	const struct blkalign_plan_part *pp = NULL;
	bool more = false;
	int blocked;

	if (!plan || interrupted(ctx, plan->device)) {
		r->pub.status = blkalign_status_merge(r->pub.status,
						      BLKALIGN_STATUS_FAILED);
		goto out;
	}
	pp = next_part(r, plan, only, o->dry_run, &blocked);
	if (!pp && blocked) {
		ba_log(ctx,
		       "partition %d has to move first: the plan puts what "
		       "is left to fix where it is now%s%s%s",
		       blocked, only ? " (fix it first, or run without " : "",
		       only ? ba_word(ctx, BLKALIGN_WORD_PARTITION) : "",
		       only ? ")" : "");
		r->pub.status = blkalign_status_merge(
			r->pub.status, BLKALIGN_STATUS_INCOMPLETE);
		goto out;
	}
	if (!pp) {
		if (only && !r->pub.noutcomes && !has_part(plan, only)) {
			/* a wrong argument: -ENOENT */
			ba_log(ctx, "'%s' has no partition %d to fix", path,
			       only);
			r->no_partition = true;
		} else if (only && !r->pub.noutcomes)
			ba_log(ctx, "partition %d: nothing to do (aligned)",
			       only);
		else if (!only && !r->pub.noutcomes && say_optional(r, plan))
			r->pub.status = blkalign_status_merge(
				r->pub.status, BLKALIGN_STATUS_FAILED);
		goto out;
	}
	fix_one(r, ctx, t, plan, pp, o);
	more = r->pub.status < 128 && !(r->pub.status & BLKALIGN_STATUS_FAILED);
out:
	blkalign_plan_free(plan);
	blkalign_report_unref(rep);
	return more;
}

/**
 * blkalign_fix_disk: see blkalign.h.
 */
int blkalign_fix_disk(struct blkalign_ctx *ctx, struct blkalign_fix_target *t,
		      const char *path, const struct blkalign_fix_opts *given,
		      int partition, struct blkalign_fix_run **out)
{
	struct blkalign_fix_opts copy, *o = &copy;
	struct blkalign_ctx *own = NULL;
	struct run *r;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!path || !given ||
	    ba_sized_copy(&copy, sizeof(copy), given, BA_FIX_OPTS_SIZE0) ||
	    (!t && !o->dry_run) || partition < 0)
		return -EINVAL;
	if (!ctx) {
		ctx = own = blkalign_ctx_new();
		if (!ctx)
			return -ENOMEM;
	}
	r = run_new();
	if (!r) {
		blkalign_ctx_unref(own);
		return -ENOMEM;
	}
	for (int round = 0; round < MAX_ROUNDS && r->pub.noutcomes < MAX_ROUNDS;
	     round++)
		if (!round_one(r, ctx, t, path, o, partition))
			break;
	blkalign_ctx_unref(own);
	*out = publish(r);
	if (r->no_partition) {
		blkalign_fix_run_free(*out);
		*out = NULL;
		return -ENOENT;
	}
	return 0;
}

/**
 * blkalign_fix_resume: see blkalign.h.
 */
int blkalign_fix_resume(struct blkalign_fix_target *t, bool rollback,
			const struct blkalign_fix_opts *given,
			struct blkalign_fix_run **out)
{
	struct blkalign_fix_opts copy, *o = &copy;
	struct run *r;
	int rc;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!t || !given ||
	    ba_sized_copy(&copy, sizeof(copy), given, BA_FIX_OPTS_SIZE0))
		return -EINVAL;
	r = run_new();
	if (!r)
		return -ENOMEM;
	rc = ba_fix_resume(t, rollback, o, &r->res[0]);
	r->pub.noutcomes = 1;
	r->v[0].rc = rc;
	r->v[0].action = ba_fix_resume_action(&r->res[0], rc);
	r->pub.status = blkalign_fix_status(rc, &r->res[0].pub, false,
					    o->stop ? *o->stop : 0);
	*out = publish(r);
	return 0;
}
