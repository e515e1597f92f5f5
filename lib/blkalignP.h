/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * blkalignP.h - private header of libblkalign shared by every stage: the
 * context, the device record being built, the report, and the helpers
 * all stages use (string pools, grid arithmetic, sizes for people,
 * CRCs).  Each stage declares what it offers the stages after it in its
 * own header: scan/scan.h, analyze/analyze.h, out/out.h, act/fix.h,
 * act/trace.h (tests/ts/docs/stages: a stage includes and calls only
 * its own and the earlier ones').
 */
#ifndef BLKALIGN_PRIVATE_H
#define BLKALIGN_PRIVATE_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include "blkalign.h"
#include "finding.h"
#include "results.h"

#define BA_SECTOR 512 /* the unit of sysfs, libblkid and on-disk LBAs */
#define KIB	  ((uint64_t)1024)
#define MIB	  ((uint64_t)1024 * 1024)

/* Kernel defaults (include/linux/blkdev.h) used for images. */
#define BA_DEF_MAX_SEGMENTS	128
#define BA_DEF_MAX_SECTORS_KB	1280
#define BA_DEF_MAX_SEGMENT_SIZE 65536
#define BA_DEF_READ_AHEAD_KB	128 /* VM_READAHEAD_PAGES, 4 KiB pages */

/* "32 MiB - 512 is always a controller error" (libfdisk alignment.c). */
#define BA_BOGUS_OPT_IO 33553920

struct blkalign_ctx {
	int refcount;
	char *sysroot; /* NULL: the live /sys */
	struct blkalign_image_geometry image;
	uint32_t page_size;
	bool used_maps; /* read each partition's used-block map (plan) */
	blkalign_log_fn log_fn;
	void *log_data;
	const char *words[BLKALIGN_WORD_COUNT]; /* NULL: the API's name */
};

/* @w in the words of @ctx's program (blkalign_ctx_set_word). */
const char *ba_word(const struct blkalign_ctx *ctx, enum blkalign_word w);

/* The blkalign_value fields of a topology, by their report key. */
struct ba_topology_field {
	const char *key;
	size_t off;
};
#define BA_TOPOLOGY_NFIELDS 12
extern const struct ba_topology_field ba_topology_fields[BA_TOPOLOGY_NFIELDS];

/*
 * A caller's struct that starts with its size, into @dst (@dst_size
 * bytes, zeroed first): a caller built with an older, shorter struct
 * still works, the fields it does not know read as 0, and one built with
 * a longer struct too, the fields this library does not know ignored.
 * -EINVAL when the size is below @min (the struct's first published
 * size, BA_SIZE_THROUGH).  @dst's size is then @dst_size.
 */
static inline int ba_sized_copy(void *dst, size_t dst_size, const void *src,
				size_t min)
{
	size_t n;

	memcpy(&n, src, sizeof(n));
	if (n < min)
		return -EINVAL;
	memset(dst, 0, dst_size);
	memcpy(dst, src, n < dst_size ? n : dst_size);
	memcpy(dst, &dst_size, sizeof(dst_size)); /* now this library's */
	return 0;
}

/*
 * The bytes of @type up to and including @field: a caller-filled struct's
 * size as first published (release 0.1.0), the minimum ba_sized_copy
 * takes.  Named by the struct's last 0.1.0 field, it stays the same when
 * fields are appended; never rename those fields.
 */
#define BA_SIZE_THROUGH(type, field) \
	(offsetof(type, field) + sizeof(((type *)0)->field))

#define BA_IMAGE_GEOMETRY_SIZE0 \
	BA_SIZE_THROUGH(struct blkalign_image_geometry, alignment_offset_set)
#define BA_TEXT_OPTS_SIZE0 BA_SIZE_THROUGH(struct blkalign_text_opts, width)
#define BA_MODEL_GEOMETRY_SIZE0 \
	BA_SIZE_THROUGH(struct blkalign_model_geometry, read_ahead_kb)
#define BA_TRACE_OPTS_SIZE0 BA_SIZE_THROUGH(struct blkalign_trace_opts, raw)
#define BA_FIX_IO_SIZE0	    BA_SIZE_THROUGH(struct blkalign_fix_io, close)
#define BA_FIX_OPTS_SIZE0   BA_SIZE_THROUGH(struct blkalign_fix_opts, copying)
#define BA_BENCH_OPTS_SIZE0 BA_SIZE_THROUGH(struct blkalign_bench_opts, test)

/* Request sizes a summary lists (most frequent first; the rest are
 * counted as other): the model's costs, the trace's directions. */
#define BA_SIZES_LISTED 8

void ba_log(const struct blkalign_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The scan's records a device holds (scan/scan.h). */
struct ba_io;
struct ba_nbd;
struct ba_dos_check;
struct ba_gpt_check;
struct ba_marker;

/* Strings owned by one device record; freed with it. */
struct ba_pool {
	char **v;
	size_t n, cap;
};

void *ba_pool_calloc(struct ba_pool *p, size_t n, size_t size);
const char *ba_pool_strdup(struct ba_pool *p, const char *s);
const char *ba_pool_printf(struct ba_pool *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void ba_pool_release(struct ba_pool *p);

/* A device record while it is built; pub is what the report exposes. */
struct ba_device {
	struct blkalign_device pub;
	struct blkalign_layer *layers;
	size_t nlayers, layers_cap;
	struct ba_finding *findings; /* as the rules made them (finding.h) */
	size_t nfindings, findings_cap;
	size_t findings_lost;		    /* not recorded: out of memory */
	size_t findings_unrendered;	    /* their text could not be made */
	struct blkalign_finding *published; /* rendered, worst first */
	const char **problems;
	size_t nproblems, problems_cap;
	struct ba_pool pool;
	bool scanned;  /* read completely enough for the rules to run */
	bool md_array; /* the device is an md array */
	bool saved;    /* described by a saved report, not read */
	/* What the scan read for the rules to judge (rules-table.c). */
	struct ba_dos_check *dos;  /* the dos walk, or NULL */
	struct ba_gpt_check *gpt;  /* both GPT headers, or NULL */
	struct ba_marker *markers; /* partitions starting with a fix marker */
	size_t nmarkers;
	struct ba_dm_place {
		bool placed;	  /* dm: start judged on the device below */
		const char *disk; /* the disk or md array at the bottom */
		uint64_t start;	  /* absolute, on that disk */
		uint64_t pss, ao;
		uint64_t chunk, stripe; /* of an md array at the bottom */
		uint32_t sector_size;	/* dm-crypt: the encryption sector */
		/* a RAID-1 at the bottom: the same start on each member's
		 * disk (partition start + md data offset + start) */
		struct ba_dm_member {
			const char *disk;
			uint64_t start, pss, ao;
		} * members;
		size_t nmembers;
	} dm;
	/* rules.c, while they run: the stack layer directly inside layer
	 * i, or -1 (what it holds decides what its soft block size costs) */
	int *content;
	/* plans made from it (blkalign_report_plan) not yet freed; cleared:
	 * its report let go of it meanwhile, the last plan frees it */
	unsigned int plans;
	bool cleared;
};

struct blkalign_layer *ba_device_add_layer(struct ba_device *d);
/*
 * A new finding of code @code on layer @layer (its texts, numbers and
 * facts zero), or NULL when out of memory: then it is counted lost and
 * the report says it is incomplete.
 */
struct ba_finding *ba_device_add_finding(struct ba_device *d, enum ba_code code,
					 enum blkalign_severity sev, int layer);
void ba_device_problem(struct ba_device *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void ba_device_publish(struct ba_device *d);
void ba_device_release(struct ba_device *d);
void ba_device_hold(struct blkalign_report *r, struct ba_device *d);
void ba_device_put(struct blkalign_report *r, struct ba_device *d);
void ba_layers_by_parent_start(const struct blkalign_layer *layers, size_t *ix,
			       size_t n);

extern const char *const ba_ebr_state_names[4];
extern const char *const ba_gpt_state_names[4];

uint32_t ba_crc32(uint32_t crc, const void *buf, size_t len);
uint32_t ba_crc32c(const void *buf, size_t len);

/* Grid arithmetic (grid.c). */
static inline bool ba_is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

uint64_t ba_gcd64(uint64_t a, uint64_t b);
uint64_t ba_lcm64(uint64_t a, uint64_t b);
uint64_t ba_off_grid(uint64_t x, uint64_t ao, uint64_t g);
uint64_t ba_round_up_grid(uint64_t x, uint64_t ao, uint64_t g);
uint64_t ba_round_down_grid(uint64_t x, uint64_t ao, uint64_t g);
uint64_t ba_grain(uint64_t pss, uint64_t min_io, uint64_t opt_io);
/* blkalign_size_format() for a printf argument: returns @buf (size.c) */
const char *ba_size_str(uint64_t bytes, enum blkalign_size_style style,
			char *buf, size_t len);

struct ba_device *ba_report_add_device(struct blkalign_report *r);
void ba_check_finish(struct blkalign_report *r, size_t first);
int ba_check_image_nbd(struct blkalign_report *r, const char *path,
		       struct ba_nbd *n);

/* Report internals used by json.c and report-stream.c. */
/* A JSON document being written: its form, the devices written so far,
 * and their findings and problems (the counts of --json=lines). */
struct ba_json_stream {
	enum blkalign_json_format format;
	size_t ndevices, nfindings, nproblems;
};
/* An entry of a run not audited (blkalign_report_skip), and why. */
struct ba_skipped {
	char *path, *reason;
};

struct blkalign_report {
	int refcount;
	struct blkalign_ctx *ctx;
	struct ba_device **devices;
	size_t ndevices, cap;
	unsigned int status;
	struct ba_skipped *skipped;
	size_t nskipped, skipped_cap;
	/* the streamed JSON document: begun, and its form and counts */
	bool json_begun;
	struct ba_json_stream json;
};

#include "banned.h"

#endif /* BLKALIGN_PRIVATE_H */
