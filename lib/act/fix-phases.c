/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix-phases.c - the journal's phases (docs/fix.md, "Phases"): prepared
 * (hide the head; a move to the left also points the table at the new
 * place), moving (fix-move.c), finish (the real head, magic and marker
 * last, then the table, then the kernel), and the rollback's phases.
 * Every phase is recorded before the next, and doing one again after a
 * crash is harmless.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fix.h"

/* Tell the kernel; if it cannot be told, say what to run. */
static void reread(const struct ba_fix_run *r, const struct ba_fix_geom *g,
		   struct ba_fix_res *res)
{
	if (ba_fix_tell_kernel(r->ctx, r->dev, r->dev->path, g->lss))
		snprintf(res->msg, sizeof(res->msg),
			 "the table is written but the kernel still has the "
			 "old partitions: run 'partx -u %.200s'",
			 g->path);
}

/*
 * Write @len bytes of head at @start in flushed parts.  Hiding (@reveal
 * false): the first 4 KiB (where ext, XFS, FAT, NTFS, LUKS and LVM keep
 * their magic, and the marker is) first, then the rest: a torn write
 * never leaves a magic whose file system is gone.  Revealing: the rest,
 * then the first 4 KiB but its first sector, then that sector (the
 * marker) last: until the very last write the marker is there, and a
 * file system shows only when every byte it reads is in place.
 */
static int write_head_parts(struct ba_file *f, const uint8_t *h, uint64_t len,
			    uint64_t start, uint32_t lss, bool reveal)
{
	uint64_t a = len < 4096 ? len : 4096, s = lss < a ? lss : a;
	uint64_t cut[3][2] = {{0, a}, {a, len}, {0, 0}};
	int rc = 0;

	if (reveal) {
		cut[0][0] = a, cut[0][1] = len;
		cut[1][0] = s, cut[1][1] = a;
		cut[2][0] = 0, cut[2][1] = s;
	}
	for (int i = 0; i < 3 && !rc; i++) {
		uint64_t off = cut[i][0], n = cut[i][1] - cut[i][0];

		if (!n)
			continue;
		rc = ba_file_write(f, h + off, (size_t)n, start + off);
		if (!rc)
			rc = ba_file_flush(f);
	}
	return rc;
}

/* Hide the first @len bytes of the head at @start: the marker and
 * zeros, magic first. */
static int hide_head_len(struct ba_file *f, const struct ba_journal *j,
			 uint64_t start, uint64_t len)
{
	uint8_t *z = ba_file_alloc(j->g.head_len);
	int rc;

	if (!z)
		return -ENOMEM;
	ba_fix_hide_head(&j->g, z, 0, j->g.head_len);
	rc = write_head_parts(f, z, len, start, j->g.lss, false);
	free(z);
	return rc;
}

static int hide_head(struct ba_file *f, const struct ba_journal *j,
		     uint64_t start)
{
	return hide_head_len(f, j, start, j->g.head_len);
}

/*
 * Where the table points while data move (docs/fix.md, "The marker"):
 * a move to the right never overwrites its source's first sector, so
 * the table keeps pointing at the source; a move to the left overwrites
 * it (its destination runs over the source's start), so before the first
 * step the destination's head is hidden (with the marker) below the
 * source's, which keeps its own, and the table points at the
 * destination.  Either way the partition the table shows starts with
 * the marker until the move is over.
 */
static int point_table_left(struct ba_file *f, const struct ba_journal *j)
{
	const struct ba_fix_geom *g = &j->g;
	uint64_t below = g->old_start - g->new_start;
	int rc = hide_head_len(f, j, g->new_start,
			       below < g->head_len ? below : g->head_len);

	return rc ? rc : ba_fix_apply_patches(f, j, true);
}

/* The marker left at @at, in what is free space once the fix ends (the
 * old start after a move to the right, the new start after a rollback
 * of a move to the left), cleared. */
