/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix-move.c - moving the partition's bytes, crash-safely (docs/fix.md).
 *
 * A move copies the partition-relative bytes [lo, hi) from base `from` to
 * base `to`, in steps, from the end backwards when it moves right and
 * from the start forwards when it moves left, so that a step never
 * overwrites source bytes of a step still to come.  Before each step the
 * journal records how much is done; after it the device is flushed.
 *
 * - step mode (the shift is at least BA_FIX_BATCH_BELOW): a step is at most
 *   the shift long, so it does not overwrite its own source either.  The
 *   steps of a window are read at once, and one journal record holds the
 *   XXH3-128 of what each step writes; the device is flushed after each
 *   step.  After a crash, the steps whose destination holds their hash
 *   are done, and the rest are done again from their sources (intact: a
 *   step's source is only overwritten by the step after it).
 * - batch mode (smaller shifts): a step (a batch) overlaps its own source,
 *   so the batch's bytes go into the journal first; after a crash the batch
 *   is written again from there.
 *
 * The next step's source is read while the current step is written (it
 * never overlaps the current step's destination).  The first head_len
 * bytes of the partition are read from the journal and written as zeros:
 * while a move is in flight no position holds a recognisable file system.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xxhash.h>

#include "fix.h"

struct reader {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct ba_fix_run *r;
	uint8_t *buf;
	uint64_t rel, len;
	bool busy, quit;
	int rc;
};

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* The logical source bytes: the device, the head from the journal. */
static int read_src(struct ba_fix_run *r, uint8_t *buf, uint64_t rel,
		    uint64_t len)
{
	struct ba_journal *j = r->j;
	int rc = ba_file_read(r->dev, buf, (size_t)len, j->st.from + rel);

	if (!rc && rel < j->g.head_len)
		memcpy(buf, j->head + rel,
		       (size_t)min64(len, j->g.head_len - rel));
	return rc;
}

/**
 * ba_fix_hide_head: what the partition-relative bytes [rel, rel + len) of
 * the head look like while a move is in flight: zeros, the first sector
 * a marker (text naming the fix; no file system or RAID magic), the same
 * every time (step hashes cover it).
 */
void ba_fix_hide_head(const struct ba_fix_geom *g, uint8_t *buf, uint64_t rel,
		      uint64_t len)
{
	char m[512];
	int n;

	if (rel >= g->head_len)
		return;
	memset(buf, 0, (size_t)min64(len, g->head_len - rel));
	if (rel >= sizeof(m))
		return;
	memset(m, 0, sizeof(m));
	n = snprintf(m, sizeof(m),
		     BA_FIX_MARKER
		     "\npartition %u of %s: moving from byte "
		     "%llu to byte %llu; run 'blkalign fix "
		     "--resume' or '--rollback' with its journal\n",
		     g->number, g->path, (unsigned long long)g->old_start,
		     (unsigned long long)g->new_start);
	(void)n;
	memcpy(buf, m + rel, (size_t)min64(len, sizeof(m) - rel));
}

static int write_dst(struct ba_fix_run *r, uint8_t *buf, uint64_t rel,
		     uint64_t len)
{
	struct ba_journal *j = r->j;

	ba_fix_hide_head(&j->g, buf, rel, len);
	return ba_file_write(r->dev, buf, (size_t)len, j->st.to + rel);
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
		rd->rc = read_src(rd->r, rd->buf, rd->rel, rd->len);
		pthread_mutex_lock(&rd->lock);
		rd->busy = false;
		pthread_cond_broadcast(&rd->cond);
	}
	pthread_mutex_unlock(&rd->lock);
	return NULL;
}

