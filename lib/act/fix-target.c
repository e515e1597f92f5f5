/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix-target.c - the disk a fix writes to, opened and locked before it is
 * audited and planned (so that the plan is made under the lock): a block
 * device O_EXCL (the kernel refuses while it or a partition is mounted,
 * in md, LVM or dm, or open exclusively elsewhere; a second fix too), an
 * image flock'ed and not while a loop device has it.  Also where its
 * journal goes: the default path, named by the disk's identity, and the
 * journals of a directory that belong to it.  An image that a qemu still
 * has open (the qemu-nbd of a fix killed a moment ago exits only once it
 * has flushed the image) is waited for, a few seconds at most.
 */
#include <blkid/blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "fix.h"

static int say(char *msg, size_t len, int rc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int say(char *msg, size_t len, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, len, fmt, ap);
	va_end(ap);
	return rc;
}

/* Is the loop device of sysfs directory @dir (its block/<name>) backed by
 * the image @img? */
static bool backs(const char *dir, const struct stat *img)
{
	char p[PATH_MAX + 32], back[4096];
	struct stat st;
	bool same = false;
	FILE *f;

	snprintf(p, sizeof(p), "%.*s/loop/backing_file", PATH_MAX, dir);
	f = fopen(p, "re");
	if (!f)
		return false;
	if (fgets(back, sizeof(back), f)) {
		back[strcspn(back, "\n")] = '\0';
		same = !stat(back, &st) && st.st_dev == img->st_dev &&
		       st.st_ino == img->st_ino;
	}
	fclose(f);
	return same;
}

/* An image attached to a loop device is in use: the loop's name, or NULL
 * (sysfs below @ctx's sysroot). */
static const char *image_attached(const struct blkalign_ctx *ctx,
				  const struct stat *img, char *name,
				  size_t len)
{
	char *top = ba_sysfs_path(ctx, "/sys/block");
	DIR *dir = top ? opendir(top) : NULL;
	struct dirent *e;
	const char *found = NULL;

	while (dir && !found && (e = readdir(dir))) {
		char p[PATH_MAX];

		if (strncmp(e->d_name, "loop", 4) ||
		    snprintf(p, sizeof(p), "%s/%s", top, e->d_name) >=
			    (int)sizeof(p))
			continue;
		if (backs(p, img)) {
			snprintf(name, len, "/dev/%s", e->d_name);
			found = name;
		}
	}
	if (dir)
		closedir(dir);
	free(top);
	return found;
}

/* The resolved sysfs directory of device @dev, into @buf. */
static bool devdir(const struct blkalign_ctx *ctx, dev_t dev, char *buf)
{
	char *p = ba_sysfs_path(ctx, "/sys/dev/block/%u:%u", major(dev),
				minor(dev));
	bool ok = p && realpath(p, buf);

	free(p);
	return ok;
}

/* Is the file system holding @dir on block device @disk (or a partition)? */
static bool on_device(const struct blkalign_ctx *ctx, const char *dir,
		      dev_t disk)
{
	char a[PATH_MAX], b[PATH_MAX];
	struct stat st;

	if (stat(dir, &st))
		return false;
	if (st.st_dev == disk)
		return true;
	if (!devdir(ctx, disk, a) || !devdir(ctx, st.st_dev, b))
		return false;
	return !strncmp(a, b, strlen(a)) && b[strlen(a)] == '/';
}

/* How long an image a qemu holds is waited for, and how often looked at. */
#define QEMU_WAIT_MS 10000
#define QEMU_POLL_MS 50

/*
 * Does any process hold one of qemu's image locks on @path?  qemu
 * (block/file-posix.c) takes open file description locks on byte 100 +
 * n of each permission n it holds and 200 + n of each it does not share;
 * a write lock over [100, 300) conflicts with every one of them, so
 * F_OFD_GETLK finds any (ours included: we hold none yet).
 */
static bool qemu_holds(const char *path)
{
	struct flock fl = {.l_type = F_WRLCK,
			   .l_whence = SEEK_SET,
			   .l_start = 100,
			   .l_len = 200};
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool held;

	if (fd < 0)
		return false;
	held = fcntl(fd, F_OFD_GETLK, &fl) == 0 && fl.l_type != F_UNLCK;
	close(fd);
	return held;
}

