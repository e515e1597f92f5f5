/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ntfs-dev.h - libntfs-3g over struct ba_io (ntfs-dev.c), for the NTFS
 * used-extent reader (ntfs.c).
 */
#ifndef BLKALIGN_NTFS_DEV_H
#define BLKALIGN_NTFS_DEV_H

#include <ntfs-3g/types.h>
#include <ntfs-3g/volume.h>

#include "used/used.h"

/* What the ntfs_device reads: the region [off, off + size) of io. */
struct ntfs_src {
	struct ba_io *io;
	uint64_t off, size;
	uint64_t pos;	  /* read/seek's position */
	int err;	  /* the first read error, -errno */
	uint64_t err_at;  /* its byte */
	bool past;	  /* a read went past the region's end */
	uint64_t past_at; /* the first such byte */
};

/* The volume over @s: mounted read-only (@full) or only started up
 * ($MFT and $MFTMirr loaded); ntfs_umount frees it and its device.
 * NULL with errno, nothing left allocated.  libntfs-3g's log is
 * silenced first (once per process). */
ntfs_volume *ba_ntfs_open(struct ntfs_src *s, bool full);

/* -errno for what libntfs-3g failed at (@err its errno), @why saying
 * what: the device's own read error or read past the end first. */
int ba_ntfs_error(const struct ntfs_src *s, int err, const char *what,
		  char *why, size_t len);

#endif /* BLKALIGN_NTFS_DEV_H */
