/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * blkalign.h - public API of libblkalign.
 *
 * libblkalign audits the layout of disk images and block devices: where
 * each layer starts and ends relative to the grid of the device below it
 * (physical sectors, minimum and optimal I/O size, pages), and what the
 * kernel will do with a misaligned layer.
 *
 * Handles: the shared ones (ctx, report) are opaque and reference
 * counted (_new, _ref, _unref); the others have one owner (trace, plan,
 * fix run, bench results, model: made by _new or the function that
 * computes them, released with _free).  Results are read-only plain
 * structs the library allocates and owns: fields are only ever added at
 * the end, never renamed or removed, and a list is a count and a pointer,
 * never a fixed array.  Structs the caller fills (options, geometries)
 * start with their size, sizeof as the caller was built: a library with
 * more fields reads and writes only the ones the caller has.
 *
 * Functions return 0 or a negative errno, or NULL for pointers.  The
 * library never prints and never exits; diagnostics go to the log callback.
 */
#ifndef BLKALIGN_H
#define BLKALIGN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BLKALIGN_SCHEMA_VERSION 2

struct blkalign_ctx;
struct blkalign_report;

/* Where a topology value came from. */
enum blkalign_source {
	BLKALIGN_SRC_NONE = 0, /* not known */
	BLKALIGN_SRC_ASSUMED,  /* default for images, not measured */
	BLKALIGN_SRC_OPTION,   /* given on the command line */
	BLKALIGN_SRC_SYSFS,    /* read from sysfs (or --sysroot) */
	BLKALIGN_SRC_IOCTL,    /* BLK* ioctl on the open device */
	BLKALIGN_SRC_HOST,     /* this machine (page size) */
	BLKALIGN_SRC_IMAGE,    /* recorded in the image file (VHDX, VDI) */
	BLKALIGN_SRC_FORMAT,   /* fixed by the image format (VHD, VMDK) */
};

struct blkalign_value {
	int64_t value;
	enum blkalign_source source;
};

/* The geometry and queue limits of one device. */
struct blkalign_topology {
	struct blkalign_value logical_sector_size;
	struct blkalign_value physical_sector_size;
	struct blkalign_value minimum_io_size;
	struct blkalign_value optimal_io_size;	/* 0 when ignored as bogus */
	struct blkalign_value alignment_offset; /* raw; -1 = misaligned stack */
	struct blkalign_value max_segments;
	struct blkalign_value max_sectors_kb;
	struct blkalign_value max_segment_size;
	struct blkalign_value virt_boundary_mask;
	struct blkalign_value rotational;
	struct blkalign_value page_size;
	struct blkalign_value read_ahead_kb; /* queue/read_ahead_kb */
	int64_t optimal_io_size_raw;	     /* as reported, before filtering */
	const char *optimal_io_note;	     /* why it was ignored, or NULL */
};

enum blkalign_layer_kind {
	BLKALIGN_LAYER_DISK = 0,
	BLKALIGN_LAYER_PARTITION,
	BLKALIGN_LAYER_BSD,	   /* BSD partition nested in a dos slice */
	BLKALIGN_LAYER_MD,	   /* md RAID member's data area */
	BLKALIGN_LAYER_LVM,	   /* LVM2 physical volume's data area */
	BLKALIGN_LAYER_LUKS,	   /* LUKS payload */
	BLKALIGN_LAYER_FILESYSTEM, /* filesystem or swap */
	BLKALIGN_LAYER_ZFS,	   /* ZFS vdev data area */
	BLKALIGN_LAYER_TABLE,	   /* a partition table inside a partition */
};

/* One layer of the storage stack, with absolute byte offsets. */
struct blkalign_layer {
	const char *name; /* "sda", "sda2", "disk.img1" */
	enum blkalign_layer_kind kind;
	int number;		  /* partition number, 0 for a disk */
	const char *scheme;	  /* table holding it: "dos", "gpt", "bsd"... */
	const char *type;	  /* partition type string, or NULL */
	uint64_t start;		  /* bytes from the start of the device */
	uint64_t size;		  /* bytes */
	uint32_t soft_block_size; /* predicted kernel soft block size */
	int parent;		  /* index into the device's layers, -1 */
	bool extended;		  /* dos extended container */
	bool logical;		  /* dos logical partition */
	int64_t alignment_offset; /* as sysfs would show it, -1 */

	/* Stack layers (md, lvm, luks, filesystem, zfs); 0 when unknown. */
	const char *version;  /* metadata version: "1.2", "2"... */
	uint32_t unit;	      /* fs block, LUKS sector, 2^ashift */
	uint32_t sector_size; /* fs sector size (XFS) */
	int32_t raid_level;   /* md level, -1 linear */
	uint32_t raid_disks;
	uint32_t raid_data_disks;
	uint64_t raid_chunk;	    /* bytes */
	uint64_t raid_stripe_width; /* bytes: chunk x data disks */
	uint64_t data_offset;	    /* bytes from the parent's start */
	uint64_t extent_size;	    /* LVM extent, bytes */
	uint64_t fs_stride;	    /* ext4 stride / XFS sunit, bytes */
	uint64_t fs_stripe_width;   /* ext4 stripe_width / XFS swidth */
	uint32_t zfs_ashift;

	/* A device-mapper device: where its first target starts below. */
	const char *lower_device; /* "vdj", or "254:144" */
	uint64_t lower_start;	  /* bytes on the lower device */

	/* Stack layers: bytes the contents use from where they begin
	 * (start - data_offset: swap and FAT count their header); 0 unknown. */
	uint64_t used_size;

	/* Partitions: what the table records beside the extent. */
	const char *uuid;      /* GPT partition GUID, dos "<disk id>-NN" */
	const char *part_name; /* GPT partition name, or NULL */

	/* An md member on a live system: the array the kernel assembled
	 * from it (its holders/ in sysfs), or NULL. */
	const char *array;

	/* An md array on a live system (its slaves/): the largest physical
	 * sector of the members' disks, and how many members' data starts
	 * off their disk's physical sector grid; 0 when unknown. */
	uint32_t raid_member_physical;
	uint32_t raid_members_misaligned;

	/* A dos logical partition: where its EBR is, in bytes from the
	 * start of the disk (fdisk and libfdisk leave it where it was when
	 * they move the partition: it need not sit just before it); 0 when
	 * not known. */
	uint64_t ebr;

	/* A partition whose contents' used blocks were mapped
	 * (blkalign_ctx_set_used_maps; docs/fix.md, "Used blocks"): the
	 * bytes of it a move copies (the map's extents in whole sectors,
	 * with its first MiB, gaps under 64 KiB closed); the map's source
	 * ("libext2fs", "xfs-bnobt", ..., "whole": no map for these
	 * contents); and why fix would not trust the map (contents not
	 * clean, a map that contradicts itself), else NULL.  0 and NULL
	 * when not read. */
	uint64_t map_bytes;
	const char *map_source;
	const char *map_problem;
};

enum blkalign_severity {
	BLKALIGN_INFO = 0,
	BLKALIGN_WARNING,
	BLKALIGN_ERROR,
};

/*
 * A finding: misalignment is a result, not an error.  The numbers mean,
 * per code: value is the offset or size checked, granularity the grid it
 * was checked against, remainder how far off the grid it is, suggested the
 * nearest value that fixes it (0 when there is none).
 */
struct blkalign_finding {
	const char *code; /* stable: "start-physical", ... */
	enum blkalign_severity severity;
	int layer;		 /* index into the device's layers */
	const char *message;	 /* one line: what is wrong */
	const char *explanation; /* one line: what it costs */
	const char *fix;	 /* one line: what to do */
	uint64_t value;
	uint64_t granularity;
	uint64_t remainder;
	uint64_t suggested;
	/* soft-block-size only */
	uint32_t soft_block_size;
	uint64_t request_cap;	      /* bytes, buffered writes now */
	uint64_t request_cap_aligned; /* bytes, with a 4 KiB soft block */
};

