/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix-journal.c - the journal of one partition's fix (docs/fix.md):
 *
 *   0        header: magic, geometry, the table patches' places, CRCs
 *   16 KiB   the patches' old and new bytes
 *   head     the partition's first head_len bytes, as they were
 *   rec      two record slots, written alternately (seq % 2)
 *   data     batch mode: two slots of one batch each (seq % 2)
 *   bounds   step mode: the forward move's boundaries (written with the
 *            header), then room for the rollback's (written when it
 *            starts)
 *
 * A record is valid when its CRC (and its batch's CRC) match; the valid
 * one with the highest sequence number is the state.  Writing the other
 * slot never touches the valid one, so a torn write falls back to it.
 * The file is built under a temporary name and renamed into place: it
 * exists whole or not at all.  Native byte order: it is not portable.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

#include "fix.h"

#define J_MAGIC	   "BLKALJ01"
#define J_VERSION  1
#define J_HDR_SIZE (16 * KIB)
#define REC_MAGIC  0x52414c42U /* "BLAR" */

struct j_patch_disk {
	uint64_t off;
	uint32_t len;
	uint32_t pad;
};

struct j_header {
	char magic[8];
	uint32_t version;
	uint32_t crc; /* of the header block, this field 0 */
	uint64_t blob_len;
	uint32_t blob_crc, head_crc;
	struct ba_fix_geom g;
	struct j_patch_disk patches[BA_FIX_MAX_PATCHES];
};

_Static_assert(sizeof(struct j_header) <= J_HDR_SIZE, "header fits");

struct j_record {
	uint32_t magic;
	uint32_t crc; /* of the record, this field 0 */
	struct ba_fix_state st;
};

#define REC_SLOT ((sizeof(struct j_record) + 4095) / 4096 * 4096)

static uint64_t align4k(uint64_t x)
{
	return (x + 4095) & ~(uint64_t)4095;
}

static uint64_t blob_len(const struct ba_journal *j)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < j->g.npatches; i++)
		n += 2 * (uint64_t)j->patches[i].len;
	return n;
}

static void layout(struct ba_journal *j)
{
	j->head_off = align4k(J_HDR_SIZE + blob_len(j));
	j->rec_off = align4k(j->head_off + j->g.head_len);
	j->data_off[0] = j->rec_off + 2 * REC_SLOT;
	j->data_off[1] = j->data_off[0];
	if (j->g.batch)
		j->data_off[1] += align4k(j->g.step);
	j->bound_off[0] = j->data_off[1];
	if (j->g.batch)
		j->bound_off[0] += align4k(j->g.step);
	j->bound_off[1] = j->bound_off[0] + align4k(ba_fix_bound_len(&j->g));
}

static int write_record(struct ba_journal *j)
{
	struct j_record *r = calloc(1, sizeof(*r));
	int rc;

	if (!r)
		return -ENOMEM;
	r->magic = REC_MAGIC;
	r->st = j->st;
	r->crc = ba_crc32(0, r, sizeof(*r));
	rc = ba_file_write(&j->file, r, sizeof(*r),
			   j->rec_off + REC_SLOT * (j->st.seq % 2));
	free(r);
	return rc;
}

/**
 * ba_journal_create: write the journal of @j (geometry, patches, head,
 * st as the first record) to @path, which must not exist.
 * Returns 0, -EEXIST or -errno.
 */
