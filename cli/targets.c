/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * targets.c - check's list of targets, made before the first audit: the
 * operands and the lines of --files-from, each directory among them
 * replaced by its entries sorted by name (byte order, whatever the
 * locale), not recursed into.  A target named by the user is audited as
 * it is; an entry found in a directory only when it is a disk image, and
 * skipped with why otherwise (cli_target_audit).  A file that another
 * target's image names as a part of its disk (a VMDK extent, a backing
 * file, a data file: blkalign_image_refs) is skipped too, with whose it
 * is: it is audited through that image (cli_targets_find_parts).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

static int add(struct cli_targets *t, char *path, enum cli_target_kind kind)
{
	if (!path)
		return -ENOMEM;
	if (t->n == t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 16;
		struct cli_target *v = realloc(t->v, ncap * sizeof(*v));

		if (!v) {
			free(path);
			return -ENOMEM;
		}
		t->v = v;
		t->cap = ncap;
	}
	t->v[t->n].path = path;
	t->v[t->n].kind = kind;
	t->v[t->n].part_of = NULL;
	t->n++;
	return 0;
}

static int skip_dots(const struct dirent *e)
{
	return strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* @dir's entries, sorted; one that cannot be listed stays as itself, for
 * the audit to say why (it cannot be opened either). */
static int add_dir(struct cli_targets *t, const char *dir)
{
	size_t len = strlen(dir);
	const char *sep = len && dir[len - 1] == '/' ? "" : "/";
	struct dirent **names = NULL;
	int n, rc = 0;

	n = scandir(dir, &names, skip_dots, by_name);
	if (n < 0)
		return add(t, strdup(dir), CLI_TARGET_GIVEN);
	for (int i = 0; i < n; i++) {
		char *path = NULL;

		if (!rc &&
		    asprintf(&path, "%s%s%s", dir, sep, names[i]->d_name) < 0)
			path = NULL;
		if (!rc)
			rc = add(t, path, CLI_TARGET_ENTRY);
		free(names[i]);
	}
	free(names);
	return rc;
}

/**
 * cli_targets_add: the target @arg, or the entries of the directory it
 * names when @expand (not with --sysroot or --from, whose targets are
 * names).  Returns: 0 or -ENOMEM.
 */
int cli_targets_add(struct cli_targets *t, const char *arg, bool expand)
{
	struct stat st;

	if (expand && stat(arg, &st) == 0 && S_ISDIR(st.st_mode))
		return add_dir(t, arg);
	return add(t, strdup(arg), CLI_TARGET_GIVEN);
}

/**
 * cli_targets_read: the targets listed in @file ("-": stdin), one per
 * line, or NUL-terminated with @nul; empty lines are left out.  Says what
 * went wrong.  Returns: 0 or BLKALIGN_STATUS_FAILED.
 */
int cli_targets_read(struct cli_targets *t, const char *file, bool nul,
		     bool expand)
{
	bool std = !strcmp(file, "-");
	FILE *in = std ? stdin : fopen(file, "re");
	const char *name = std ? "standard input" : file;
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t len;
	int rc = 0;

	if (!in) {
		cli_warnx("cannot open the list '%s': %s", name,
			  strerror(errno));
		return BLKALIGN_STATUS_FAILED;
	}
	while (!rc &&
	       (len = getdelim(&line, &cap, nul ? '\0' : '\n', in)) > 0) {
		lineno++;
		if (line[len - 1] == (nul ? '\0' : '\n'))
			line[--len] = '\0';
		if (!len)
			continue;
		if (strlen(line) != (size_t)len) {
			cli_warnx("line %zu of the list '%s' holds a NUL byte "
				  "(a NUL-separated list needs --null)",
				  lineno, name);
			rc = BLKALIGN_STATUS_FAILED;
		} else if (cli_targets_add(t, line, expand)) {
			cli_warnx("out of memory");
			rc = BLKALIGN_STATUS_FAILED;
		}
	}
	if (!rc && ferror(in)) {
		cli_warnx("cannot read the list '%s': %s", name,
			  strerror(errno));
		rc = BLKALIGN_STATUS_FAILED;
	}
	free(line);
	if (!std)
		fclose(in);
	return rc;
}

/* A target's file, by identity: a name in an image and the target may
 * be spelt differently (./x, a link, an absolute path). */
struct ident {
	dev_t dev;
	ino_t ino;
	size_t i; /* the target */
};

static int cmp_ident(const struct ident *a, const struct ident *b)
{
	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	if (a->ino != b->ino)
		return a->ino < b->ino ? -1 : 1;
	return 0;
}

static int by_ident(const void *a, const void *b)
{
	int c = cmp_ident(a, b);

	if (c)
		return c;
	return ((const struct ident *)a)->i < ((const struct ident *)b)->i ? -1
									   : 1;
}

/* The walk of one target's names (@from, file @self) over the sorted
 * identities of all of them. */
struct parts {
	struct cli_targets *t;
	const struct ident *ids;
	size_t n;
	size_t from;
	struct ident self;
};

/* What a file named by an image as @kind is to it, or NULL. */
static const char *part_what(enum blkalign_image_ref kind)
{
	switch (kind) {
	case BLKALIGN_REF_EXTENT:
		return "extent";
	case BLKALIGN_REF_BACKING:
		return "backing file";
	case BLKALIGN_REF_DATA_FILE:
		return "data file";
	}
	return NULL;
}

/* @path, named by target p->from as @kind: each target that is that
 * file (but the image itself) is skipped as a part of it. */
static int mark_part(void *data, const char *path, enum blkalign_image_ref kind)
{
	struct parts *p = data;
	struct ident key = {0};
	size_t lo = 0, hi = p->n;
	struct stat st;

	if (!part_what(kind) || stat(path, &st) < 0)
		return 0;
	key.dev = st.st_dev;
	key.ino = st.st_ino;
	if (!cmp_ident(&key, &p->self))
		return 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_ident(&p->ids[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < p->n && !cmp_ident(&p->ids[lo], &key); lo++) {
		struct cli_target *c = &p->t->v[p->ids[lo].i];

		if (c->part_of)
			continue;
		/* a disk's extent is just its extent; a backing or data
		 * file could pass for a disk of its own */
		if (asprintf(&c->part_of, "%s of '%s'%s", part_what(kind),
			     p->t->v[p->from].path,
			     kind == BLKALIGN_REF_EXTENT
				     ? ""
				     : ", audited through it") < 0) {
			c->part_of = NULL;
			return -ENOMEM;
		}
	}
	return 0;
}

/**
 * cli_targets_find_parts: mark each target that another target's image
 * names as a part of its disk (an extent, a backing or data file), with
 * why, so that cli_target_audit() skips it: the disk is audited once,
 * through the image that names the rest.  Targets that cannot be read
 * are left to the audit to report.  Returns: 0 or -ENOMEM.
 */
int cli_targets_find_parts(struct cli_targets *t)
{
	struct ident *ids, *files;
	size_t n = 0;
	int rc = 0;

	/* the files in the targets' order (the first image to name a
	 * part is the one said), and sorted to be looked up */
	ids = calloc(t->n ? 2 * t->n : 1, sizeof(*ids));
	if (!ids)
		return -ENOMEM;
	files = ids + t->n;
	for (size_t i = 0; i < t->n; i++) {
		struct stat st;

		if (stat(t->v[i].path, &st) == 0 && S_ISREG(st.st_mode))
			files[n++] = (struct ident){st.st_dev, st.st_ino, i};
	}
	memcpy(ids, files, n * sizeof(*ids));
	qsort(ids, n, sizeof(*ids), by_ident);
	for (size_t k = 0; k < n && rc != -ENOMEM; k++) {
		struct parts p = {t, ids, n, files[k].i, files[k]};

		rc = blkalign_image_refs(t->v[p.from].path, mark_part, &p);
	}
	free(ids);
	return rc == -ENOMEM ? rc : 0;
}

void cli_targets_free(struct cli_targets *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->v[i].path);
		free(t->v[i].part_of);
	}
	free(t->v);
	t->v = NULL;
	t->n = t->cap = 0;
}

