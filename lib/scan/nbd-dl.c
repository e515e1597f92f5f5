/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nbd-dl.c - load libnbd on first use (nbd-dl.h says why), the way
 * systemd loads libcryptsetup: dlopen() of its soname, dlsym() of each
 * function nbd.c calls, once per process (pthread_once), never unloaded.
 * The build still needs libnbd's header (libnbd-dev); the library needs
 * libnbd installed (libnbd0) only to read images through qemu-nbd and
 * NBD URIs.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

#include "nbd-dl.h"

#define LIBNBD_SONAME "libnbd.so.0"

#define BA_NBD_DL_DEFINE(name) __typeof__(name) *sym_##name;
BA_NBD_DL_SYMBOLS(BA_NBD_DL_DEFINE)
#undef BA_NBD_DL_DEFINE

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int load_rc;
static char load_err[256];

static void load(void)
{
	void *dl = dlopen(LIBNBD_SONAME, RTLD_NOW | RTLD_LOCAL);
	const char *e;

	if (!dl) {
		e = dlerror();
		snprintf(load_err, sizeof(load_err), "%s",
			 e ? e : LIBNBD_SONAME ": cannot be loaded");
		load_rc = -ENOPKG;
		return;
	}
#define BA_NBD_DL_LOOKUP(name)                                         \
	sym_##name = (__typeof__(name) *)dlsym(dl, #name);             \
	if (!sym_##name) {                                             \
		snprintf(load_err, sizeof(load_err),                   \
			 LIBNBD_SONAME " has no %s (too old)", #name); \
		load_rc = -ENOPKG;                                     \
		return;                                                \
	}
	BA_NBD_DL_SYMBOLS(BA_NBD_DL_LOOKUP)
#undef BA_NBD_DL_LOOKUP
}

/**
 * ba_nbd_dl_load: load libnbd if this process has not yet.  @what names
 * what needs it ("qcow2 images", "NBD exports"), for the message.
 * Returns: 0, or -ENOPKG with why (one line) in @why when libnbd cannot
 * be loaded (a failure that stays: the next call says the same).
 */
int ba_nbd_dl_load(const char *what, char *why, size_t len)
{
	pthread_once(&once, load);
	if (load_rc)
		snprintf(why, len,
			 "reading %s needs libnbd (Debian: libnbd0): %s", what,
			 load_err);
	return load_rc;
}