/* A finding code: stable name, usual severity, one-line summary. */
struct blkalign_code {
	const char *code;
	enum blkalign_severity severity; /* may be lowered per finding */
	const char *summary;
};

/*
 * What the partition table records beside its partitions.  The usable
 * range is the GPT header's first and last usable LBA; for other tables
 * (and when no GPT header could be read) it is assumed: from the second
 * sector to the end.
 */
struct blkalign_table {
	const char *id;		/* GPT disk GUID, dos disk id (hex), NULL */
	uint64_t usable_start;	/* bytes: the first a partition may use */
	uint64_t usable_end;	/* bytes: one past the last */
	bool usable_from_table; /* read from a GPT header, not assumed */
	/* GPT only: "ok", "absent", "corrupt" or "unreadable"; NULL when
	 * no GPT was looked for (another scheme, or sysfs only) */
	const char *gpt_primary, *gpt_backup;
};

/* One audited device or image. */
struct blkalign_device {
	const char *path;
	const char *name;
	bool is_block_device;
	uint64_t size; /* bytes */
	struct blkalign_topology topology;
	const char *scheme;  /* top-level table type, or NULL */
	uint64_t bytes_read; /* read from the device for the audit */
	size_t nlayers;
	const struct blkalign_layer *layers;
	size_t nfindings;
	const struct blkalign_finding *findings; /* worst first */
	size_t nproblems;
	const char *const *problems; /* what could not be read */
	bool failed;		     /* could not be opened at all */
	/* a partition given as the target: the disk it is on ("sdb")
	 * and its number; NULL and 0 otherwise */
	const char *whole_disk;
	int partition_number;
	struct blkalign_table table; /* usable_end 0: no table was read */
	/* an image: its format ("raw", or qemu's name: "qcow2", "vmdk",
	 * "vhdx", "vpc", "vdi", "qed"), "nbd" for an NBD export; NULL for
	 * a block device */
	const char *image_format;
	uint64_t virtual_size; /* of the disk an image holds; 0: no image */
	uint32_t cluster_size; /* of the image's format; 0: not recorded */
	/* of the ranges the audit asked for, bytes not read because the
	 * NBD export said they read as zeros (block status), or the
	 * image's own tables did; 0 otherwise */
	uint64_t bytes_skipped;
	/* who read an image in a qemu format or an export: "blkalign"
	 * (its own reader of plain images), "qemu-nbd", "nbd" (the URI's
	 * server); NULL for raw images and block devices */
	const char *image_reader;
};

/*
 * Topology options for image files; a field of 0 keeps the default.
 * Structs the caller fills start with their size (sizeof, as the caller
 * was built; each has an _INIT macro that sets it): a library with more
 * fields reads the ones it was given, one with fewer ignores the rest,
 * and a size below the struct's size in release 0.1.0 is -EINVAL.
 */
struct blkalign_image_geometry {
	size_t size; /* sizeof(struct blkalign_image_geometry) */
	uint32_t logical_sector_size;
	uint32_t physical_sector_size;
	uint32_t minimum_io_size;
	uint32_t optimal_io_size;
	int32_t alignment_offset;
	bool alignment_offset_set;
};
/* struct blkalign_image_geometry g = BLKALIGN_IMAGE_GEOMETRY_INIT; */
#define BLKALIGN_IMAGE_GEOMETRY_INIT                           \
	{                                                      \
		.size = sizeof(struct blkalign_image_geometry) \
	}

/* Status bits, also the exit status of blkalign(8). */
#define BLKALIGN_STATUS_FINDINGS   1  /* a warning or error finding */
#define BLKALIGN_STATUS_INCOMPLETE 2  /* something could not be read */
#define BLKALIGN_STATUS_FAILED	   4  /* operational error */
#define BLKALIGN_STATUS_USAGE	   16 /* command line error */
/* 128 + n: stopped by signal n (trace, bench, fix) */

/* Two statuses as one (BLKALIGN_0.3): a signal's 128 + n stands (@a's
 * first), else the bits or-ed; 130 | 1 would read as SIGQUIT. */
int blkalign_status_merge(int a, int b);

typedef void (*blkalign_log_fn)(void *data, const char *msg);

struct blkalign_ctx *blkalign_ctx_new(void);
void blkalign_ctx_ref(struct blkalign_ctx *ctx);
void blkalign_ctx_unref(struct blkalign_ctx *ctx);
int blkalign_ctx_set_sysroot(struct blkalign_ctx *ctx, const char *dir);
int blkalign_ctx_set_image_geometry(struct blkalign_ctx *ctx,
				    const struct blkalign_image_geometry *g);
int blkalign_ctx_set_page_size(struct blkalign_ctx *ctx, uint32_t bytes);
void blkalign_ctx_set_used_maps(struct blkalign_ctx *ctx, bool on);
void blkalign_ctx_set_log_fn(struct blkalign_ctx *ctx, blkalign_log_fn fn,
			     void *data);

struct blkalign_report *blkalign_report_new(struct blkalign_ctx *ctx);
void blkalign_report_ref(struct blkalign_report *r);
void blkalign_report_unref(struct blkalign_report *r);
/* A report saved by check --json, judged again (check/plan/model --from). */
int blkalign_check_saved(struct blkalign_report *r, const char *file,
			 const char *target);
int blkalign_check_path(struct blkalign_report *r, const char *path);
int blkalign_check_all(struct blkalign_report *r);
size_t blkalign_report_ndevices(const struct blkalign_report *r);
const struct blkalign_device *
blkalign_report_device(const struct blkalign_report *r, size_t i);
unsigned int blkalign_report_status(const struct blkalign_report *r);
/*
 * Add exit-status bits the caller found outside the report (a saved
 * report that cannot be read, block devices that cannot be listed), so
 * that the JSON's "status" says what the exit status says.
 */
void blkalign_report_add_status(struct blkalign_report *r, unsigned int bits);
int blkalign_report_write_json(const struct blkalign_report *r, FILE *out);
/* The text report of check (out/report-text.c): 0, -EINVAL, -ENOMEM (a
 * device's layers left out, a line saying so) or -EIO. */
#define BLKALIGN_TEXT_COLOR	 (1u << 0) /* ANSI colors */
#define BLKALIGN_TEXT_NOHEADINGS (1u << 1) /* tables without headings */
#define BLKALIGN_TEXT_RAW	 (1u << 2) /* the layers alone, raw (lsblk -r) */
#define BLKALIGN_TEXT_PAIRS	 (1u << 3) /* the layers alone, KEY="value" */
#define BLKALIGN_TEXT_BYTES	 (1u << 4) /* sizes as byte counts */
#define BLKALIGN_TEXT_LIST	 (1u << 5) /* the layers as a list, no tree */
int blkalign_report_write_text(const struct blkalign_report *r, FILE *out,
			       unsigned int flags);

/*
 * The text report's options beyond the flags.  A caller sets @size to
 * sizeof(struct blkalign_text_opts) (fields are only ever added) and
 * zeroes what it does not use.
 */
struct blkalign_text_opts {
	size_t size;
	unsigned int flags;  /* BLKALIGN_TEXT_* */
	const char *columns; /* the layer table's: "NAME,START", "+UUID";
				NULL: the default ones */
	unsigned int width;  /* lines at most this wide; 0: no limit */
};
#define BLKALIGN_TEXT_OPTS_INIT                           \
	{                                                 \
		.size = sizeof(struct blkalign_text_opts) \
	}
