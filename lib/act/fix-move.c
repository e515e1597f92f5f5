/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix-move.c - moving the partition's bytes, crash-safely (docs/fix.md).
 *
 * A move copies the partition-relative bytes [lo, hi) from base `from` to
 * base `to` (shift d), from the end backwards when it moves right and
 * from the start forwards when it moves left, so that a step never
 * overwrites the source of a step still to come.
 *
 * - step mode (d >= BA_FIX_BATCH_BELOW): a step is at most d long, so it
 *   does not overwrite its own source; it overwrites only the source of
 *   the step before it, which must be on the disk first: a flush between
 *   the two.  One chain of steps would flush every d bytes, so the bytes
 *   are cut into `chains` regions moved side by side: a *level* is one
 *   step of every region, then one flush, so a flush covers up to
 *   BA_FIX_LEVEL bytes.  A region's first steps overwrite the d bytes at
 *   the near end of the next region (its *boundary*), which that region
 *   moves last: the boundaries' bytes are in the journal, and read from
 *   there (fix-bounds.c: not held in memory while the move runs).
 *   The journal records the window in flight (a level, the XXH3-128 of
 *   each step) before its writes; after a crash the levels that landed
 *   whole count as done and the rest is done again (its sources are
 *   intact: a region's step is only overwritten by its next step, or is
 *   a boundary).  The geometry is in fix-regions.c.
 * - batch mode (smaller shifts): a step (a batch) overlaps its own source,
 *   so the batch's bytes go into the journal first; after a crash the batch
 *   is written again from there.
 *
 * The next level's (or batch's) sources are read while the current one is
 * written: they never overlap its destinations.  The partition's first
 * head_len bytes are read from the journal and written hidden (zeros and
 * a marker): while a move is in flight no position holds a recognisable
 * file system.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xxhash.h>

#include "fix.h"

/* A read of the next level (or batch): pieces into one buffer. */
struct rjob {
	uint64_t rel, len, off;
};

/*
 * A window of step mode: up to BA_FIX_WINDOW_LEVELS levels (a journal of
 * this version makes them of BA_FIX_WINDOW_MOVE), read with one read per
 * region (its steps in the window are adjacent), written level by level.
 */
struct window {
	uint32_t nlev, nread;
	uint32_t npieces[BA_FIX_WINDOW_LEVELS];
	uint64_t bytes[BA_FIX_WINDOW_LEVELS];
	struct rjob piece[BA_FIX_WINDOW_LEVELS][BA_FIX_MAX_CHAINS];
	struct rjob read[BA_FIX_MAX_CHAINS];
	/* what each step writes (the head hidden), and its XXH3-128,
	 * level-major: the reader thread makes them after its reads */
	uint32_t nhash;
	struct ba_fix_hash hash[BA_FIX_WINDOW_LEVELS * BA_FIX_MAX_CHAINS];
};

struct reader {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct ba_fix_run *r;
	uint8_t *buf;
	struct rjob job[BA_FIX_MAX_CHAINS];
	uint32_t njob;
	struct window *win; /* step mode: hide and hash its steps after */
	bool busy, quit;
	int rc;
};

static uint32_t min32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* The bytes [rel, rel + len) of the partition at @base as the move sees
 * them: with a map, its used bytes and zeros between (fix-used.c). */
static int read_used(struct ba_fix_run *r, uint8_t *buf, uint64_t base,
		     uint64_t rel, uint64_t len)
{
	struct ba_journal *j = r->j;
	uint64_t i, a, b;
	int rc = 0;

	if (!j->map)
		return ba_file_read(r->dev, buf, (size_t)len, base + rel);
	memset(buf, 0, (size_t)len);
	for (i = ba_fix_map_from(j, rel);
	     !rc && ba_fix_map_piece(j, i, rel, len, &a, &b); i++)
		rc = ba_file_read(r->dev, buf + (a - rel), (size_t)(b - a),
				  base + a);
	return rc;
}

/* Zeros over what the map leaves out of [rel, rel + len) of @buf. */
static void mask(const struct ba_journal *j, uint8_t *buf, uint64_t rel,
		 uint64_t len)
{
	uint64_t i, a, b, at = rel;

	if (!j->map)
		return;
	for (i = ba_fix_map_from(j, rel);
	     ba_fix_map_piece(j, i, rel, len, &a, &b); i++) {
		memset(buf + (at - rel), 0, (size_t)(a - at));
		at = b;
	}
	memset(buf + (at - rel), 0, (size_t)(rel + len - at));
}

