/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench-text.c - bench's text reports: the phase sweep (what was swept,
 * a table of one row per phase, the verdict in words) and the comparison
 * tests (what was compared, a table of one row per side, the verdict and
 * its notes).  Each table's columns are named after the JSON keys of the
 * same values (bench-json.c), upper-case; -r and -P print a table alone.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* before blkalignP.h: libsmartcols includes libc headers banned.h breaks */
#include "text-table.h"
#include "bench-text.h"
#include "out/out.h"

#define NUM SCOLS_FL_RIGHT

#define RED   "\033[31m"
#define GREEN "\033[32m"

/* In BA_BCOL_* order: the default ones first, in the order shown. */
const struct ba_column ba_bench_columns[BA_BCOL_COUNT] = {
	{"PHASE", "the phase: its offset is PHASE * phase step", 0, NUM, true},
	{"OFFSET", "bytes from the I/O's aligned position", 0, NUM, true},
	{"MEDIAN_NS", "median latency, as 1.00ms (JSON: nanoseconds)", 0, NUM,
	 true},
	{"IQR_NS", "latency spread, P75_NS - P25_NS, as 1.00ms", 0, NUM, true},
	{"MIN_NS", "fastest I/O, as 1.00ms", 0, NUM, true},
	{"MAX_NS", "slowest I/O, as 1.00ms", 0, NUM, true},
	{"RATIO", "median over the fastest phase's median, as 1.00x", 0, NUM,
	 true},
	{"FAST", "1: in a penalty's fast group (by default, penalties only)", 0,
	 NUM, true},
	{"SAMPLES", "I/Os timed at the phase (one per round)", 0, NUM, false},
	{"P25_NS", "25th percentile of the latency, as 1.00ms", 0, NUM, false},
	{"P75_NS", "75th percentile of the latency, as 1.00ms", 0, NUM, false},
};

/* In BA_SCOL_* order: the default ones first, in the order shown. */
const struct ba_column ba_bench_side_columns[BA_SCOL_COUNT] = {
	{"LABEL", "the side: partition, window, disk or target", 0, 0, true},
	{"PATH", "the node timed (the window: made by bench)", 0, 0, true},
	{"SOFT_BLOCK_SIZE", "the node's soft block size; - not a block device",
	 0, NUM, true},
	{"MEDIAN_BYTES_PER_S", "median throughput of the passes, as MiB/s", 0,
	 NUM, true},
	{"MIN_BYTES_PER_S", "slowest pass, as MiB/s", 0, NUM, true},
	{"MAX_BYTES_PER_S", "fastest pass, as MiB/s", 0, NUM, true},
	{"REQUESTS", "requests the disk got in the traced pass; - not traced",
	 0, NUM, true},
	{"REQUEST_AVG", "average request size, lsblk-like or in bytes", 0, NUM,
	 true},
	{"MODEL_REQUESTS", "the requests model predicts; - no prediction", 0,
	 NUM, true},
	{"OFFSET", "bytes on the node where the passes start", 0, NUM, false},
	{"DEVICE_SIZE", "the node's size", 0, NUM, false},
	{"SAMPLES", "complete passes timed", 0, NUM, false},
	{"TRACED", "1 when tracefs counted the requests", 0, NUM, false},
	{"REQUEST_BYTES", "bytes the traced requests moved", 0, NUM, false},
	{"REQUEST_MAX", "the largest traced request", 0, NUM, false},
	{"MODEL_REQUEST_CAP", "the request size model predicts", 0, NUM, false},
};

/* A throughput: "512.0MiB/s", or with BLKALIGN_TEXT_BYTES bytes a second. */
static void rate_cell(double bps, unsigned int flags, char *buf, size_t len)
{
	if (flags & BLKALIGN_TEXT_BYTES)
		snprintf(buf, len, "%.0f", bps);
	else
		snprintf(buf, len, "%.1fMiB/s", bps / 1048576.0);
}

