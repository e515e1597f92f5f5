/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vdisk-child.c - blkalign's own image readers (vdisk.h) and the VHDX
 * metadata parse (image-vhdx.c) run in a sandboxed child (sandbox.c):
 * the child parses the image, we ask it for ranges of the virtual disk
 * and get back bytes and zero extents, and trust nothing it says beyond
 * its bounds (every length is checked against what was asked).
 *
 * The protocol, on the socket pair, in our byte order:
 *   child, once: struct msg {OPEN, rc, virtual size} and a why[] line;
 *   we: struct req {start, end}, a range of the virtual disk;
 *   child: msg {DATA, 0, len} and len bytes, or msg {ZERO, 0, len} (what
 *     the format's tables say reads as zeros, and holes of the image file
 *     in data: qemu's block status says the same), covering the range in
 *     order, then msg {END}; or msg {FAIL, -errno} where the reader gave
 *     up (a table entry it cannot vouch for).
 * A child that dies, stalls (READ_TIMEOUT_MS) or breaks the protocol is
 * killed and the read fails with -ECHILD and how, in one line.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scan/scan.h"
#include "sandbox.h"
#include "vdisk.h"

#define READ_TIMEOUT_MS 30000
#define CHUNK		(256 * KIB) /* bytes of one DATA message at most */
#define WHY_LEN		256

enum msg_type { MSG_OPEN = 1, MSG_DATA, MSG_ZERO, MSG_END, MSG_FAIL };

struct msg {
	uint32_t type;
	int32_t rc;
	uint64_t len;
};

struct req {
	uint64_t start, end;
};

struct ba_vdisk_child {
	struct ba_sandbox sb;
	const char *format;
	uint64_t size;
	uint8_t *buf;
	bool dead; /* killed or broken: every later read fails */
};

/* --- in the child --- */

static int child_write(const void *buf, size_t len)
{
	for (size_t done = 0; done < len;) {
		ssize_t n = write(BA_SANDBOX_SOCK_FD, (const char *)buf + done,
				  len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += (size_t)n;
	}
	return 0;
}

static int child_read(void *buf, size_t len)
{
	for (size_t done = 0; done < len;) {
		ssize_t n = read(BA_SANDBOX_SOCK_FD, (char *)buf + done,
				 len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1; /* the parent is done with us */
		done += (size_t)n;
	}
	return 0;
}

static int say(enum msg_type type, int rc, uint64_t len)
{
	struct msg m = {.type = type, .rc = rc, .len = len};

	return child_write(&m, sizeof(m));
}

/*
 * Of the @k bytes of the DATA extent @e, how many to take as they are:
 * a hole of the image file at its start (a preallocated cluster no one
 * wrote) turns it ZERO up to the hole's end, as qemu's block status
 * says it (the file layer's SEEK_DATA); data is cut at the next hole.
 */
static size_t hole_ahead(uint64_t file_size, struct ba_vext *e, size_t k)
{
	off_t from = (off_t)e->file_off, d, h;

	if (e->file_off >= file_size)
		return e->kind = BA_VEXT_ZERO, k;
	d = lseek(BA_SANDBOX_IMAGE_FD, from, SEEK_DATA);
	if (d < 0)
		/* ENXIO: no data up to the end; else no SEEK_DATA here */
		return errno == ENXIO ? (e->kind = BA_VEXT_ZERO, k) : k;
	if (d > from) {
		e->kind = BA_VEXT_ZERO;
		return (uint64_t)(d - from) < k ? (size_t)(d - from) : k;
	}
	h = lseek(BA_SANDBOX_IMAGE_FD, from, SEEK_HOLE);
	return h > from && (uint64_t)(h - from) < k ? (size_t)(h - from) : k;
}

/* [start, end) of the disk as messages; -1 when the parent is gone. */
static int serve(struct ba_vdisk *vd, uint64_t start, uint64_t end,
		 uint8_t *buf)
{
	for (uint64_t at = start; at < end;) {
		struct ba_vext e;
		size_t k;
		int rc = ba_vdisk_map(vd, at, &e);

		if (rc)
			return say(MSG_FAIL, rc, 0);
		k = e.len < end - at ? (size_t)e.len : (size_t)(end - at);
		if (e.kind == BA_VEXT_DATA)
			k = hole_ahead(vd->file->size, &e, k);
		if (e.kind != BA_VEXT_ZERO && k > CHUNK)
			k = CHUNK;
		if (e.kind == BA_VEXT_ZERO) {
			rc = say(MSG_ZERO, 0, k);
		} else {
			rc = ba_vdisk_read(vd, buf, k, at, NULL);
			if (rc)
				return say(MSG_FAIL, rc, 0);
			rc = say(MSG_DATA, 0, k);
			if (!rc)
				rc = child_write(buf, k);
		}
		if (rc)
			return -1;
		at += k;
	}
	return say(MSG_END, 0, 0);
}

struct reader_arg {
	const char *format;
	uint64_t file_size;
};

/* The child: open the reader, say so, answer requests until EOF. */
static int reader_main(void *p)
{
	const struct reader_arg *a = p;
	char why[WHY_LEN] = "";
	struct ba_vdisk *vd = NULL;
	struct ba_io io;
	uint8_t *buf = NULL;
	struct req q;
	int rc;

	ba_io_init_fd(&io, BA_SANDBOX_IMAGE_FD, a->file_size);
	rc = ba_vdisk_open(&io, a->format, &vd, why, sizeof(why));
	if (!rc && !(buf = malloc(CHUNK))) {
		rc = -ENOMEM;
		snprintf(why, sizeof(why), "out of memory");
	}
	if (say(MSG_OPEN, rc, rc ? 0 : vd->size) ||
	    child_write(why, sizeof(why)) || rc)
		return 0;
	while (!child_read(&q, sizeof(q)))
		if (q.start > q.end || q.end > vd->size ||
		    serve(vd, q.start, q.end, buf))
			break;
	return 0;
}

/* --- in the parent --- */

/*
 * The child failed us: kill it, say how in @why.  Returns -ECHILD, or
 * -ENOSYS when it could not be confined (it read nothing: this system
 * cannot run it; qemu may read the image instead).
 */
static int child_lost(struct ba_vdisk_child *c, int rc, char *why, size_t len)
{
	char how[WHY_LEN] = "";
	bool killed = rc == -ETIMEDOUT || rc == -EPROTO;
	int end;

	c->dead = true;
	end = ba_sandbox_stop(&c->sb, killed, how, sizeof(how));
	snprintf(why, len, "blkalign's %s reader %s", c->format,
		 rc == -ETIMEDOUT ? "did not answer within 30 s"
		 : rc == -EPROTO  ? "broke its protocol"
		 : how[0]	  ? how
				  : "died");
	return end == BA_SANDBOX_UNCONFINED ? -ENOSYS : -ECHILD;
}

/**
 * ba_vdisk_child_open: start blkalign's reader of @format images on the
 * image file open as @fd (@file_size bytes) in a sandboxed child.
 * Returns: 0 with @out set (the virtual disk's size in @size); the
 * reader's -ENOTSUP, -EINVAL, -EIO, -ENOMEM, or -ENOSYS when the child
 * cannot be confined here (let qemu read it); -ECHILD when the child
 * died or broke the protocol; -errno; why (one line) in @why.
 */
int ba_vdisk_child_open(int fd, uint64_t file_size, const char *format,
			struct ba_vdisk_child **out, uint64_t *size, char *why,
			size_t len)
{
	struct reader_arg a = {.format = format, .file_size = file_size};
	struct ba_vdisk_child *c = calloc(1, sizeof(*c));
	char said[WHY_LEN];
	struct msg m;
	int rc;

	*out = NULL;
	if (c)
		c->buf = malloc(CHUNK);
	if (!c || !c->buf) {
		free(c);
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	c->format = format;
	rc = ba_sandbox_start(fd, reader_main, &a, &c->sb);
	if (rc) {
		snprintf(why, len, "cannot start blkalign's %s reader: %s",
			 format, strerror(-rc));
		free(c->buf);
		free(c);
		return rc;
	}
	rc = ba_sandbox_recv(&c->sb, &m, sizeof(m), READ_TIMEOUT_MS);
	if (!rc)
		rc = ba_sandbox_recv(&c->sb, said, sizeof(said),
				     READ_TIMEOUT_MS);
	if (!rc && (m.type != MSG_OPEN || m.rc > 0 || m.len > INT64_MAX))
		rc = -EPROTO;
	if (rc) {
		rc = child_lost(c, rc, why, len);
	} else if (m.rc) {
		rc = m.rc;
		said[sizeof(said) - 1] = '\0';
		snprintf(why, len, "%s", said);
	}
	if (rc) {
		ba_vdisk_child_close(c);
		return rc;
	}
	c->size = *size = m.len;
	*out = c;
	return 0;
}

/**
 * ba_vdisk_child_fetch: [start, end) of the virtual disk through the
 * child: @put(@arg, off, bytes, len) for each piece, bytes NULL for a
 * piece that reads as zeros.
 * Returns: 0; the reader's -errno where it gave up (why in @why: let
 * qemu read the image); -ECHILD (the child lost, why in @why); @put's
 * error (the child is stopped: it was mid-answer).
 */
int ba_vdisk_child_fetch(struct ba_vdisk_child *c, uint64_t start, uint64_t end,
			 ba_vdisk_put_fn put, void *arg, char *why, size_t len)
{
	struct req q = {start, end};
	uint64_t at = start;
	int rc;

	if (c->dead)
		return child_lost(c, 0, why, len);
	if (start > end || end > c->size)
		return -EINVAL;
	rc = ba_sandbox_send(&c->sb, &q, sizeof(q));
	while (!rc) {
		struct msg m;

		rc = ba_sandbox_recv(&c->sb, &m, sizeof(m), READ_TIMEOUT_MS);
		if (rc)
			break;
		if (m.type == MSG_END && at == end)
			return 0;
		if (m.type == MSG_FAIL && m.rc < 0 && m.rc != -ECHILD) {
			snprintf(why, len,
				 "blkalign's %s reader cannot vouch for bytes "
				 "%" PRIu64 " to %" PRIu64 " of the disk: %s",
				 c->format, at, end, strerror(-m.rc));
			return m.rc;
		}
		if ((m.type != MSG_DATA && m.type != MSG_ZERO) || !m.len ||
		    (m.type == MSG_DATA && m.len > CHUNK) || m.len > end - at) {
			rc = -EPROTO;
			break;
		}
		if (m.type == MSG_DATA)
			rc = ba_sandbox_recv(&c->sb, c->buf, (size_t)m.len,
					     READ_TIMEOUT_MS);
		if (!rc) {
			rc = put(arg, at, m.type == MSG_DATA ? c->buf : NULL,
				 (size_t)m.len);
			if (rc) {
				c->dead = true;
				ba_sandbox_stop(&c->sb, true, NULL, 0);
				return rc;
			}
		}
		at += m.len;
	}
	return child_lost(c, rc, why, len);
}

void ba_vdisk_child_close(struct ba_vdisk_child *c)
{
	if (!c)
		return;
	ba_sandbox_stop(&c->sb, false, NULL, 0);
	free(c->buf);
	free(c);
}

/* The VHDX metadata parse (ba_vhdx_parse), as the child answers it. */
struct vhdx_answer {
	int32_t rc;
	struct ba_vhdx_layout l;
	char why[WHY_LEN];
};

struct vhdx_arg {
	uint64_t file_size;
};

static int vhdx_main(void *p)
{
	const struct vhdx_arg *a = p;
	struct vhdx_answer ans;
	struct ba_io io;

	memset(&ans, 0, sizeof(ans));
	ba_io_init_fd(&io, BA_SANDBOX_IMAGE_FD, a->file_size);
	ans.rc = ba_vhdx_parse(&io, false, &ans.l, ans.why, sizeof(ans.why));
	child_write(&ans, sizeof(ans));
	return 0;
}

/**
 * ba_vdisk_child_vhdx: ba_vhdx_parse (not strict) of the VHDX file open
 * as @fd (@file_size bytes), run in a sandboxed child; what it answers
 * is checked as the parse checks it.
 * Returns: as ba_vhdx_parse (0, 1 damaged with why, -ENOMEM); -ECHILD
 * with why when the child died or answered nonsense.
 */
int ba_vdisk_child_vhdx(int fd, uint64_t file_size, struct ba_vhdx_layout *l,
			char *why, size_t len)
{
	struct vhdx_arg a = {.file_size = file_size};
	struct ba_vdisk_child c = {.format = "vhdx"};
	struct vhdx_answer ans;
	int rc = ba_sandbox_start(fd, vhdx_main, &a, &c.sb);

	memset(l, 0, sizeof(*l));
	if (rc) {
		snprintf(why, len, "cannot start blkalign's vhdx parser: %s",
			 strerror(-rc));
		return rc;
	}
	rc = ba_sandbox_recv(&c.sb, &ans, sizeof(ans), READ_TIMEOUT_MS);
	ans.why[sizeof(ans.why) - 1] = '\0';
	if (!rc && ans.rc == 0 &&
	    (ans.l.block_size < MIB || ans.l.block_size > 256 * MIB ||
	     !ba_is_pow2(ans.l.block_size) ||
	     (ans.l.logical_sector_size != 512 &&
	      ans.l.logical_sector_size != 4096) ||
	     (ans.l.physical_sector_size != 512 &&
	      ans.l.physical_sector_size != 4096)))
		rc = -EPROTO;
	if (!rc && ans.rc != 0 && ans.rc != 1 && ans.rc != -ENOMEM)
		rc = -EPROTO;
	if (rc)
		return child_lost(&c, rc, why, len) ? -ECHILD : 0;
	ba_sandbox_stop(&c.sb, false, NULL, 0);
	*l = ans.l;
	if (ans.rc)
		snprintf(why, len, "%s", ans.why);
	return ans.rc;
}
