/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace.c - block request events as tracefs prints them, parsed and
 * summarised: requests by direction, their sizes, where they start
 * relative to the physical sector grid and to the layer, which ones
 * cover part of a physical sector, and issue-to-completion latency.
 * No I/O here: tracefs.c feeds the lines (or a saved --raw file does).
 *
 * The formats (include/trace/events/block.h, 6.18; older kernels lack
 * the ioprio field, which is skipped either way):
 *   block_rq_issue:    "%d,%d %s %u (%s) %llu + %u %s,%u,%u [%s]"
 *                      dev, rwbs, bytes, cmd, sector, nr_sector, ioprio, comm
 *   block_rq_complete: "%d,%d %s (%s) %llu + %u %s,%u,%u [%d]"
 *                      dev, rwbs, cmd, sector, nr_sector, ioprio, error
 * preceded by "<comm>-<pid> [<cpu>] <flags> <secs>.<frac>: <event>: ".
 * Sectors are 512-byte units whatever the logical block size.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "trace.h"

enum { DIR_READ, DIR_WRITE, DIR_DISCARD, DIR_FLUSH, DIR_OTHER };

/* The in-flight key of requests without data (no real sector is this). */
#define ZERO_LENGTH_KEY ((uint64_t)1 << 62)

/* "123.456789" before @end (exclusive) -> nanoseconds. */
static int parse_ts(const char *line, const char *end, uint64_t *ns)
{
	const char *p = end, *dot = NULL;
	uint64_t sec = 0, frac = 0, scale = 1000000000;

	while (p > line && ((p[-1] >= '0' && p[-1] <= '9') || p[-1] == '.')) {
		p--;
		if (*p == '.')
			dot = p;
	}
	if (p == end || !dot || dot == p)
		return -EINVAL;
	for (const char *q = p; q < dot; q++)
		sec = sec * 10 + (uint64_t)(*q - '0');
	for (const char *q = dot + 1; q < end && scale > 1; q++) {
		frac = frac * 10 + (uint64_t)(*q - '0');
		scale /= 10;
	}
	*ns = sec * 1000000000 + frac * scale;
	return 0;
}

/**
 * ba_trace_parse_line: one line of trace_pipe.
 * Returns: 0 with ev->kind set (BA_TRACE_NONE for lines that are not
 * block request events), or -EINVAL for a malformed event line.
 */
int ba_trace_parse_line(const char *line, struct ba_trace_event *ev)
{
	static const struct {
		const char *tag;
		enum ba_trace_kind kind;
	} tags[] = {
		{": block_rq_issue: ", BA_TRACE_ISSUE},
		{": block_rq_complete: ", BA_TRACE_COMPLETE},
	};
	const char *p = NULL, *open, *close;
	unsigned long long sector;
	unsigned int nr;
	int n = 0;

	memset(ev, 0, sizeof(*ev));
	if (!line)
		return -EINVAL;
	if (!strncmp(line, "CPU:", 4) && strstr(line, "[LOST ")) {
		unsigned long long lost;

		if (sscanf(strstr(line, "[LOST "), "[LOST %llu", &lost) != 1)
			return -EINVAL;
		ev->kind = BA_TRACE_LOST;
		ev->lost = lost;
		return 0;
	}
	for (size_t i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
		p = strstr(line, tags[i].tag);
		if (p) {
			ev->kind = tags[i].kind;
			break;
		}
	}
	if (!p)
		return 0;
	if (parse_ts(line, p, &ev->ts_ns))
		return -EINVAL;
	p = strchr(p + 2, ':') + 2;
	if (sscanf(p, "%u,%u %15s%n", &ev->major, &ev->minor, ev->rwbs, &n) !=
	    3)
		return -EINVAL;
	/* the command bytes of passthrough requests, in parentheses */
	open = strchr(p + n, '(');
	close = open ? strchr(open, ')') : NULL;
	if (!close)
		return -EINVAL;
	if (sscanf(close + 1, " %llu + %u", &sector, &nr) != 2)
		return -EINVAL;
	ev->sector = sector;
	ev->nr_sector = nr;
	if (ev->kind == BA_TRACE_COMPLETE) {
		const char *b = strrchr(close, '[');

		if (b && sscanf(b, "[%d]", &ev->error) != 1)
			ev->error = 0;
	}
	return 0;
}

