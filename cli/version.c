/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * version.c - what -V/--version prints: blkalign's version (git describe
 * in a build from git), the libblkalign running, and the libraries it was
 * built with and runs with, as util-linux's commands name libblkid's.
 * The running ones are asked only when the process has them loaded
 * (RTLD_NOLOAD): a library libblkalign loads when a run needs it (libnbd,
 * libfdisk) says "not loaded" rather than being loaded to say more.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

/*
 * "name version" of the library @soname when the process has loaded it
 * (RTLD_NOLOAD: never loads it), from its function @sym of @args
 * arguments, else "name: not loaded" (libfdisk before fix writes a
 * table).
 */
static void running(FILE *out, const char *sep, const char *name,
		    const char *soname, const char *sym, int args)
{
	void *dl = dlopen(soname, RTLD_LAZY | RTLD_NOLOAD);
	void *f = dl ? dlsym(dl, sym) : NULL;
	const char *ver = NULL, *date = NULL;

	if (!f) {
		fprintf(out, "%s%s: not loaded", sep, name);
		if (dl)
			dlclose(dl);
		return;
	}
	if (args == 0)
		ver = ((const char *(*)(void))f)();
	else if (args == 1)
		((int (*)(const char **))f)(&ver);
	else
		((int (*)(const char **, const char **))f)(&ver, &date);
	fprintf(out, "%s%s %s", sep, name, ver ? ver : "?");
	if (date)
		fprintf(out, " (%s)", date);
	dlclose(dl);
}

/* libnbd's version, from a handle, when libblkalign has loaded it. */
static void running_nbd(FILE *out)
{
	void *dl = dlopen("libnbd.so.0", RTLD_LAZY | RTLD_NOLOAD);
	void *(*create)(void);
	const char *(*get)(void *);
	void (*close_h)(void *);
	void *h;

	if (!dl) {
		fprintf(out, ", libnbd: not loaded");
		return;
	}
	*(void **)&create = dlsym(dl, "nbd_create");
	*(void **)&get = dlsym(dl, "nbd_get_version");
	*(void **)&close_h = dlsym(dl, "nbd_close");
	h = create && get && close_h ? create() : NULL;
	fprintf(out, ", libnbd %s", h ? get(h) : "?");
	if (h)
		close_h(h);
	dlclose(dl);
}

/**
 * cli_version: print what -V/--version says to @out.  Its first line is
 * "blkalign VERSION", the project's version (the man pages' and the JSON
 * documents'); a build from git that is not that release's tag says its
 * git describe on the next.
 */
void cli_version(FILE *out)
{
	const char *git = cli_git_version;

	fprintf(out, PROGRAM " %s\n", BLKALIGN_VERSION);
	if (strcmp(git, BLKALIGN_VERSION) && strcmp(git, "v" BLKALIGN_VERSION))
		fprintf(out, "git %s\n", git);
	fprintf(out, "libblkalign %s\n",
		blkalign_get_library_version(NULL, NULL, NULL));
	fprintf(out, "built with %s\n", CLI_BUILT_WITH);
	fprintf(out, "running with");
	running(out, " ", "libblkid", "libblkid.so.1",
		"blkid_get_library_version", 2);
	running(out, ", ", "libfdisk", "libfdisk.so.1",
		"fdisk_get_library_version", 1);
	running(out, ", ", "libsmartcols", "libsmartcols.so.1",
		"scols_get_library_version", 1);
	running(out, ", ", "json-c", "libjson-c.so.5", "json_c_version", 0);
	running(out, ", ", "zlib", "libz.so.1", "zlibVersion", 0);
	running_nbd(out);
	fputc('\n', out);
}
