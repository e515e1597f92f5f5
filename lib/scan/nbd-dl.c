/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nbd-dl.c - libnbd, loaded on first use (nbd-dl.h says why; dl.c how).
 * The build still needs libnbd's header (libnbd-dev); a run needs libnbd
 * installed (libnbd0) only to read images through qemu-nbd and NBD URIs.
 */
#include <stdio.h>

#include "dl.h"
#include "nbd-dl.h"

#define BA_NBD_DL_DEFINE(name) __typeof__(name) *sym_##name;
BA_NBD_DL_SYMBOLS(BA_NBD_DL_DEFINE)
#undef BA_NBD_DL_DEFINE

#define BA_NBD_DL_ENTRY(name) {#name, (void **)&sym_##name},
static const struct ba_dl_sym syms[] = {BA_NBD_DL_SYMBOLS(BA_NBD_DL_ENTRY)};
#undef BA_NBD_DL_ENTRY

static struct ba_dl libnbd = {
	.soname = "libnbd.so.0",
	.syms = syms,
	.nsyms = sizeof(syms) / sizeof(syms[0]),
};

/**
 * ba_nbd_dl_load: load libnbd if this process has not yet.  @what names
 * what needs it ("qcow2 images", "NBD exports"), for the message.
 * Returns: 0, or -ENOPKG with why (one line) in @why when libnbd cannot
 * be loaded (a failure that stays: the next call says the same).
 */
int ba_nbd_dl_load(const char *what, char *why, size_t len)
{
	int rc = ba_dl_load(&libnbd);

	if (rc)
		snprintf(why, len,
			 "reading %s needs libnbd (Debian: libnbd0): %s", what,
			 libnbd.err);
	return rc;
}