int ba_journal_create(struct ba_journal *j, const char *path)
{
	struct j_header *h;
	char tmp[4096], dir[4096];
	uint64_t off;
	int rc, dfd;

	if (!access(path, F_OK))
		return -EEXIST;
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.new", path) >= sizeof(tmp))
		return -ENAMETOOLONG;
	unlink(tmp);
	rc = ba_file_open(&j->file, tmp, O_RDWR | O_CREAT | O_EXCL, false);
	if (rc)
		return rc;
	layout(j);
	h = calloc(1, J_HDR_SIZE);
	if (!h) {
		rc = -ENOMEM;
		goto fail;
	}
	memcpy(h->magic, J_MAGIC, 8);
	h->version = J_VERSION;
	h->g = j->g;
	h->blob_len = blob_len(j);
	h->blob_crc = 0;
	for (uint32_t i = 0; i < j->g.npatches; i++) {
		h->patches[i].off = j->patches[i].off;
		h->patches[i].len = j->patches[i].len;
		h->blob_crc = ba_crc32(h->blob_crc, j->patches[i].old,
				       j->patches[i].len);
		h->blob_crc = ba_crc32(h->blob_crc, j->patches[i].new,
				       j->patches[i].len);
	}
	h->head_crc = ba_crc32(0, j->head, j->g.head_len);
	h->crc = ba_crc32(0, h, J_HDR_SIZE);
	rc = ba_file_write(&j->file, h, J_HDR_SIZE, 0);
	free(h);
	off = J_HDR_SIZE;
	for (uint32_t i = 0; !rc && i < j->g.npatches; i++) {
		rc = ba_file_write(&j->file, j->patches[i].old,
				   j->patches[i].len, off);
		off += j->patches[i].len;
		if (!rc)
			rc = ba_file_write(&j->file, j->patches[i].new,
					   j->patches[i].len, off);
		off += j->patches[i].len;
	}
	if (!rc && j->g.head_len)
		rc = ba_file_write(&j->file, j->head, j->g.head_len,
				   j->head_off);
	if (!rc && ba_fix_bound_len(&j->g))
		rc = ba_file_write(&j->file, j->bound,
				   (size_t)ba_fix_bound_len(&j->g),
				   j->bound_off[0]);
	if (!rc)
		rc = write_record(j);
	if (!rc)
		rc = ba_file_flush(&j->file);
	if (!rc && rename(tmp, path))
		rc = -errno;
	if (rc)
		goto fail;
	j->file.path = path;
	snprintf(dir, sizeof(dir), "%s", path);
	dfd = open(dirname(dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		if (fsync(dfd))
			rc = -errno;
		close(dfd);
	}
	return rc;
fail:
	ba_file_close(&j->file);
	unlink(tmp);
	return rc;
}

static bool read_record(struct ba_journal *j, int slot, struct j_record *r)
{
	uint32_t crc;

	if (ba_file_read(&j->file, r, sizeof(*r), j->rec_off + REC_SLOT * slot))
		return false;
	crc = r->crc;
	r->crc = 0;
	if (r->magic != REC_MAGIC || ba_crc32(0, r, sizeof(*r)) != crc ||
	    r->st.phase < BA_PH_PREPARED || r->st.phase > BA_PH_LAST ||
	    r->st.seq % 2 != (uint64_t)slot || r->st.lo > r->st.hi ||
	    r->st.nlev > BA_FIX_WINDOW_LEVELS ||
	    r->st.nhash > BA_FIX_WINDOW_LEVELS * BA_FIX_MAX_CHAINS ||
	    r->st.done > r->st.hi - r->st.lo || r->st.hi > j->g.len ||
	    (r->st.rb_levels &&
	     (j->g.batch || (r->st.phase != BA_PH_RB_MOVING &&
			     r->st.phase != BA_PH_RB_FINISH))) ||
	    ((r->st.phase == BA_PH_MOVING || r->st.phase == BA_PH_RB_MOVING) &&
	     !(r->st.from == j->g.old_start && r->st.to == j->g.new_start) &&
	     !(r->st.from == j->g.new_start && r->st.to == j->g.old_start)))
		return false;
	r->crc = crc;
	if (r->st.inflight) {
		uint8_t *buf;
		bool ok;

		if (!j->g.batch || r->st.inflight > j->g.step)
			return false;
		buf = ba_file_alloc(r->st.inflight);
		if (!buf)
			return false;
		ok = !ba_file_read(&j->file, buf, r->st.inflight,
				   j->data_off[slot]) &&
		     XXH3_64bits(buf, r->st.inflight) == r->st.data_hash;
		free(buf);
		return ok;
	}
	return true;
}

/**
 * ba_journal_open: read the journal at @path: header, patches, head and
 * the newest valid record.  Returns 0, -ENOENT, -EBADMSG (corrupt) or
 * -errno.
 */
int ba_journal_open(struct ba_journal *j, const char *path)
{
	struct j_header *h = NULL;
	struct j_record *r = NULL;
	bool ok[2];
	uint64_t off;
	uint32_t crc;
	int rc;

	memset(j, 0, sizeof(*j));
	rc = ba_file_open(&j->file, path, O_RDWR, false);
	if (rc)
		return rc;
	h = calloc(1, J_HDR_SIZE);
	if (!h)
		return -ENOMEM;
	rc = ba_file_read(&j->file, h, J_HDR_SIZE, 0);
	if (rc == -EIO && j->file.size < J_HDR_SIZE)
		rc = -EBADMSG; /* shorter than a header: not a journal */
	if (rc)
		goto out;
	crc = h->crc;
	h->crc = 0;
	rc = -EBADMSG;
	if (memcmp(h->magic, J_MAGIC, 8) || h->version != J_VERSION ||
	    ba_crc32(0, h, J_HDR_SIZE) != crc ||
	    h->g.npatches > BA_FIX_MAX_PATCHES ||
	    h->g.head_len > BA_FIX_HEAD_MAX || h->g.step > BA_FIX_STEP_MAX ||
	    h->blob_len > 64 * MIB || h->g.lss < 512 || h->g.lss > 65536 ||
	    !h->g.step || !h->g.number || h->g.len > h->g.old_size ||
	    h->g.len > h->g.new_size || h->g.head_len > h->g.len ||
	    h->g.old_start > h->g.disk_size ||
	    h->g.old_size > h->g.disk_size - h->g.old_start ||
	    h->g.new_start > h->g.disk_size ||
	    h->g.new_size > h->g.disk_size - h->g.new_start || !h->g.chains ||
	    h->g.chains > BA_FIX_MAX_CHAINS || !h->g.region ||
	    (h->g.chains > 1 &&
	     (h->g.region > h->g.len / (h->g.chains - 1) ||
	      h->g.region < (h->g.new_start > h->g.old_start
				     ? h->g.new_start - h->g.old_start
				     : h->g.old_start - h->g.new_start) ||
	      ba_fix_bound_len(&h->g) > 64 * MIB)))
		goto out;
	j->g = h->g;
	j->g.path[sizeof(j->g.path) - 1] = '\0';
	j->blob = malloc(h->blob_len ? h->blob_len : 1);
	j->head = ba_file_alloc(j->g.head_len);
	if (!j->blob || !j->head) {
		rc = -ENOMEM;
		goto out;
	}
	off = 0;
	for (uint32_t i = 0; i < j->g.npatches; i++) {
		j->patches[i].off = h->patches[i].off;
		j->patches[i].len = h->patches[i].len;
		if (off + 2ULL * h->patches[i].len > h->blob_len)
			goto out;
		j->patches[i].old = j->blob + off;
		j->patches[i].new = j->blob + off + h->patches[i].len;
		off += 2ULL * h->patches[i].len;
	}
	if (off != h->blob_len)
		goto out;
	layout(j);
	if (ba_file_read(&j->file, j->blob, h->blob_len, J_HDR_SIZE) ||
	    ba_crc32(0, j->blob, h->blob_len) != h->blob_crc ||
	    ba_file_read(&j->file, j->head, j->g.head_len, j->head_off) ||
	    ba_crc32(0, j->head, j->g.head_len) != h->head_crc)
		goto out;
	r = calloc(2, sizeof(*r));
	if (!r) {
		rc = -ENOMEM;
		goto out;
	}
	ok[0] = read_record(j, 0, &r[0]);
	ok[1] = read_record(j, 1, &r[1]);
	if (!ok[0] && !ok[1])
		goto out;
	{
		struct j_record *b = !ok[0]			 ? &r[1]
				     : !ok[1]			 ? &r[0]
				     : r[1].st.seq > r[0].st.seq ? &r[1]
								 : &r[0];

		j->st = b->st;
	}
	rc = 0;
out:
	free(h);
	free(r);
	if (rc)
		ba_journal_close(j);
	return rc;
}

/**
 * ba_journal_record: make j->st (with a new sequence number) the state,
 * durably; in batch mode with @data, the batch's j->st.inflight bytes go
 * with it.
 */
int ba_journal_record(struct ba_journal *j, const void *data)
{
	int rc = 0;

	j->st.seq++;
	j->st.data_hash = 0;
	if (data && j->st.inflight) {
		j->st.data_hash = XXH3_64bits(data, j->st.inflight);
		rc = ba_file_write(&j->file, data, j->st.inflight,
				   j->data_off[j->st.seq % 2]);
	} else {
		j->st.inflight = 0;
	}
	if (!rc)
		rc = write_record(j);
	if (!rc)
		rc = ba_file_flush(&j->file);
	return rc;
}

/* The in-flight batch's bytes, as recorded (CRC checked at open). */
int ba_journal_read_data(struct ba_journal *j, void *buf)
{
	if (!j->st.inflight)
		return -EINVAL;
	return ba_file_read(&j->file, buf, j->st.inflight,
			    j->data_off[j->st.seq % 2]);
}

/**
 * ba_journal_write_bounds: the rollback's boundaries (@buf), durably; the
 * caller records their hash with the next record.
 */
int ba_journal_write_bounds(struct ba_journal *j, const uint8_t *buf)
{
	uint64_t len = ba_fix_bound_len(&j->g);
	int rc;

	if (!len)
		return 0;
	rc = ba_file_write(&j->file, buf, (size_t)len, j->bound_off[1]);
	if (!rc)
		rc = ba_file_flush(&j->file);
	j->st.rb_bound_hash = XXH3_64bits(buf, (size_t)len);
	return rc;
}

/**
 * ba_journal_load_bounds: j->bound = the forward move's boundaries (@rb
 * false) or the rollback's, checked against their hash.  -EBADMSG when
 * they do not match.
 */
int ba_journal_load_bounds(struct ba_journal *j, bool rb)
{
	uint64_t len = ba_fix_bound_len(&j->g);
	int rc;

	if (j->bound && j->bound_rb == rb)
		return 0; /* what this process read and wrote to the journal */
	free(j->bound);
	j->bound = NULL;
	if (!len)
		return 0;
	j->bound_rb = rb;
	j->bound = ba_file_buffer(len);
	if (!j->bound)
		return -ENOMEM;
	rc = ba_file_read(&j->file, j->bound, (size_t)len, j->bound_off[rb]);
	if (!rc && XXH3_64bits(j->bound, (size_t)len) !=
			   (rb ? j->st.rb_bound_hash : j->g.bound_hash))
		rc = -EBADMSG;
	if (rc) {
		free(j->bound);
		j->bound = NULL;
	}
	return rc;
}

void ba_journal_close(struct ba_journal *j)
{
	free(j->bound);
	j->bound = NULL;
	ba_file_close(&j->file);
	free(j->blob);
	free(j->head);
	j->blob = NULL;
	j->head = NULL;
}
