/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * image-refs.c - the other files an image file's disk is made of, read
 * as qemu reads them, so that a run over a directory audits each disk
 * once (the extents and backing files are not disks of their own;
 * vmdk-extents.c reads a split VMDK's grain and finds its descriptor).
 *
 * Formats, and what qemu 7.2 does with them:
 * - a VMDK descriptor file ("Virtual Disk Format 1.1", "The Descriptor
 *   File"; block/vmdk.c: vmdk_read_desc reads at most 1 MiB - 1 bytes
 *   and ends the text at its first NUL; vmdk_parse_extents reads lines
 *   `ACCESS SECTORS TYPE "FILE" [OFFSET]`, names of at most 511 bytes);
 *   the embedded descriptor of a hosted sparse extent ("KDMV"), 20
 *   sectors at byte 512, where qemu looks for CID and
 *   parentFileNameHint="FILE" (vmdk_read_cid, vmdk_parent_open);
 * - qcow2 (docs/interop/qcow2.txt): the backing file name at
 *   backing_file_offset (be64 at 8), backing_file_size (be32 at 16) bytes,
 *   at most 1023, inside the first cluster; the external data file's
 *   name in the header extension 0x44415441 when incompatible feature
 *   bit 2 is set (version 3);
 * - qed (docs/interop/qed_spec.txt): backing_filename_offset and _size
 *   (le32 at 56 and 60) when feature bit 0 is set, inside the header.
 *
 * All bytes here are untrusted: every read goes through the bounded
 * reader, every name is bounded and never assumed NUL-terminated.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "image-refs.h"
#include "bytes.h"

#define DESC_MAGIC	    "# Disk DescriptorFile"
#define DESC_FILE_MAX	    ((1u << 20) - 1) /* qemu's vmdk_read_desc */
#define DESC_EMBEDDED_AT    512		     /* qemu's s->desc_offset */
#define DESC_EMBEDDED_BYTES (20 * 512)	     /* qemu's DESC_SIZE */
#define EXTENT_NAME_MAX	    511		     /* qemu's "%511[^\n\r\"]" */
#define PARENT_NAME_MAX	    4095

#define QCOW2_BACKING_OFFSET 8	 /* be64 */
#define QCOW2_BACKING_SIZE   16	 /* be32 */
#define QCOW2_CLUSTER_BITS   20	 /* be32 */
#define QCOW2_INCOMPATIBLE   72	 /* be64, version 3 */
#define QCOW2_HEADER_LENGTH  100 /* be32, version 3 */
#define QCOW2_INCOMPAT_DATA  (1u << 2)
#define QCOW2_EXT_DATA_FILE  0x44415441
#define QCOW2_BACKING_MAX    1023
#define QCOW2_DATA_FILE_MAX  4095 /* a path: PATH_MAX less its NUL */
#define QED_FEATURES	     16	  /* le64 */
#define QED_CLUSTER_SIZE     4	  /* le32 */
#define QED_HEADER_SIZE	     12	  /* le32, in clusters */
#define QED_BACKING_OFFSET   56	  /* le32 */
#define QED_BACKING_SIZE     60	  /* le32 */
#define QED_F_BACKING_FILE   1u
#define QED_BACKING_MAX	     4095

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The word at *@p (up to @end) after blanks, its length in *@n; *@p past
 * it.  A word ends at a blank or a double quote. */
static const char *word(const char **p, const char *end, size_t *n)
{
	const char *s = *p, *w;

	while (s < end && blank(*s))
		s++;
	w = s;
	while (s < end && !blank(*s) && *s != '"')
		s++;
	*n = (size_t)(s - w);
	*p = s;
	return w;
}

static bool is(const char *s, size_t n, const char *w)
{
	return n == strlen(w) && !memcmp(s, w, n);
}

/* "NAME" at *@p after blanks, of 1 to @max bytes: its start, length in
 * *@n; NULL if there is none. */
static const char *quoted(const char **p, const char *end, size_t max,
			  size_t *n)
{
	const char *s = *p, *q;

	while (s < end && blank(*s))
		s++;
	if (s == end || *s != '"')
		return NULL;
	q = memchr(s + 1, '"', (size_t)(end - s - 1));
	if (!q || q == s + 1 || (size_t)(q - s - 1) > max ||
	    memchr(s + 1, '\r', (size_t)(q - s - 1)))
		return NULL;
	*n = (size_t)(q - s - 1);
	*p = q + 1;
	return s + 1;
}

/* A positive decimal number of @n bytes at @s, or 0. */
static uint64_t number(const char *s, size_t n)
{
	uint64_t v = 0;

	if (!n || n > 19)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	return v;
}

/* The extent line [s, end): `ACCESS SECTORS TYPE "FILE" ...`; 1 if it is
 * one (in @ref), 0 if another line. */
static int extent_line(const char *s, const char *end, struct ba_image_ref *ref)
{
	const char *access, *type, *num;
	size_t an, tn, nn;

	access = word(&s, end, &an);
	if (!is(access, an, "RW") && !is(access, an, "RDONLY") &&
	    !is(access, an, "NOACCESS"))
		return 0;
	num = word(&s, end, &nn);
	type = word(&s, end, &tn);
	if (!number(num, nn) || !tn || tn > 10)
		return 0;
	for (size_t i = 0; i < tn; i++)
		if (type[i] < 'A' || type[i] > 'Z')
			return 0;
	ref->name = quoted(&s, end, EXTENT_NAME_MAX, &ref->name_len);
	if (!ref->name) /* a ZERO extent names no file */
		return 0;
	ref->kind = BLKALIGN_REF_EXTENT;
	ref->rw = is(access, an, "RW");
	ref->sparse = is(type, tn, "SPARSE");
	ref->sectors = number(num, nn);
	return 1;
}

/* The line [s, end): parentFileNameHint="FILE"; 1 if it is (in @ref). */
static int parent_line(const char *s, const char *end, struct ba_image_ref *ref)
{
	static const char key[] = "parentFileNameHint";
	const char *k;
	size_t kn;

	k = word(&s, end, &kn);
	/* "key=" is one word: the key may end at the '=' */
	if (kn > sizeof(key) - 1 && k[sizeof(key) - 1] == '=') {
		kn = sizeof(key) - 1;
		s = k + kn;
	}
	if (!is(k, kn, key))
		return 0;
	while (s < end && blank(*s))
		s++;
	if (s == end || *s != '=')
		return 0;
	s++;
	ref->name = quoted(&s, end, PARENT_NAME_MAX, &ref->name_len);
	if (!ref->name)
		return 0;
	ref->kind = BLKALIGN_REF_BACKING;
	return 1;
}

/**
 * ba_vmdk_desc_walk: the extents and the parent a VMDK descriptor @text
 * of @len bytes names, to @fn in the order of its lines.  The text ends
 * at its first NUL, as qemu reads it.
 * Returns: 0, or what @fn returned when it stopped the walk.
 */
int ba_vmdk_desc_walk(const char *text, size_t len, ba_image_ref_fn fn,
		      void *data)
{
	const char *s = text, *end = text + strnlen(text, len);

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *eol = nl ? nl : end;
		struct ba_image_ref ref = {0};
		int rc;

		if (eol > s && eol[-1] == '\r')
			eol--;
		if (extent_line(s, eol, &ref) || parent_line(s, eol, &ref)) {
			rc = fn(data, &ref);
			if (rc)
				return rc;
		}
		s = nl ? nl + 1 : end;
	}
	return 0;
}