/* R, W, D, F or other; a leading F is the preflush flag of an op. */
static int classify(const char *rwbs)
{
	const char *op = rwbs;

	if (op[0] == 'F' && op[1] && strchr("WRDNF", op[1]))
		op++;
	switch (op[0]) {
	case 'R':
		return DIR_READ;
	case 'W':
		return DIR_WRITE;
	case 'D':
		return DIR_DISCARD;
	case 'F':
		return DIR_FLUSH;
	}
	return DIR_OTHER;
}

static void size_add(struct ba_trace_dir_acc *d, uint64_t bytes)
{
	for (size_t i = 0; i < d->nsizes; i++) {
		if (d->sizes[i].bytes == bytes) {
			d->sizes[i].count++;
			return;
		}
	}
	if (d->nsizes < BA_TRACE_NSIZES) {
		d->sizes[d->nsizes].bytes = bytes;
		d->sizes[d->nsizes++].count = 1;
		return;
	}
	d->sizes_untracked++;
}

/* In-flight requests by sector: open addressing, linear probing. */
static size_t slot_of(uint64_t key, size_t cap)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return (size_t)(key & (cap - 1));
}

static int inflight_grow(struct blkalign_trace *t)
{
	size_t cap = t->inflight_cap ? t->inflight_cap * 2 : 1024;
	struct ba_inflight *n = calloc(cap, sizeof(*n)), *old = t->inflight;

	if (!n)
		return -ENOMEM;
	t->inflight_used = 0;
	for (size_t i = 0; i < t->inflight_cap; i++) {
		size_t s;

		if (!old[i].sector || old[i].sector == UINT64_MAX)
			continue;
		s = slot_of(old[i].sector, cap);
		while (n[s].sector)
			s = (s + 1) & (cap - 1);
		n[s] = old[i];
		t->inflight_used++;
	}
	free(old);
	t->inflight = n;
	t->inflight_cap = cap;
	return 0;
}

static int inflight_put(struct blkalign_trace *t, uint64_t sector, uint64_t ts,
			int dir)
{
	uint64_t key = sector + 1;
	size_t s, tomb = SIZE_MAX;

	if ((t->inflight_used + 1) * 2 > t->inflight_cap && inflight_grow(t))
		return -ENOMEM;
	s = slot_of(key, t->inflight_cap);
	while (t->inflight[s].sector) {
		if (t->inflight[s].sector == key)
			break;
		if (t->inflight[s].sector == UINT64_MAX && tomb == SIZE_MAX)
			tomb = s;
		s = (s + 1) & (t->inflight_cap - 1);
	}
	if (!t->inflight[s].sector) {
		if (tomb != SIZE_MAX)
			s = tomb;
		else
			t->inflight_used++;
	}
	t->inflight[s] = (struct ba_inflight){key, ts, dir};
	return 0;
}

static struct ba_inflight *inflight_take(struct blkalign_trace *t,
					 uint64_t sector)
{
	uint64_t key = sector + 1;
	size_t s;

	if (!t->inflight_cap)
		return NULL;
	s = slot_of(key, t->inflight_cap);
	while (t->inflight[s].sector) {
		if (t->inflight[s].sector == key)
			return &t->inflight[s];
		s = (s + 1) & (t->inflight_cap - 1);
	}
	return NULL;
}