/*
 * Wait until no qemu holds the image @path, QEMU_WAIT_MS at most: the
 * qemu-nbd of a fix killed a moment ago serves no one any more, but holds
 * qemu's write lock until it has flushed the image and exited, and the
 * qemu-nbd of --resume would be refused it.  True when none holds it.
 */
static bool qemu_let_go(const char *path)
{
	struct timespec tick = {0, QEMU_POLL_MS * 1000L * 1000L};

	for (int ms = 0; qemu_holds(path); ms += QEMU_POLL_MS) {
		if (ms >= QEMU_WAIT_MS)
			return false;
		nanosleep(&tick, NULL);
	}
	return true;
}

/**
 * blkalign_fix_target_open: open @path for writing and lock it, its I/O
 * through @io (NULL: the system's), sysfs read below @ctx's sysroot
 * (@ctx NULL: /sys; the handle keeps a reference).  Refused: a journal on
 * the disk itself, an image a loop device has, a busy or locked disk.
 */
int blkalign_fix_target_open(struct blkalign_ctx *ctx, const char *path,
			     const char *journal,
			     const struct blkalign_fix_io *io,
			     struct blkalign_fix_target **out, char *msg,
			     size_t len)
{
	struct blkalign_fix_target *t;
	char jdir[4096], loop[300], why[1536], said[512];
	struct stat st = {0};
	bool uri, held = false;
	int rc;

	*out = NULL;
	if (!path || !journal)
		return -EINVAL;
	/* an export: no file to stat or lock, no identity but its table
	 * and the fix's markers (the journal records none) */
	uri = ba_nbd_is_uri(path);
	if (!uri && stat(path, &st))
		return say(msg, len, -errno, "cannot stat '%s': %s", path,
			   strerror(errno));
	snprintf(jdir, sizeof(jdir), "%s", journal);
	if (S_ISBLK(st.st_mode) && on_device(ctx, dirname(jdir), st.st_rdev))
		return say(msg, len, -EXDEV,
			   "the journal '%s' is on '%s' itself: put it on "
			   "another disk (%s)",
			   journal, path, ba_word(ctx, BLKALIGN_WORD_JOURNAL));
	if (S_ISREG(st.st_mode) && image_attached(ctx, &st, loop, sizeof(loop)))
		return say(msg, len, -EBUSY,
			   "'%s' is attached to %s: detach it, or fix %s "
			   "instead",
			   path, loop, loop);
	if (!uri && !S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode))
		return say(msg, len, -EINVAL,
			   "'%s' is neither an image file nor a block device",
			   path);
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->path = strdup(path);
	if (!t->path) {
		free(t);
		return -ENOMEM;
	}
	t->ctx = ctx;
	blkalign_ctx_ref(ctx);
	ba_fix_io_init(&t->io, io);
	if (S_ISREG(st.st_mode))
		held = !qemu_let_go(path);
	rc = ba_file_open_target(&t->file, &t->io, t->path, true, said,
				 sizeof(said));
	if (rc == -EBUSY && S_ISBLK(st.st_mode) &&
	    ba_fix_holders(ctx, st.st_rdev, why, sizeof(why)))
		say(msg, len, rc, "'%s' is busy: %s", path, why);
	else if (rc == -EBUSY)
		say(msg, len, rc,
		    "'%s' is busy: a partition is mounted or used by md, "
		    "LVM, device-mapper, another program or another "
		    "blkalign fix",
		    path);
	else if (rc && held)
		say(msg, len, rc,
		    "cannot open '%s' for writing: %s (a qemu has held it "
		    "for %d s: a VM, or the qemu-nbd of a fix stopped a "
		    "moment ago, still flushing; try again when it has "
		    "exited)",
		    path, said[0] ? said : strerror(-rc), QEMU_WAIT_MS / 1000);
	else if (rc)
		say(msg, len, rc, "cannot open '%s' for writing: %s", path,
		    said[0] ? said : strerror(-rc));
	/* opened directly (a raw image): no qemu-nbd to refuse it */
	if (!rc && held)
		rc = say(msg, len, -EBUSY,
			 "'%s' is open in a qemu (a VM?): its image locks "
			 "have been held for %d s; stop it first",
			 path, QEMU_WAIT_MS / 1000);
	if (!rc && !uri && flock(t->file.fd, LOCK_EX | LOCK_NB))
		rc = say(msg, len, -EBUSY,
			 "'%s' is locked by another program (another "
			 "blkalign fix?)",
			 path);
	if (!rc && (uri || ba_fix_ident_of(ctx, t->file.fd, &t->ident)))
		memset(&t->ident, 0, sizeof(t->ident));
	if (rc) {
		blkalign_fix_target_close(t);
		return rc;
	}
	*out = t;
	return 0;
}