/* The logical source bytes: the device; the head and, in step mode, the
 * boundaries of the move in flight from the journal; zeros where the map
 * says nothing is used. */
static int read_src(struct ba_fix_run *r, uint8_t *buf, uint64_t rel,
		    uint64_t len)
{
	struct ba_journal *j = r->j;
	int rc = read_used(r, buf, j->st.from, rel, len);

	if (rc)
		return rc;
	ba_fix_overlay(buf, rel, len, j->head, 0, j->g.head_len);
	rc = ba_fix_bounds_over(j, buf, rel, len);
	mask(j, buf, rel, len);
	return rc;
}

static int write_dst(struct ba_fix_run *r, uint8_t *buf, uint64_t rel,
		     uint64_t len)
{
	struct ba_journal *j = r->j;
	uint64_t i, a, b;
	int rc = 0;

	ba_fix_hide_head(&j->g, buf, rel, len);
	if (!j->map)
		return ba_file_write(r->dev, buf, (size_t)len, j->st.to + rel);
	for (i = ba_fix_map_from(j, rel);
	     !rc && ba_fix_map_piece(j, i, rel, len, &a, &b); i++)
		rc = ba_file_write(r->dev, buf + (a - rel), (size_t)(b - a),
				   j->st.to + a);
	return rc;
}

static struct ba_fix_hash hash_of(const uint8_t *buf, uint64_t len)
{
	XXH128_hash_t h = XXH3_128bits(buf, (size_t)len);

	return (struct ba_fix_hash){h.low64, h.high64};
}

/* The reader thread, after reading @w into @buf: each step's head
 * hidden (what it writes), and its hash. */
static void hash_window(const struct ba_journal *j, struct window *w,
			uint8_t *buf)
{
	uint32_t h = 0;

	for (uint32_t l = 0; l < w->nlev; l++)
		for (uint32_t i = 0; i < w->npieces[l]; i++) {
			const struct rjob *p = &w->piece[l][i];

			ba_fix_hide_head(&j->g, buf + p->off, p->rel, p->len);
			w->hash[h++] = hash_of(buf + p->off, p->len);
		}
	w->nhash = h;
}

static void *reader_main(void *arg)
{
	struct reader *rd = arg;

	pthread_mutex_lock(&rd->lock);
	for (;;) {
		while (!rd->busy && !rd->quit)
			pthread_cond_wait(&rd->cond, &rd->lock);
		if (rd->quit)
			break;
		pthread_mutex_unlock(&rd->lock);
		rd->rc = 0;
		for (uint32_t i = 0; i < rd->njob && !rd->rc; i++)
			rd->rc = read_src(rd->r, rd->buf + rd->job[i].off,
					  rd->job[i].rel, rd->job[i].len);
		if (!rd->rc && rd->win)
			hash_window(rd->r->j, rd->win, rd->buf);
		pthread_mutex_lock(&rd->lock);
		rd->busy = false;
		pthread_cond_broadcast(&rd->cond);
	}
	pthread_mutex_unlock(&rd->lock);
	return NULL;
}

static void reader_start(struct reader *rd, uint8_t *buf,
			 const struct rjob *job, uint32_t n, struct window *win)
{
	pthread_mutex_lock(&rd->lock);
	rd->win = win;
	rd->buf = buf;
	memcpy(rd->job, job, n * sizeof(*job));
	rd->njob = n;
	rd->busy = true;
	pthread_cond_broadcast(&rd->cond);
	pthread_mutex_unlock(&rd->lock);
}