int blkalign_report_write_text_opts(const struct blkalign_report *r, FILE *out,
				    const struct blkalign_text_opts *o);
/*
 * Every command's table (BLKALIGN_0.3): check's layers, plan's
 * partitions, fix's outcomes, model's workloads, trace's and bench's
 * rows.  blkalign_text_table_column gives the @i-th column of table @t (0,
 * -ENOENT after the last one, -EINVAL for no such table);
 * blkalign_text_table_columns_check whether @t takes @list (0, -EINVAL with
 * @bad and @badlen the unknown name, or -E2BIG).  The _text_ forms below
 * are those of BLKALIGN_TEXT_TABLE_LAYERS.
 */
enum blkalign_text_table {
	BLKALIGN_TEXT_TABLE_LAYERS,
	BLKALIGN_TEXT_TABLE_PLAN,
	BLKALIGN_TEXT_TABLE_FIX,
	BLKALIGN_TEXT_TABLE_MODEL,
	BLKALIGN_TEXT_TABLE_TRACE,
	BLKALIGN_TEXT_TABLE_BENCH,	 /* the phase sweep's phases */
	BLKALIGN_TEXT_TABLE_BENCH_SIDES, /* bench --test's sides */
};
int blkalign_text_table_column(enum blkalign_text_table t, size_t i,
			       const char **name, const char **help,
			       bool *dflt);
int blkalign_text_table_columns_check(enum blkalign_text_table t,
				      const char *list, const char **bad,
				      size_t *badlen);
/* The layer table's columns: 0, or -ENOENT after the last one. */
int blkalign_text_column(size_t i, const char **name, const char **help,
			 bool *dflt);
/* A column list checked: 0, -EINVAL (@bad, @badlen: the unknown name in
 * @list) or -E2BIG (too many). */
int blkalign_text_columns_check(const char *list, const char **bad,
				size_t *badlen);

/*
 * Many images in one run, streamed (BLKALIGN_0.2).  blkalign_check_if_image
 * audits @path like blkalign_check_path when it holds a disk image (a qemu
 * format, or raw with a partition table or contents the scan knows), and
 * otherwise records it as skipped: returns BLKALIGN_CHECK_SKIPPED, nothing
 * audited, the status unchanged.  blkalign_report_skip records a skipped
 * entry with its reason (the JSON's "skipped"); blkalign_report_clear
 * frees the devices audited so far once they are written (the status and
 * the skipped entries stay), so that a long run holds one device at a
 * time; a device a plan was made from (blkalign_report_plan) lives on
 * until that plan is freed.  The JSON document streamed: _begin, then _devices
 * after each audit (the devices held, then clear), then _end (skipped and
 * status).
 */
#define BLKALIGN_CHECK_SKIPPED 1
int blkalign_check_if_image(struct blkalign_report *r, const char *path);
int blkalign_report_skip(struct blkalign_report *r, const char *path,
			 const char *reason);
size_t blkalign_report_nskipped(const struct blkalign_report *r);
const char *blkalign_report_skipped(const struct blkalign_report *r, size_t i,
				    const char **reason);
void blkalign_report_clear(struct blkalign_report *r);
int blkalign_report_write_json_begin(struct blkalign_report *r, FILE *out);
int blkalign_report_write_json_devices(struct blkalign_report *r, FILE *out);
int blkalign_report_write_json_end(struct blkalign_report *r, FILE *out);

/*
 * The JSON output's three forms (BLKALIGN_0.2; docs/json-schema.md,
 * "Streams"): the pretty document (the default), the same document
 * compact on one line, or lines: each target's object on a line of its
 * own (with schema_version and path) as soon as it is known, then a
 * summary line { schema_version, version, command, status, counts }.
 * blkalign_report_set_json_format picks the form of the streamed check
 * document (before _begin).  blkalign_json_rewrite writes the document
 * @text (what a writer of this library printed, pretty) with "status":
 * @status after its "command" (the exit status of the command that
 * printed it; a value it had is replaced), in form @f: for lines, the
 * elements of its array @each are the targets (NULL: the document is the
 * one target), the summary says @command and @status; a failure document
 * (it has "errors") is its own summary line.  Both
 * return 0, -EINVAL (@text no JSON object, begun already), -ENOMEM or
 * -EIO.
 */
enum blkalign_json_format {
	BLKALIGN_JSON_PRETTY,
	BLKALIGN_JSON_COMPACT,
	BLKALIGN_JSON_LINES,
};
int blkalign_report_set_json_format(struct blkalign_report *r,
				    enum blkalign_json_format f);
int blkalign_json_rewrite(const char *text, size_t len,
			  enum blkalign_json_format f, const char *command,
			  int status, const char *each, FILE *out);
/* The same, and when @status has BLKALIGN_STATUS_FAILED (no signal) and
 * the document no "errors", "errors": the @nerrors messages @errors (what
 * was said on stderr); --json=lines puts them in the summary line
 * (BLKALIGN_0.3). */
int blkalign_json_finish(const char *text, size_t len,
			 enum blkalign_json_format f, const char *command,
			 int status, const char *const *errors, size_t nerrors,
			 const char *each, FILE *out);

/*
 * The other files an image file's disk is made of (BLKALIGN_0.2), so that
 * a run over many files audits each disk once: the extents a VMDK
 * descriptor file names, the parent a VMDK delta names
 * (parentFileNameHint), the backing file of a qcow2 or qed image, the
 * external data file of a qcow2.  @fn gets each one's path (a relative
 * name joined to @path's directory, as qemu opens it; protocol names
 * such as nbd: or json: left out) and what it is; a non-zero return stops
 * the walk and is returned.  Returns: 0 (also for a file that names
 * nothing, or is no image), or -errno when @path cannot be read.
 */
enum blkalign_image_ref {
	BLKALIGN_REF_EXTENT,	/* a VMDK extent file */
	BLKALIGN_REF_BACKING,	/* a backing file, a VMDK delta's parent */
	BLKALIGN_REF_DATA_FILE, /* a qcow2's external data file */
};
typedef int (*blkalign_image_ref_fn)(void *data, const char *path,
				     enum blkalign_image_ref kind);
int blkalign_image_refs(const char *path, blkalign_image_ref_fn fn, void *data);

/* Pure helpers, exposed for scripts and the model. */
uint32_t blkalign_soft_block_size(uint64_t size_bytes,
				  uint32_t logical_sector_size,
				  uint32_t page_size);
int64_t blkalign_alignment_offset(uint64_t start_bytes,
				  uint32_t physical_sector_size,
				  uint32_t minimum_io_size,
				  int64_t disk_alignment_offset);
const char *blkalign_severity_name(enum blkalign_severity s);
const char *blkalign_layer_kind_name(enum blkalign_layer_kind k);
const struct blkalign_code *blkalign_finding_codes(void);
const char *blkalign_source_name(enum blkalign_source s);
const char *blkalign_version(void);

/*
 * What a command's --json prints when it fails before its own document
 * (out/failure-json.c): { schema_version, version, command, status,
 * errors } with the messages it said.  Every finding code the library
 * can emit as { schema_version, version, codes: [{ code, severity,
 * summary }] } (check --list-codes --json; out/json.c).  Both return 0,
 * -EINVAL, -ENOMEM or -EIO.
 */
int blkalign_failure_write_json(const char *command, int status,
				const char *const *errors, size_t n, FILE *out);
int blkalign_finding_codes_write_json(FILE *out);