void blkalign_fix_target_close(struct blkalign_fix_target *t)
{
	if (!t)
		return;
	if (t->file.io)
		ba_file_close(&t->file);
	free(t->path);
	blkalign_ctx_unref(t->ctx);
	free(t);
}

/* After blkalign_fix_check_journal's -EEXIST in @msg: how to go on. */
void ba_fix_journal_exists(const struct blkalign_ctx *ctx, char *msg,
			   size_t len)
{
	size_t n = strlen(msg);

	snprintf(msg + n, len - n,
		 "; finish it with '%s' or undo it with "
		 "'%s' ('%s' says what it holds)",
		 ba_word(ctx, BLKALIGN_WORD_RESUME),
		 ba_word(ctx, BLKALIGN_WORD_ROLLBACK),
		 ba_word(ctx, BLKALIGN_WORD_INSPECT));
}

/**
 * blkalign_fix_check_journal: may @journal serve a new fix of @target?
 * Returns 0; -EINVAL when it is the target itself or not a regular file;
 * -ENOENT when its directory does not exist; -EEXIST when it exists (an
 * earlier fix was interrupted).  @msg says
 * which.
 */
int blkalign_fix_check_journal(const char *target, const char *journal,
			       char *msg, size_t len)
{
	struct stat js, ts;
	char dir[4096];

	snprintf(dir, sizeof(dir), "%s", journal);
	if (stat(dirname(dir), &js) || !S_ISDIR(js.st_mode))
		return say(msg, len, -ENOENT,
			   "the journal '%s' cannot be made: there is no "
			   "directory '%s'",
			   journal, dir);
	if (stat(journal, &js))
		return 0;
	if (!stat(target, &ts) &&
	    ((S_ISREG(ts.st_mode) && js.st_dev == ts.st_dev &&
	      js.st_ino == ts.st_ino) ||
	     (S_ISBLK(ts.st_mode) && S_ISBLK(js.st_mode) &&
	      js.st_rdev == ts.st_rdev)))
		return say(msg, len, -EINVAL,
			   "the journal '%s' is the target itself: put it on "
			   "another disk",
			   journal);
	if (!S_ISREG(js.st_mode))
		return say(msg, len, -EINVAL,
			   "the journal '%s' is not a regular file", journal);
	/* how to go on is the caller's to say (ba_fix_journal_exists) */
	return say(msg, len, -EEXIST,
		   "a journal '%s' exists: an earlier fix was interrupted",
		   journal);
}

/* The identity of @target, opened read-only. */
static int ident_of_path(const struct blkalign_ctx *ctx, const char *target,
			 struct ba_fix_ident *id)
{
	int fd = open(target, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0)
		return -errno;
	rc = ba_fix_ident_of(ctx, fd, id);
	close(fd);
	return rc;
}

int blkalign_fix_journal_path(struct blkalign_ctx *ctx, const char *target,
			      const char *dir, char *buf, size_t len)
{
	struct ba_fix_ident id;
	char tmp[4096];
	int rc;

	if (!target || !dir || !buf)
		return -EINVAL;
	memset(&id, 0, sizeof(id)); /* an export: hashed by its URI */
	rc = ba_nbd_is_uri(target) ? 0 : ident_of_path(ctx, target, &id);
	if (rc)
		return rc;
	snprintf(tmp, sizeof(tmp), "%s", target);
	if ((size_t)snprintf(
		    buf, len, "%s/%s-%016llx.journal", dir, basename(tmp),
		    (unsigned long long)ba_fix_ident_hash(&id, target)) >= len)
		return -ENAMETOOLONG;
	return 0;
}

