/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace-text.c - trace's text report: what was traced and for how long,
 * a table of one row per direction that had requests (its columns named
 * after the JSON keys of requests.<direction>, upper-case), the request
 * sizes of each direction, and the extents on the disks below.  -r and
 * -P print the directions' table alone.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* before blkalignP.h: libsmartcols includes libc headers banned.h breaks */
#include "text-table.h"
#include "trace-text.h"
#include "out/out.h"

#define NUM SCOLS_FL_RIGHT
#define RED "\033[31m"

/* In BA_RCOL_* order: the default ones first, in the order shown. */
const struct ba_column ba_trace_columns[BA_RCOL_COUNT] = {
	{"DIRECTION", "read, write, discard, flush or other (text: its key)", 0,
	 0, true},
	{"REQUESTS", "requests issued", 0, NUM, true},
	{"BYTES", "bytes they moved, lsblk-like or in bytes", 0, NUM, true},
	{"REQUEST_MAX", "the largest request", 0, NUM, true},
	{"REQUEST_AVG", "text only: BYTES / REQUESTS", 0, NUM, true},
	{"OFF_PHYSICAL", "requests starting off the physical sector grid", 0,
	 NUM, true},
	{"OFF_4K_IN_LAYER", "requests starting off 4 KiB from the layer start",
	 0, NUM, true},
	{"PARTIAL_REQUESTS", "requests covering part of a physical sector", 0,
	 NUM, true},
	{"RMW", "physical sectors written in part (read-modify-write)", 0, NUM,
	 true},
	{"LATENCY", "text only: P50_NS/P90_NS/P99_NS/MAX_NS, as 1.0ms", 0, 0,
	 true},
	{"REQUEST_MIN", "the smallest request", 0, NUM, false},
	{"PHYSICAL_SECTORS", "physical sectors the requests touched", 0, NUM,
	 false},
	{"COMPLETED", "requests whose completion was seen", 0, NUM, false},
	{"P50_NS", "median latency, issue to completion, as 1.0ms", 0, NUM,
	 false},
	{"P90_NS", "90th percentile of the latency, as 1.0ms", 0, NUM, false},
	{"P99_NS", "99th percentile of the latency, as 1.0ms", 0, NUM, false},
	{"MAX_NS", "the longest latency, as 1.0ms", 0, NUM, false},
};

/* The disks below: every column, always (the JSON below[]'s keys). */
enum {
	BCOL_NAME,
	BCOL_DEV,
	BCOL_START,
	BCOL_SIZE,
	BCOL_PHYS,
	BCOL_READS,
	BCOL_READ_BYTES,
	BCOL_WRITES,
	BCOL_WRITE_BYTES,
	BCOL_COUNT
};

static const struct ba_column below_columns[BCOL_COUNT] = {
	{"NAME", "", 0, 0, true},
	{"DEV", "", 0, 0, true},
	{"START", "", 0, NUM, true},
	{"SIZE", "", 0, NUM, true},
	{"PHYSICAL_SECTOR_SIZE", "", 0, NUM, true},
	{"READ_REQUESTS", "", 0, NUM, true},
	{"READ_BYTES", "", 0, NUM, true},
	{"WRITE_REQUESTS", "", 0, NUM, true},
	{"WRITE_BYTES", "", 0, NUM, true},
};

static const char *const dir_names[] = {"read", "write", "discard", "flush",
					"other"};

/* A latency for people: "300us", "1.0ms", "12ms" (as trace always said). */
static void latency(uint64_t ns, char *buf, size_t len)
{
	if (ns >= 10000000)
		snprintf(buf, len, "%.0fms", (double)ns / 1e6);
	else if (ns >= 1000000)
		snprintf(buf, len, "%.1fms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%" PRIu64 "us", ns / 1000);
}

static void u64(uint64_t v, char *buf, size_t len)
{
	snprintf(buf, len, "%" PRIu64, v);
}