/* @max bytes at most of @io from @at, NUL-terminated, in *@text (NULL:
 * none there).  Returns 0 or -errno. */
static int read_text(struct ba_io *io, uint64_t at, size_t max, char **text,
		     size_t *len)
{
	size_t n;
	int rc;

	*text = NULL;
	*len = 0;
	if (at >= io->size)
		return 0;
	n = io->size - at < max ? (size_t)(io->size - at) : max;
	*text = malloc(n + 1);
	if (!*text)
		return -ENOMEM;
	rc = ba_io_read(io, at, n, *text);
	if (rc) {
		free(*text);
		*text = NULL;
		return rc < 0 ? rc : 0;
	}
	(*text)[n] = '\0';
	*len = n;
	return 0;
}

/* The first bytes of @io (up to @n, zeros past its end) in @buf. */
static int read_head(struct ba_io *io, uint8_t *buf, size_t n)
{
	memset(buf, 0, n);
	if (io->size < n)
		n = (size_t)io->size;
	return n ? ba_io_read(io, 0, n, buf) : 0;
}

static bool is_desc(const uint8_t *head)
{
	return !memcmp(head, DESC_MAGIC, sizeof(DESC_MAGIC) - 1);
}

/**
 * ba_vmdk_desc_file: the text of the VMDK descriptor file @io, as qemu
 * reads it (at most 1 MiB - 1 bytes, NUL-terminated), in *@text to free
 * (NULL: no descriptor file).  Returns: 0 or -errno.
 */
