/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix.c - `blkalign fix`: one planned partition realigned in place
 * (docs/fix.md).  Prepare (checks, journal), then drive the journal's
 * phases to the end: hide the head, move, write the head and the new
 * table, re-read it.  Resume and rollback start from whatever phase the
 * journal holds.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <xxhash.h>

#include "fix.h"

#define DEFAULT_STEP (16 * MIB)

static int fail(struct blkalign_fix_result *res, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct blkalign_fix_result *res, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(res->message, sizeof(res->message), fmt, ap);
	va_end(ap);
	return rc;
}

uint64_t blkalign_fix_io_writes(void)
{
	return ba_fix_writes();
}

uint64_t blkalign_fix_io_flushes(void)
{
	return ba_fix_flushes();
}

/* An image attached to a loop device is in use: the loop's name, or NULL. */
static const char *image_attached(const struct stat *img, char *name,
				  size_t len)
{
	DIR *dir = opendir("/sys/block");
	struct dirent *e;
	const char *found = NULL;

	if (!dir)
		return NULL;
	while (!found && (e = readdir(dir))) {
		char p[600], back[4096];
		struct stat st;
		FILE *f;

		if (strncmp(e->d_name, "loop", 4))
			continue;
		snprintf(p, sizeof(p), "/sys/block/%s/loop/backing_file",
			 e->d_name);
		f = fopen(p, "re");
		if (!f)
			continue;
		if (fgets(back, sizeof(back), f)) {
			back[strcspn(back, "\n")] = '\0';
			if (!stat(back, &st) && st.st_dev == img->st_dev &&
			    st.st_ino == img->st_ino) {
				snprintf(name, len, "/dev/%s", e->d_name);
				found = name;
			}
		}
		fclose(f);
	}
	closedir(dir);
	return found;
}

/* Is the file system holding @dir on block device @disk (or a partition)? */
static bool on_device(const char *dir, dev_t disk)
{
	char p[128], a[4096], b[4096];
	struct stat st;

	if (stat(dir, &st))
		return false;
	if (st.st_dev == disk)
		return true;
	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u", major(disk),
		 minor(disk));
	if (!realpath(p, a))
		return false;
	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u", major(st.st_dev),
		 minor(st.st_dev));
	if (!realpath(p, b))
		return false;
	return !strncmp(a, b, strlen(a)) && b[strlen(a)] == '/';
}

/*
 * Open the target for writing: a block device exclusively (the kernel
 * refuses while it or a partition is mounted, in md, LVM or dm, or open
 * exclusively elsewhere); an image locked, and not while a loop device
 * has it.  Also refuse a journal on the target itself.
 */
static int open_target(struct ba_file *f, const char *path, const char *journal,
		       struct blkalign_fix_result *res)
{
	char jdir[4096], loop[300];
	struct stat st;
	int rc;

	if (stat(path, &st))
		return fail(res, -errno, "cannot stat '%s': %s", path,
			    strerror(errno));
	snprintf(jdir, sizeof(jdir), "%s", journal);
	if (S_ISBLK(st.st_mode) && on_device(dirname(jdir), st.st_rdev))
		return fail(res, -EXDEV,
			    "the journal '%s' is on '%s' itself: "
			    "put it on another disk (--journal)",
			    journal, path);
	if (S_ISREG(st.st_mode) && image_attached(&st, loop, sizeof(loop)))
		return fail(res, -EBUSY,
			    "'%s' is attached to %s: detach it, "
			    "or fix %s instead",
			    path, loop, loop);
	rc = ba_file_open(f, path, O_RDWR | (S_ISBLK(st.st_mode) ? O_EXCL : 0),
			  true);
	if (rc == -EBUSY)
		return fail(res, rc,
			    "'%s' is busy: a partition is mounted or "
			    "used by md, LVM, device-mapper or another "
			    "program",
			    path);
	if (rc)
		return fail(res, rc, "cannot open '%s' for writing: %s", path,
			    strerror(-rc));
	if (S_ISREG(st.st_mode) && flock(f->fd, LOCK_EX | LOCK_NB)) {
		ba_file_close(f);
		return fail(res, -EBUSY, "'%s' is locked by another program",
			    path);
	}
	return 0;
}

