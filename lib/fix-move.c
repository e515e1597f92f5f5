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
 *   the shift long, so it does not overwrite its own source either; after
 *   a crash the step in flight is simply done again.
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
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

static int write_dst(struct ba_fix_run *r, uint8_t *buf, uint64_t rel,
		     uint64_t len)
{
	struct ba_journal *j = r->j;

	if (rel < j->g.head_len)
		memset(buf, 0, (size_t)min64(len, j->g.head_len - rel));
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
	struct reader rd = {.r = r};
	uint8_t *buf[2];
	double t0 = now();
	int rc = 0, k = 0;

	buf[0] = ba_file_alloc(step);
	buf[1] = ba_file_alloc(step);
	if (!buf[0] || !buf[1]) {
		rc = -ENOMEM;
		goto out_free;
	}
	if (st->inflight) {
		rc = redo_batch(r, buf[0]);
		if (rc)
			goto out_free;
	}
	pthread_mutex_init(&rd.lock, NULL);
	pthread_cond_init(&rd.cond, NULL);
	if (pthread_create(&rd.thread, NULL, reader_main, &rd)) {
		rc = -EAGAIN;
		goto out_sync;
	}
	if (st->done < total) {
		uint64_t w = min64(step, total - st->done);

		reader_start(&rd, buf[0], step_rel(st, st->done, w), w);
	}
	while (st->done < total) {
		uint64_t w = min64(step, total - st->done);
		uint64_t rel = step_rel(st, st->done, w);
		uint64_t nd = st->done + w;

		rc = reader_wait(&rd);
		if (rc)
			break;
		st->inflight = j->g.batch ? w : 0;
		rc = ba_journal_record(j, j->g.batch ? buf[k] : NULL);
		if (rc)
			break;
		if (nd < total) {
			uint64_t w2 = min64(step, total - nd);

			reader_start(&rd, buf[k ^ 1], step_rel(st, nd, w2), w2);
		}
		rc = write_dst(r, buf[k], rel, w);
		if (!rc)
			rc = ba_file_flush(r->dev);
		if (rc) {
			reader_wait(&rd);
			break;
		}
		st->done = nd;
		st->inflight = 0;
		r->moved += w;
		r->steps++;
		k ^= 1;
		if (r->opts->progress)
			r->opts->progress(r->opts->progress_data, r->moved,
					  r->total);
		if (r->opts->stop && *r->opts->stop && st->done < total) {
			reader_wait(&rd);
			rc = ba_journal_record(j, NULL);
			rc = rc ? rc : -EINTR;
			break;
		}
	}
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
		rc = ba_journal_record(j, NULL);
	}
	r->seconds += now() - t0;
out_free:
	free(buf[0]);
	free(buf[1]);
	return rc;
}
