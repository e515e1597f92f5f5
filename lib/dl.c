/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * dl.c - load a library on first use (dl.h says why): once per process,
 * by whichever thread asks first; the others wait for it.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

#include "dl.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void load(struct ba_dl *dl)
{
	void *h = dlopen(dl->soname, RTLD_NOW | RTLD_LOCAL);
	const char *e;

	if (!h) {
		e = dlerror();
		snprintf(dl->err, sizeof(dl->err), "%s",
			 e ? e : "cannot be loaded");
		dl->rc = -ENOPKG;
		return;
	}
	for (size_t i = 0; i < dl->nsyms; i++) {
		*dl->syms[i].ptr = dlsym(h, dl->syms[i].name);
		if (!*dl->syms[i].ptr) {
			snprintf(dl->err, sizeof(dl->err),
				 "%s has no %s (too old)", dl->soname,
				 dl->syms[i].name);
			dl->rc = -ENOPKG;
			dlclose(h);
			return;
		}
	}
}

/**
 * ba_dl_load: load @dl's library and look up its functions, if this
 * process has not yet.  Returns: 0, or -ENOPKG with why (one line, the
 * dynamic loader's words) in @dl->err; a failure stays.
 */
int ba_dl_load(struct ba_dl *dl)
{
	int rc;

	pthread_mutex_lock(&lock);
	if (!dl->tried)
		load(dl);
	dl->tried = true;
	rc = dl->rc;
	pthread_mutex_unlock(&lock);
	return rc;
}