static void reader_start(struct reader *rd, uint8_t *buf, uint64_t rel,
			 uint64_t len)
{
	pthread_mutex_lock(&rd->lock);
	rd->buf = buf;
	rd->rel = rel;
	rd->len = len;
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

/* The partition-relative start of the step after @done bytes, @len long. */
static uint64_t step_rel(const struct ba_fix_state *st, uint64_t done,
			 uint64_t len)
{
	return st->to > st->from ? st->hi - done - len : st->lo + done;
}

/*
 * The length of the next piece after @done bytes, at most @max, cut so
 * that its far end falls on a multiple of @a from the partition start:
 * the destination's writes stay on its 4 KiB grid (direct I/O that is not
 * on the backing file system's block grid is slow on loop devices).
 */
static uint64_t piece(const struct ba_fix_state *st, uint64_t done,
		      uint64_t max, uint64_t a)
{
	uint64_t left = st->hi - st->lo - done, e;

	if (max >= left)
		return left;
	if (st->to > st->from) {
		uint64_t top = st->hi - done;

		e = (top - max + a - 1) / a * a; /* round up */
		return e < top ? top - e : max;
	}
	e = (st->lo + done + max) / a * a; /* round down */
	return e > st->lo + done ? e - st->lo - done : max;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Batch mode after a crash: the batch in flight, again, from the journal. */
static int redo_batch(struct ba_fix_run *r, uint8_t *buf)
{
	struct ba_journal *j = r->j;
	uint64_t len = j->st.inflight;
	int rc = ba_journal_read_data(j, buf);

	if (!rc)
		rc = write_dst(r, buf, step_rel(&j->st, j->st.done, len), len);
	if (!rc)
		rc = ba_file_flush(r->dev);
	if (!rc) {
		j->st.done += len;
		j->st.inflight = 0;
		r->moved += len;
	}
	return rc;
}

/* The alignment of pieces: 4 KiB when the step is made of them. */
static uint64_t piece_align(const struct ba_journal *j)
{
	return j->g.step % 4096 ? j->g.lss : 4096;
}

/* The bytes of a step window: whole steps, at most BA_FIX_WINDOW_STEPS. */
static uint64_t window_of(const struct ba_journal *j)
{
	uint64_t step = j->g.step, n;

	if (j->g.batch)
		return step;
	n = BA_FIX_WINDOW / step;
	if (n > BA_FIX_WINDOW_STEPS)
		n = BA_FIX_WINDOW_STEPS;
	return (n ? n : 1) * step;
}

static struct ba_fix_hash hash_of(const uint8_t *buf, uint64_t len)
{
	XXH128_hash_t h = XXH3_128bits(buf, (size_t)len);

	return (struct ba_fix_hash){h.low64, h.high64};
}

/**
 * ba_fix_settle: step mode after a crash: count the steps of the window
 * in flight whose destination holds what they write, up to the first
 * that does not; the move goes on from there.
 */
int ba_fix_settle(struct ba_fix_run *r)
{
	struct ba_journal *j = r->j;
	struct ba_fix_state *st = &j->st;
	uint64_t a = piece_align(j), wend = st->done + st->win;
	uint8_t *buf;
	int rc = 0;

	if (!st->nhash)
		return 0;
	buf = ba_file_alloc(j->g.step);
	if (!buf)
		return -ENOMEM;
	for (uint32_t i = 0; i < st->nhash && st->done < wend; i++) {
		uint64_t w = piece(st, st->done, j->g.step, a), rel;
		struct ba_fix_hash h;

		if (w > wend - st->done)
			w = wend - st->done;
		rel = step_rel(st, st->done, w);
		rc = ba_file_read(r->dev, buf, (size_t)w, st->to + rel);
		if (rc)
			break;
		h = hash_of(buf, w);
		if (h.lo != st->hash[i].lo || h.hi != st->hash[i].hi)
			break;
		st->done += w;
		r->moved += w;
	}
	free(buf);
	st->nhash = 0;
	st->win = 0;
	return rc;
}

/* Step mode: the hash of each step of the window in @buf, into st. */
static void hash_window(struct ba_fix_run *r, uint8_t *buf, uint64_t wrel,
			uint64_t wl)
{
	struct ba_journal *j = r->j;
	struct ba_fix_state *st = &j->st;
	uint64_t a = piece_align(j), d = st->done, wend = st->done + wl;

	/* what is written: the head hidden */
	ba_fix_hide_head(&j->g, buf, wrel, wl);
	st->nhash = 0;
	st->win = wl;
	while (d < wend && st->nhash < BA_FIX_WINDOW_STEPS) {
		uint64_t w = min64(piece(st, d, j->g.step, a), wend - d);
		uint64_t rel = step_rel(st, d, w);

		st->hash[st->nhash++] = hash_of(buf + (rel - wrel), w);
		d += w;
	}
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

/**
 * ba_fix_move: run the move recorded in r->j->st to its end, then record
 * @next as the phase.  Returns 0, -EINTR when asked to stop (the journal
 * says where) or -errno (the journal says where; resume does the rest).
 */
int ba_fix_move(struct ba_fix_run *r, uint32_t next)
{
	struct ba_journal *j = r->j;
	struct ba_fix_state *st = &j->st;
	uint64_t total = st->hi - st->lo, step = j->g.step;
	uint64_t win = window_of(j), a = piece_align(j);
	struct reader rd = {.r = r};
	uint8_t *buf[2];
	double t0 = now();
	int rc = 0, k = 0;

	buf[0] = ba_file_alloc(win);
	buf[1] = ba_file_alloc(win);
	if (!buf[0] || !buf[1]) {
		rc = -ENOMEM;
		goto out_free;
	}
	rc = st->inflight ? redo_batch(r, buf[0]) : ba_fix_settle(r);
	if (rc)
		goto out_free;
	pthread_mutex_init(&rd.lock, NULL);
	pthread_cond_init(&rd.cond, NULL);
	if (pthread_create(&rd.thread, NULL, reader_main, &rd)) {
		rc = -EAGAIN;
		goto out_sync;
	}
	if (st->done < total) {
		uint64_t w = piece(st, st->done, win, a);

		reader_start(&rd, buf[0], step_rel(st, st->done, w), w);
	}
	while (!rc && st->done < total) {
		uint64_t wl = piece(st, st->done, win, a);
		uint64_t wrel = step_rel(st, st->done, wl);
		uint64_t wend = st->done + wl;

		rc = reader_wait(&rd);
		if (rc)
			break;
		if (wend < total) {
			uint64_t w2 = piece(st, wend, win, a);

			reader_start(&rd, buf[k ^ 1], step_rel(st, wend, w2),
				     w2);
		}
		if (!j->g.batch) {
			hash_window(r, buf[k], wrel, wl);
			rc = ba_journal_record(j, NULL);
		}
		while (!rc && st->done < wend) {
			uint64_t w = min64(piece(st, st->done, step, a),
					   wend - st->done);
			uint64_t rel = step_rel(st, st->done, w);
			uint8_t *b = buf[k] + (rel - wrel);

			if (j->g.batch) {
				st->inflight = w;
				rc = ba_journal_record(j, b);
			}
			if (!rc)
				rc = write_dst(r, b, rel, w);
			if (!rc)
				rc = ba_file_flush(r->dev);
			if (rc)
				break;
			st->done += w;
			st->inflight = 0;
			r->moved += w;
			r->steps++;
			if (r->opts->progress)
				r->opts->progress(r->opts->progress_data,
						  r->moved, r->total);
			if (r->opts->stop && *r->opts->stop &&
			    st->done < total) {
				st->nhash = 0;
				st->win = 0;
				rc = ba_journal_record(j, NULL);
				rc = rc ? rc : -EINTR;
			}
		}
		k ^= 1;
	}
	reader_wait(&rd);
	pthread_mutex_lock(&rd.lock);
	rd.quit = true;
	pthread_cond_broadcast(&rd.cond);
	pthread_mutex_unlock(&rd.lock);
	pthread_join(rd.thread, NULL);
out_sync:
	pthread_cond_destroy(&rd.cond);
	pthread_mutex_destroy(&rd.lock);
	if (!rc) {
		st->phase = next;
		st->inflight = 0;
		st->nhash = 0;
		st->win = 0;
		rc = ba_journal_record(j, NULL);
	}
	r->seconds += now() - t0;
out_free:
	free(buf[0]);
	free(buf[1]);
	return rc;
}
