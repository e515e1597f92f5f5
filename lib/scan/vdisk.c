/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vdisk.c - reading a virtual disk through its format's map (vdisk.h):
 * the formats' table, the read loop (zeros, bytes of the file, inflated
 * units), and qemu's image locks, which a reader in the process honours
 * as a qemu-nbd would.
 *
 * Compressed qcow2 clusters are raw deflate streams (qemu's
 * block/qcow2-threads.c, qcow2_zlib_decompress): inflated by zlib with a
 * 32 KiB window, which reads any smaller one, and good only when they
 * fill the whole cluster, as qemu requires.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "scan/scan.h"
#include "vdisk.h"

static const struct ba_vdisk_format *const formats[] = {
	&ba_vdisk_qcow2, &ba_vdisk_vdi, &ba_vdisk_vmdk,
	&ba_vdisk_vhdx,	 &ba_vdisk_vpc,
};

/**
 * ba_vdisk_open: a reader of the image behind @file, in the format qemu
 * calls @format.
 * Returns: 0 with @out set; -ENOTSUP when blkalign has no reader for it
 * or the image uses what its reader leaves to qemu; -EINVAL (damaged),
 * -EIO, -ENOMEM; why (one line) in @why.
 */
int ba_vdisk_open(struct ba_io *file, const char *format, struct ba_vdisk **out,
		  char *why, size_t len)
{
	const struct ba_vdisk_format *fmt = NULL;
	struct ba_vdisk *vd;
	int rc;

	*out = NULL;
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (!strcmp(formats[i]->name, format))
			fmt = formats[i];
	if (!fmt) {
		snprintf(why, len, "blkalign has no reader of %s images",
			 format);
		return -ENOTSUP;
	}
	vd = calloc(1, sizeof(*vd));
	if (!vd) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	vd->fmt = fmt;
	vd->file = file;
	rc = fmt->open(vd, why, len);
	if (rc) {
		ba_vdisk_close(vd);
		return rc;
	}
	*out = vd;
	return 0;
}

void ba_vdisk_close(struct ba_vdisk *vd)
{
	if (!vd)
		return;
	if (vd->fmt->close)
		vd->fmt->close(vd);
	free(vd->priv);
	free(vd->unit);
	free(vd);
}

/**
 * ba_vdisk_map: the format's map at @off, checked: an extent inside the
 * disk, of at least one byte, and a compressed unit that holds @off.
 * Returns: 0, -EINVAL (a damaged table, or a reader's bug), -errno.
 */
int ba_vdisk_map(struct ba_vdisk *vd, uint64_t off, struct ba_vext *ext)
{
	int rc;

	if (off >= vd->size)
		return -EINVAL;
	memset(ext, 0, sizeof(*ext));
	rc = vd->fmt->map(vd, off, ext);
	if (rc)
		return rc;
	if (ext->len == 0)
		return -EINVAL;
	if (ext->len > vd->size - off)
		ext->len = vd->size - off;
	if (ext->kind == BA_VEXT_DEFLATE &&
	    (ext->unit_start > off || off - ext->unit_start >= ext->unit_len ||
	     ext->len > ext->unit_len - (off - ext->unit_start)))
		return -EINVAL;
	return 0;
}

/* @len bytes at @off of the file; what lies past its end reads as zeros. */
static int file_read(struct ba_vdisk *vd, void *buf, size_t len, uint64_t off)
{
	uint64_t fsize = vd->file->size;
	size_t in = off >= fsize	? 0
		    : len > fsize - off ? (size_t)(fsize - off)
					: len;
	int rc = 0;

	memset((char *)buf + in, 0, len - in);
	/* ba_io_read takes at most BA_IO_MAX_READ a call */
	for (size_t done = 0; done < in && !rc;) {
		size_t k =
			in - done < BA_IO_MAX_READ ? in - done : BA_IO_MAX_READ;

		rc = ba_io_read(vd->file, off + done, k, (char *)buf + done);
		done += k;
	}
	return rc > 0 ? -EIO : rc;
}

/* Inflate the unit @ext points into into vd->unit (kept until the next). */
static int inflate_unit(struct ba_vdisk *vd, const struct ba_vext *ext)
{
	uint64_t fsize = vd->file->size;
	uint64_t zlen = ext->zlen;
	z_stream z = {0};
	uint8_t *in;
	int rc, zr;

	if (vd->unit_valid && vd->unit_at == ext->unit_start)
		return 0;
	vd->unit_valid = false;
	if (ext->file_off >= fsize || zlen == 0)
		return -EINVAL;
	if (zlen > fsize - ext->file_off)
		zlen = fsize - ext->file_off;
	if (zlen > BA_IO_MAX_READ)
		return -EINVAL;
	if (vd->unit_cap < ext->unit_len) {
		void *p = realloc(vd->unit, ext->unit_len);

		if (!p)
			return -ENOMEM;
		vd->unit = p;
		vd->unit_cap = ext->unit_len;
	}
	in = malloc((size_t)zlen);
	if (!in)
		return -ENOMEM;
	rc = ba_io_read(vd->file, ext->file_off, (size_t)zlen, in);
	if (rc)
		goto out;
	if (inflateInit2(&z, -15) != Z_OK) {
		rc = -ENOMEM;
		goto out;
	}
	z.next_in = in;
	z.avail_in = (uInt)zlen;
	z.next_out = vd->unit;
	z.avail_out = ext->unit_len;
	zr = inflate(&z, Z_FINISH);
	/* qemu: good when the unit is full, whatever follows the stream */
	rc = (zr == Z_STREAM_END || zr == Z_BUF_ERROR) && z.avail_out == 0
		     ? 0
		     : -EIO;
	inflateEnd(&z);
	if (!rc) {
		vd->unit_valid = true;
		vd->unit_at = ext->unit_start;
	}
out:
	free(in);
	return rc > 0 ? -EIO : rc;
}