/* The text of column @id for phase @k of @r into @buf. */
static void phase_cell(const struct blkalign_bench_result *r, uint32_t k,
		       int id, char *buf, size_t len)
{
	const struct blkalign_bench_phase *p = &r->phases[k];

	switch (id) {
	case BA_BCOL_PHASE:
		snprintf(buf, len, "%" PRIu32, k);
		break;
	case BA_BCOL_OFFSET:
		snprintf(buf, len, "%" PRIu64, p->offset);
		break;
	case BA_BCOL_MEDIAN_NS:
		blkalign_latency_format(p->median_ns, buf, len);
		break;
	case BA_BCOL_IQR_NS:
		blkalign_latency_format(p->p75_ns - p->p25_ns, buf, len);
		break;
	case BA_BCOL_MIN_NS:
		blkalign_latency_format(p->min_ns, buf, len);
		break;
	case BA_BCOL_MAX_NS:
		blkalign_latency_format(p->max_ns, buf, len);
		break;
	case BA_BCOL_RATIO:
		snprintf(buf, len, "%.2fx", p->ratio);
		break;
	case BA_BCOL_FAST:
		snprintf(buf, len, "%d", p->fast ? 1 : 0);
		break;
	case BA_BCOL_SAMPLES:
		snprintf(buf, len, "%" PRIu64, p->samples);
		break;
	case BA_BCOL_P25_NS:
		blkalign_latency_format(p->p25_ns, buf, len);
		break;
	case BA_BCOL_P75_NS:
		blkalign_latency_format(p->p75_ns, buf, len);
		break;
	default:
		buf[0] = '\0';
	}
}

/* The phases of @r as a table on @out (indented unless alone). */
static int print_phases(const struct blkalign_bench_result *r, FILE *out,
			const struct blkalign_text_opts *o)
{
	bool penalty = r->verdict == BLKALIGN_BENCH_PENALTY;
	struct ba_colsel sel;
	struct ba_table t;
	int rc;

	if (ba_columns_select(ba_bench_columns, BA_BCOL_COUNT, o->columns, &sel,
			      NULL, NULL))
		return -EINVAL;
	rc = ba_table_init(&t, ba_bench_columns, &sel, o);
	if (rc)
		return rc;
	for (uint32_t k = 0; k < r->nphases && r->rounds_done && !rc; k++) {
		struct libscols_line *ln = ba_table_line(&t, NULL);
		/* a penalty's slow phases in red, its fast ones in green */
		const char *color = !penalty		? NULL
				    : r->phases[k].fast ? GREEN
							: RED;

		if (!ln) {
			rc = -ENOMEM;
			break;
		}
		for (size_t i = 0; i < sel.n && !rc; i++) {
			int id = sel.id[i];
			char cell[32];

			phase_cell(r, k, id, cell, sizeof(cell));
			rc = ba_table_set(&t, ln, id, cell,
					  id == BA_BCOL_RATIO ? color : NULL);
		}
	}
	/* the fast group is a penalty's: else FAST says nothing */
	if (!rc && !penalty &&
	    (!o->columns || !*o->columns || *o->columns == '+'))
		ba_table_hide(&t, BA_BCOL_FAST);
	if (!rc)
		rc = ba_table_print(&t, out, "  ");
	ba_table_free(&t);
	return rc;
}

/**
 * blkalign_bench_write_text: the phase sweep @r as text on @out: what
 * was swept (target, I/O, engine, rounds, what the device claims, the
 * region, whether it stopped early), the table of the phases, then the
 * verdict in words.  @o: the flags (BLKALIGN_TEXT_*), the columns of
 * BLKALIGN_TEXT_TABLE_BENCH and the width; with BLKALIGN_TEXT_RAW or
 * _PAIRS the table alone.
 * Returns: 0, -EINVAL (no @r, @out or @o, or a bad column list), -ENOMEM
 * or -EIO.
 */
