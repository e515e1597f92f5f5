/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vmdk-extents.c - a VMDK disk made of several files, as the scan sees it
 * (check_image, check_file): the grain of a descriptor file's sparse
 * extents, the disk's cluster grid as a monolithicSparse header gives it;
 * and a file audited alone that is one extent of a disk, with the
 * descriptor file beside it that names it.  The names come from
 * image-refs.c; the sparse header ("Hosted Sparse Extent Header", VMware
 * Virtual Disk Format 1.1) is read here for its capacity and grainSize,
 * as qemu's vmdk_open_vmdk4 reads them.
 */
#include <dirent.h>
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bytes.h"
#include "image-refs.h"

#define VMDK_CAPACITY	 12	  /* le64 in the sparse header, sectors */
#define VMDK_GRAIN_SIZE	 20	  /* le64 in the sparse header, sectors */
#define VMDK_MAX_GRAIN	 0x200000 /* sectors: qemu's limit, 1 GiB */
#define DESC_EMBEDDED_AT 512	  /* where qemu reads the embedded one */

/* A name from an image, printable and bounded, for a message. */
static void say_name(char *buf, size_t len, const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < n && i + 1 < len; i++)
		buf[i] = name[i] >= 0x20 && name[i] < 0x7f ? name[i] : '?';
	buf[i] = '\0';
}

/* What ba_vmdk_split_grain learns, extent by extent. */
struct split {
	const char *path;
	uint64_t grain; /* bytes, of the first extent */
	uint64_t at;	/* sectors of the disk before this extent */
	size_t extents; /* sparse extents read */
	bool none;	/* not all sparse, or a header not read */
	char first[64]; /* the first extent's name */
	char *why;
	size_t len;
};

/* The grain of the sparse extent file @path, in bytes, or 0: no sparse
 * header; its capacity (sectors) in *@sectors. */
static uint64_t extent_grain(const char *path, uint64_t *sectors)
{
	uint8_t h[BA_SECTOR];
	struct stat st;
	uint64_t g = 0;
	int fd;

	fd = ba_image_ref_open(path, &st);
	if (fd < 0)
		return 0;
	if (ba_pread_full(fd, h, sizeof(h), 0) == 0 && !memcmp(h, "KDMV", 4)) {
		g = ba_le64(h + VMDK_GRAIN_SIZE);
		*sectors = ba_le64(h + VMDK_CAPACITY);
	}
	close(fd);
	return g && g <= VMDK_MAX_GRAIN && ba_is_pow2(g) ? g * BA_SECTOR : 0;
}

static int split_extent(void *data, const struct ba_image_ref *ref)
{
	struct split *s = data;
	char *path, name[64];
	uint64_t g, sectors = 0;
	int rc;

	if (ref->kind != BLKALIGN_REF_EXTENT)
		return 0;
	if (!ref->sparse || !ref->rw) {
		s->none = true;
		return 1;
	}
	rc = ba_image_ref_path(s->path, ref->name, ref->name_len, &path);
	if (rc) {
		s->none = true;
		return rc < 0 ? rc : 1;
	}
	g = extent_grain(path, &sectors);
	free(path);
	say_name(name, sizeof(name), ref->name, ref->name_len);
	if (!g) {
		s->none = true;
		return 1;
	}
	if (!s->extents++) {
		s->grain = g;
		memcpy(s->first, name, sizeof(name));
	} else if (g != s->grain) {
		snprintf(s->why, s->len,
			 "its extents have grains of different sizes (%" PRIu64
			 " bytes in '%s', %" PRIu64
			 " in '%s'): no one cluster grid, image-cluster-offset "
			 "not judged",
			 s->grain, s->first, g, name);
		return 1;
	} else if (s->at % (g / BA_SECTOR)) {
		snprintf(s->why, s->len,
			 "its extent '%s' starts at sector %" PRIu64
			 " of the disk, off the grid of its %" PRIu64
			 "-byte grains: no one cluster grid, "
			 "image-cluster-offset not judged",
			 name, s->at, g);
		return 1;
	}
	/* qemu places a sparse extent by its header's capacity, not by
	 * the descriptor's count (vmdk_open_sparse) */
	if (sectors > UINT64_MAX - s->at) {
		s->none = true;
		return 1;
	}
	s->at += sectors;
	return 0;
}

/**
 * ba_vmdk_split_grain: the grain of a VMDK descriptor file @io (@path)
 * whose extents are all hosted sparse extents of one grain, in bytes, in
 * *@grain: the disk's cluster grid.  0 when it is not one: flat or other
 * extents, a header that cannot be read (qemu says why when it opens
 * them); when the grains differ, or an extent starts off the grid, why
 * in @why (else empty).  Returns: 0, or -errno.
 */