/* The text of column @id for direction @d into @buf. */
static void dir_cell(const struct blkalign_trace_dir *d, const char *name,
		     int id, unsigned int flags, char *buf, size_t len)
{
	char a[16], b[16], c[16], e[16];

	switch (id) {
	case BA_RCOL_DIRECTION:
		snprintf(buf, len, "%s", name);
		break;
	case BA_RCOL_REQUESTS:
		u64(d->requests, buf, len);
		break;
	case BA_RCOL_BYTES:
		ba_text_size(d->bytes, flags, buf, len);
		break;
	case BA_RCOL_REQUEST_MAX:
		ba_text_size(d->request_max, flags, buf, len);
		break;
	case BA_RCOL_REQUEST_AVG:
		ba_text_size(d->bytes / d->requests, flags, buf, len);
		break;
	case BA_RCOL_OFF_PHYSICAL:
		u64(d->off_physical, buf, len);
		break;
	case BA_RCOL_OFF_4K_IN_LAYER:
		u64(d->off_page_in_layer, buf, len);
		break;
	case BA_RCOL_PARTIAL_REQUESTS:
		u64(d->partial_requests, buf, len);
		break;
	case BA_RCOL_RMW:
		u64(d->rmw, buf, len);
		break;
	case BA_RCOL_LATENCY:
		latency(d->lat_p50_ns, a, sizeof(a));
		latency(d->lat_p90_ns, b, sizeof(b));
		latency(d->lat_p99_ns, c, sizeof(c));
		latency(d->lat_max_ns, e, sizeof(e));
		snprintf(buf, len, "%s/%s/%s/%s", a, b, c, e);
		break;
	case BA_RCOL_REQUEST_MIN:
		ba_text_size(d->request_min, flags, buf, len);
		break;
	case BA_RCOL_PHYSICAL_SECTORS:
		u64(d->physical_sectors, buf, len);
		break;
	case BA_RCOL_COMPLETED:
		u64(d->completed, buf, len);
		break;
	case BA_RCOL_P50_NS:
		latency(d->lat_p50_ns, buf, len);
		break;
	case BA_RCOL_P90_NS:
		latency(d->lat_p90_ns, buf, len);
		break;
	case BA_RCOL_P99_NS:
		latency(d->lat_p99_ns, buf, len);
		break;
	case BA_RCOL_MAX_NS:
		latency(d->lat_max_ns, buf, len);
		break;
	default:
		buf[0] = '\0';
	}
}

/* The directions of @s with requests, as a table (indented unless alone). */
static int print_dirs(const struct blkalign_trace_summary *s, FILE *out,
		      const struct blkalign_text_opts *o)
{
	const struct blkalign_trace_dir *dirs[] = {
		&s->read, &s->write, &s->discard, &s->flush, &s->other};
	struct ba_colsel sel;
	struct ba_table t;
	int rc;

	if (ba_columns_select(ba_trace_columns, BA_RCOL_COUNT, o->columns, &sel,
			      NULL, NULL))
		return -EINVAL;
	rc = ba_table_init(&t, ba_trace_columns, &sel, o);
	if (rc)
		return rc;
	for (size_t i = 0; i < 5 && !rc; i++) {
		const struct blkalign_trace_dir *d = dirs[i];
		struct libscols_line *ln;

		if (!d->requests)
			continue;
		ln = ba_table_line(&t, NULL);
		if (!ln) {
			rc = -ENOMEM;
			break;
		}
		for (size_t k = 0; k < sel.n && !rc; k++) {
			int id = sel.id[k];
			char cell[64];
			/* what costs: writes of partial physical sectors */
			bool bad = id == BA_RCOL_RMW && d->rmw;

			dir_cell(d, dir_names[i], id, o->flags, cell,
				 sizeof(cell));
			rc = ba_table_set(&t, ln, id, cell, bad ? RED : NULL);
		}
	}
	if (!rc)
		rc = ba_table_print(&t, out, "  ");
	ba_table_free(&t);
	return rc;
}

static void print_sizes(const char *name, const struct blkalign_trace_dir *d,
			FILE *out)
{
	char s[24];

	if (!d->requests)
		return;
	fprintf(out, "  %s sizes:", name);
	for (size_t i = 0; i < d->nsizes; i++) {
		blkalign_size_format(d->sizes[i].bytes, BLKALIGN_SIZE_EXACT, s,
				     sizeof(s));
		fprintf(out, "%s %s x%" PRIu64, i ? "," : "", s,
			d->sizes[i].count);
	}
	if (d->sizes_other)
		fprintf(out, ", other x%" PRIu64, d->sizes_other);
	fputc('\n', out);
}