/*
 * Sizes for people (out/size.c), in one of the styles the text outputs
 * use.  1536 bytes is "1536" (EXACT), "1.5K" (SHORT), "1.5K" (LSBLK),
 * "1536 bytes" (WORDS), "1536-byte" (ADJECTIVE); 65536 is "64K", "64K",
 * "64.0K", "64 KiB", "64 KiB".  Returns 0; -ENOSPC when the text did not
 * fit in @len bytes (@buf holds what did, NUL-terminated); -EINVAL on no
 * buffer or an unknown style.
 */
enum blkalign_size_style {
	/* "64K", "1M" when a multiple, else the count: "1536" (trace) */
	BLKALIGN_SIZE_EXACT,
	/* "64K", "1M" when a multiple, else one decimal: "1.5K", "512"
	 * (model) */
	BLKALIGN_SIZE_SHORT,
	/* one decimal of the largest unit, like lsblk: "13.2G", "64.0K",
	 * "512B" (check) */
	BLKALIGN_SIZE_LSBLK,
	/* "64 KiB", "1 MiB" when a multiple, else "1536 bytes" (findings) */
	BLKALIGN_SIZE_WORDS,
	/* as WORDS, an adjective: "4 KiB", else "1536-byte" (bench) */
	BLKALIGN_SIZE_ADJECTIVE,
};
int blkalign_size_format(uint64_t bytes, enum blkalign_size_style style,
			 char *buf, size_t len);
/* A latency for people, as bench's table and chart print it (BLKALIGN_0.3):
 * "870.0us", "1.90ms", "69.0ms".  Returns 0, -ENOSPC or -EINVAL as
 * blkalign_size_format. */
int blkalign_latency_format(uint64_t ns, char *buf, size_t len);

/*
 * The I/O cost model (model.c): what the block layer and the device do
 * for a workload on one layer, as pure functions of the geometry.
 * Sources for each rule are cited in lib/analyze/model.c and docs/model.md.
 */

/* Kernel behaviour the model follows. */
enum blkalign_kernel {
	BLKALIGN_KERNEL_CURRENT = 0, /* 4.11 and later */
	BLKALIGN_KERNEL_PRE_4_11,    /* before 729204ef49ec "block: relax
					check on sg gap" */
};

/*
 * Device geometry and queue limits; a field of 0 takes the default.
 * The caller sets size, as blkalign_image_geometry.
 */
struct blkalign_model_geometry {
	size_t size; /* sizeof(struct blkalign_model_geometry) */
	uint32_t logical_sector_size;  /* default 512 */
	uint32_t physical_sector_size; /* default: logical */
	uint32_t minimum_io_size;      /* default: physical */
	uint32_t optimal_io_size;      /* 0: none */
	uint32_t alignment_offset;     /* bytes, inside a physical sector */
	uint32_t max_segments;	       /* default 128 */
	uint32_t max_sectors_kb;       /* default 1280 */
	uint32_t max_segment_size;     /* default 65536 */
	uint64_t virt_boundary_mask;   /* 0: none */
	uint32_t page_size;	       /* default 4096 */
	uint32_t read_ahead_kb;	       /* default 128 */
};
#define BLKALIGN_MODEL_GEOMETRY_INIT                           \
	{                                                      \
		.size = sizeof(struct blkalign_model_geometry) \
	}

/* The layer a workload runs on: absolute bytes, and md RAID below it. */
struct blkalign_model_layer {
	uint64_t start;	     /* bytes from the start of the device */
	uint64_t size;	     /* bytes */
	uint32_t raid_disks; /* 0: the device is not md RAID */
	int32_t raid_level;  /* 0, 1, 4, 5, 6, 10 (near 2) */
	uint64_t raid_chunk; /* bytes */
	/* the members' disks: largest physical sector (0: unknown) and how
	 * many members' data is off its grid (their drives then
	 * read-modify-write every parity RAID write they get) */
	uint32_t raid_member_physical;
	uint32_t raid_members_misaligned;
};

enum blkalign_io_dir { BLKALIGN_IO_READ = 0, BLKALIGN_IO_WRITE };
enum blkalign_io_pattern { BLKALIGN_IO_SEQUENTIAL = 0, BLKALIGN_IO_RANDOM };
enum blkalign_io_path { BLKALIGN_IO_BUFFERED = 0, BLKALIGN_IO_DIRECT };

/* A workload: I/Os of io_size, total bytes (0: the whole layer). */
struct blkalign_workload {
	const char *name; /* preset name, or "custom" */
	enum blkalign_io_dir dir;
	enum blkalign_io_pattern pattern;
	enum blkalign_io_path path;
	uint64_t io_size; /* bytes per I/O (read/write call) */
	uint64_t total;	  /* bytes; 0 = the whole layer */
};

struct blkalign_size_count {
	uint64_t bytes;
	uint64_t count;
};

/*
 * What one workload costs on one layer.  Requests are what the device
 * queue issues (block_rq_issue); RAID counts are member-disk I/Os, one
 * per chunk touched (domain-facts §5).
 */
struct blkalign_model_cost {
	uint64_t bytes;		  /* bytes the workload moved */
	uint64_t ios;		  /* application I/Os */
	uint64_t bios;		  /* bios submitted to the queue */
	uint32_t soft_block_size; /* of the layer */
	uint64_t request_cap;	  /* predicted largest request, bytes */
	uint64_t requests;
	uint64_t request_bytes; /* sum of request sizes */
	uint64_t request_max;	/* bytes */
	uint64_t request_min;	/* bytes */
	size_t nsizes;		/* request sizes, largest count first */
	const struct blkalign_size_count *sizes; /* nsizes of them */
	uint64_t sizes_other;	   /* requests of sizes not listed */
	uint64_t physical_sectors; /* touched, summed over requests */
	uint64_t partial_requests; /* writes covering part of a sector */
	uint64_t rmw;		   /* device read-modify-writes (512e) */
	uint64_t chunk_straddles;  /* I/Os touching one chunk too many */
	uint64_t raid_stripes;	   /* stripes written */
	uint64_t raid_full_stripes;
	uint64_t raid_rmw_stripes; /* read-modify-write */
	uint64_t raid_rcw_stripes; /* reconstruct-write */
	uint64_t raid_reads;	   /* member chunk reads */
	uint64_t raid_writes;	   /* member chunk writes */
	uint64_t raid_member_rmw;  /* read-modify-writes at members' drives */
	/*
	 * The cap depends on how contiguous the memory is where it is not
	 * one segment per bio (direct I/O: the user buffer; reads: the
	 * page cache): from one segment per page to max_segment_size.
	 */
	uint64_t request_cap_min;
	uint64_t request_cap_max;
};

/* A workload on the actual layer and on the same layer aligned. */
struct blkalign_model {
	struct blkalign_workload workload;
	enum blkalign_kernel kernel;
	struct blkalign_model_layer actual;
	struct blkalign_model_layer aligned;
	struct blkalign_model_cost cost;	 /* actual layout */
	struct blkalign_model_cost cost_aligned; /* aligned layout */
};

int blkalign_workload_preset(const char *name, struct blkalign_workload *w);
const char *const *blkalign_workload_presets(void);
const char *blkalign_kernel_name(enum blkalign_kernel k);
int blkalign_kernel_parse(const char *name, enum blkalign_kernel *k);
int blkalign_model_geometry_defaults(struct blkalign_model_geometry *g);
int blkalign_model_geometry_from_device(const struct blkalign_device *d,
					struct blkalign_model_geometry *g);
int blkalign_model_layer_from_device(const struct blkalign_device *d,
				     size_t layer,
				     struct blkalign_model_layer *l);
int blkalign_model_align_layer(const struct blkalign_model_geometry *g,
			       const struct blkalign_model_layer *l,
			       struct blkalign_model_layer *out);
/* *out: the model, freed with blkalign_model_free; NULL on error. */
int blkalign_model_run(const struct blkalign_model_geometry *g,
		       const struct blkalign_model_layer *l,
		       const struct blkalign_workload *w,
		       enum blkalign_kernel k, struct blkalign_model **out);