int ba_vmdk_split_grain(struct ba_io *io, const char *path, uint32_t *grain,
			char *why, size_t len)
{
	struct split s = {.path = path, .why = why, .len = len};
	char *text;
	size_t n;
	int rc;

	*grain = 0;
	if (len)
		why[0] = '\0';
	rc = ba_vmdk_desc_file(io, &text, &n);
	if (rc || !text)
		return rc;
	rc = ba_vmdk_desc_walk(text, n, split_extent, &s);
	free(text);
	if (rc < 0)
		return rc;
	if (!rc && !s.none && s.extents && s.grain <= UINT32_MAX)
		*grain = (uint32_t)s.grain;
	return 0;
}

/* Whether the descriptor file @cand (in the directory of the extent)
 * names the file @ext (@st). */
struct owner {
	const char *cand;
	const struct stat *st;
	bool found;
};

static int owner_extent(void *data, const struct ba_image_ref *ref)
{
	struct owner *o = data;
	struct stat st;
	char *path;
	int rc;

	if (ref->kind != BLKALIGN_REF_EXTENT)
		return 0;
	rc = ba_image_ref_path(o->cand, ref->name, ref->name_len, &path);
	if (rc)
		return rc < 0 ? rc : 0;
	o->found = stat(path, &st) == 0 && st.st_dev == o->st->st_dev &&
		   st.st_ino == o->st->st_ino;
	free(path);
	return o->found;
}

static bool vmdk_name(const char *name)
{
	size_t n = strlen(name);

	return n > 5 && !strcasecmp(name + n - 5, ".vmdk");
}

/* The descriptor file in @path's directory that names @path (@st) as an
 * extent, in *@owner (NULL: none), the first in name order.  Returns 0
 * or -ENOMEM. */
static int find_owner(const char *path, const struct stat *st, char **owner)
{
	const char *slash = strrchr(path, '/');
	int dlen = slash ? (int)(slash - path + 1) : 0;
	char *dir = NULL;
	struct dirent **names = NULL;
	int n, rc = 0;

	*owner = NULL;
	if (asprintf(&dir, "%.*s", dlen ? dlen : 1, dlen ? path : ".") < 0)
		return -ENOMEM;
	n = scandir(dir, &names, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		struct owner o = {.st = st};
		char *cand = NULL;
		struct stat cst;
		struct ba_io io;
		int fd;

		if (!rc && !*owner && vmdk_name(names[i]->d_name)) {
			if (asprintf(&cand, "%.*s%s", dlen, path,
				     names[i]->d_name) < 0) {
				cand = NULL;
				rc = -ENOMEM;
			}
		}
		fd = cand ? ba_image_ref_open(cand, &cst) : -1;
		if (fd >= 0 &&
		    (cst.st_dev != st->st_dev || cst.st_ino != st->st_ino)) {
			char *text;
			size_t len;

			o.cand = cand;
			ba_io_init_fd(&io, fd, (uint64_t)cst.st_size);
			if (ba_vmdk_desc_file(&io, &text, &len) == -ENOMEM)
				rc = -ENOMEM;
			else if (text)
				ba_vmdk_desc_walk(text, len, owner_extent, &o);
			free(text);
		}
		if (fd >= 0)
			close(fd);
		if (o.found)
			*owner = cand;
		else
			free(cand);
		free(names[i]);
	}
	free(names);
	free(dir);
	return rc;
}

/**
 * ba_vmdk_owner: the VMDK descriptor file in the directory of @path (open
 * as @fd) that names it as one of its extents, in *@owner (to free; NULL:
 * none).  Only files named *.vmdk are read, and only on this path: a file
 * audited alone that may be an extent.  Returns: 0 or -ENOMEM.
 */
int ba_vmdk_owner(int fd, const char *path, char **owner)
{
	struct stat st;

	*owner = NULL;
	if (fstat(fd, &st) < 0)
		return 0;
	return find_owner(path, &st, owner);
}

/**
 * ba_vmdk_bare_extent: whether the vmdk image @fd of @size bytes is a
 * hosted sparse extent whose embedded descriptor, where qemu reads it
 * (byte 512), is empty, as twoGbMaxExtentSparse's extents are: qemu
 * finds no CID in it and fails with a bare "Invalid argument"
 * (vmdk_read_cid).  Such a file is one extent of a disk.
 */
bool ba_vmdk_bare_extent(int fd, uint64_t size)
{
	uint8_t magic[4], first;

	return size > DESC_EMBEDDED_AT &&
	       !ba_pread_full(fd, magic, sizeof(magic), 0) &&
	       !memcmp(magic, "KDMV", 4) &&
	       !ba_pread_full(fd, &first, 1, DESC_EMBEDDED_AT) && !first;
}
