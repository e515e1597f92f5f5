/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dl.h - a library loaded when a run first needs it, not at start-up
 * (scan/nbd-dl.c: libnbd; act/fdisk-dl.c: libfdisk): dlopen() of its
 * soname, dlsym() of each function blkalign calls into a pointer of that
 * function's type (from the library's header, a build dependency still),
 * once per process, never unloaded.
 */
#ifndef BLKALIGN_DL_H
#define BLKALIGN_DL_H

#include <stdbool.h>
#include <stddef.h>

/* A function to look up: its name and where its address goes. */
struct ba_dl_sym {
	const char *name;
	void **ptr;
};

/* One library: its soname and functions, loaded at most once. */
struct ba_dl {
	const char *soname;
	const struct ba_dl_sym *syms;
	size_t nsyms;
	bool tried; /* under dl.c's lock */
	int rc;
	char err[256];
};

int ba_dl_load(struct ba_dl *dl);

#endif