int blkalign_bench_write_text(const struct blkalign_bench_result *r, FILE *out,
			      const struct blkalign_text_opts *o)
{
	struct blkalign_text_opts opts;
	char words[512];
	int rc;

	if (!r || !out || ba_text_opts_get(BLKALIGN_TEXT_TABLE_BENCH, o, &opts))
		return -EINVAL;
	if (opts.flags & (BLKALIGN_TEXT_RAW | BLKALIGN_TEXT_PAIRS)) {
		rc = print_phases(r, out, &opts);
		return ferror(out) ? -EIO : rc;
	}
	fprintf(out,
		"%s: %" PRIu32 "-byte %s at %" PRIu32 " phases of %" PRIu32
		" bytes, engine %s%s, %" PRIu32 "/%" PRIu32
		" rounds in %.2f s\n",
		r->path ? r->path : "-", r->io_size,
		r->write ? "writes" : "reads", r->nphases, r->phase_step,
		r->engine, r->direct ? ", O_DIRECT" : "", r->rounds_done,
		r->rounds_planned, r->seconds);
	if (r->claimed_physical_sector_size)
		fprintf(out,
			"the device claims: logical %" PRIu32
			", physical %" PRIu32 ", alignment offset %" PRIu32
			"\n",
			r->claimed_logical_sector_size,
			r->claimed_physical_sector_size,
			r->claimed_alignment_offset);
	fprintf(out, "region: %" PRIu64 " bytes from byte %" PRIu64 "\n",
		r->region_size, r->offset);
	if (r->interrupted)
		fputs("interrupted: a partial result\n", out);
	else if (r->runtime_exceeded)
		fputs("stopped at its time limit: a partial result\n", out);
	fputc('\n', out);
	rc = print_phases(r, out, &opts);
	blkalign_bench_verdict_text(r, words, sizeof(words));
	fprintf(out, "\n%s\n", words);
	return ferror(out) ? -EIO : rc;
}

/* The text of column @id for side @s into @buf; "-" for what is unknown. */
static void side_cell(const struct blkalign_bench_side *s, int id,
		      unsigned int flags, char *buf, size_t len)
{
	snprintf(buf, len, "-");
	switch (id) {
	case BA_SCOL_LABEL:
		snprintf(buf, len, "%s", s->label ? s->label : "-");
		break;
	case BA_SCOL_PATH:
		snprintf(buf, len, "%s", s->path ? s->path : "-");
		break;
	case BA_SCOL_SOFT_BLOCK_SIZE:
		if (s->soft_block_size)
			snprintf(buf, len, "%" PRIu32, s->soft_block_size);
		break;
	case BA_SCOL_MEDIAN:
		rate_cell(s->median_bytes_per_s, flags, buf, len);
		break;
	case BA_SCOL_MIN:
		rate_cell(s->min_bytes_per_s, flags, buf, len);
		break;
	case BA_SCOL_MAX:
		rate_cell(s->max_bytes_per_s, flags, buf, len);
		break;
	case BA_SCOL_REQUESTS:
		if (s->traced)
			snprintf(buf, len, "%" PRIu64, s->requests);
		break;
	case BA_SCOL_REQUEST_AVG:
		if (s->traced)
			ba_text_size((uint64_t)llround(s->request_avg), flags,
				     buf, len);
		break;
	case BA_SCOL_MODEL_REQUESTS:
		if (s->model_requests)
			snprintf(buf, len, "%" PRIu64, s->model_requests);
		break;
	case BA_SCOL_OFFSET:
		snprintf(buf, len, "%" PRIu64, s->offset);
		break;
	case BA_SCOL_DEVICE_SIZE:
		ba_text_size(s->device_size, flags, buf, len);
		break;
	case BA_SCOL_SAMPLES:
		snprintf(buf, len, "%" PRIu32, s->samples);
		break;
	case BA_SCOL_TRACED:
		snprintf(buf, len, "%d", s->traced ? 1 : 0);
		break;
	case BA_SCOL_REQUEST_BYTES:
		if (s->traced)
			ba_text_size(s->request_bytes, flags, buf, len);
		break;
	case BA_SCOL_REQUEST_MAX:
		if (s->traced)
			ba_text_size(s->request_max, flags, buf, len);
		break;
	case BA_SCOL_MODEL_REQUEST_CAP:
		if (s->model_request_cap)
			ba_text_size(s->model_request_cap, flags, buf, len);
		break;
	}
}