static int reader_wait(struct reader *rd)
{
	pthread_mutex_lock(&rd->lock);
	while (rd->busy)
		pthread_cond_wait(&rd->cond, &rd->lock);
	pthread_mutex_unlock(&rd->lock);
	return rd->rc;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Batch mode after a crash: the batch in flight, again, from the journal
 * (the bytes exist nowhere else: read back after the write). */
static int redo_batch(struct ba_fix_run *r, uint8_t *buf)
{
	struct ba_journal *j = r->j;
	uint64_t len = j->st.inflight;
	uint64_t rel = ba_fix_step_rel(&j->st, j->st.done, len);
	int rc = ba_journal_read_data(j, buf);

	if (!rc) {
		ba_fix_hide_head(&j->g, buf, rel, len);
		rc = ba_file_write_check(r->dev, buf, (size_t)len,
					 j->st.to + rel);
	}
	if (!rc) {
		j->st.done += len;
		j->st.inflight = 0;
		r->moved += ba_fix_used(j, rel, len);
	}
	return rc;
}

/*
 * ba_fix_batch_recover: the batch in flight whose copy in the journal is
 * damaged, from the disk: done when its destination holds it whole, or
 * taken from its source when that is whole (by the record's hash; the
 * head's bytes from the journal).  With @repair, the state or the
 * journal's copy is mended.  1 recovered, 0 not, -errno.
 */
int ba_fix_batch_recover(struct ba_fix_run *r, bool repair)
{
	struct ba_journal *j = r->j;
	struct ba_fix_state *st = &j->st;
	uint64_t len = st->inflight, rel = ba_fix_step_rel(st, st->done, len);
	uint8_t *buf;
	int rc, got = 0;

	if (!j->head || !r->dev)
		return 0;
	buf = ba_file_buffer(len);
	if (!buf)
		return -ENOMEM;
	rc = read_used(r, buf, st->to, rel, len);
	if (!rc) {
		ba_fix_overlay(buf, rel, len, j->head, 0, j->g.head_len);
		if (XXH3_64bits(buf, (size_t)len) == st->data_hash) {
			got = 1;
			if (repair) {
				st->done += len;
				st->inflight = 0;
			}
		}
	}
	if (!rc && !got) {
		rc = read_src(r, buf, rel, len);
		if (!rc && XXH3_64bits(buf, (size_t)len) == st->data_hash) {
			got = 1;
			if (repair)
				rc = ba_file_write_check(
					&j->file, buf, (size_t)len,
					j->data_off[st->seq % 2]);
		}
	}
	if (!rc && got && repair)
		j->h.data = BA_JC_OK;
	free(buf);
	return rc ? rc : got;
}

/**
 * ba_fix_finish_batch: batch mode, before a rollback: the batch in flight
 * written again from the journal, and recorded as done.
 */
int ba_fix_finish_batch(struct ba_fix_run *r)
{
	uint8_t *buf = ba_file_alloc(r->j->st.inflight);
	int rc;

	if (!buf)
		return -ENOMEM;
	rc = redo_batch(r, buf);
	free(buf);
	return rc ? rc : ba_journal_record(r->j, NULL);
}

static void reader_destroy(struct reader *rd)
{
	pthread_cond_destroy(&rd->cond);
	pthread_mutex_destroy(&rd->lock);
}

/* The reader thread of a move, idle.  Returns 0 or -EAGAIN. */
static int reader_launch(struct reader *rd, struct ba_fix_run *r)
{
	memset(rd, 0, sizeof(*rd));
	rd->r = r;
	pthread_mutex_init(&rd->lock, NULL);
	pthread_cond_init(&rd->cond, NULL);
	if (pthread_create(&rd->thread, NULL, reader_main, rd)) {
		reader_destroy(rd);
		return -EAGAIN;
	}
	return 0;
}

/* The reader thread gone, after the read in flight. */
static void reader_end(struct reader *rd)
{
	reader_wait(rd);
	pthread_mutex_lock(&rd->lock);
	rd->quit = true;
	pthread_cond_broadcast(&rd->cond);
	pthread_mutex_unlock(&rd->lock);
	pthread_join(rd->thread, NULL);
	reader_destroy(rd);
}

static void progress(struct ba_fix_run *r, uint64_t bytes)
{
	r->moved += bytes;
	r->steps++;
	if (r->opts->progress)
		r->opts->progress(r->opts->progress_data, r->moved, r->total);
}

static bool stop_asked(const struct ba_fix_run *r)
{
	return r->opts->stop && *r->opts->stop;
}

/* The window of @nlev levels after the bytes @done of each region; @done
 * advanced. */
static void plan_window(const struct ba_journal *j, uint64_t *done,
			uint32_t nlev, struct window *w)
{
	uint64_t a = ba_fix_piece_align(j), off = 0;

	memset(w, 0, sizeof(*w));
	for (uint32_t k = 0; k < j->g.chains; k++) {
		struct ba_fix_state rs = ba_fix_region(j, k);
		uint64_t prel[BA_FIX_WINDOW_LEVELS], plen[BA_FIX_WINDOW_LEVELS];
		uint64_t lo = UINT64_MAX, hi = 0;
		uint32_t np = 0;

		while (np < nlev && done[k] < rs.hi - rs.lo) {
			plen[np] = ba_fix_piece(&rs, done[k], j->g.step, a);
			prel[np] = ba_fix_step_rel(&rs, done[k], plen[np]);
			done[k] += plen[np];
			lo = prel[np] < lo ? prel[np] : lo;
			hi = prel[np] + plen[np] > hi ? prel[np] + plen[np]
						      : hi;
			np++;
		}
		if (!np)
			continue;
		w->read[w->nread++] = (struct rjob){lo, hi - lo, off};
		for (uint32_t i = 0; i < np; i++) {
			w->piece[i][w->npieces[i]++] = (struct rjob){
				prel[i], plen[i], off + prel[i] - lo};
			w->bytes[i] += ba_fix_used(j, prel[i], plen[i]);
		}
		if (np > w->nlev)
			w->nlev = np;
		off += hi - lo;
	}
}

/*
 * After a crash in a window: the levels of it whose every step's
 * destination holds what that step writes are done (levels land in
 * order: a flush after each); the move goes on from the first other.
 */
static int settle(struct ba_fix_run *r, const uint64_t *done)
{
	struct ba_journal *j = r->j;
	struct ba_fix_state *st = &j->st;
	uint64_t d[BA_FIX_MAX_CHAINS];
	struct window *w = calloc(1, sizeof(*w));
	uint8_t *tmp = ba_file_alloc(j->g.step);
	uint32_t h = 0;
	int rc = 0;

	if (!w || !tmp) {
		rc = -ENOMEM;
		goto out;
	}
	memcpy(d, done, sizeof(d));
	plan_window(j, d, min32(st->nlev, BA_FIX_WINDOW_LEVELS), w);
	for (uint32_t l = 0; l < st->nlev && l < w->nlev && !rc; l++) {
		bool all = true;

		for (uint32_t i = 0; i < w->npieces[l] && all; i++) {
			const struct rjob *p = &w->piece[l][i];
			struct ba_fix_hash x;

			rc = read_used(r, tmp, st->to, p->rel, p->len);
			if (rc || h >= st->nhash)
				break;
			x = hash_of(tmp, p->len);
			all = x.lo == st->hash[h].lo && x.hi == st->hash[h].hi;
			h++;
		}
		if (rc || !all)
			break;
		st->level++;
		r->moved += w->bytes[l];
	}
out:
	st->nhash = 0;
	st->nlev = 0;
	free(w);
	free(tmp);
	return rc;
}

/**
 * ba_fix_settle: step mode, after a crash in a window: the levels of it
 * that landed whole counted as done (st.level), the window forgotten.
 * Returns 0 or -errno.
 */
int ba_fix_settle(struct ba_fix_run *r)
{
	uint64_t done[BA_FIX_MAX_CHAINS] = {0};

	if (!r->j->st.nhash || r->j->g.chains > BA_FIX_MAX_CHAINS)
		return 0;
	ba_fix_advance(r->j, done, r->j->st.level);
	return settle(r, done);
}

/* Step mode: window by window (one journal record, one level), level by
 * level (one flush). */
static int move_chains(struct ba_fix_run *r)
{
	struct ba_journal *j = r->j;
	struct ba_fix_state *st = &j->st;
	uint64_t done[BA_FIX_MAX_CHAINS] = {0};
	uint64_t wsize = j->g.step * j->g.chains * BA_FIX_WINDOW_MOVE;
	struct window *win = calloc(2, sizeof(*win));
	struct reader rd;
	uint8_t *buf[2] = {NULL, NULL};
	int rc = 0, k = 0;

	if (!win || j->g.chains > BA_FIX_MAX_CHAINS) {
		rc = -ENOMEM;
		goto out_free;
	}
	rc = ba_fix_settle(r);
	if (!rc)
		rc = ba_fix_bounds_out(j);
	if (rc)
		goto out_free;
	buf[0] = ba_file_buffer(wsize);
	buf[1] = ba_file_buffer(wsize);
	if (!buf[0] || !buf[1]) {
		rc = -ENOMEM;
		goto out_free;
	}
	/* where each region stands after the levels done */
	ba_fix_advance(j, done, st->level);
	plan_window(j, done, BA_FIX_WINDOW_MOVE, &win[0]);
	if (!win[0].nread)
		goto out_free;
	rc = reader_launch(&rd, r);
	if (rc)
		goto out_free;
	reader_start(&rd, buf[0], win[0].read, win[0].nread, &win[0]);
	while (win[k].nread) {
		struct window *w = &win[k];
		uint64_t bytes = 0;

		rc = reader_wait(&rd);
		if (rc)
			break;
		plan_window(j, done, BA_FIX_WINDOW_MOVE, &win[k ^ 1]);
		if (win[k ^ 1].nread)
			reader_start(&rd, buf[k ^ 1], win[k ^ 1].read,
				     win[k ^ 1].nread, &win[k ^ 1]);
		for (uint32_t l = 0; l < w->nlev; l++)
			bytes += w->bytes[l];
		/* what each step writes, hashed by the reader; a window the
		 * map leaves empty writes nothing: no record (the next one
		 * has its level) */
		memcpy(st->hash, w->hash, w->nhash * sizeof(w->hash[0]));
		st->nlev = w->nlev;
		st->nhash = w->nhash;
		if (bytes)
			rc = ba_journal_record(j, NULL); /* in flight */
		for (uint32_t l = 0; l < w->nlev && !rc; l++) {
			for (uint32_t i = 0; i < w->npieces[l] && !rc; i++) {
				const struct rjob *p = &w->piece[l][i];

				rc = write_dst(r, buf[k] + p->off, p->rel,
					       p->len);
			}
			/* a level the map leaves empty wrote nothing */
			if (!rc && w->bytes[l])
				rc = ba_file_flush(r->dev);
			if (rc)
				break;
			st->level++;
			progress(r, w->bytes[l]);
			if (stop_asked(r) &&
			    (l + 1 < w->nlev || win[k ^ 1].nread)) {
				st->nhash = 0;
				st->nlev = 0;
				rc = ba_journal_record(j, NULL);
				rc = rc ? rc : -EINTR;
			}
		}
		if (rc)
			break;
		k ^= 1;
	}
	st->nhash = 0;
	st->nlev = 0;
	reader_end(&rd);
out_free:
	free(win);
	free(buf[0]);
	free(buf[1]);
	if (j->bound_sums) {
		int rb = ba_fix_bounds_in(j);

		rc = rc ? rc : rb;
	}
	return rc;
}

/* Batch mode: batch by batch, each in the journal first. */
static int move_batches(struct ba_fix_run *r)
{
	struct ba_journal *j = r->j;
	struct ba_fix_state *st = &j->st;
	uint64_t total = st->hi - st->lo, step = j->g.step;
	uint64_t a = ba_fix_piece_align(j);
	struct rjob job;
	struct reader rd;
	uint8_t *buf[2] = {ba_file_buffer(step), ba_file_buffer(step)};
	int rc = 0, k = 0;

	if (!buf[0] || !buf[1]) {
		rc = -ENOMEM;
		goto out_free;
	}
	if (st->inflight) {
		rc = redo_batch(r, buf[0]);
		if (rc)
			goto out_free;
	}
	if (st->done >= total)
		goto out_free;
	rc = reader_launch(&rd, r);
	if (rc)
		goto out_free;
	job.len = ba_fix_piece(st, st->done, step, a);
	job.rel = ba_fix_step_rel(st, st->done, job.len);
	job.off = 0;
	reader_start(&rd, buf[0], &job, 1, NULL);
	while (st->done < total) {
		uint64_t w = job.len, rel = job.rel, nd = st->done + w, used;

		rc = reader_wait(&rd);
		if (rc)
			break;
		if (nd < total) {
			job.len = ba_fix_piece(st, nd, step, a);
			job.rel = ba_fix_step_rel(st, nd, job.len);
			reader_start(&rd, buf[k ^ 1], &job, 1, NULL);
		}
		/* a batch the map leaves empty writes nothing: no record */
		used = ba_fix_used(j, rel, w);
		st->inflight = used ? w : 0;
		rc = used ? ba_journal_record(j, buf[k]) : 0;
		if (!rc && used)
			rc = write_dst(r, buf[k], rel, w);
		if (!rc && used)
			rc = ba_file_flush(r->dev);
		if (rc)
			break;
		st->done = nd;
		st->inflight = 0;
		progress(r, used);
		if (nd < total && stop_asked(r)) {
			rc = ba_journal_record(j, NULL);
			rc = rc ? rc : -EINTR;
			break;
		}
		k ^= 1;
	}
	reader_end(&rd);
out_free:
	free(buf[0]);
	free(buf[1]);
	return rc;
}

/**
 * ba_fix_move: run the move recorded in r->j->st to its end, then record
 * @next as the phase.  Returns 0, -EINTR when asked to stop (the journal
 * says where) or -errno (the journal says where; resume does the rest).
 * In step mode j->bound must hold the move's boundaries.
 */
int ba_fix_move(struct ba_fix_run *r, uint32_t next)
{
	struct ba_journal *j = r->j;
	double t0 = now();
	int rc;

	rc = j->g.batch ? move_batches(r) : move_chains(r);
	if (!rc) {
		j->st.phase = next;
		j->st.inflight = 0;
		rc = ba_journal_record(j, NULL);
	}
	r->seconds += now() - t0;
	return rc;
}
