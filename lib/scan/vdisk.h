/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vdisk.h - blkalign's own read-only readers of virtual-disk formats
 * (vdisk-<format>.c), for check: the plain images qemu-img makes and
 * hypervisors write, read in the process instead of through a qemu-nbd
 * child (whose start costs more than the whole audit).  A reader only
 * maps the virtual disk onto the image file; vdisk.c reads the bytes.
 * Whatever a reader does not know for certain it reads as qemu does
 * (backing files, encryption, logs to replay, differencing disks...) is
 * refused at open with -ENOTSUP, and the image goes to qemu-nbd as
 * before: qemu stays the reference, tests/ts/images/vdisk-read compares
 * every byte with qemu-img convert's.  check runs them in a sandboxed
 * child (vdisk-child.c, sandbox.c): they parse untrusted files.
 */
#ifndef BLKALIGN_VDISK_H
#define BLKALIGN_VDISK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ba_io;

enum ba_vext_kind {
	BA_VEXT_ZERO,	 /* reads as zeros: unallocated, a zero cluster */
	BA_VEXT_DATA,	 /* the bytes are in the file, as they are */
	BA_VEXT_DEFLATE, /* a compressed unit (qcow2 compressed cluster) */
};

/*
 * What the virtual disk holds from one offset on: @len bytes (at least
 * one) of the same kind.  DATA: the offset's byte is at @file_off of the
 * file; bytes past the file's end read as zeros, as qemu's file layer
 * reads them.  DEFLATE: the raw deflate stream of at most @zlen bytes at
 * @file_off inflates to the unit of @unit_len bytes of the virtual disk
 * that starts at @unit_start and holds the offset.
 */
struct ba_vext {
	enum ba_vext_kind kind;
	uint64_t len;
	uint64_t file_off;
	uint64_t zlen;
	uint64_t unit_start;
	uint32_t unit_len;
};

struct ba_vdisk;

/* One format's reader. */
struct ba_vdisk_format {
	const char *name; /* qemu's driver name, as ba_image_sniff says it */
	/*
	 * Read and check the headers of the image behind vd->file; set
	 * vd->size and, if needed, vd->priv (malloc'd: ba_vdisk_close frees
	 * it).  Returns 0; -ENOTSUP when the image uses what the reader
	 * leaves to qemu; -EINVAL when it is damaged; -ENOMEM; -EIO; the
	 * last three with one line in @why.
	 */
	int (*open)(struct ba_vdisk *vd, char *why, size_t len);
	/* What the disk holds at @off (< vd->size) into @ext.  Returns 0,
	 * -EINVAL for a damaged table entry, or -errno. */
	int (*map)(struct ba_vdisk *vd, uint64_t off, struct ba_vext *ext);
	/* Free what vd->priv points to (optional; vd->priv is freed). */
	void (*close)(struct ba_vdisk *vd);
};

struct ba_vdisk {
	const struct ba_vdisk_format *fmt;
	struct ba_io *file; /* the image file: every read bounded by it */
	uint64_t size;	    /* the virtual disk's bytes */
	void *priv;	    /* the format's state */
	/* DEFLATE: the last unit inflated, kept for the next read */
	uint8_t *unit;
	uint64_t unit_at, unit_cap;
	bool unit_valid;
};

extern const struct ba_vdisk_format ba_vdisk_qcow2, ba_vdisk_vmdk,
	ba_vdisk_vhdx, ba_vdisk_vpc, ba_vdisk_vdi;

int ba_vdisk_open(struct ba_io *file, const char *format, struct ba_vdisk **out,
		  char *why, size_t len);
void ba_vdisk_close(struct ba_vdisk *vd);
int ba_vdisk_read(struct ba_vdisk *vd, void *buf, size_t len, uint64_t off,
		  uint64_t *zero_bytes);
int ba_vdisk_map(struct ba_vdisk *vd, uint64_t off, struct ba_vext *ext);

/*
 * The readers in a sandboxed child (vdisk-child.c): what check uses.
 * @put gets each piece of a fetch: @data NULL for one that reads as
 * zeros.
 */
struct ba_vdisk_child;
struct ba_vhdx_layout;
typedef int (*ba_vdisk_put_fn)(void *arg, uint64_t off, const void *data,
			       size_t len);
int ba_vdisk_child_open(int fd, uint64_t file_size, const char *format,
			struct ba_vdisk_child **out, uint64_t *size, char *why,
			size_t len);
int ba_vdisk_child_fetch(struct ba_vdisk_child *c, uint64_t start, uint64_t end,
			 ba_vdisk_put_fn put, void *arg, char *why, size_t len);
void ba_vdisk_child_close(struct ba_vdisk_child *c);
int ba_vdisk_child_vhdx(int fd, uint64_t file_size, struct ba_vhdx_layout *l,
			char *why, size_t len);

/* Helpers for the readers: fields of a table in the file. */
int ba_vdisk_read_be64(struct ba_vdisk *vd, uint64_t off, uint64_t *v);
int ba_vdisk_read_le64(struct ba_vdisk *vd, uint64_t off, uint64_t *v);
int ba_vdisk_read_le32(struct ba_vdisk *vd, uint64_t off, uint32_t *v);
int ba_vdisk_read_be32(struct ba_vdisk *vd, uint64_t off, uint32_t *v);

#endif