static int clear_marker(struct ba_file *f, const struct ba_journal *j,
			uint64_t at)
{
	uint8_t *z = ba_file_alloc(j->g.lss);
	int rc;

	if (!z)
		return -ENOMEM;
	rc = ba_file_write(f, z, j->g.lss, at);
	free(z);
	return rc ? rc : ba_file_flush(f);
}

/* Put the real head at @start (with the FAT/NTFS field), magic last. */
static int write_head(struct ba_file *f, const struct ba_journal *j,
		      uint64_t start, bool patch)
{
	uint8_t *h = ba_file_alloc(j->g.head_len);
	int rc;

	if (!h)
		return -ENOMEM;
	memcpy(h, j->head, j->g.head_len);
	if (patch)
		ba_fix_patch_head(j, h, start);
	rc = write_head_parts(f, h, j->g.head_len, start, j->g.lss, true);
	if (!rc) /* the head is nowhere else: read it back */
		rc = ba_file_verify(f, h, j->g.head_len, start);
	free(h);
	return rc;
}

static void set_move(struct ba_fix_state *st, uint64_t from, uint64_t to,
		     uint64_t lo, uint64_t hi)
{
	st->from = from;
	st->to = to;
	st->lo = lo;
	st->hi = hi;
	st->done = 0;
	st->inflight = 0;
	st->level = 0;
	st->rb_levels = 0;
}

/* Step mode, before moving back: the rollback's boundaries, as they are
 * at the new place, into the journal. */
static int save_rb_bounds(struct ba_fix_run *r)
{
	struct ba_journal *j = r->j;
	uint64_t len = ba_fix_bound_len(&j->g);
	uint8_t *buf;
	int rc;

	if (!len)
		return 0;
	buf = ba_file_buffer(len);
	if (!buf)
		return -ENOMEM;
	rc = ba_fix_read_bounds(r, j->g.old_start > j->g.new_start,
				j->g.new_start, buf);
	if (!rc)
		rc = ba_journal_write_bounds(j, buf);
	if (rc) {
		free(buf);
		return rc;
	}
	free(j->bound); /* the forward move's: done with */
	j->bound = buf;
	j->bound_rb = true;
	return 0;
}

/*
 * Step mode, a move stopped part-way: every region has moved the same
 * number of levels (of the window in flight, those that landed whole);
 * that part of each goes back (st.rb_levels), or nothing when no level
 * did (the end of the rollback still puts the boundaries back).
 */
static int step_rollback(struct ba_fix_run *r)
{
	struct ba_journal *j = r->j;
	struct ba_fix_state *st = &j->st;
	uint64_t levels;
	int rc = ba_fix_settle(r);

	if (rc)
		return rc;
	levels = st->level;
	if (!levels) {
		st->phase = BA_PH_RB_FINISH;
		return 0;
	}
	rc = save_rb_bounds(r);
	if (rc)
		return rc;
	set_move(st, j->g.new_start, j->g.old_start, 0, j->g.len);
	st->rb_levels = levels;
	st->phase = BA_PH_RB_MOVING;
	return 0;
}

/**
 * ba_fix_start_rollback: turn the journal's state into a rollback from
 * wherever it is (recorded).  Returns 0 or -errno.
 */
int ba_fix_start_rollback(struct ba_fix_run *r)
{
	struct ba_journal *j = r->j;
	struct ba_fix_state *st = &j->st;
	const struct ba_fix_geom *g = &j->g;
	uint64_t lo, hi;

	switch (st->phase) {
	case BA_PH_PREPARED:
		st->phase = BA_PH_RB_FINISH;
		break;
	case BA_PH_MOVING:
		if (!g->batch) {
			int rc = step_rollback(r);

			if (rc)
				return rc;
			break;
		}
		if (st->inflight) {
			/* the batch in flight may have overwritten its own
			 * source: put it down from the journal first */
			int rc = ba_fix_finish_batch(r);

			if (rc)
				return rc;
		}
		if (st->to > st->from) {
			lo = st->hi - st->done;
			hi = st->hi;
		} else {
			lo = st->lo;
			hi = st->lo + st->done;
		}
		if (lo == hi) {
			st->phase = BA_PH_RB_FINISH;
			break;
		}
		set_move(st, g->new_start, g->old_start, lo, hi);
		st->phase = BA_PH_RB_MOVING;
		break;
	case BA_PH_FINISH:
		st->phase = BA_PH_RB_TABLE;
		break;
	default:
		return 0; /* already rolling back */
	}
	return ba_journal_record(j, NULL);
}