void blkalign_model_free(struct blkalign_model *m);
double blkalign_model_ratio(uint64_t actual, uint64_t aligned);
int blkalign_finding_cost(const struct blkalign_device *d,
			  const struct blkalign_finding *f, char *buf,
			  size_t len);
int blkalign_model_write_json(const char *target,
			      const struct blkalign_model_geometry *g,
			      const char *const *layer_names,
			      const struct blkalign_model *const *models,
			      size_t nmodels, FILE *out);
/* The models as text (out/model-text.c; BLKALIGN_0.3): per layer, prose
 * and a table of BLKALIGN_TEXT_TABLE_MODEL's columns (@o): 0, -EINVAL,
 * -ENOMEM or -EIO. */
int blkalign_model_write_text(const struct blkalign_model_geometry *g,
			      const char *const *layer_names,
			      const struct blkalign_model *const *models,
			      size_t nmodels, FILE *out,
			      const struct blkalign_text_opts *o);

/*
 * Block request tracing (trace.c, tracefs.c): the kernel's block_rq_issue
 * and block_rq_complete events for one device, summarised.
 */
struct blkalign_trace;

struct blkalign_trace_dir {
	uint64_t requests;
	uint64_t bytes;
	uint64_t request_max; /* bytes */
	uint64_t request_min; /* bytes */
	size_t nsizes;	      /* request sizes, largest count first */
	const struct blkalign_size_count *sizes; /* nsizes of them */
	uint64_t sizes_other;			 /* requests of other sizes */
	uint64_t hist_log2[32];	    /* requests by floor(log2(sectors)) */
	uint64_t off_physical;	    /* start off the physical sector grid */
	uint64_t off_page_in_layer; /* start off 4 KiB from the layer start */
	uint64_t partial_requests;  /* cover part of a physical sector */
	uint64_t rmw;		    /* partial physical sectors (writes) */
	uint64_t physical_sectors;
	uint64_t completed; /* issue matched with a completion */
	uint64_t lat_p50_ns, lat_p90_ns, lat_p99_ns, lat_max_ns;
};

/*
 * One stretch of a disk below the traced device (its partition, a
 * dm-linear or dm-crypt segment, a dm-striped stripe, an md member's data)
 * and the requests counted there.  Requests are judged against the
 * physical sector of that disk and, for the 4 KiB grid, the traced
 * layer's own offset there (striped layers: from the member's data start).
 */
struct blkalign_trace_below {
	const char *name; /* the disk, e.g. "sdb" */
	unsigned int major, minor;
	uint64_t start, size;  /* bytes on the disk; size 0: the whole disk */
	uint64_t layer_offset; /* bytes: the layer's offset at start */
	uint32_t physical_sector_size;
	uint32_t alignment_offset;
	uint64_t read_requests, read_bytes;
	uint64_t write_requests, write_bytes;
	uint64_t off_physical;	   /* requests off the physical grid */
	uint64_t partial_requests; /* covering part of a physical sector */
};

struct blkalign_trace_summary {
	const char *device;	   /* as given */
	unsigned int major, minor; /* the (first) disk traced */
	uint64_t layer_start;	   /* bytes: start on that disk, or 0 */
	uint64_t layer_size;	   /* bytes */
	uint32_t logical_sector_size;
	uint32_t physical_sector_size;
	uint32_t alignment_offset;
	/* the recording: from the events enabled to disabled (a replayed
	 * file: what it recorded, else its events' span) */
	double seconds;
	uint64_t events;
	uint64_t lost_events;
	uint64_t unmatched; /* completions without an issue */
	struct blkalign_trace_dir read, write, discard, flush, other;
	size_t nbelow; /* the extents on the disks below, in table order */
	const struct blkalign_trace_below *below;
	double event_seconds; /* first to last event */
};

/* Where the trace's events come from, and how they are judged. */
/* Options of a trace; NULL for the defaults.  The caller sets size. */
struct blkalign_trace_opts {
	size_t size;		       /* sizeof(struct blkalign_trace_opts) */
	uint32_t physical_sector_size; /* 0: the device's */
	uint32_t buffer_size_kb;       /* per CPU; 0: 8192 */
	FILE *raw;		       /* copy of every event line, or NULL */
};
#define BLKALIGN_TRACE_OPTS_INIT                           \
	{                                                  \
		.size = sizeof(struct blkalign_trace_opts) \
	}

int blkalign_trace_new(struct blkalign_ctx *ctx, const char *device,
		       const struct blkalign_trace_opts *opts,
		       struct blkalign_trace **out);
int blkalign_trace_start(struct blkalign_trace *t);
int blkalign_trace_fd(const struct blkalign_trace *t);
int blkalign_trace_read(struct blkalign_trace *t);
int blkalign_trace_stop(struct blkalign_trace *t);
void blkalign_trace_free(struct blkalign_trace *t);
int blkalign_trace_feed(struct blkalign_trace *t, const char *line);
const struct blkalign_trace_summary *
blkalign_trace_summary(struct blkalign_trace *t);
int blkalign_trace_write_json(struct blkalign_trace *t, FILE *out);
/* The text report (out/trace-text.c): 0, -EINVAL (a bad column list),
 * -ENOMEM or -EIO; with BLKALIGN_TEXT_RAW or _PAIRS the table alone. */
int blkalign_trace_write_text(struct blkalign_trace *t, FILE *out,
			      const struct blkalign_text_opts *o);
const char *blkalign_trace_instance(const struct blkalign_trace *t);

/*
 * Realignment plans (plan.c): for each partition of an audited disk, the
 * aligned layout (start moved up to the grain, size ending on the grain
 * and a multiple of the page and physical sector), never cutting into
 * the data its contents use and never overlapping what follows.
 * Nothing is written: a plan is data to print (docs/plan.md).
 */
enum blkalign_plan_action {
	BLKALIGN_PLAN_NONE = 0,	  /* aligned already */
	BLKALIGN_PLAN_OPTIONAL,	  /* only off 1 MiB: moving is optional */
	BLKALIGN_PLAN_RESIZE,	  /* start kept, size changed */
	BLKALIGN_PLAN_MOVE,	  /* start moved (size maybe too) */
	BLKALIGN_PLAN_IMPOSSIBLE, /* no aligned layout fits: see reason */
};

struct blkalign_plan_part {
	int layer; /* index into the device's layers */
	const char *name;
	int number;
	enum blkalign_plan_action action;
	uint64_t old_start, old_size; /* bytes */
	uint64_t new_start, new_size; /* bytes; old values when impossible */
	uint64_t used_size;	      /* bytes from the start to keep */
	bool used_known;	      /* false: the whole partition is kept */
	const char *content;	      /* "ext4", "md", ... or NULL */
	uint64_t limit;		      /* the end may not pass this byte */
	/* what a move copies: the used bytes by the contents' map
	 * (map_source: "libext2fs", ...) when the scan read one
	 * (blkalign_ctx_set_used_maps) and fix would trust it, else all
	 * used_size; map_problem: why fix would not trust it (fix refuses
	 * the move unless told --copy-all), else NULL */
	uint64_t bytes_to_copy;
	const char *map_source;
	const char *map_problem;
	const char *reason; /* why this action; NULL for none */
	size_t ncommands;   /* what to do instead, when impossible */
	const char *const *commands;
	size_t findings_before; /* alignment findings on it now */
	size_t findings_after;	/* ... on the planned layout */
	const char *uuid;	/* GPT partition UUID, or NULL */
	const char *part_name;	/* GPT partition name, or NULL */
};