/* The sides of @c as a table on @out (indented unless alone). */
static int print_sides(const struct blkalign_bench_compare *c, FILE *out,
		       const struct blkalign_text_opts *o)
{
	struct ba_colsel sel;
	struct ba_table t;
	int rc;

	if (ba_columns_select(ba_bench_side_columns, BA_SCOL_COUNT, o->columns,
			      &sel, NULL, NULL))
		return -EINVAL;
	rc = ba_table_init(&t, ba_bench_side_columns, &sel, o);
	if (rc)
		return rc;
	for (size_t i = 0; i < c->nsides && i < 2 && !rc; i++) {
		struct libscols_line *ln = ba_table_line(&t, NULL);
		/* the side measured slower (by more than 10%) in red */
		bool slow =
			c->nsides == 2 && c->measured_direction == (i ? -1 : 1);

		if (!ln) {
			rc = -ENOMEM;
			break;
		}
		for (size_t k = 0; k < sel.n && !rc; k++) {
			int id = sel.id[k];
			char cell[PATH_MAX];

			side_cell(&c->sides[i], id, o->flags, cell,
				  sizeof(cell));
			rc = ba_table_set(&t, ln, id, cell,
					  id == BA_SCOL_MEDIAN && slow ? RED
								       : NULL);
		}
	}
	if (!rc)
		rc = ba_table_print(&t, out, "  ");
	ba_table_free(&t);
	return rc;
}

/**
 * blkalign_bench_compare_write_text: the comparison @c as text on @out:
 * what was compared (target, test, I/O, engine, queue depth, rounds; the
 * window or the disk), the table of the sides, then the verdict in words
 * and its notes.  @o: as blkalign_bench_write_text's, with the columns of
 * BLKALIGN_TEXT_TABLE_BENCH_SIDES.
 * Returns: 0, -EINVAL (no @c, @out or @o, or a bad column list), -ENOMEM
 * or -EIO.
 */
int blkalign_bench_compare_write_text(const struct blkalign_bench_compare *c,
				      FILE *out,
				      const struct blkalign_text_opts *o)
{
	struct blkalign_text_opts opts;
	char words[1024];
	int rc;

	if (!c || !out ||
	    ba_text_opts_get(BLKALIGN_TEXT_TABLE_BENCH_SIDES, o, &opts))
		return -EINVAL;
	if (opts.flags & (BLKALIGN_TEXT_RAW | BLKALIGN_TEXT_PAIRS)) {
		rc = print_sides(c, out, &opts);
		return ferror(out) ? -EIO : rc;
	}
	fprintf(out,
		"%s: %s, %s %s of %" PRIu32 " bytes%s, engine %s, queue depth "
		"%" PRIu32 ", %" PRIu64 " bytes per pass, %" PRIu32 "/%" PRIu32
		" rounds in %.2f s\n",
		c->path, blkalign_bench_test_name(c->test),
		c->direct ? "O_DIRECT" : "buffered",
		c->write ? "rewrites" : "reads", c->io_size,
		c->test == BLKALIGN_BENCH_TEST_RAND ? " in random order" : "",
		c->engine ? c->engine : "-", c->queue_depth, c->region_size,
		c->rounds_done, c->rounds_planned, c->seconds);
	if (c->test == BLKALIGN_BENCH_TEST_SOFT_BLOCK_SIZE && c->nsides == 2)
		fprintf(out,
			"window: %s, a loop device over the first %" PRIu64
			" bytes of %s (direct I/O), made for this run and "
			"removed\n",
			c->sides[1].path, c->sides[1].device_size, c->path);
	if (c->test == BLKALIGN_BENCH_TEST_WHOLE_VS_PARTITION && c->nsides == 2)
		fprintf(out,
			"disk: %s from byte %" PRIu64
			" (the partition start rounded up to 1 MiB)\n",
			c->sides[0].path, c->sides[0].offset);
	if (c->interrupted)
		fputs("interrupted: a partial result\n", out);
	else if (c->runtime_exceeded)
		fputs("stopped at its time limit: a partial result\n", out);
	fputc('\n', out);
	rc = print_sides(c, out, &opts);
	blkalign_bench_compare_text(c, words, sizeof(words));
	fprintf(out, "\n%s\n", words);
	if (c->trace_note)
		fprintf(out, "note: %s\n", c->trace_note);
	if (c->note)
		fprintf(out, "note: %s\n", c->note);
	return ferror(out) ? -EIO : rc;
}
