/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix.c - `blkalign fix`: one planned partition realigned in place
 * (docs/fix.md).  The library's entry points: prepare (the refusals, the
 * geometry, the table patches, the journal), then drive the journal's
 * phases to the end (fix-phases.c); resume and rollback start from
 * whatever phase the journal holds.
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
	rc = finish(&r, res, ba_fix_drive(&r, res));
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
		rc = ba_fix_start_rollback(&r);
	if (!rc)
		rc = ba_fix_drive(&r, res);
	rc = finish(&r, res, rc);
out_dev:
	ba_file_close(&dev);
out_j:
	ba_journal_close(j);
	free(j);
	return rc;
}