/* Why the directory entry @st is not audited, or NULL: a regular file. */
static const char *not_regular(const struct stat *st)
{
	if (S_ISREG(st->st_mode))
		return NULL;
	if (S_ISDIR(st->st_mode))
		return "a directory (not recursed into)";
	if (S_ISBLK(st->st_mode))
		return "a block device, not a file (name it to audit it)";
	if (S_ISCHR(st->st_mode))
		return "a character device, not a file";
	if (S_ISFIFO(st->st_mode))
		return "a FIFO, not a file";
	if (S_ISSOCK(st->st_mode))
		return "a socket, not a file";
	return "not a regular file";
}

/**
 * cli_target_audit: audit target @t into @r: as it is when the user named
 * it; found in a directory, only a regular file (symbolic links followed)
 * that holds a disk image, the others recorded as skipped with why.
 * Returns: what blkalign_check_path() or blkalign_check_if_image()
 * returned (BLKALIGN_CHECK_SKIPPED: skipped).
 */
int cli_target_audit(struct blkalign_report *r, const struct cli_source *src,
		     const struct cli_target *t)
{
	const char *why;
	struct stat st;
	int rc;

	if (t->part_of) {
		rc = blkalign_report_skip(r, t->path, t->part_of);
		return rc ? rc : BLKALIGN_CHECK_SKIPPED;
	}
	if (t->kind == CLI_TARGET_GIVEN)
		return cli_source_check(r, src, t->path);
	/* one that cannot be looked at is reported by the audit, as given */
	if (stat(t->path, &st) < 0)
		return blkalign_check_path(r, t->path);
	why = not_regular(&st);
	if (!why)
		return blkalign_check_if_image(r, t->path);
	rc = blkalign_report_skip(r, t->path, why);
	return rc ? rc : BLKALIGN_CHECK_SKIPPED;
}