int ba_vmdk_desc_file(struct ba_io *io, char **text, size_t *len)
{
	uint8_t h[BA_SECTOR];
	int rc;

	*text = NULL;
	*len = 0;
	rc = read_head(io, h, sizeof(h));
	if (rc || !is_desc(h))
		return rc < 0 ? rc : 0;
	return read_text(io, 0, DESC_FILE_MAX, text, len);
}

/* A walk that passes on backing names only (an embedded descriptor's
 * extent line names the file itself). */
struct only_backing {
	ba_image_ref_fn fn;
	void *data;
};

static int backing_only(void *data, const struct ba_image_ref *ref)
{
	const struct only_backing *o = data;

	return ref->kind == BLKALIGN_REF_BACKING ? o->fn(o->data, ref) : 0;
}

/* A VMDK descriptor file, or the embedded descriptor of a sparse one. */
static int vmdk_refs(struct ba_io *io, bool embedded, ba_image_ref_fn fn,
		     void *data)
{
	struct only_backing o = {fn, data};
	char *text;
	size_t len;
	int rc;

	rc = read_text(io, embedded ? DESC_EMBEDDED_AT : 0,
		       embedded ? DESC_EMBEDDED_BYTES : DESC_FILE_MAX, &text,
		       &len);
	if (rc || !text)
		return rc;
	rc = embedded ? ba_vmdk_desc_walk(text, len, backing_only, &o)
		      : ba_vmdk_desc_walk(text, len, fn, data);
	free(text);
	return rc;
}

static int name_ref(ba_image_ref_fn fn, void *data,
		    enum blkalign_image_ref kind, const char *name, size_t len)
{
	struct ba_image_ref ref = {.kind = kind, .name = name};

	ref.name_len = strnlen(name, len);
	return ref.name_len ? fn(data, &ref) : 0;
}

/* The extension area [from, to) of a qcow2's first cluster: its data
 * file's name. */
static int qcow2_data_file(struct ba_io *io, uint64_t from, uint64_t to,
			   ba_image_ref_fn fn, void *data)
{
	size_t n = (size_t)(to - from), at = 0;
	uint8_t *buf;
	int rc;

	buf = malloc(n);
	if (!buf)
		return -ENOMEM;
	rc = ba_io_read(io, from, n, buf);
	if (rc) {
		free(buf);
		return rc < 0 ? rc : 0;
	}
	while (n - at >= 8) {
		uint32_t magic = ba_be32(buf + at), len = ba_be32(buf + at + 4);

		at += 8;
		if (!magic || len > n - at)
			break;
		if (magic == QCOW2_EXT_DATA_FILE) {
			/* no file has a longer name: no name at all */
			if (len <= QCOW2_DATA_FILE_MAX)
				rc = name_ref(fn, data, BLKALIGN_REF_DATA_FILE,
					      (const char *)buf + at, len);
			break;
		}
		at += len;
		at += (8 - at % 8) % 8;
		if (at > n)
			break;
	}
	free(buf);
	return rc;
}

static int qcow2_refs(struct ba_io *io, const uint8_t *h, ba_image_ref_fn fn,
		      void *data)
{
	uint32_t version = ba_be32(h + 4),
		 bits = ba_be32(h + QCOW2_CLUSTER_BITS);
	uint64_t off = ba_be64(h + QCOW2_BACKING_OFFSET), cluster;
	uint32_t len = ba_be32(h + QCOW2_BACKING_SIZE);
	int rc = 0;

	if ((version != 2 && version != 3) || bits < 9 || bits > 21)
		return 0;
	cluster = UINT64_C(1) << bits;
	if (off && off < cluster && len && len <= QCOW2_BACKING_MAX &&
	    len <= cluster - off) {
		char name[QCOW2_BACKING_MAX];

		rc = ba_io_read(io, off, len, name);
		if (rc)
			return rc < 0 ? rc : 0;
		rc = name_ref(fn, data, BLKALIGN_REF_BACKING, name, len);
		if (rc)
			return rc;
	}
	if (version == 3 &&
	    (ba_be64(h + QCOW2_INCOMPATIBLE) & QCOW2_INCOMPAT_DATA)) {
		uint64_t from = ba_be32(h + QCOW2_HEADER_LENGTH);
		uint64_t to = off && off < cluster ? off : cluster;

		if (from >= 104 && from < to)
			rc = qcow2_data_file(io, from, to, fn, data);
	}
	return rc;
}

