/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * image-refs.h - the other files an image names (image-refs.c): a VMDK
 * descriptor's extents and parent, a qcow2's or qed's backing file, a
 * qcow2's data file; and what a VMDK's extents say (vmdk-extents.c: a
 * split VMDK's grain, an extent named alone), for check_image() and
 * check_file().  Also for tests/fuzz/fuzz-image-refs.c.
 */
#ifndef BLKALIGN_IMAGE_REFS_H
#define BLKALIGN_IMAGE_REFS_H

#include "scan/scan.h"

/* One name an image holds, as written (not resolved, not terminated). */
struct ba_image_ref {
	enum blkalign_image_ref kind;
	const char *name;
	size_t name_len;
	/* an extent line of a VMDK descriptor: */
	bool rw;	  /* access RW (qemu opens no other) */
	bool sparse;	  /* type SPARSE: a hosted sparse extent */
	uint64_t sectors; /* its size in the disk, 512-byte sectors */
};

/* Called for each name; a non-zero return stops the walk. */
typedef int (*ba_image_ref_fn)(void *data, const struct ba_image_ref *ref);

/* image-refs.c */
int ba_vmdk_desc_walk(const char *text, size_t len, ba_image_ref_fn fn,
		      void *data);
int ba_vmdk_desc_file(struct ba_io *io, char **text, size_t *len);
int ba_image_refs_io(struct ba_io *io, ba_image_ref_fn fn, void *data);
int ba_image_ref_path(const char *base, const char *name, size_t len,
		      char **out);
struct stat;
int ba_image_ref_open(const char *path, struct stat *st);

/* vmdk-extents.c */
int ba_vmdk_split_grain(struct ba_io *io, const char *path, uint32_t *grain,
			char *why, size_t len);
int ba_vmdk_owner(int fd, const char *path, char **owner);
bool ba_vmdk_bare_extent(int fd, uint64_t size);

#endif /* BLKALIGN_IMAGE_REFS_H */
