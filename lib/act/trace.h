/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace.h - private to trace.c (events, summary) and tracefs.c (the
 * tracefs instance the events come from).
 */
#ifndef BLKALIGN_TRACE_H
#define BLKALIGN_TRACE_H

#include "out/out.h"
#include "scan/scan.h"

#define BA_TRACE_NDIRS	5
#define BA_TRACE_NSIZES 64

enum ba_trace_kind {
	BA_TRACE_NONE = 0, /* not an event line */
	BA_TRACE_ISSUE,	   /* block_rq_issue */
	BA_TRACE_COMPLETE, /* block_rq_complete */
	BA_TRACE_LOST,	   /* "CPU:N [LOST M EVENTS]" */
};

/* One parsed line of trace_pipe. */
struct ba_trace_event {
	enum ba_trace_kind kind;
	uint64_t ts_ns;
	unsigned int major, minor;
	char rwbs[16];
	uint64_t sector; /* 512-byte units, absolute on the disk */
	uint32_t nr_sector;
	int error;
	uint64_t lost;
};

int ba_trace_parse_line(const char *line, struct ba_trace_event *ev);

struct ba_trace_dir_acc {
	struct blkalign_trace_dir pub;
	size_t nsizes;
	struct blkalign_size_count sizes[BA_TRACE_NSIZES];
	uint64_t sizes_untracked; /* requests of sizes past the first 64 */
	struct blkalign_size_count top[BA_SIZES_LISTED]; /* pub.sizes */
	uint32_t *lat_us; /* completion latencies, microseconds */
	size_t nlat, lat_cap;
	uint64_t lat_max_ns;
};

struct ba_inflight {
	uint64_t sector; /* key + 1; 0: empty slot, ~0: deleted */
	uint64_t ts_ns;
	int dir;
};

/*
 * One stretch of a request-based disk the traced device's data lives on
 * (trace-map.c): sectors [first, end) of major:minor, end UINT64_MAX for
 * the whole disk; the requests counted there in pub.
 */
struct ba_trace_extent {
	unsigned int major, minor;
	uint64_t first, end;
	uint64_t layer_off; /* bytes: the traced layer's offset at first */
	uint32_t pss, ao;
	char name[32];
	struct blkalign_trace_below pub;
};

#define BA_TRACE_WHOLE UINT64_MAX

struct blkalign_trace {
	struct blkalign_ctx *ctx;
	struct blkalign_trace_opts opts;
	char *device;

	/* what is traced: the disk, and the layer's sector range */
	unsigned int major, minor;
	uint64_t start, size; /* bytes */
	bool partition;	      /* filter on [start, start + size) */
	uint32_t lss, pss, ao;
	struct ba_trace_extent *ext; /* where its requests reach the disks */
	size_t next, ext_cap;
	struct ba_trace_extent any;	    /* no header: every event */
	struct blkalign_trace_below *below; /* the summary's copy */

	/* the tracefs session (tracefs.c) */
	char *tracefs;	/* mount point */
	char *instance; /* instances/blkalign-PID */
	bool mounted;	/* we mounted tracefs */
	bool started;
	int pipe_fd;
	char *line; /* a partial line between reads */
	size_t line_len, line_cap;

	/* accumulation (trace.c) */
	struct ba_trace_dir_acc dirs[BA_TRACE_NDIRS];
	struct ba_inflight *inflight;
	size_t inflight_cap, inflight_used;
	uint64_t first_ns, last_ns;
	uint64_t events, lost, unmatched;
	/* the recording (CLOCK_MONOTONIC), from the events enabled to them
	 * disabled; a replayed file's own, from its end line */
	uint64_t rec_start_ns, rec_stop_ns;
	bool saved;
	double saved_seconds;
	struct blkalign_trace_summary sum;
};

int ba_trace_extent_add(struct blkalign_trace *t,
			const struct ba_trace_extent *e);
int ba_trace_map(struct blkalign_trace *t, unsigned int major,
		 unsigned int minor, uint64_t size_sectors);
char *ba_trace_filter(const struct blkalign_trace *t, size_t max_len);
int ba_trace_feed_event(struct blkalign_trace *t,
			const struct ba_trace_event *ev);
void ba_trace_write_header(struct blkalign_trace *t);
void ba_trace_recording(struct blkalign_trace *t, bool stop);
int ba_trace_feed_buffer(struct blkalign_trace *t, const char *buf, size_t len);
void ba_tracefs_teardown(struct blkalign_trace *t);

#endif /* BLKALIGN_TRACE_H */
