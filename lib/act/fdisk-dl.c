/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fdisk-dl.c - libfdisk, loaded on first use (fdisk-dl.h says why; dl.c
 * how).  The build still needs libfdisk's header (libfdisk-dev); only fix
 * needs libfdisk installed (libfdisk1, which fdisk and sfdisk need too).
 */
#include <stdio.h>

#include "dl.h"
#include "fdisk-dl.h"

#define BA_FDISK_DL_DEFINE(name) __typeof__(name) *sym_##name;
BA_FDISK_DL_SYMBOLS(BA_FDISK_DL_DEFINE)
#undef BA_FDISK_DL_DEFINE

#define BA_FDISK_DL_ENTRY(name) {#name, (void **)&sym_##name},
static const struct ba_dl_sym syms[] = {BA_FDISK_DL_SYMBOLS(BA_FDISK_DL_ENTRY)};
#undef BA_FDISK_DL_ENTRY

static struct ba_dl libfdisk = {
	.soname = "libfdisk.so.1",
	.syms = syms,
	.nsyms = sizeof(syms) / sizeof(syms[0]),
};

/**
 * ba_fdisk_dl_load: load libfdisk if this process has not yet.
 * Returns: 0, or -ENOPKG with why (one line) in @why when it cannot be
 * loaded (a failure that stays).
 */
int ba_fdisk_dl_load(char *why, size_t len)
{
	int rc = ba_dl_load(&libfdisk);

	if (rc)
		snprintf(why, len,
			 "writing a partition table needs libfdisk (Debian: "
			 "libfdisk1): %s",
			 libfdisk.err);
	return rc;
}
