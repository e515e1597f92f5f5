/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * targets.c - check's list of targets, made before the first audit: the
 * operands and the lines of --files-from, each directory among them
 * replaced by its entries sorted by name (byte order, whatever the
 * locale), not recursed into.  A target named by the user is audited as
 * it is; an entry found in a directory only when it is a disk image, and
 * skipped with why otherwise (cli_target_audit).
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

void cli_targets_free(struct cli_targets *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i].path);
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