/* Tell the kernel; if it cannot be told, say what to run. */
static void reread(struct ba_file *f, const struct ba_fix_geom *g,
		   struct blkalign_fix_result *res)
{
	if (ba_fix_tell_kernel(f, f->path, g->lss))
		snprintf(res->message, sizeof(res->message),
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

/* After a rollback of a left move: the marker left at the new start, in
 * what is free space again, cleared. */
static int clear_left_marker(struct ba_file *f, const struct ba_journal *j)
{
	uint8_t *z = ba_file_alloc(j->g.lss);
	int rc;

	if (!z)
		return -ENOMEM;
	rc = ba_file_write(f, z, j->g.lss, j->g.new_start);
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
	free(h);
	return rc;
}

/**
 * blkalign_fix_check_journal: may @journal serve a new fix of @target?
 * Returns 0; -EINVAL when it is the target itself or not a regular file;
 * -EEXIST when it exists (an earlier fix was interrupted).  @msg says
 * which.
 */
int blkalign_fix_check_journal(const char *target, const char *journal,
			       char *msg, size_t len)
{
	struct stat js, ts;

	if (stat(journal, &js))
		return 0;
	if (!stat(target, &ts) &&
	    ((S_ISREG(ts.st_mode) && js.st_dev == ts.st_dev &&
	      js.st_ino == ts.st_ino) ||
	     (S_ISBLK(ts.st_mode) && S_ISBLK(js.st_mode) &&
	      js.st_rdev == ts.st_rdev))) {
		snprintf(msg, len,
			 "the journal '%s' is the target itself: put it on "
			 "another disk",
			 journal);
		return -EINVAL;
	}
	if (!S_ISREG(js.st_mode)) {
		snprintf(msg, len, "the journal '%s' is not a regular file",
			 journal);
		return -EINVAL;
	}
	snprintf(msg, len,
		 "a journal '%s' exists: an earlier fix was interrupted; "
		 "finish it with '--resume' or undo it with '--rollback'",
		 journal);
	return -EEXIST;
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
}

/* Turn the journal's state into a rollback from wherever it is. */
static int start_rollback(struct ba_fix_run *r)
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
			/* step mode: the regions are each partly moved; finish
			 * moving, then move it all back */
			st->phase = BA_PH_RB_FORWARD;
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

/* Run the journal's phases to the end. */
static int drive(struct ba_fix_run *r, struct blkalign_fix_result *res)
{
	struct ba_journal *j = r->j;
	struct ba_fix_state *st = &j->st;
	const struct ba_fix_geom *g = &j->g;
	int rc = 0;

	while (!rc) {
		switch (st->phase) {
		case BA_PH_PREPARED:
			if (g->new_start != g->old_start) {
				rc = hide_head(r->dev, j, g->old_start);
				if (!rc && g->new_start < g->old_start)
					rc = point_table_left(r->dev, j);
				set_move(st, g->old_start, g->new_start, 0,
					 g->len);
				st->phase = BA_PH_MOVING;
			} else {
				st->phase = BA_PH_FINISH;
			}
			if (!rc)
				rc = ba_journal_record(j, NULL);
			break;
		case BA_PH_MOVING:
		case BA_PH_RB_FORWARD:
			rc = ba_journal_load_bounds(j, false);
			if (!rc)
				rc = ba_fix_move(r, st->phase == BA_PH_MOVING
							    ? BA_PH_FINISH
							    : BA_PH_RB_TABLE);
			break;
		case BA_PH_FINISH:
			rc = ba_fix_patch_ntfs_backup(r->dev, j, g->new_start);
			if (!rc)
				rc = write_head(r->dev, j, g->new_start, true);
			if (!rc)
				rc = ba_fix_apply_patches(r->dev, j, true);
			if (!rc)
				reread(r->dev, g, res);
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
			rc = ba_journal_load_bounds(j, true);
			if (!rc)
				rc = ba_fix_move(r, BA_PH_RB_FINISH);
			break;
		case BA_PH_RB_FINISH:
			rc = ba_fix_patch_ntfs_backup(r->dev, j, g->old_start);
			if (!rc)
				rc = write_head(r->dev, j, g->old_start, false);
			if (!rc)
				rc = ba_fix_apply_patches(r->dev, j, false);
			if (!rc && g->new_start < g->old_start)
				rc = clear_left_marker(r->dev, j);
			if (!rc) {
				reread(r->dev, g, res);
				res->rolled_back = true;
			}
			return rc;
		default:
			return -EBADMSG;
		}
	}
	return rc;
}

static void fill_result(struct blkalign_fix_result *res,
			const struct ba_fix_geom *g, const struct ba_fix_run *r)
{
	res->number = (int)g->number;
	res->sector_size = g->lss;
	res->old_start = g->old_start;
	res->old_size = g->old_size;
	res->new_start = g->new_start;
	res->new_size = g->new_size;
	res->bytes_copied = r->moved;
	res->batch = g->batch;
	res->steps = r->steps;
	res->seconds = r->seconds;
}

static int finish(struct ba_fix_run *r, struct blkalign_fix_result *res, int rc)
{
	const char *jp = r->j->file.path;

	fill_result(res, &r->j->g, r);
	res->journal_kept = rc != 0;
	if (!rc) {
		if (unlink(jp))
			snprintf(res->message, sizeof(res->message),
				 "done, but the journal '%s' could not be "
				 "removed: remove it",
				 jp);
	} else if (rc == -EINTR) {
		fail(res, rc,
		     "stopped; the journal '%s' says where: "
		     "'blkalign fix --resume' finishes, "
		     "'--rollback' undoes",
		     jp);
	} else if (!res->message[0]) {
		fail(res, rc,
		     "%s; nothing is lost: the journal '%s' is kept, "
		     "'blkalign fix --resume' or '--rollback' "
		     "continue from it",
		     strerror(-rc), jp);
	}
	return rc;
}

static uint64_t round_up(uint64_t x, uint64_t g)
{
	return (x + g - 1) / g * g;
}

/* The geometry and the refusals of prepare. */
static int make_geom(const struct blkalign_device *d,
		     const struct blkalign_plan_part *pp,
		     const struct blkalign_fix_opts *o, struct ba_fix_geom *g,
		     struct blkalign_fix_result *res)
{
	uint32_t lss = (uint32_t)d->topology.logical_sector_size.value;
	uint64_t shift, step = o->max_step ? o->max_step : DEFAULT_STEP;

	if (step > BA_FIX_STEP_MAX)
		step = BA_FIX_STEP_MAX;
	const char *c = pp->content;

	if (pp->action == BLKALIGN_PLAN_IMPOSSIBLE)
		return fail(res, -ENOSPC,
			    "partition %d cannot be realigned: "
			    "%s",
			    pp->number, pp->reason ? pp->reason : "no room");
	if (pp->action == BLKALIGN_PLAN_NONE)
		return fail(res, -EALREADY, "partition %d is aligned",
			    pp->number);
	if (!pp->used_known && !o->copy_all)
		return fail(
			res, -EOPNOTSUPP,
			"partition %d holds %s, which blkalign cannot size: "
			"--copy-all copies the whole partition",
			pp->number, c ? c : "nothing it recognises");
	if (c && pp->new_size != pp->old_size &&
	    ((!strcmp(c, "md") && pp->used_size == pp->old_size) ||
	     !strcmp(c, "zfs_member")))
		return fail(res, -EOPNOTSUPP,
			    "partition %d holds %s with metadata at its end: "
			    "its size would have to stay",
			    pp->number, c);
	if (pp->new_size < pp->used_size)
		return fail(res, -EFBIG,
			    "partition %d: its contents need %llu "
			    "bytes, the new size is %llu",
			    pp->number, (unsigned long long)pp->used_size,
			    (unsigned long long)pp->new_size);
	if (!lss || pp->new_start % lss || pp->new_size % lss ||
	    pp->old_start % lss)
		return fail(res, -EINVAL,
			    "partition %d: the plan is not in "
			    "whole sectors",
			    pp->number);
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

/**
 * blkalign_fix_partition: realign partition @pp of the audited disk @d
 * as planned.  Returns 0, or -errno with res->message saying why (and,
 * once the journal exists, how to resume or roll back).
 */
int blkalign_fix_partition(const struct blkalign_device *d,
			   const struct blkalign_plan_part *pp,
			   const struct blkalign_fix_opts *o,
			   struct blkalign_fix_result *res)
{
	struct ba_journal *j;
	struct ba_file dev;
	struct ba_fix_run r = {0};
	char tbuf[4096];
	int rc;

	memset(res, 0, sizeof(*res));
	if (!d || !pp || !o || !o->journal)
		return -EINVAL;
	j = calloc(1, sizeof(*j));
	if (!j)
		return -ENOMEM;
	rc = make_geom(d, pp, o, &j->g, res);
	if (rc)
		goto out_j;
	rc = blkalign_fix_check_journal(d->path, o->journal, res->message,
					sizeof(res->message));
	if (rc)
		goto out_j;
	if (o->dry_run) {
		struct ba_fix_run none = {0};

		fill_result(res, &j->g, &none);
		if (j->g.new_start != j->g.old_start)
			snprintf(
				res->message, sizeof(res->message),
				"would copy %llu bytes in %s mode: %u region%s "
				"side by side, steps of %llu bytes",
				(unsigned long long)j->g.len,
				j->g.batch ? "batch" : "step", j->g.chains,
				j->g.chains == 1 ? "" : "s",
				(unsigned long long)j->g.step);
		goto out_j;
	}
	rc = open_target(&dev, d->path, o->journal, res);
	if (rc)
		goto out_j;
	if (dev.size != d->size) {
		rc = fail(res, -ESTALE, "'%s' changed size since the audit",
			  d->path);
		goto out_dev;
	}
	j->head = ba_file_alloc(j->g.head_len);
	if (!j->head) {
		rc = -ENOMEM;
		goto out_dev;
	}
	rc = ba_file_read(&dev, j->head, j->g.head_len, j->g.old_start);
	if (rc) {
		fail(res, rc, "cannot read partition %d: %s", pp->number,
		     strerror(-rc));
		goto out_dev;
	}
	j->g.fs_patch = ba_fix_fs_patch_kind(pp->content, j->head,
					     j->g.head_len, j->g.old_start);
	if (ba_fix_bound_len(&j->g)) {
		struct ba_fix_run tmp = {.dev = &dev, .j = j};
		uint64_t blen = ba_fix_bound_len(&j->g);

		j->bound = ba_file_buffer(blen);
		rc = j->bound ? ba_fix_read_bounds(
					&tmp, j->g.new_start > j->g.old_start,
					j->g.old_start, j->bound)
			      : -ENOMEM;
		if (rc) {
			fail(res, rc, "cannot read partition %d: %s",
			     pp->number, strerror(-rc));
			goto out_dev;
		}
		j->g.bound_hash = XXH3_64bits(j->bound, (size_t)blen);
	}
	rc = ba_fix_table_patches(&dev, d, j, tmpdir_of(o, tbuf, sizeof(tbuf)),
				  res->message, sizeof(res->message));
	if (rc)
		goto out_dev;
	{
		char old[4096];

		snprintf(old, sizeof(old), "%s.old.sfdisk", o->journal);
		rc = ba_fix_save_old_table(d->path, j->g.lss, old);
		if (rc) {
			fail(res, rc, "cannot save the old table to '%s': %s",
			     old, strerror(-rc));
			goto out_dev;
		}
	}
	j->st.phase = BA_PH_PREPARED;
	rc = ba_journal_create(j, o->journal);
	if (rc) {
		fail(res, rc, "cannot write the journal '%s': %s", o->journal,
		     strerror(-rc));
		goto out_dev;
	}
	r.dev = &dev;
	r.j = j;
	r.opts = o;
	r.total = j->g.new_start != j->g.old_start ? j->g.len : 0;
	rc = finish(&r, res, drive(&r, res));
out_dev:
	ba_file_close(&dev);
out_j:
	ba_journal_close(j);
	free(j);
	return rc;
}

/* Is this the disk of the journal?  Size, sector and every table patch. */
static int same_disk(struct ba_file *dev, const struct ba_journal *j,
		     struct blkalign_fix_result *res)
{
	if (dev->size != j->g.disk_size)
		return fail(res, -ESTALE,
			    "the journal is for a disk of %llu "
			    "bytes, '%s' has %llu",
			    (unsigned long long)j->g.disk_size, dev->path,
			    (unsigned long long)dev->size);
	for (uint32_t i = 0; i < j->g.npatches; i++) {
		const struct ba_fix_patch *p = &j->patches[i];
		uint8_t *buf = ba_file_alloc(p->len);
		bool ok;

		if (!buf)
			return -ENOMEM;
		ok = !ba_file_read(dev, buf, p->len, p->off) &&
		     (!memcmp(buf, p->old, p->len) ||
		      !memcmp(buf, p->new, p->len));
		free(buf);
		if (!ok)
			return fail(res, -ESTALE,
				    "the partition table of '%s' is neither "
				    "the old nor the new one of the journal: "
				    "wrong disk or journal",
				    dev->path);
	}
	return 0;
}

/**
 * blkalign_fix_resume: finish (or, with @rollback, undo) the fix whose
 * journal is o->journal, on @target.
 */
int blkalign_fix_resume(const char *target, bool rollback,
			const struct blkalign_fix_opts *o,
			struct blkalign_fix_result *res)
{
	struct ba_journal *j;
	struct ba_file dev;
	struct ba_fix_run r = {0};
	int rc;

	memset(res, 0, sizeof(*res));
	if (!target || !o || !o->journal)
		return -EINVAL;
	j = calloc(1, sizeof(*j));
	if (!j)
		return -ENOMEM;
	rc = ba_journal_open(j, o->journal);
	if (rc) {
		fail(res, rc,
		     rc == -ENOENT    ? "no journal '%s': nothing to "
					"resume"
		     : rc == -EBADMSG ? "the journal '%s' is damaged"
				      : "cannot read the journal '%s'",
		     o->journal);
		free(j);
		return rc;
	}
	rc = open_target(&dev, target, o->journal, res);
	if (rc)
		goto out_j;
	rc = same_disk(&dev, j, res);
	if (rc)
		goto out_dev;
	r.dev = &dev;
	r.j = j;
	r.opts = o;
	r.total = j->g.new_start != j->g.old_start ? j->g.len : 0;
	if (rollback)
		rc = start_rollback(&r);
	if (!rc)
		rc = drive(&r, res);
	rc = finish(&r, res, rc);
out_dev:
	ba_file_close(&dev);
out_j:
	ba_journal_close(j);
	free(j);
	return rc;
}