/* Is the sector at byte @off of @fd a fix's marker? */
static bool marker_at(int fd, uint64_t off, struct ba_fix_marker *m)
{
	uint8_t sec[512];

	return pread(fd, sec, sizeof(sec), (off_t)off) ==
		       (ssize_t)sizeof(sec) &&
	       ba_fix_marker_parse(sec, sizeof(sec), m);
}

/* Does journal @g belong to the disk of @id, open as @fd? */
static bool belongs(const struct ba_fix_geom *g, const struct ba_fix_ident *id,
		    int fd)
{
	struct ba_fix_marker m;

	if (g->ident.kind != BA_FIX_ID_NONE && ba_fix_ident_same(&g->ident, id))
		return true;
	for (int k = 0; k < 2; k++)
		if (marker_at(fd, k ? g->new_start : g->old_start, &m) &&
		    m.has_id && !memcmp(m.id, g->id, sizeof(m.id)))
			return true;
	return false;
}

int blkalign_fix_find_journals(struct blkalign_ctx *ctx, const char *target,
			       const char *dir,
			       void (*fn)(void *data, const char *path),
			       void *data)
{
	struct ba_fix_ident id;
	struct dirent *e;
	DIR *d;
	int fd, n = 0;
	bool uri;

	/* an export has no identity: its journals are those made for the
	 * same URI */
	uri = ba_nbd_is_uri(target);
	fd = uri ? -1 : open(target, O_RDONLY | O_CLOEXEC);
	if (!uri && fd < 0)
		return -errno;
	if (!uri && ba_fix_ident_of(ctx, fd, &id)) {
		close(fd);
		return -EINVAL;
	}
	d = opendir(dir);
	if (!d) {
		int rc = errno == ENOENT ? 0 : -errno;

		if (fd >= 0)
			close(fd);
		return rc;
	}
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		struct ba_fix_geom g;
		char p[4096];

		if (l < 9 || strcmp(e->d_name + l - 8, ".journal"))
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (ba_journal_peek(p, &g) ||
		    (uri ? strcmp(g.path, target) != 0 : !belongs(&g, &id, fd)))
			continue;
		n++;
		if (fn)
			fn(data, p);
	}
	closedir(d);
	if (fd >= 0)
		close(fd);
	return n;
}

/**
 * ba_fix_disk_marker: the first partition of @path's table that starts
 * with a fix's marker: 1 with @m and its byte offset @off, 0 when none,
 * or -errno.  An image in a qemu format is read through @nbd, a
 * connection to it (NULL: @path is the disk).
 */
int ba_fix_disk_marker(const char *path, struct ba_nbd *nbd,
		       struct ba_fix_marker *m, uint64_t *off)
{
	blkid_probe pr;
	blkid_partlist pl;
	int fd, n, found = 0;

	if (nbd) {
		struct ba_io io;
		int rc;

		/* the table and every partition's head, in the memfd */
		ba_io_init_nbd(&io, nbd);
		rc = ba_nbd_prepare(&io, BA_SECTOR);
		if (rc)
			return rc;
		pr = blkid_new_probe();
		if (pr && blkid_probe_set_device(pr, ba_nbd_fd(nbd), 0, 0)) {
			blkid_free_probe(pr);
			return -EIO;
		}
	} else {
		pr = blkid_new_probe_from_filename(path);
	}
	if (!pr)
		return -errno ? -errno : -EINVAL;
	fd = blkid_probe_get_fd(pr);
	blkid_probe_enable_superblocks(pr, 0);
	blkid_probe_enable_partitions(pr, 1);
	pl = blkid_probe_get_partitions(pr);
	n = pl ? blkid_partlist_numof_partitions(pl) : 0;
	for (int i = 0; i < n && !found; i++) {
		blkid_partition par = blkid_partlist_get_partition(pl, i);
		/* libblkid counts in 512-byte sectors */
		uint64_t start = (uint64_t)blkid_partition_get_start(par) * 512;

		if (marker_at(fd, start, m)) {
			*off = start;
			found = 1;
		}
	}
	blkid_free_probe(pr);
	return found;
}