/**
 * ba_fix_drive: run the journal's phases to the end (the kernel told,
 * @res->msg set when it could not be).  Returns 0 or -errno; the
 * journal says where it stopped.
 */
int ba_fix_drive(struct ba_fix_run *r, struct ba_fix_res *res)
{
	struct ba_journal *j = r->j;
	struct ba_fix_state *st = &j->st;
	const struct ba_fix_geom *g = &j->g;
	int rc = 0;

	while (!rc) {
		switch (st->phase) {
		case BA_PH_PREPARED:
			if (!st->touched) {
				/* from here on the disk may show the marker */
				st->touched = 1;
				rc = ba_journal_record(j, NULL);
				if (rc)
					break;
			}
			if (g->new_start != g->old_start) {
				rc = hide_head(r->dev, j, g->old_start);
				if (!rc && g->new_start < g->old_start)
					rc = point_table_left(r->dev, j);
				set_move(st, g->old_start, g->new_start, 0,
					 g->len);
				st->phase = BA_PH_MOVING;
				st->moved = 1;
			} else {
				st->phase = BA_PH_FINISH;
			}
			if (!rc)
				rc = ba_journal_record(j, NULL);
			break;
		case BA_PH_MOVING:
			rc = ba_journal_load_bounds(j, false);
			if (!rc)
				rc = ba_fix_move(r, BA_PH_FINISH);
			break;
		case BA_PH_FINISH:
			rc = ba_fix_patch_ntfs_backup(r->dev, j, g->new_start);
			if (!rc)
				rc = write_head(r->dev, j, g->new_start, true);
			if (!rc)
				rc = ba_fix_apply_patches(r->dev, j, true);
			if (!rc && g->new_start > g->old_start)
				rc = clear_marker(r->dev, j, g->old_start);
			if (!rc)
				reread(r, g, res);
			return rc;
		case BA_PH_RB_TABLE:
			/* moving back: the table at the source when that is a
			 * move to the right, else at the destination */
			if (g->new_start != g->old_start)
				rc = hide_head(r->dev, j, g->new_start);
			if (!rc)
				rc = ba_fix_apply_patches(
					r->dev, j, g->new_start < g->old_start);
			if (!rc && g->new_start != g->old_start) {
				rc = save_rb_bounds(r);
				set_move(st, g->new_start, g->old_start, 0,
					 g->len);
				st->phase = BA_PH_RB_MOVING;
			} else {
				st->phase = BA_PH_RB_FINISH;
			}
			if (!rc)
				rc = ba_journal_record(j, NULL);
			break;
		case BA_PH_RB_MOVING:
			r->total = ba_fix_move_bytes(j);
			rc = ba_journal_load_bounds(j, true);
			if (!rc)
				rc = ba_fix_move(r, BA_PH_RB_FINISH);
			break;
		case BA_PH_RB_FINISH:
			if (ba_fix_bound_len(g) && st->moved) {
				/* step mode: the boundaries a first level
				 * overwrote, even one that did not land whole
				 * (after a whole move back: the same bytes) */
				rc = ba_journal_load_bounds(j, false);
				if (!rc)
					rc = ba_fix_restore_bounds(r);
			}
			if (!rc)
				rc = ba_fix_patch_ntfs_backup(r->dev, j,
							      g->old_start);
			if (!rc)
				rc = write_head(r->dev, j, g->old_start, false);
			if (!rc)
				rc = ba_fix_apply_patches(r->dev, j, false);
			if (!rc && g->new_start < g->old_start)
				rc = clear_marker(r->dev, j, g->new_start);
			if (!rc) {
				reread(r, g, res);
				res->pub.rolled_back = true;
			}
			return rc;
		default:
			return -EBADMSG;
		}
	}
	return rc;
}