static int lat_add(struct ba_trace_dir_acc *d, uint64_t ns)
{
	uint64_t us = ns / 1000;

	if (d->nlat == d->lat_cap) {
		size_t cap = d->lat_cap ? d->lat_cap * 2 : 1024;
		uint32_t *n = realloc(d->lat_us, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		d->lat_us = n;
		d->lat_cap = cap;
	}
	d->lat_us[d->nlat++] = us > UINT32_MAX ? UINT32_MAX : (uint32_t)us;
	if (ns > d->lat_max_ns)
		d->lat_max_ns = ns;
	d->pub.completed++;
	return 0;
}

/*
 * A --raw file of an older blkalign has its header and no extent lines:
 * its one extent is the header's disk (and partition range).  Without
 * any header every event counts, judged on the header's defaults.
 */
static int ensure_extents(struct blkalign_trace *t)
{
	struct ba_trace_extent e = {.major = t->major, .minor = t->minor};

	if (t->next || (!t->major && !t->minor))
		return 0;
	e.first = t->partition ? t->start / 512 : 0;
	e.end = t->partition ? (t->start + t->size) / 512 : BA_TRACE_WHOLE;
	e.pss = t->pss;
	e.ao = t->ao;
	snprintf(e.name, sizeof(e.name), "%u:%u", t->major, t->minor);
	return ba_trace_extent_add(t, &e);
}

/*
 * The extent an event falls in, or NULL when it concerns another layer.
 * Requests without data (flushes: sector 0 at issue, -1 at completion)
 * go to the first extent on their disk.
 */
static struct ba_trace_extent *wanted(struct blkalign_trace *t,
				      const struct ba_trace_event *ev)
{
	if (!t->next) {
		t->any.pss = t->pss;
		t->any.ao = t->ao;
		t->any.end = BA_TRACE_WHOLE;
		return &t->any;
	}
	for (size_t i = 0; i < t->next; i++) {
		struct ba_trace_extent *e = &t->ext[i];

		if (ev->major != e->major || ev->minor != e->minor)
			continue;
		if (ev->nr_sector == 0 || e->end == BA_TRACE_WHOLE ||
		    (ev->sector >= e->first && ev->sector < e->end))
			return e;
	}
	return NULL;
}

/* Account one issued request: size, alignment, partial sectors. */
static void issue(struct blkalign_trace *t, struct ba_trace_dir_acc *d,
		  struct ba_trace_extent *e, const struct ba_trace_event *ev,
		  int dir)
{
	uint64_t pss = t->opts.physical_sector_size
			       ? t->opts.physical_sector_size
		       : e->pss ? e->pss
				: 512;
	uint64_t ao = e->ao % pss;
	uint64_t abs = ev->sector * 512, len = (uint64_t)ev->nr_sector * 512;
	uint64_t head = abs + pss - ao, tail = head + len;
	/* the offset in the traced layer (modulo 2^64: a striped layer's
	 * extents start at stripe boundaries, not at the layer's start) */
	uint64_t in_layer = abs - e->first * 512 + e->layer_off;
	unsigned int lg = 0;

	d->pub.requests++;
	d->pub.bytes += len;
	if (dir == DIR_READ) {
		e->pub.read_requests++;
		e->pub.read_bytes += len;
	} else if (dir == DIR_WRITE) {
		e->pub.write_requests++;
		e->pub.write_bytes += len;
	}
	if (len > d->pub.request_max)
		d->pub.request_max = len;
	if (!d->pub.request_min || len < d->pub.request_min)
		d->pub.request_min = len;
	size_add(d, len);
	if (!len)
		return;
	while (lg < 31 && ((uint64_t)ev->nr_sector >> (lg + 1)))
		lg++;
	d->pub.hist_log2[lg]++;
	if (head % pss) {
		d->pub.off_physical++;
		e->pub.off_physical++;
	}
	if (in_layer % 4096)
		d->pub.off_page_in_layer++;
	d->pub.physical_sectors += (tail - 1) / pss - head / pss + 1;
	if (head % pss || tail % pss) {
		uint64_t n = (tail - 1) / pss - head / pss + 1;

		d->pub.partial_requests++;
		e->pub.partial_requests++;
		if (dir == DIR_WRITE)
			d->pub.rmw += n == 1 ? 1
					     : (uint64_t)(head % pss != 0) +
						       (tail % pss != 0);
	}
}

/**
 * ba_trace_feed_event: account one parsed event.
 * Returns: 0 or -ENOMEM.
 */
int ba_trace_feed_event(struct blkalign_trace *t,
			const struct ba_trace_event *ev)
{
	struct ba_trace_extent *e;
	struct ba_inflight *f;
	uint64_t key;
	int dir;

	if (ev->kind == BA_TRACE_LOST) {
		t->lost += ev->lost;
		return 0;
	}
	if (ev->kind == BA_TRACE_NONE)
		return 0;
	if (ensure_extents(t))
		return -ENOMEM;
	e = wanted(t, ev);
	if (!e)
		return 0;
	if (!t->events || ev->ts_ns < t->first_ns)
		t->first_ns = ev->ts_ns;
	if (ev->ts_ns > t->last_ns)
		t->last_ns = ev->ts_ns;
	t->events++;
	dir = classify(ev->rwbs);
	/* Flushes carry no sector (issued at 0, completed at -1) and the
	 * flush machinery completes data-less parts of requests: match
	 * zero-length requests with each other. */
	key = ev->nr_sector ? ev->sector : ZERO_LENGTH_KEY;
	if (ev->kind == BA_TRACE_ISSUE) {
		issue(t, &t->dirs[dir], e, ev, dir);
		return inflight_put(t, key, ev->ts_ns, dir);
	}
	f = inflight_take(t, key);
	if (!f) {
		if (ev->nr_sector)
			t->unmatched++;
		return 0;
	}
	f->sector = UINT64_MAX;
	return lat_add(&t->dirs[f->dir],
		       ev->ts_ns > f->ts_ns ? ev->ts_ns - f->ts_ns : 0);
}

/* "# blkalign-trace key=value ...": the geometry a saved file was made on. */
static void feed_header(struct blkalign_trace *t, const char *line)
{
	unsigned long long start, size;
	unsigned int ma, mi, lss, pss, ao, part;
	const char *p = strstr(line, " dev=");

	if (p && sscanf(p,
			" dev=%u,%u partition=%u start=%llu size=%llu "
			"logical=%u physical=%u alignment_offset=%u",
			&ma, &mi, &part, &start, &size, &lss, &pss, &ao) == 8) {
		t->partition = part != 0;
		t->major = ma;
		t->minor = mi;
		t->start = start;
		t->size = size;
		t->lss = lss;
		t->pss = pss;
		t->ao = ao;
	}
	p = strstr(line, " device=");
	if (p && !t->device) {
		size_t n = strcspn(p + 8, " \n");

		t->device = strndup(p + 8, n);
	}
}

/* "# blkalign-trace-extent ...": one extent of a saved trace. */
static int feed_extent(struct blkalign_trace *t, const char *line)
{
	struct ba_trace_extent e = {0};
	unsigned long long first, off;
	char end[32];

	if (sscanf(line,
		   "# blkalign-trace-extent name=%31s dev=%u,%u first=%llu "
		   "end=%31s layer_offset=%llu physical=%u "
		   "alignment_offset=%u",
		   e.name, &e.major, &e.minor, &first, end, &off, &e.pss,
		   &e.ao) != 8)
		return -EINVAL;
	e.first = first;
	e.layer_off = off;
	if (!strcmp(end, "-")) {
		e.end = BA_TRACE_WHOLE;
	} else {
		char *p;

		errno = 0;
		e.end = strtoull(end, &p, 10);
		if (errno || *p || e.end == BA_TRACE_WHOLE)
			return -EINVAL;
	}
	return ba_trace_extent_add(t, &e);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * ba_trace_recording: the events were just enabled (@stop false) or
 * disabled: the recording's duration is between the two, whatever the
 * events' own span (none at all on an idle device).  The --raw file gets
 * it as its "# blkalign-trace-end seconds=S" line.
 */
void ba_trace_recording(struct blkalign_trace *t, bool stop)
{
	if (!stop) {
		t->rec_start_ns = mono_ns();
		t->rec_stop_ns = 0;
		return;
	}
	if (!t->rec_start_ns || t->rec_stop_ns)
		return;
	t->rec_stop_ns = mono_ns();
	if (t->opts.raw)
		fprintf(t->opts.raw, "# blkalign-trace-end seconds=%.6f\n",
			(double)(t->rec_stop_ns - t->rec_start_ns) / 1e9);
}

/* "# blkalign-trace-end seconds=S": how long a saved file recorded. */
static void feed_end(struct blkalign_trace *t, const char *line)
{
	char *end;
	double s;

	errno = 0;
	s = strtod(line + 29, &end);
	if (!errno && end != line + 29 && s >= 0 && s < 1e9) {
		t->saved = true;
		t->saved_seconds = s;
	}
}

/* The recording's duration: live, from the events enabled to disabled
 * (or now); replayed, the file's end line, else the events' span. */
static double recorded_seconds(const struct blkalign_trace *t, double span)
{
	if (t->rec_start_ns)
		return (double)((t->rec_stop_ns ? t->rec_stop_ns : mono_ns()) -
				t->rec_start_ns) /
		       1e9;
	return t->saved ? t->saved_seconds : span;
}

/**
 * blkalign_trace_feed: account one line of trace_pipe text (or of a file
 * saved with --raw: its "# blkalign-trace" header sets the geometry).
 * Returns: 0, -EINVAL for a malformed event line, -ENOMEM.
 */
int blkalign_trace_feed(struct blkalign_trace *t, const char *line)
{
	struct ba_trace_event ev;
	int rc;

	if (!t || !line)
		return -EINVAL;
	if (!strncmp(line, "# blkalign-trace ", 17)) {
		feed_header(t, line);
		return 0;
	}
	if (!strncmp(line, "# blkalign-trace-extent ", 24)) {
		rc = feed_extent(t, line);
		return rc == -E2BIG ? -EINVAL : rc;
	}
	if (!strncmp(line, "# blkalign-trace-end seconds=", 29)) {
		feed_end(t, line);
		return 0;
	}
	if (line[0] == '#')
		return 0;
	rc = ba_trace_parse_line(line, &ev);
	if (rc)
		return rc;
	return ba_trace_feed_event(t, &ev);
}

/**
 * ba_trace_feed_buffer: text read from trace_pipe, split into lines; a
 * line cut by the read is kept for the next call.
 * Returns: 0 or -ENOMEM.
 */
int ba_trace_feed_buffer(struct blkalign_trace *t, const char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (t->line_len + 1 >= t->line_cap) {
			size_t cap = t->line_cap ? t->line_cap * 2 : 512;
			char *n = realloc(t->line, cap);

			if (!n)
				return -ENOMEM;
			t->line = n;
			t->line_cap = cap;
		}
		if (buf[i] != '\n') {
			t->line[t->line_len++] = buf[i];
			continue;
		}
		t->line[t->line_len] = '\0';
		if (t->opts.raw)
			fprintf(t->opts.raw, "%s\n", t->line);
		/* a line we cannot parse is kept in --raw, not fatal */
		if (blkalign_trace_feed(t, t->line) == -ENOMEM)
			return -ENOMEM;
		t->line_len = 0;
	}
	return 0;
}

/* The header line of a --raw file. */
void ba_trace_write_header(struct blkalign_trace *t)
{
	if (!t->opts.raw)
		return;
	fprintf(t->opts.raw,
		"# blkalign-trace device=%s dev=%u,%u partition=%d start=%" PRIu64
		" size=%" PRIu64
		" logical=%u physical=%u alignment_offset=%u\n",
		t->device ? t->device : "-", t->major, t->minor, t->partition,
		t->start, t->size, t->lss, t->pss, t->ao);
	for (size_t i = 0; i < t->next; i++) {
		const struct ba_trace_extent *e = &t->ext[i];
		char end[24] = "-";

		if (e->end != BA_TRACE_WHOLE)
			snprintf(end, sizeof(end), "%" PRIu64, e->end);
		fprintf(t->opts.raw,
			"# blkalign-trace-extent name=%s dev=%u,%u first=%" PRIu64
			" end=%s layer_offset=%" PRIu64
			" physical=%u alignment_offset=%u\n",
			e->name, e->major, e->minor, e->first, end,
			e->layer_off, e->pss, e->ao);
	}
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest rank: the smallest value with at least p% at or below it. */
static uint64_t pct_ns(const uint32_t *v, size_t n, unsigned int p)
{
	size_t rank = (n * p + 99) / 100;

	if (!n)
		return 0;
	return (uint64_t)v[rank ? rank - 1 : 0] * 1000;
}

static void finish_dir(struct ba_trace_dir_acc *d)
{
	struct blkalign_size_count s[BA_TRACE_NSIZES];
	size_t n = d->nsizes;

	memcpy(s, d->sizes, n * sizeof(s[0]));
	for (size_t i = 1; i < n; i++) {
		struct blkalign_size_count x = s[i];
		size_t j = i;

		while (j > 0 && (s[j - 1].count < x.count ||
				 (s[j - 1].count == x.count &&
				  s[j - 1].bytes < x.bytes))) {
			s[j] = s[j - 1];
			j--;
		}
		s[j] = x;
	}
	d->pub.nsizes = n < BA_SIZES_LISTED ? n : BA_SIZES_LISTED;
	memcpy(d->top, s, d->pub.nsizes * sizeof(s[0]));
	d->pub.sizes = d->top;
	d->pub.sizes_other = d->sizes_untracked;
	for (size_t i = d->pub.nsizes; i < n; i++)
		d->pub.sizes_other += s[i].count;
	if (d->nlat) {
		qsort(d->lat_us, d->nlat, sizeof(d->lat_us[0]), cmp_u32);
		d->pub.lat_p50_ns = pct_ns(d->lat_us, d->nlat, 50);
		d->pub.lat_p90_ns = pct_ns(d->lat_us, d->nlat, 90);
		d->pub.lat_p99_ns = pct_ns(d->lat_us, d->nlat, 99);
		d->pub.lat_max_ns = d->lat_max_ns;
	}
}

/**
 * blkalign_trace_summary: what was recorded so far.  The summary is
 * owned by @t and recomputed on each call.
 */
const struct blkalign_trace_summary *
blkalign_trace_summary(struct blkalign_trace *t)
{
	struct blkalign_trace_summary *s;

	if (!t)
		return NULL;
	s = &t->sum;
	memset(s, 0, sizeof(*s));
	s->device = t->device;
	s->major = t->major;
	s->minor = t->minor;
	s->layer_start = t->start;
	s->layer_size = t->size;
	s->logical_sector_size = t->lss;
	s->physical_sector_size = t->opts.physical_sector_size
					  ? t->opts.physical_sector_size
					  : t->pss;
	s->alignment_offset = t->ao;
	s->event_seconds =
		t->events ? (double)(t->last_ns - t->first_ns) / 1e9 : 0;
	s->seconds = recorded_seconds(t, s->event_seconds);
	s->events = t->events;
	s->lost_events = t->lost;
	s->unmatched = t->unmatched;
	for (int i = 0; i < BA_TRACE_NDIRS; i++)
		finish_dir(&t->dirs[i]);
	s->read = t->dirs[DIR_READ].pub;
	s->write = t->dirs[DIR_WRITE].pub;
	s->discard = t->dirs[DIR_DISCARD].pub;
	s->flush = t->dirs[DIR_FLUSH].pub;
	s->other = t->dirs[DIR_OTHER].pub;
	if (ensure_extents(t) == 0 && t->next) {
		struct blkalign_trace_below *b =
			realloc(t->below, t->next * sizeof(*b));

		if (b) {
			t->below = b;
			for (size_t i = 0; i < t->next; i++) {
				const struct ba_trace_extent *e = &t->ext[i];

				b[i] = e->pub;
				b[i].name = e->name;
				b[i].major = e->major;
				b[i].minor = e->minor;
				b[i].start = e->first * 512;
				b[i].size = e->end == BA_TRACE_WHOLE
						    ? 0
						    : (e->end - e->first) * 512;
				b[i].layer_offset = e->layer_off;
				b[i].physical_sector_size = e->pss;
				b[i].alignment_offset = e->ao;
			}
			s->below = b;
			s->nbelow = t->next;
		}
	}
	return s;
}

/* The summary of @t as one JSON document (out/trace-json.c). */
int blkalign_trace_write_json(struct blkalign_trace *t, FILE *out)
{
	const struct blkalign_trace_summary *s;

	if (!t || !out)
		return -EINVAL;
	s = blkalign_trace_summary(t);
	return s ? ba_trace_summary_write_json(s, out) : -ENOMEM;
}

/* The summary of @t as text (out/trace-text.c). */
int blkalign_trace_write_text(struct blkalign_trace *t, FILE *out,
			      const struct blkalign_text_opts *o)
{
	const struct blkalign_trace_summary *s;

	if (!t || !out)
		return -EINVAL;
	s = blkalign_trace_summary(t);
	return s ? ba_trace_summary_write_text(s, out, o) : -ENOMEM;
}