/* The extents on the disks below and the requests each got. */
static int print_below(const struct blkalign_trace_summary *s, FILE *out,
		       const struct blkalign_text_opts *o)
{
	struct ba_colsel sel;
	struct ba_table t;
	int rc;

	if (!s->nbelow)
		return 0;
	rc = ba_columns_select(below_columns, BCOL_COUNT, NULL, &sel, NULL,
			       NULL);
	if (!rc)
		rc = ba_table_init(&t, below_columns, &sel, o);
	if (rc)
		return rc;
	for (size_t i = 0; i < s->nbelow && !rc; i++) {
		const struct blkalign_trace_below *b = &s->below[i];
		struct libscols_line *ln = ba_table_line(&t, NULL);
		char c[BCOL_COUNT][32];

		if (!ln) {
			rc = -ENOMEM;
			break;
		}
		snprintf(c[BCOL_NAME], sizeof(c[0]), "%s", b->name);
		snprintf(c[BCOL_DEV], sizeof(c[0]), "%u:%u", b->major,
			 b->minor);
		u64(b->start, c[BCOL_START], sizeof(c[0]));
		ba_text_size(b->size, o->flags, c[BCOL_SIZE], sizeof(c[0]));
		u64(b->physical_sector_size, c[BCOL_PHYS], sizeof(c[0]));
		u64(b->read_requests, c[BCOL_READS], sizeof(c[0]));
		ba_text_size(b->read_bytes, o->flags, c[BCOL_READ_BYTES],
			     sizeof(c[0]));
		u64(b->write_requests, c[BCOL_WRITES], sizeof(c[0]));
		ba_text_size(b->write_bytes, o->flags, c[BCOL_WRITE_BYTES],
			     sizeof(c[0]));
		for (int k = 0; k < BCOL_COUNT && !rc; k++)
			rc = ba_table_set(&t, ln, k, c[k], NULL);
	}
	if (!rc) {
		fputc('\n', out);
		rc = ba_table_print(&t, out, "  ");
	}
	ba_table_free(&t);
	return rc;
}

/**
 * ba_trace_summary_write_text: trace's summary @s (act/trace.c's
 * blkalign_trace_write_text) as text on @out: the
 * device and its geometry, the events and how long they took, the table
 * of the directions that had requests, the request sizes of each, and
 * the extents on the disks below.  @o: the flags (BLKALIGN_TEXT_*), the
 * columns of BLKALIGN_TEXT_TABLE_TRACE and the width; with
 * BLKALIGN_TEXT_RAW or _PAIRS the directions' table alone.
 * Returns: 0, -EINVAL (no @s, @out or @o, or a bad column list), -ENOMEM
 * or -EIO.
 */
int ba_trace_summary_write_text(const struct blkalign_trace_summary *s,
				FILE *out, const struct blkalign_text_opts *o)
{
	const struct blkalign_trace_dir *dirs[5];
	struct blkalign_text_opts opts;
	int rc;

	if (!s || !out || ba_text_opts_get(BLKALIGN_TEXT_TABLE_TRACE, o, &opts))
		return -EINVAL;
	if (opts.flags & (BLKALIGN_TEXT_RAW | BLKALIGN_TEXT_PAIRS)) {
		rc = print_dirs(s, out, &opts);
		return ferror(out) ? -EIO : rc;
	}
	fprintf(out, "%s: disk %u:%u", s->device ? s->device : "-", s->major,
		s->minor);
	if (s->layer_start)
		fprintf(out, ", layer at byte %" PRIu64 " (sector %" PRIu64 ")",
			s->layer_start, s->layer_start / 512);
	fprintf(out,
		", %" PRIu64 " bytes; logical %u, physical %u, "
		"alignment offset %u\n",
		s->layer_size, s->logical_sector_size, s->physical_sector_size,
		s->alignment_offset);
	/* the recording's duration: an idle device has no events to span */
	fprintf(out,
		"%" PRIu64 " events in %.3f s (first to last: %.3f s), %" PRIu64
		" lost, %" PRIu64 " completions without issue\n\n",
		s->events, s->seconds, s->event_seconds, s->lost_events,
		s->unmatched);
	rc = print_dirs(s, out, &opts);
	fputc('\n', out);
	dirs[0] = &s->read;
	dirs[1] = &s->write;
	dirs[2] = &s->discard;
	dirs[3] = &s->flush;
	dirs[4] = &s->other;
	for (size_t i = 0; i < 5; i++)
		print_sizes(dir_names[i], dirs[i], out);
	if (!rc)
		rc = print_below(s, out, &opts);
	return ferror(out) ? -EIO : rc;
}