static int qed_refs(struct ba_io *io, const uint8_t *h, ba_image_ref_fn fn,
		    void *data)
{
	uint64_t header = (uint64_t)ba_le32(h + QED_CLUSTER_SIZE) *
			  ba_le32(h + QED_HEADER_SIZE);
	uint32_t off = ba_le32(h + QED_BACKING_OFFSET);
	uint32_t len = ba_le32(h + QED_BACKING_SIZE);
	char name[QED_BACKING_MAX];
	int rc;

	if (!(ba_le64(h + QED_FEATURES) & QED_F_BACKING_FILE) || !len ||
	    len > QED_BACKING_MAX || (uint64_t)off + len > header)
		return 0;
	rc = ba_io_read(io, off, len, name);
	if (rc)
		return rc < 0 ? rc : 0;
	return name_ref(fn, data, BLKALIGN_REF_BACKING, name, len);
}

/**
 * ba_image_refs_io: the names of other files the image @io holds (its
 * extents, backing file or parent, data file), to @fn, unresolved.
 * Returns: 0 (also for no image), -errno of a read, or what @fn returned
 * when it stopped.
 */
int ba_image_refs_io(struct ba_io *io, ba_image_ref_fn fn, void *data)
{
	uint8_t h[BA_SECTOR];
	int rc;

	rc = read_head(io, h, sizeof(h));
	if (rc)
		return rc < 0 ? rc : 0;
	if (is_desc(h))
		return vmdk_refs(io, false, fn, data);
	if (!memcmp(h, "KDMV", 4))
		return vmdk_refs(io, true, fn, data);
	if (!memcmp(h, "QFI\xfb", 4))
		return qcow2_refs(io, h, fn, data);
	if (!memcmp(h, "QED\0", 4))
		return qed_refs(io, h, fn, data);
	return 0;
}

/**
 * ba_image_ref_path: the path qemu opens for @name, named in the image
 * @base: as it is
 * when absolute, else in @base's directory (block.c: path_combine).  A
 * protocol name ("nbd:...", "json:{...}": a colon before any slash,
 * path_has_protocol) is no file here.  Returns 0 with *@out to free, 1
 * for a protocol, -ENOMEM.
 */
int ba_image_ref_path(const char *base, const char *name, size_t len,
		      char **out)
{
	const char *slash = strrchr(base, '/');
	int dir = slash && len && name[0] != '/' ? (int)(slash - base + 1) : 0;

	*out = NULL;
	for (size_t i = 0; i < len && name[i] != '/'; i++)
		if (name[i] == ':')
			return 1;
	if (len > INT32_MAX ||
	    asprintf(out, "%.*s%.*s", dir, base, (int)len, name) < 0) {
		*out = NULL;
		return -ENOMEM;
	}
	return 0;
}

struct public_walk {
	const char *path;
	blkalign_image_ref_fn fn;
	void *data;
};

static int public_ref(void *data, const struct ba_image_ref *ref)
{
	const struct public_walk *w = data;
	char *path;
	int rc;

	rc = ba_image_ref_path(w->path, ref->name, ref->name_len, &path);
	if (rc)
		return rc == 1 ? 0 : rc;
	rc = w->fn(w->data, path, ref->kind);
	free(path);
	return rc;
}

/**
 * ba_image_ref_open: @path opened to read, when it is a regular file: its
 * descriptor, or -errno (-ENOTBLK: not a regular file; nothing is read
 * from a FIFO or a device an image names).
 */
int ba_image_ref_open(const char *path, struct stat *st)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return -errno;
	if (fstat(fd, st) < 0 || !S_ISREG(st->st_mode)) {
		int rc = S_ISREG(st->st_mode) ? -errno : -ENOTBLK;

		close(fd);
		return rc;
	}
	return fd;
}

int blkalign_image_refs(const char *path, blkalign_image_ref_fn fn, void *data)
{
	struct public_walk w = {path, fn, data};
	struct ba_io io;
	struct stat st;
	int fd, rc;

	if (!path || !fn)
		return -EINVAL;
	fd = ba_image_ref_open(path, &st);
	if (fd == -ENOTBLK)
		return 0;
	if (fd < 0)
		return fd;
	ba_io_init_fd(&io, fd, (uint64_t)st.st_size);
	rc = ba_image_refs_io(&io, public_ref, &w);
	close(fd);
	return rc;
}