/**
 * ba_vdisk_read: @len bytes at @off of the virtual disk (reads past its
 * end are the caller's bug: -EINVAL).  Adds to *@zero_bytes the bytes
 * that read as zeros by the format's tables, without reading them.
 * Returns: 0 or -errno.
 */
int ba_vdisk_read(struct ba_vdisk *vd, void *buf, size_t len, uint64_t off,
		  uint64_t *zero_bytes)
{
	uint8_t *p = buf;

	if (off > vd->size || len > vd->size - off)
		return -EINVAL;
	while (len) {
		struct ba_vext e;
		size_t k;
		int rc = ba_vdisk_map(vd, off, &e);

		if (rc)
			return rc;
		k = e.len < len ? (size_t)e.len : len;
		switch (e.kind) {
		case BA_VEXT_ZERO:
			memset(p, 0, k);
			if (zero_bytes)
				*zero_bytes += k;
			break;
		case BA_VEXT_DATA:
			rc = file_read(vd, p, k, e.file_off);
			break;
		case BA_VEXT_DEFLATE:
			rc = inflate_unit(vd, &e);
			if (!rc)
				memcpy(p, vd->unit + (off - e.unit_start), k);
			break;
		default:
			rc = -EINVAL;
		}
		if (rc)
			return rc;
		p += k;
		off += k;
		len -= k;
	}
	return 0;
}

/* A field of a table in the file: -EINVAL when it lies outside it. */
static int read_field(struct ba_vdisk *vd, uint64_t off, void *v, size_t k)
{
	int rc = ba_io_read(vd->file, off, k, v);

	return rc > 0 ? -EINVAL : rc;
}

int ba_vdisk_read_be64(struct ba_vdisk *vd, uint64_t off, uint64_t *v)
{
	int rc = read_field(vd, off, v, sizeof(*v));

	*v = rc ? 0 : be64toh(*v);
	return rc;
}

int ba_vdisk_read_le64(struct ba_vdisk *vd, uint64_t off, uint64_t *v)
{
	int rc = read_field(vd, off, v, sizeof(*v));

	*v = rc ? 0 : le64toh(*v);
	return rc;
}

int ba_vdisk_read_be32(struct ba_vdisk *vd, uint64_t off, uint32_t *v)
{
	int rc = read_field(vd, off, v, sizeof(*v));

	*v = rc ? 0 : be32toh(*v);
	return rc;
}

int ba_vdisk_read_le32(struct ba_vdisk *vd, uint64_t off, uint32_t *v)
{
	int rc = read_field(vd, off, v, sizeof(*v));

	*v = rc ? 0 : le32toh(*v);
	return rc;
}

/*
 * qemu's image locks (block/file-posix.c): open file description locks
 * on single bytes, a shared one at 100 + n for each permission n a user
 * holds (bit 0 consistent read, bit 1 write...) and at 200 + n for each
 * it does not let others take.  A read-only qemu-nbd holds consistent
 * read and does not share write; we take the same two, then test that
 * no one holds write (a running VM, a qemu-img commit): qemu-nbd would
 * refuse such an image, and so do we.  A writer that starts later sees
 * our byte 201 and refuses in turn, for as long as we read.
 */
#define LOCK_PERM_BASE	 100
#define LOCK_SHARED_BASE 200
#define PERM_READ	 0 /* BLK_PERM_CONSISTENT_READ, bit 0 */
#define PERM_WRITE	 1 /* BLK_PERM_WRITE, bit 1 */

static int lock_byte(int fd, int cmd, short type, off_t at, struct flock *fl)
{
	*fl = (struct flock){.l_type = type,
			     .l_whence = SEEK_SET,
			     .l_start = at,
			     .l_len = 1};
	return fcntl(fd, cmd, fl) < 0 ? -errno : 0;
}

/**
 * ba_vdisk_lock: take qemu's read locks on the image open as @fd, as a
 * read-only qemu-nbd takes them (released when @fd is closed).
 * Returns: 0; -EBUSY when a qemu holds it for writing; -errno.  A file
 * system without OFD locks (-EINVAL, -ENOLCK, -EOPNOTSUPP) is read
 * unlocked, as qemu reads it then.
 */
int ba_vdisk_lock(int fd)
{
	struct flock fl;
	int rc = lock_byte(fd, F_OFD_SETLK, F_RDLCK, LOCK_PERM_BASE + PERM_READ,
			   &fl);

	if (!rc)
		rc = lock_byte(fd, F_OFD_SETLK, F_RDLCK,
			       LOCK_SHARED_BASE + PERM_WRITE, &fl);
	/* no one writes it, no one keeps others from reading it */
	if (!rc)
		rc = lock_byte(fd, F_OFD_GETLK, F_WRLCK,
			       LOCK_PERM_BASE + PERM_WRITE, &fl);
	if (!rc && fl.l_type == F_UNLCK)
		rc = lock_byte(fd, F_OFD_GETLK, F_WRLCK,
			       LOCK_SHARED_BASE + PERM_READ, &fl);
	if (rc == -EINVAL || rc == -ENOLCK || rc == -EOPNOTSUPP)
		return 0;
	if (rc == -EAGAIN || rc == -EACCES)
		return -EBUSY; /* someone does not share our read */
	if (!rc && fl.l_type != F_UNLCK)
		return -EBUSY;
	return rc;
}