struct blkalign_plan {
	const struct blkalign_device *device;
	uint64_t grain;		   /* bytes: where starts go */
	uint64_t size_granularity; /* bytes: lcm(page, physical sector) */
	uint64_t usable_end;	   /* bytes: GPT last usable LBA + 1 */
	uint64_t usable_start; /* bytes: GPT first usable LBA; dos 1 sector */
	const char *label_id;  /* disk identifier, or NULL */
	size_t nparts;
	const struct blkalign_plan_part *parts;
	size_t remaining; /* alignment findings left after it */
};

int blkalign_plan_new(const struct blkalign_device *d,
		      struct blkalign_plan **out);

/* blkalign_report_plan flags: the table must have been read, not only
 * described by a sysfs tree or a saved report (fix rewrites it). */
#define BLKALIGN_PLAN_TABLE_READ 1u

/*
 * The plan of the one device @r holds, for the command @cmd ("plan",
 * "fix": named in the messages): a whole disk or image with a dos or GPT
 * table.  Why not (the device's problems, a partition given for its
 * disk, no such table) is said through the log of @r's context.
 * The plan holds a reference to @r (blkalign_report_ref) and keeps its
 * device, also through blkalign_report_clear, until blkalign_plan_free.
 * Returns: 0 and *out, -EINVAL (said, unless @r does not hold exactly
 * one device), -ENOMEM.
 */
int blkalign_report_plan(struct blkalign_report *r, const char *cmd,
			 unsigned int flags, struct blkalign_plan **out);
void blkalign_plan_free(struct blkalign_plan *p);
const char *blkalign_plan_action_name(enum blkalign_plan_action a);
/* only: a partition number to plan alone, 0 for all. */
int blkalign_plan_write_sfdisk(const struct blkalign_plan *p, int only,
			       FILE *out);
int blkalign_plan_write_json(struct blkalign_plan *const *plans, size_t nplans,
			     int only, double throughput_bytes_s, FILE *out);
/* plan's text: the disk, a table of BLKALIGN_TEXT_TABLE_PLAN's columns
 * (@o), the prose of each partition (BLKALIGN_0.3; plan-text.c). */
int blkalign_plan_write_text(const struct blkalign_plan *p, int only,
			     double throughput_bytes_s, FILE *out,
			     const struct blkalign_text_opts *o);

/*
 * In-place realignment (fix*.c, docs/fix.md): move one planned partition's
 * data to its new start, then write the new table, crash-safely through a
 * journal kept outside the disk.  Writes: callers ask the user first.
 */

/* Which file an I/O of fix is for. */
enum blkalign_fix_file {
	BLKALIGN_FIX_FILE_TARGET,  /* the disk or image being fixed */
	BLKALIGN_FIX_FILE_JOURNAL, /* its journal */
};

/*
 * fix's I/O backend, as e2fsprogs' io_manager: every read, write and
 * flush of the target and the journal goes through it.  The library opens
 * the files itself (O_DIRECT, O_EXCL, locks); the backend moves the bytes.
 * Each returns 0 or -errno (a short transfer is -EIO).  Given to
 * blkalign_fix_target_open (NULL: blkalign_fix_io_default()).  Test
 * programs select one that injects faults (tests/fault/).
 */
struct blkalign_fix_io {
	size_t size; /* sizeof(struct blkalign_fix_io) */
	void *data;
	int (*read)(void *data, enum blkalign_fix_file file, int fd, void *buf,
		    size_t len, uint64_t off);
	int (*write)(void *data, enum blkalign_fix_file file, int fd,
		     const void *buf, size_t len, uint64_t off);
	int (*flush)(void *data, enum blkalign_fix_file file, int fd);
	void (*close)(void *data, enum blkalign_fix_file file, int fd);
};
#define BLKALIGN_FIX_IO_INIT                           \
	{                                              \
		.size = sizeof(struct blkalign_fix_io) \
	}

const struct blkalign_fix_io *blkalign_fix_io_default(void);

struct blkalign_fix_opts {
	size_t size;	     /* sizeof(struct blkalign_fix_opts) */
	const char *journal; /* journal file (required) */
	const char *tmpdir;  /* table image; NULL: the journal's dir */
	uint64_t max_step;   /* bytes per step; 0: 16 MiB */
	bool copy_all;	     /* unsized contents: copy all of it */
	bool dry_run;	     /* check and describe, write nothing */
	void (*progress)(void *data, uint64_t done, uint64_t total);
	void *progress_data;
	volatile int *stop; /* nonzero: stop after the step in flight */
	/* once per partition, before its data move starts (with
	 * progress_data): partition @number copies @to_copy bytes of the
	 * @whole its contents span, by the map @source ("libext2fs", ...,
	 * "whole") of its @content ("ext4", or NULL when unknown) */
	void (*copying)(void *data, int number, uint64_t to_copy,
			uint64_t whole, const char *source,
			const char *content);
};
#define BLKALIGN_FIX_OPTS_INIT                           \
	{                                                \
		.size = sizeof(struct blkalign_fix_opts) \
	}

struct blkalign_fix_result {
	int number;
	uint64_t old_start, old_size, new_start, new_size; /* bytes */
	uint32_t sector_size; /* the disk's logical sector size */
	uint64_t bytes_copied;
	bool batch;	   /* small shift: batches via the journal */
	bool rolled_back;  /* --rollback: the old layout is back */
	bool journal_kept; /* failed or stopped part-way: the journal
			      is kept for --resume or --rollback */
	uint64_t steps;
	double seconds;		  /* copying */
	const char *message;	  /* why it failed, or a warning; NULL:
				     none.  Owned by the run that holds
				     it (blkalign_fix_run_free) */
	uint64_t writes, flushes; /* this call's, disk and journal */
	bool refused;		  /* the plan cannot be carried out (no
				     room, contents too big or not
				     sized, contents not clean): nothing
				     was written */
	/* What the move copies: the bytes its contents use (the rest is
	 * skipped), and where that map comes from: "libext2fs",
	 * "xfs-bnobt", "libntfs-3g", "fat", "btrfs-chunks",
	 * "lvm-segments", "swap-header", or "whole" (all of it). */
	uint64_t bytes_to_copy, bytes_skipped;
	const char *map_source;
	/* Bytes written and read back to see they arrived: on a loop
	 * device, those outside the ranges allocated ahead in its backing
	 * file (docs/fix.md) */
	uint64_t bytes_read_back;
};

/*
 * The fix functions that read sysfs (a disk's serial, a loop device's
 * backing file, the kernel's partitions) take the context first and read
 * below its sysroot; a NULL context means the defaults: the live /sys,
 * no log, no image geometry.
 *
 * The target of a fix, opened for writing and locked (a block device
 * O_EXCL, an image with flock, neither while a loop device has it) for as
 * long as the handle lives: audit and plan it after this, so that the
 * plan is made under the lock.  @journal is refused on the target itself.
 * The handle keeps a reference to @ctx.  Returns 0 or -errno with @msg
 * saying why.
 */
struct blkalign_fix_target;

int blkalign_fix_target_open(struct blkalign_ctx *ctx, const char *path,
			     const char *journal,
			     const struct blkalign_fix_io *io,
			     struct blkalign_fix_target **out, char *msg,
			     size_t len);
void blkalign_fix_target_close(struct blkalign_fix_target *t);

int blkalign_fix_check_journal(const char *target, const char *journal,
			       char *msg, size_t len);
/*
 * The default journal of @target in @dir: "<dir>/<name>-<16 hex>.journal",
 * the hex a hash of the disk's identity (an image's file system and inode,
 * also through a loop device; a disk's WWN or serial; else its path), so
 * that two disks never share one.  Returns 0 or -errno.
 */
