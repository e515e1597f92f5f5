/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix-journal.c - the journal of one partition's fix (docs/fix.md,
 * "The journal").  Every part is 4 KiB-aligned and, but for the batch
 * data, there twice:
 *
 *   0        header, copy A: magic, version, the layout, the geometry and
 *            the disk's identity, the table patches' places; CRC-32
 *   16 KiB   three record slots; record N goes to slots N+1 and N (mod 3)
 *   ...      copy A of: the patches' old and new bytes, the head (the
 *            partition's first head_len bytes), the forward move's
 *            boundaries, room for the rollback's
 *   ...      batch mode: two data slots (seq % 2)
 *   ...      copy B of the patches, head and boundaries
 *   end      header, copy B
 *
 * Each part's copies hold the same bytes, checked by one XXH3-64 in the
 * header (the rollback's boundaries: in the record); a damaged copy is
 * read from the other.  A record is written to two slots, then synced,
 * before anything it describes is done, and the third slot keeps the one
 * before: the newest valid record is always the state, whether one copy
 * was torn by a crash or damaged later.  A batch's data are synced before
 * its record, so a record whose batch does not match its hash is damage,
 * never a torn write (fix.c checks the disk then).  The file is written
 * whole (nothing later allocates) under a temporary name, synced and
 * renamed into place, and flock'ed while in use.  Native byte order: it
 * is not portable.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>
#include <xxhash.h>

#include "fix.h"

#define BLOB_MAX (4 * MIB)

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

static uint64_t place(struct ba_jpart *p, int copy, uint64_t off, uint64_t len)
{
	p->len = len;
	p->off[copy] = off;
	return align4k(off + len);
}

/* Where everything goes: a function of the geometry alone. */
void ba_journal_layout(struct ba_journal *j)
{
	uint64_t blen = ba_fix_bound_len(&j->g), off;
	uint64_t mlen = j->g.map_nr * sizeof(struct ba_extent);

	j->hdr_off[0] = 0;
	j->rec_off = J_HDR_SIZE;
	off = j->rec_off + BA_J_RECS * REC_SLOT;
	off = place(&j->blob_p, 0, off, blob_len(j));
	off = place(&j->head_p, 0, off, j->g.head_len);
	off = place(&j->bound_p, 0, off, blen);
	off = place(&j->rbound_p, 0, off, blen);
	off = place(&j->map_p, 0, off, mlen);
	j->data_off[0] = off;
	if (j->g.batch)
		off += align4k(j->g.step);
	j->data_off[1] = off;
	if (j->g.batch)
		off += align4k(j->g.step);
	off = place(&j->blob_p, 1, off, blob_len(j));
	off = place(&j->head_p, 1, off, j->g.head_len);
	off = place(&j->bound_p, 1, off, blen);
	off = place(&j->rbound_p, 1, off, blen);
	off = place(&j->map_p, 1, off, mlen);
	j->hdr_off[1] = off;
	j->size = off + J_HDR_SIZE;
}

const char *ba_fix_phase_name(uint32_t phase)
{
	static const char *const names[] = {
		[BA_PH_PREPARED] = "prepared",
		[BA_PH_MOVING] = "moving",
		[BA_PH_FINISH] = "finishing",
		[BA_PH_RB_TABLE] = "rolling back",
		[BA_PH_RB_MOVING] = "moving back",
		[BA_PH_RB_FINISH] = "restoring",
	};

	return phase >= BA_PH_PREPARED && phase <= BA_PH_LAST ? names[phase]
							      : "unknown";
}

/* Both copies of @len bytes of @buf, for part @p. */
static int write_part(struct ba_journal *j, const struct ba_jpart *p,
		      const void *buf)
{
	int rc = 0;

	for (int c = 0; c < 2 && !rc && p->len; c++)
		rc = ba_file_write(&j->file, buf, (size_t)p->len, p->off[c]);
	return rc;
}

/* Zeros over [off, off + len) of the journal. */
static int write_zeros(struct ba_journal *j, uint64_t off, uint64_t len)
{
	size_t chunk = (size_t)MIB;
	uint8_t *z = ba_file_alloc(chunk);
	int rc = 0;

	if (!z)
		return -ENOMEM;
	while (len && !rc) {
		size_t n = len < chunk ? (size_t)len : chunk;

		rc = ba_file_write(&j->file, z, n, off);
		off += n;
		len -= n;
	}
	free(z);
	return rc;
}

static int write_records(struct ba_journal *j)
{
	uint8_t *slot = ba_file_alloc(REC_SLOT);
	struct j_record *r = (struct j_record *)slot;
	/* the free slot first, then the older copy of the record before:
	 * its other copy (slot seq - 1) stays as it is */
	uint64_t to[2] = {(j->st.seq + 1) % BA_J_RECS, j->st.seq % BA_J_RECS};
	int rc = 0;

	if (!slot)
		return -ENOMEM;
	r->magic = REC_MAGIC;
	r->st = j->st;
	r->crc = ba_crc32(0, r, sizeof(*r));
	for (int k = 0; k < 2 && !rc; k++)
		rc = ba_file_write(&j->file, slot, REC_SLOT,
				   j->rec_off + REC_SLOT * to[k]);
	free(slot);
	return rc;
}

static int write_header(struct ba_journal *j)
{
	struct j_header *h = ba_file_alloc(J_HDR_SIZE);
	int rc = 0;

	if (!h)
		return -ENOMEM;
	memcpy(h->magic, J_MAGIC, 8);
	h->version = J_VERSION;
	h->size = j->size;
	memcpy(h->hdr_off, j->hdr_off, sizeof(h->hdr_off));
	h->rec_off = j->rec_off;
	memcpy(h->data_off, j->data_off, sizeof(h->data_off));
	h->blob = j->blob_p;
	h->head = j->head_p;
	h->bound = j->bound_p;
	h->rbound = j->rbound_p;
	h->map = j->map_p;
	h->g = j->g;
	for (uint32_t i = 0; i < j->g.npatches; i++) {
		h->patches[i].off = j->patches[i].off;
		h->patches[i].len = j->patches[i].len;
	}
	h->crc = ba_crc32(0, h, J_HDR_SIZE);
	for (int c = 0; c < 2 && !rc; c++)
		rc = ba_file_write(&j->file, h, J_HDR_SIZE, j->hdr_off[c]);
	free(h);
	return rc;
}

/* The patches' bytes in one buffer (old, new, ... in order). */
static uint8_t *blob_of(const struct ba_journal *j)
{
	uint8_t *b = ba_file_alloc(j->blob_p.len);
	uint64_t off = 0;

	for (uint32_t i = 0; b && i < j->g.npatches; i++) {
		memcpy(b + off, j->patches[i].old, j->patches[i].len);
		off += j->patches[i].len;
		memcpy(b + off, j->patches[i].new, j->patches[i].len);
		off += j->patches[i].len;
	}
	return b;
}

static int sync_dir(const char *path)
{
	char dir[4096];
	int dfd, rc = 0;

	snprintf(dir, sizeof(dir), "%s", path);
	dfd = open(dirname(dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	if (fsync(dfd))
		rc = -errno;
	close(dfd);
	return rc;
}

/**
 * ba_journal_create: write the journal of @j (geometry, identity,
 * patches, head, boundaries, j->st as the first record, and zeros where
 * the rollback's boundaries and the batches go) to @path, which must not
 * exist, whole and synced with its directory.  Returns 0, -EEXIST or
 * -errno (and then there is no journal).
 */
int ba_journal_create(struct ba_journal *j, struct ba_fix_io *io,
		      const char *path)
{
	char tmp[4096];
	uint8_t *blob = NULL;
	int rc;

	if (!access(path, F_OK))
		return -EEXIST;
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.new", path) >= sizeof(tmp))
		return -ENAMETOOLONG;
	unlink(tmp);
	rc = ba_file_open(&j->file, io, BLKALIGN_FIX_FILE_JOURNAL, tmp,
			  O_RDWR | O_CREAT | O_EXCL, false);
	if (rc)
		return rc;
	if (flock(j->file.fd, LOCK_EX | LOCK_NB)) {
		rc = -errno;
		goto fail;
	}
	ba_journal_layout(j);
	if (j->blob_p.len > BLOB_MAX) {
		rc = -E2BIG;
		goto fail;
	}
	j->st.seq = 1;
	blob = blob_of(j);
	if (!blob) {
		rc = -ENOMEM;
		goto fail;
	}
	j->blob_p.hash = XXH3_64bits(blob, (size_t)j->blob_p.len);
	j->head_p.hash = XXH3_64bits(j->head, (size_t)j->head_p.len);
	j->bound_p.hash = j->g.bound_hash;
	j->map_p.hash = j->g.map_hash;
	/* the whole file first, so that nothing later needs space: where
	 * the file system can, allocated (posix_fallocate: later writes
	 * there "are guaranteed not to fail because of lack of disk space"),
	 * else written */
	rc = posix_fallocate(j->file.fd, 0, (off_t)j->size);
	if (rc == EOPNOTSUPP || rc == EINVAL)
		rc = write_zeros(j, 0, j->size);
	else
		rc = -rc;
	if (!rc)
		rc = write_header(j);
	if (!rc)
		rc = write_part(j, &j->blob_p, blob);
	if (!rc)
		rc = write_part(j, &j->head_p, j->head);
	if (!rc && j->bound_p.len)
		rc = write_part(j, &j->bound_p, j->bound);
	if (!rc && j->map_p.len)
		rc = write_part(j, &j->map_p, j->map);
	if (!rc)
		rc = write_records(j);
	if (!rc)
		rc = ba_file_flush(&j->file);
	if (!rc && rename(tmp, path))
		rc = -errno;
	if (rc)
		goto fail;
	free(blob);
	j->file.path = path;
	j->file.size = j->size; /* all of it allocated or written */
	j->have_state = true;
	return sync_dir(path);
fail:
	free(blob);
	ba_file_close(&j->file);
	unlink(tmp);
	return rc;
}

static bool header_ok(struct j_header *h)
{
	uint32_t crc = h->crc;
	bool ok;

	h->crc = 0;
	ok = !memcmp(h->magic, J_MAGIC, 8) && h->version == J_VERSION &&
	     ba_crc32(0, h, J_HDR_SIZE) == crc;
	h->crc = crc;
	return ok;
}

/* The geometry within what the mover relies on. */
static bool geom_ok(const struct ba_fix_geom *g)
{
	uint64_t d = g->new_start > g->old_start ? g->new_start - g->old_start
						 : g->old_start - g->new_start;

	return g->npatches <= BA_FIX_MAX_PATCHES &&
	       g->head_len <= BA_FIX_HEAD_MAX && g->step <= BA_FIX_STEP_MAX &&
	       g->lss >= 512 && g->lss <= 65536 && g->step && g->number &&
	       g->len <= g->old_size && g->len <= g->new_size &&
	       g->head_len <= g->len && g->old_start <= g->disk_size &&
	       g->old_size <= g->disk_size - g->old_start &&
	       g->new_start <= g->disk_size &&
	       g->new_size <= g->disk_size - g->new_start && g->chains &&
	       g->chains <= BA_FIX_MAX_CHAINS && g->region &&
	       g->map_nr <= BA_FIX_MAP_MAX && g->map_used <= g->len &&
	       memchr(g->map_source, '\0', sizeof(g->map_source)) &&
	       (g->chains == 1 ||
		(g->region <= g->len / (g->chains - 1) && g->region >= d &&
		 ba_fix_bound_len(g) <= 64 * MIB));
}

/*
 * Read a header copy at @off into @h: 1 valid, 0 damaged, -errno.  A
 * copy-A header of the first journal format is -EPROTO.
 */
static int read_header(struct ba_journal *j, uint64_t off, struct j_header *h)
{
	if (off + J_HDR_SIZE > j->file.size)
		return 0;
	if (ba_file_read(&j->file, h, J_HDR_SIZE, off))
		return 0;
	if (!off && !memcmp(h->magic, J_MAGIC_V1, 8))
		j->h.old_format = 1;
	if (!off && !memcmp(h->magic, J_MAGIC_V2, 8))
		j->h.old_format = 2;
	if (j->h.old_format)
		return -EPROTO;
	return header_ok(h) && geom_ok(&h->g);
}

/* Check a header's layout against the one its geometry gives. */
static bool layout_ok(struct ba_journal *j, const struct j_header *h)
{
	uint64_t off = 0;

	j->g = h->g;
	j->g.path[sizeof(j->g.path) - 1] = '\0';
	for (uint32_t i = 0; i < j->g.npatches; i++) {
		j->patches[i].off = h->patches[i].off;
		j->patches[i].len = h->patches[i].len;
		if (!h->patches[i].len || h->patches[i].len > MIB ||
		    h->patches[i].off > j->g.disk_size ||
		    h->patches[i].len > j->g.disk_size - h->patches[i].off)
			return false;
		off += 2ULL * h->patches[i].len;
	}
	if (off > BLOB_MAX)
		return false;
	ba_journal_layout(j);
	return h->size == j->size && h->rec_off == j->rec_off &&
	       !memcmp(h->hdr_off, j->hdr_off, sizeof(h->hdr_off)) &&
	       !memcmp(h->data_off, j->data_off, sizeof(h->data_off)) &&
	       h->blob.len == j->blob_p.len && h->head.len == j->head_p.len &&
	       h->bound.len == j->bound_p.len &&
	       h->rbound.len == j->rbound_p.len && h->map.len == j->map_p.len &&
	       !memcmp(h->map.off, j->map_p.off, sizeof(h->map.off)) &&
	       !memcmp(h->blob.off, j->blob_p.off, sizeof(h->blob.off)) &&
	       !memcmp(h->head.off, j->head_p.off, sizeof(h->head.off)) &&
	       !memcmp(h->bound.off, j->bound_p.off, sizeof(h->bound.off)) &&
	       !memcmp(h->rbound.off, j->rbound_p.off, sizeof(h->rbound.off));
}

/*
 * The bytes of part @p (hash @hash) into @buf from the first good copy;
 * @state gets each copy's.  @both: check the second copy too.
 * Returns 0 or -EBADMSG (no good copy).
 */
static int read_part(struct ba_journal *j, const struct ba_jpart *p,
		     uint64_t hash, uint8_t *buf, uint8_t state[2], bool both)
{
	uint8_t *dst = buf, *tmp = NULL;
	bool got = false;

	state[0] = state[1] = BA_JC_UNUSED;
	for (int c = 0; c < 2 && p->len && (!got || both); c++) {
		if (got) {
			tmp = ba_file_buffer(p->len);
			if (!tmp)
				return -ENOMEM;
			dst = tmp;
		}
		if (p->off[c] + p->len > j->file.size)
			state[c] = BA_JC_MISSING;
		else if (ba_file_read(&j->file, dst, (size_t)p->len,
				      p->off[c]) ||
			 XXH3_64bits(dst, (size_t)p->len) != hash)
			state[c] = BA_JC_BAD;
		else
			state[c] = BA_JC_OK;
		got |= state[c] == BA_JC_OK;
	}
	free(tmp);
	return got || !p->len ? 0 : -EBADMSG;
}

static bool record_ok(const struct ba_journal *j, struct j_record *r, int slot)
{
	uint32_t crc = r->crc;
	const struct ba_fix_state *st = &r->st;
	bool ok;

	r->crc = 0;
	ok = r->magic == REC_MAGIC && ba_crc32(0, r, sizeof(*r)) == crc;
	r->crc = crc;
	return ok && st->seq &&
	       ((st->seq % BA_J_RECS) == (uint64_t)slot ||
		((st->seq + 1) % BA_J_RECS) == (uint64_t)slot) &&
	       st->phase >= BA_PH_PREPARED && st->phase <= BA_PH_LAST &&
	       st->lo <= st->hi && st->nlev <= BA_FIX_WINDOW_LEVELS &&
	       st->nhash <= BA_FIX_WINDOW_LEVELS * BA_FIX_MAX_CHAINS &&
	       st->done <= st->hi - st->lo && st->hi <= j->g.len &&
	       (!st->inflight || (j->g.batch && st->inflight <= j->g.step)) &&
	       (!st->rb_levels ||
		(!j->g.batch && (st->phase == BA_PH_RB_MOVING ||
				 st->phase == BA_PH_RB_FINISH))) &&
	       ((st->phase != BA_PH_MOVING && st->phase != BA_PH_RB_MOVING) ||
		(st->from == j->g.old_start && st->to == j->g.new_start) ||
		(st->from == j->g.new_start && st->to == j->g.old_start));
}

/* The newest valid record of the three slots: j->st. */
static int read_records(struct ba_journal *j)
{
	uint8_t *slot = ba_file_alloc(REC_SLOT);
	struct j_record *r = (struct j_record *)slot;
	int best = -1;

	if (!slot)
		return -ENOMEM;
	for (int k = 0; k < BA_J_RECS; k++) {
		uint64_t off = j->rec_off + REC_SLOT * (uint64_t)k;

		j->h.rec[k] = BA_JC_MISSING;
		if (off + REC_SLOT > j->file.size)
			continue;
		j->h.rec[k] = BA_JC_BAD;
		if (ba_file_read(&j->file, slot, REC_SLOT, off) ||
		    !record_ok(j, r, k))
			continue;
		j->h.rec[k] = BA_JC_OK;
		j->h.rec_seq[k] = r->st.seq;
		if (best < 0 || r->st.seq > j->st.seq) {
			j->st = r->st;
			best = k;
		}
	}
	free(slot);
	for (int k = 0; k < BA_J_RECS; k++) {
		j->h.copies += best >= 0 && j->h.rec[k] == BA_JC_OK &&
			       j->h.rec_seq[k] == j->st.seq;
		/* a slot cut off may have held the newest record: the
		 * others say nothing sure */
		if (j->h.rec[k] == BA_JC_MISSING)
			best = -1;
	}
	j->have_state = best >= 0;
	return 0;
}

/* The batch in flight: its bytes in the journal match the record's hash?
 * (They were synced before the record: a mismatch is damage.) */
static int check_data(struct ba_journal *j)
{
	uint8_t *buf;

	j->h.data = BA_JC_UNUSED;
	if (!j->have_state || !j->st.inflight)
		return 0;
	buf = ba_file_buffer(j->st.inflight);
	if (!buf)
		return -ENOMEM;
	j->h.data = j->data_off[j->st.seq % 2] + j->st.inflight > j->file.size
			    ? BA_JC_MISSING
		    : !ba_file_read(&j->file, buf, (size_t)j->st.inflight,
				    j->data_off[j->st.seq % 2]) &&
				    XXH3_64bits(buf, (size_t)j->st.inflight) ==
					    j->st.data_hash
			    ? BA_JC_OK
			    : BA_JC_BAD;
	free(buf);
	return 0;
}

/*
 * A valid header copy into @h (their states in j->h.hdr): copy A, or
 * copy B where A's layout puts it (the end of the file when A is
 * damaged).  @thorough: B is checked even when A is good.
 */
static int open_header(struct ba_journal *j, struct j_header *h, bool thorough)
{
	struct j_header *b;
	uint64_t boff;
	int a, bb;

	a = read_header(j, 0, h);
	if (a < 0)
		return a;
	if (a == 1 && !layout_ok(j, h))
		a = 0;
	j->h.hdr[0] = a == 1 ? BA_JC_OK : BA_JC_BAD;
	if (a == 1 && !thorough)
		return 0;
	b = ba_file_alloc(J_HDR_SIZE);
	if (!b)
		return -ENOMEM;
	boff = a == 1			    ? j->hdr_off[1]
	       : j->file.size >= J_HDR_SIZE ? j->file.size - J_HDR_SIZE
					    : 0;
	bb = read_header(j, boff, b) == 1;
	if (bb && a == 1)
		bb = !memcmp(h, b, J_HDR_SIZE);
	else if (bb)
		bb = layout_ok(j, b) && boff == j->hdr_off[1];
	j->h.hdr[1] = bb				 ? BA_JC_OK
		      : boff + J_HDR_SIZE > j->file.size ? BA_JC_MISSING
							 : BA_JC_BAD;
	if (a != 1 && bb)
		memcpy(h, b, J_HDR_SIZE);
	free(b);
	return a == 1 || bb ? 0 : -EBADMSG;
}

/* The map's extents sorted, disjoint, inside [0, len), summing to
 * map_used. */
static bool map_ok(const struct ba_journal *j)
{
	uint64_t sum = 0, end = 0;

	for (uint64_t i = 0; i < j->g.map_nr; i++) {
		const struct ba_extent *e = &j->map[i];

		if (!e->len || e->off < end || e->off > j->g.len ||
		    e->len > j->g.len - e->off)
			return false;
		end = e->off + e->len;
		sum += e->len;
	}
	return sum == j->g.map_used;
}

/* The map of the bytes the move copies, from a good copy; none good:
 * j->map NULL (ba_fix_lacks refuses to go on without it). */
static int read_map(struct ba_journal *j, bool thorough)
{
	if (!j->g.map_nr)
		return 0;
	j->map = ba_file_alloc(j->map_p.len);
	if (!j->map)
		return -ENOMEM;
	if (read_part(j, &j->map_p, j->map_p.hash, (uint8_t *)j->map, j->h.map,
		      thorough) ||
	    !map_ok(j)) {
		free(j->map);
		j->map = NULL;
	}
	return 0;
}

/**
 * ba_journal_open: read the journal at @path (locked; its I/O through
 * @io): a header copy, the patches, the head and the newest valid record
 * (each from a good copy), whether the batch in flight is whole; what it
 * found of each copy in j->h (@thorough: every copy checked, and the file
 * opened read-only: for --inspect).  Returns 0
 * with j->have_state telling whether a record was found; -ENOENT,
 * -EBUSY (in use), -EPROTO (an older format), -EBADMSG (no valid header:
 * not a journal, or both copies damaged) or -errno.  The patches or the
 * head missing is not an error: j->blob or j->head is then NULL.
 */
int ba_journal_open(struct ba_journal *j, struct ba_fix_io *io,
		    const char *path, bool thorough)
{
	struct j_header *h = NULL;
	uint64_t off = 0;
	int rc;

	memset(j, 0, sizeof(*j));
	rc = ba_file_open(&j->file, io, BLKALIGN_FIX_FILE_JOURNAL, path,
			  thorough ? O_RDONLY : O_RDWR, false);
	if (rc)
		return rc;
	if (flock(j->file.fd, (thorough ? LOCK_SH : LOCK_EX) | LOCK_NB)) {
		rc = errno == EWOULDBLOCK ? -EBUSY : -errno;
		goto out;
	}
	j->thorough = thorough;
	h = ba_file_alloc(J_HDR_SIZE);
	if (!h) {
		rc = -ENOMEM;
		goto out;
	}
	rc = open_header(j, h, thorough);
	if (rc)
		goto out;
	j->blob_p = h->blob;
	j->head_p = h->head;
	j->bound_p = h->bound;
	j->rbound_p = h->rbound;
	j->map_p = h->map;
	j->h.size = j->file.size;
	j->h.want = j->size;
	j->blob = ba_file_alloc(j->blob_p.len);
	j->head = ba_file_alloc(j->g.head_len);
	if (!j->blob || !j->head) {
		rc = -ENOMEM;
		goto out;
	}
	if (read_part(j, &j->blob_p, j->blob_p.hash, j->blob, j->h.blob,
		      thorough)) {
		free(j->blob);
		j->blob = NULL;
	}
	for (uint32_t i = 0; j->blob && i < j->g.npatches; i++) {
		j->patches[i].old = j->blob + off;
		j->patches[i].new = j->blob + off + j->patches[i].len;
		off += 2ULL * j->patches[i].len;
	}
	if (read_part(j, &j->head_p, j->head_p.hash, j->head, j->h.head,
		      thorough)) {
		free(j->head);
		j->head = NULL;
	}
	rc = read_map(j, thorough);
	if (!rc)
		rc = read_records(j);
	if (!rc)
		rc = check_data(j);
	if (!rc && thorough && j->bound_p.len) {
		rc = ba_journal_load_bounds(j, false);
		rc = rc == -EBADMSG ? 0 : rc;
	}
	if (!rc && thorough && j->have_state && j->st.rb_bound_hash &&
	    j->rbound_p.len) {
		rc = ba_journal_load_bounds(j, true);
		rc = rc == -EBADMSG ? 0 : rc;
	}
out:
	free(h);
	if (rc)
		ba_journal_close(j);
	return rc;
}

/**
 * ba_journal_peek: the geometry of the journal at @path (read-only, no
 * lock): for telling which disk a journal belongs to.  0, -EBADMSG or
 * -errno.
 */
int ba_journal_peek(const char *path, struct ba_fix_geom *g)
{
	struct ba_journal *j = calloc(1, sizeof(*j));
	struct j_header *h = ba_file_alloc(J_HDR_SIZE);
	struct ba_fix_io io;
	int rc;

	if (!j || !h) {
		free(j);
		free(h);
		return -ENOMEM;
	}
	ba_fix_io_init(&io, NULL);
	rc = ba_file_open(&j->file, &io, BLKALIGN_FIX_FILE_JOURNAL, path,
			  O_RDONLY, false);
	if (!rc) {
		rc = open_header(j, h, false);
		if (!rc)
			*g = j->g;
		ba_file_close(&j->file);
	}
	free(h);
	free(j);
	return rc;
}

/**
 * ba_journal_record: make j->st (with a new sequence number) the state,
 * durably, in two slots; in batch mode with @data, the batch's
 * j->st.inflight bytes first (synced before the record).
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
		if (!rc)
			rc = ba_file_flush(&j->file);
	} else {
		j->st.inflight = 0;
	}
	if (!rc)
		rc = write_records(j);
	if (!rc)
		rc = ba_file_flush(&j->file);
	return rc;
}

/* The in-flight batch's bytes, as recorded (checked against the hash). */
int ba_journal_read_data(struct ba_journal *j, void *buf)
{
	int rc;

	if (!j->st.inflight)
		return -EINVAL;
	rc = ba_file_read(&j->file, buf, j->st.inflight,
			  j->data_off[j->st.seq % 2]);
	if (!rc && XXH3_64bits(buf, j->st.inflight) != j->st.data_hash)
		rc = -EBADMSG;
	return rc;
}

/* Can the rollback's boundaries be written (a copy of their room is in
 * the file)? */
bool ba_journal_can_write_rbounds(const struct ba_journal *j)
{
	const struct ba_jpart *p = &j->rbound_p;

	return !p->len || p->off[0] + p->len <= j->file.size ||
	       p->off[1] + p->len <= j->file.size;
}

/**
 * ba_journal_write_bounds: the rollback's boundaries (@buf), in the
 * copies of their room that the file has, durably; the caller records
 * their hash with the next record.
 */
int ba_journal_write_bounds(struct ba_journal *j, const uint8_t *buf)
{
	const struct ba_jpart *p = &j->rbound_p;
	int rc = 0, n = 0;

	if (!p->len)
		return 0;
	for (int c = 0; c < 2 && !rc; c++) {
		if (p->off[c] + p->len > j->file.size)
			continue;
		rc = ba_file_write(&j->file, buf, (size_t)p->len, p->off[c]);
		n++;
	}
	if (!rc && !n)
		rc = -ENOSPC;
	if (!rc)
		rc = ba_file_flush(&j->file);
	j->st.rb_bound_hash = XXH3_64bits(buf, (size_t)p->len);
	return rc;
}

/**
 * ba_journal_read_bound: boundary @k (@len bytes) of the move in flight
 * (the rollback's when j->bound_rb) from a copy in the journal whose
 * XXH3-64 is @sum, into @buf.  0, -EBADMSG when none is, or -errno.
 */
int ba_journal_read_bound(struct ba_journal *j, uint32_t k, uint64_t len,
			  uint64_t sum, uint8_t *buf)
{
	const struct ba_jpart *p = j->bound_rb ? &j->rbound_p : &j->bound_p;
	uint64_t at = (uint64_t)k * len;
	int rc = -EBADMSG;

	for (int c = 0; c < 2 && rc; c++) {
		if (at + len > p->len || p->off[c] + at + len > j->file.size)
			continue;
		rc = ba_file_read(&j->file, buf, (size_t)len, p->off[c] + at);
		if (!rc && XXH3_64bits(buf, (size_t)len) != sum)
			rc = -EBADMSG;
	}
	return rc;
}

/**
 * ba_journal_load_bounds: j->bound = the forward move's boundaries (@rb
 * false) or the rollback's, from a copy that matches their hash.
 * -EBADMSG when none does.
 */
int ba_journal_load_bounds(struct ba_journal *j, bool rb)
{
	const struct ba_jpart *p = rb ? &j->rbound_p : &j->bound_p;
	uint8_t *st = rb ? j->h.rbound : j->h.bound;
	int rc;

	if (j->bound && j->bound_rb == rb)
		return 0; /* what this process read and wrote to the journal */
	free(j->bound);
	j->bound = NULL;
	if (!p->len)
		return 0;
	j->bound_rb = rb;
	j->bound = ba_file_buffer(p->len);
	if (!j->bound)
		return -ENOMEM;
	rc = read_part(j, p, rb ? j->st.rb_bound_hash : j->g.bound_hash,
		       j->bound, st, j->thorough);
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
	free(j->bound_sums);
	j->bound_sums = NULL;
	free(j->map);
	j->map = NULL;
	ba_file_close(&j->file);
	free(j->blob);
	free(j->head);
	j->blob = NULL;
	j->head = NULL;
}