int blkalign_fix_journal_path(struct blkalign_ctx *ctx, const char *target,
			      const char *dir, char *buf, size_t len);
/*
 * The journals in @dir that belong to @target (its identity, or the fix
 * id of the marker on it), @fn called with each path; returns how many,
 * or -errno.
 */
int blkalign_fix_find_journals(struct blkalign_ctx *ctx, const char *target,
			       const char *dir,
			       void (*fn)(void *data, const char *path),
			       void *data);
/*
 * What a journal holds and what --resume and --rollback would do with it
 * on @target (NULL: the journal alone; @journal NULL: what the disk's
 * marker says), as text or JSON, without writing.  Returns 0 when both
 * could go on, 1 when only one could, 2 when neither, or -errno.
 */
int blkalign_fix_inspect(struct blkalign_ctx *ctx, const char *target,
			 const char *journal, bool json, FILE *out);

/* One partition's outcome of a fix run, as blkalign_fix_write_json prints it.
 */
struct blkalign_fix_outcome {
	struct blkalign_fix_result res;
	const char *action; /* "moved", "would move", "refused", ... */
	int rc;		    /* what the fix call returned: 0 or -errno */
};

/*
 * What one run of blkalign_fix_disk or blkalign_fix_resume did, made by
 * the library and freed with blkalign_fix_run_free (with the outcomes'
 * messages).
 */
struct blkalign_fix_run {
	int status; /* exit status: the bits of the outcomes' statuses */
	size_t noutcomes;
	const struct blkalign_fix_outcome *outcomes; /* in the order done */
	/* nothing to do (no outcome, no partition asked for): the
	 * partitions that could move to the grain although they are
	 * aligned on the device (BLKALIGN_PLAN_OPTIONAL) */
	size_t noptional;
	const int *optional; /* their numbers */
	uint64_t grain;	     /* bytes */
};

/*
 * The exit status of one fix call that returned @rc with @r, the policy
 * of blkalign(8): 0 done (or aligned already: -EALREADY); 1 a dry run
 * that would move or resize (@dry_run, @rc 0); BLKALIGN_STATUS_INCOMPLETE
 * (2) refused (r->refused: no room, contents too big or not sized;
 * nothing written); BLKALIGN_STATUS_FAILED (4) any other error, and
 * every error once the journal exists (r->journal_kept); 128 + n when
 * stopped (-EINTR) by signal @stop_signal n (0: SIGINT).  A pure function.
 */
int blkalign_fix_status(int rc, const struct blkalign_fix_result *r,
			bool dry_run, int stop_signal);

/*
 * Fix the disk or image @path, open and locked as @t (NULL for a dry run,
 * o->dry_run): audit it through @ctx (its log, image geometry and page
 * size; NULL: the defaults), plan it, fix (or, dry, describe) one
 * partition, then audit and plan again for the next (a moved partition
 * changes its neighbours' room): partition @partition only, or (0) every
 * one the plan moves, resizes or cannot realign.  Stops at the first
 * operational error or signal, and at a partition holding the marker of
 * an interrupted fix (said through the log).  Why a disk cannot be
 * audited or planned goes to the log too (then status has
 * BLKALIGN_STATUS_FAILED).  Returns 0 with *@out to free with
 * blkalign_fix_run_free, or -EINVAL or -ENOMEM.
 */
int blkalign_fix_disk(struct blkalign_ctx *ctx, struct blkalign_fix_target *t,
		      const char *path, const struct blkalign_fix_opts *o,
		      int partition, struct blkalign_fix_run **out);
/*
 * Finish (or, with @rollback, undo) the fix whose journal is o->journal
 * on the locked target @t: exactly what the journal describes, once it
 * holds what that needs and the disk is its disk.  One outcome, "finished",
 * "rolled back", "refused" (no journal, another disk's, a damaged one,
 * one in use or of another format), "stopped" or "failed".  Returns as
 * blkalign_fix_disk.
 */
int blkalign_fix_resume(struct blkalign_fix_target *t, bool rollback,
			const struct blkalign_fix_opts *o,
			struct blkalign_fix_run **out);
void blkalign_fix_run_free(struct blkalign_fix_run *r);

int blkalign_fix_write_json(const struct blkalign_fix_outcome *v, size_t n,
			    const char *device, const char *journal,
			    bool dry_run, int status, FILE *out);
/*
 * The same for the whole run @run (NULL: none, as after a refused
 * journal), with the partitions that could move although aligned
 * (run->optional) as "optional": [{ number, grain }].
 */
int blkalign_fix_run_write_json(const struct blkalign_fix_run *run,
				const char *device, const char *journal,
				bool dry_run, int status, FILE *out);
/* fix's text: a table of BLKALIGN_TEXT_TABLE_FIX's columns (@o), the
 * prose of each partition, the run's last lines (BLKALIGN_0.3;
 * fix-text.c). */
int blkalign_fix_run_write_text(const struct blkalign_fix_run *run,
				const char *device, const char *journal,
				bool dry_run, int status, FILE *out,
				const struct blkalign_text_opts *o);

/*
 * Benchmarks (bench/): the alignment phase sweep.  The same I/O at
 * offsets k * phase_step (k = 0 .. nphases-1) from random positions on a
 * grid, interleaved in rounds, through an I/O engine; per phase the
 * median latency and its spread, and what the phases that are fast say
 * about the device's physical sector (docs/bench.md).
 */
#define BLKALIGN_BENCH_MAX_PHASES 64

/* The latency-injecting test engine "sim": a device model. */
struct blkalign_bench_sim {
	uint32_t physical_sector_size; /* default 4096 */
	uint32_t alignment_offset;     /* bytes: where sectors start */
	uint64_t read_ns;	       /* per I/O; default 100000 */
	uint64_t write_ns;	       /* per I/O; default 100000 */
	uint64_t rmw_ns;	       /* per partial physical sector, writes */
	double noise;  /* relative standard deviation, 0: none */
	uint64_t seed; /* of the noise */
};

/* What bench measures (docs/bench.md). */
enum blkalign_bench_test {
	BLKALIGN_BENCH_TEST_PHASE_SWEEP = 0, /* blkalign_bench_sweep */
	/* blkalign_bench_compare: */
	BLKALIGN_BENCH_TEST_SOFT_BLOCK_SIZE, /* partition vs aligned window */
	BLKALIGN_BENCH_TEST_WHOLE_VS_PARTITION, /* disk vs partition */
	BLKALIGN_BENCH_TEST_SEQ,		/* sequential throughput */
	BLKALIGN_BENCH_TEST_RAND,		/* random throughput */
};

struct blkalign_bench_opts {
	size_t size;	      /* sizeof; blkalign_bench_opts_defaults sets it */
	const char *engine;   /* "psync" (default), "uring", "null", "sim" */
	uint32_t io_size;     /* bytes; default 4096 */
	uint32_t phase_step;  /* bytes; default 512 */
	uint32_t nphases;     /* default io_size / phase_step, max 64 */
	uint32_t rounds;      /* default 32 */
	uint32_t queue_depth; /* uring; default 1 */
	uint64_t offset;      /* bytes: start of the region swept */
	uint64_t region_size; /* bytes; 0: to the end, at most 1 GiB */
	uint64_t seed;	      /* of the shuffles and positions */
	bool write;	      /* rewrite the bytes just read */
	double runtime;	      /* seconds; 0: no bound */
	const volatile int *stop; /* set (by a signal handler) to stop */
	/* called after every round; nonzero stops */
	int (*progress)(void *data, uint32_t round, uint32_t rounds,
			double elapsed);
	void *progress_data;
	struct blkalign_bench_sim sim; /* engine "sim" only */
	enum blkalign_bench_test test; /* blkalign_bench_compare only */
};
/* zero fields; blkalign_bench_opts_defaults fills in the defaults */
#define BLKALIGN_BENCH_OPTS_INIT                           \
	{                                                  \
		.size = sizeof(struct blkalign_bench_opts) \
	}

struct blkalign_bench_phase {
	uint64_t offset; /* bytes: k * phase_step */
	uint64_t samples;
	uint64_t median_ns;
	uint64_t p25_ns, p75_ns; /* IQR = p75 - p25 */
	uint64_t min_ns, max_ns;
	double ratio; /* median / median of the fastest phase */
	bool fast;    /* in the fast group (penalty verdicts) */
};

enum blkalign_bench_verdict {
	BLKALIGN_BENCH_NO_DATA = 0,  /* stopped before a round completed */
	BLKALIGN_BENCH_NO_PENALTY,   /* all phases within 20% */
	BLKALIGN_BENCH_PENALTY,	     /* fast phases on a grid: inferred */
	BLKALIGN_BENCH_INCONCLUSIVE, /* too noisy, or no grid */
};

struct blkalign_bench_result {
	const char *engine;
	const char *path;
	bool write;
	bool direct; /* O_DIRECT was used */
	bool is_block_device;
	uint64_t device_size;		      /* bytes */
	uint32_t claimed_logical_sector_size; /* 0: unknown (image) */
	uint32_t claimed_physical_sector_size;
	uint32_t claimed_alignment_offset;
	uint32_t io_size;
	uint32_t phase_step;
	uint32_t nphases;
	uint64_t offset; /* of the region swept */
	uint64_t region_size;
	uint32_t rounds_planned;
	uint32_t rounds_done;  /* complete rounds: the samples used */
	bool interrupted;      /* stopped (signal or callback) */
	bool runtime_exceeded; /* stopped by the runtime bound */
	double seconds;
	uint64_t ios;			     /* timed I/Os, all rounds */
	struct blkalign_bench_phase *phases; /* nphases of them */

	enum blkalign_bench_verdict verdict;
	const char *reason;	/* one line: why this verdict */
	uint32_t aligned_phase; /* the fastest phase */
	uint32_t worst_phase;	/* the slowest phase */
	double ratio;		/* worst median / aligned median */
	double separation;	/* gap / spread; >= 1 to conclude */
	const char *confidence; /* "high", "medium", "low" or NULL */
	uint32_t inferred_physical_sector_size; /* PENALTY only */
	uint32_t inferred_alignment_offset; /* bytes, from the target start */
	bool inferred_at_least;		    /* the sweep cannot see larger */
};

/* The defaults into @o of @size bytes: use blkalign_bench_opts_defaults,
 * which passes the caller's sizeof. */
void blkalign_bench_opts_init(struct blkalign_bench_opts *o, size_t size);
#define blkalign_bench_opts_defaults(o) \
	blkalign_bench_opts_init((o), sizeof(*(o)))
/*
 * The sweep of @path through the context @ctx (its log says why a sweep
 * cannot run; NULL: nothing said).  *out is the result, freed with
 * blkalign_bench_result_free, or NULL on error.
 */
int blkalign_bench_sweep(struct blkalign_ctx *ctx, const char *path,
			 const struct blkalign_bench_opts *o,
			 struct blkalign_bench_result **out);
void blkalign_bench_result_free(struct blkalign_bench_result *r);
int blkalign_bench_infer(struct blkalign_bench_result *r);
int blkalign_bench_verdict_text(const struct blkalign_bench_result *r,
				char *buf, size_t len);
const char *blkalign_bench_verdict_name(enum blkalign_bench_verdict v);
const char *const *blkalign_bench_engines(void);
int blkalign_bench_write_json(const struct blkalign_bench_result *r, FILE *out);
/* The text reports (out/bench-text.c): 0, -EINVAL (a bad column list),
 * -ENOMEM or -EIO; with BLKALIGN_TEXT_RAW or _PAIRS the table alone. */
int blkalign_bench_write_text(const struct blkalign_bench_result *r, FILE *out,
			      const struct blkalign_text_opts *o);

/*
 * Throughput comparisons (compare.c): the same sequential workload
 * through two nodes in interleaved rounds (soft block size: the
 * partition against a loop window of the same bytes with a 4 KiB-multiple
 * size; whole vs partition), or one node's throughput (seq, rand).
 */
#define BLKALIGN_BENCH_MAX_ROUNDS 64

struct blkalign_bench_side {
	const char *label;	  /* "partition", "window", "disk", "target" */
	const char *path;	  /* the node: the window is made by bench */
	uint64_t offset;	  /* bytes, on that node */
	uint64_t device_size;	  /* bytes, of that node */
	uint32_t soft_block_size; /* BLKBSZGET; 0: not a block device */
	uint32_t samples;	  /* complete passes timed */
	double *bytes_per_s;	  /* samples of them */
	double median_bytes_per_s, min_bytes_per_s, max_bytes_per_s;
	bool traced;	   /* requests counted by tracefs */
	uint64_t requests; /* of the traced pass */
	uint64_t request_bytes, request_max;
	double request_avg;	    /* bytes */
	uint64_t model_requests;    /* predicted by model; 0: none */
	uint64_t model_request_cap; /* bytes */
};

struct blkalign_bench_compare {
	enum blkalign_bench_test test;
	const char *path;
	const char *engine; /* NULL: buffered pwrite/pread */
	bool write;	    /* rewrites of the bytes just read */
	bool direct;	    /* O_DIRECT */
	uint32_t io_size;   /* bytes per read or write call */
	uint32_t queue_depth;
	uint64_t region_size; /* bytes per side and pass */
	uint32_t rounds_planned, rounds_done;
	bool interrupted, runtime_exceeded;
	double seconds;
	size_t nsides;
	struct blkalign_bench_side sides[2];
	double ratio;	      /* median throughput, side 1 / side 0 */
	double request_ratio; /* traced requests, side 0 / side 1 */
	double model_ratio;   /* predicted requests, side 0 / side 1 */
	/* directions: +1 side 1 better (faster, fewer requests), -1 side 0 */
	int measured_direction;	       /* throughput, 0 within 10% */
	int request_direction;	       /* traced requests, 0 within 10% */
	int model_direction;	       /* predicted requests, 0 equal */
	const char *agreement;	       /* throughput vs model: "agrees",
					  "disagrees", or NULL (no model) */
	const char *request_agreement; /* traced requests vs model */
	const char *trace_note;	       /* why no request counts, or NULL */
	const char *note;	       /* a caveat, or NULL */
};

/*
 * @ctx audits the target (log, sysroot); NULL: the defaults.  *out is
 * the comparison, freed with blkalign_bench_compare_free, or NULL on
 * error.
 */
int blkalign_bench_compare(struct blkalign_ctx *ctx, const char *path,
			   const struct blkalign_bench_opts *o,
			   struct blkalign_bench_compare **out);
void blkalign_bench_compare_free(struct blkalign_bench_compare *c);
int blkalign_bench_compare_judge(struct blkalign_bench_compare *c);
int blkalign_bench_compare_text(const struct blkalign_bench_compare *c,
				char *buf, size_t len);
int blkalign_bench_compare_write_json(const struct blkalign_bench_compare *c,
				      FILE *out);
int blkalign_bench_compare_write_text(const struct blkalign_bench_compare *c,
				      FILE *out,
				      const struct blkalign_text_opts *o);
const char *blkalign_bench_test_name(enum blkalign_bench_test t);
uint64_t blkalign_bench_window_size(uint64_t size,
				    uint32_t physical_sector_size,
				    uint32_t page_size);

#ifdef __cplusplus
}
#endif

#endif /* BLKALIGN_H */
