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
 * computes them, released with _free).  Results (device, layer,
 * finding, topology, table, plan, fix run, model, trace summary, bench
 * result...) are opaque too, as in libblkid and libfdisk: the library
 * allocates and owns them, the caller reads them through typed getters,
 * blkalign_<object>_get_<field>(), and a list through a count and an
 * indexed getter (blkalign_device_get_nlayers, blkalign_device_get_layer),
 * so that a field can be added without breaking a caller.  Getters return
 * 0 or NULL for a NULL handle or an index past the end; a handle a getter
 * returns lives as long as the result that holds it.  Structs the caller
 * fills (options, geometries, the model's layer and workload) start with
 * their size, sizeof as the caller was built (the _INIT macros set it):
 * a library with more fields reads and writes only the ones the caller
 * has.
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

#include "blkalign-version.h"

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

/*
 * The geometry and queue limits of one device (blkalign_device_get_topology):
 * each value with where it came from, by key, as libfdisk's
 * fdisk_get_*: blkalign_topology_get returns the value (0 for a NULL
 * handle or an unknown key) and, when @src is not NULL, its source.
 */
struct blkalign_topology;
enum blkalign_topology_key {
	BLKALIGN_TOPO_LOGICAL_SECTOR_SIZE = 0,
	BLKALIGN_TOPO_PHYSICAL_SECTOR_SIZE,
	BLKALIGN_TOPO_MINIMUM_IO_SIZE,
	BLKALIGN_TOPO_OPTIMAL_IO_SIZE,	/* 0 when ignored as bogus */
	BLKALIGN_TOPO_ALIGNMENT_OFFSET, /* raw; -1 = misaligned stack */
	BLKALIGN_TOPO_MAX_SEGMENTS,
	BLKALIGN_TOPO_MAX_SECTORS_KB,
	BLKALIGN_TOPO_MAX_SEGMENT_SIZE,
	BLKALIGN_TOPO_VIRT_BOUNDARY_MASK,
	BLKALIGN_TOPO_ROTATIONAL,
	BLKALIGN_TOPO_PAGE_SIZE,
	BLKALIGN_TOPO_READ_AHEAD_KB, /* queue/read_ahead_kb */
};
int64_t blkalign_topology_get(const struct blkalign_topology *t,
			      enum blkalign_topology_key k,
			      enum blkalign_source *src);
/* The key's name in the JSON report ("logical_sector_size"), NULL past
 * the last key: a loop over every key stops there. */
const char *blkalign_topology_key_name(enum blkalign_topology_key k);
/* optimal_io_size as reported, before filtering */
int64_t
blkalign_topology_get_optimal_io_size_raw(const struct blkalign_topology *t);
/* why optimal_io_size was ignored, or NULL */
const char *
blkalign_topology_get_optimal_io_note(const struct blkalign_topology *t);

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
struct blkalign_layer;
/* "sda", "sda2", "disk.img1" */
const char *blkalign_layer_get_name(const struct blkalign_layer *l);
enum blkalign_layer_kind
blkalign_layer_get_kind(const struct blkalign_layer *l);
/* partition number, 0 for a disk */
int blkalign_layer_get_number(const struct blkalign_layer *l);
/* table holding it: "dos", "gpt", "bsd"... */
const char *blkalign_layer_get_scheme(const struct blkalign_layer *l);
/* partition type string, or NULL */
const char *blkalign_layer_get_type(const struct blkalign_layer *l);
/* bytes from the start of the device */
uint64_t blkalign_layer_get_start(const struct blkalign_layer *l);
/* bytes */
uint64_t blkalign_layer_get_size(const struct blkalign_layer *l);
/* predicted kernel soft block size */
uint32_t blkalign_layer_get_soft_block_size(const struct blkalign_layer *l);
/* index into the device's layers, -1 */
int blkalign_layer_get_parent(const struct blkalign_layer *l);
/* dos extended container */
bool blkalign_layer_get_extended(const struct blkalign_layer *l);
/* dos logical partition */
bool blkalign_layer_get_logical(const struct blkalign_layer *l);
/* as sysfs would show it, -1 */
int64_t blkalign_layer_get_alignment_offset(const struct blkalign_layer *l);
/* Stack layers (md, lvm, luks, filesystem, zfs); 0 when unknown. */
/* metadata version: "1.2", "2"... */
const char *blkalign_layer_get_version(const struct blkalign_layer *l);
/* fs block, LUKS sector, 2^ashift */
uint32_t blkalign_layer_get_unit(const struct blkalign_layer *l);
/* fs sector size (XFS) */
uint32_t blkalign_layer_get_sector_size(const struct blkalign_layer *l);
/* md level, -1 linear */
int32_t blkalign_layer_get_raid_level(const struct blkalign_layer *l);
uint32_t blkalign_layer_get_raid_disks(const struct blkalign_layer *l);
uint32_t blkalign_layer_get_raid_data_disks(const struct blkalign_layer *l);
/* bytes */
uint64_t blkalign_layer_get_raid_chunk(const struct blkalign_layer *l);
/* bytes: chunk x data disks */
uint64_t blkalign_layer_get_raid_stripe_width(const struct blkalign_layer *l);
/* bytes from the parent's start */
uint64_t blkalign_layer_get_data_offset(const struct blkalign_layer *l);
/* LVM extent, bytes */
uint64_t blkalign_layer_get_extent_size(const struct blkalign_layer *l);
/* ext4 stride / XFS sunit, bytes */
uint64_t blkalign_layer_get_fs_stride(const struct blkalign_layer *l);
/* ext4 stripe_width / XFS swidth */
uint64_t blkalign_layer_get_fs_stripe_width(const struct blkalign_layer *l);
uint32_t blkalign_layer_get_zfs_ashift(const struct blkalign_layer *l);
/* A device-mapper device: where its first target starts below. */
/* "vdj", or "254:144" */
const char *blkalign_layer_get_lower_device(const struct blkalign_layer *l);
/* bytes on the lower device */
uint64_t blkalign_layer_get_lower_start(const struct blkalign_layer *l);
/* Stack layers: bytes the contents use from where they begin
 * (start - data_offset: swap and FAT count their header); 0 unknown. */
uint64_t blkalign_layer_get_used_size(const struct blkalign_layer *l);
/* Partitions: what the table records beside the extent. */
/* GPT partition GUID, dos "<disk id>-NN" */
const char *blkalign_layer_get_uuid(const struct blkalign_layer *l);
/* GPT partition name, or NULL */
const char *blkalign_layer_get_part_name(const struct blkalign_layer *l);
/* An md member on a live system: the array the kernel assembled
 * from it (its holders/ in sysfs), or NULL. */
const char *blkalign_layer_get_array(const struct blkalign_layer *l);
/* An md array on a live system (its slaves/): the largest physical
 * sector of the members' disks, and how many members' data starts
 * off their disk's physical sector grid; 0 when unknown. */
uint32_t
blkalign_layer_get_raid_member_physical(const struct blkalign_layer *l);
uint32_t
blkalign_layer_get_raid_members_misaligned(const struct blkalign_layer *l);
/* A dos logical partition: where its EBR is, in bytes from the
 * start of the disk (fdisk and libfdisk leave it where it was when
 * they move the partition: it need not sit just before it); 0 when
 * not known. */
uint64_t blkalign_layer_get_ebr(const struct blkalign_layer *l);
/* A partition whose contents' used blocks were mapped
 * (blkalign_ctx_set_used_maps; docs/fix.md, "Used blocks"): the
 * bytes of it a move copies (the map's extents in whole sectors,
 * with its first MiB, gaps under 64 KiB closed); the map's source
 * ("libext2fs", "xfs-bnobt", ..., "whole": no map for these
 * contents); and why fix would not trust the map (contents not
 * clean, a map that contradicts itself), else NULL.  0 and NULL
 * when not read. */
uint64_t blkalign_layer_get_map_bytes(const struct blkalign_layer *l);
const char *blkalign_layer_get_map_source(const struct blkalign_layer *l);
const char *blkalign_layer_get_map_problem(const struct blkalign_layer *l);

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
struct blkalign_finding;
/* stable: "start-physical", ... */
const char *blkalign_finding_get_code(const struct blkalign_finding *f);
enum blkalign_severity
blkalign_finding_get_severity(const struct blkalign_finding *f);
/* index into the device's layers */
int blkalign_finding_get_layer(const struct blkalign_finding *f);
/* one line: what is wrong */
const char *blkalign_finding_get_message(const struct blkalign_finding *f);
/* one line: what it costs */
const char *blkalign_finding_get_explanation(const struct blkalign_finding *f);
/* one line: what to do */
const char *blkalign_finding_get_fix(const struct blkalign_finding *f);
uint64_t blkalign_finding_get_value(const struct blkalign_finding *f);
uint64_t blkalign_finding_get_granularity(const struct blkalign_finding *f);
uint64_t blkalign_finding_get_remainder(const struct blkalign_finding *f);
uint64_t blkalign_finding_get_suggested(const struct blkalign_finding *f);
/* soft-block-size only */
uint32_t blkalign_finding_get_soft_block_size(const struct blkalign_finding *f);
/* bytes, buffered writes now */
uint64_t blkalign_finding_get_request_cap(const struct blkalign_finding *f);
/* bytes, with a 4 KiB soft block */
uint64_t
blkalign_finding_get_request_cap_aligned(const struct blkalign_finding *f);

/* A finding code: stable name, usual severity, one-line summary. */
struct blkalign_code;
const char *blkalign_code_get_code(const struct blkalign_code *c);
/* may be lowered per finding */
enum blkalign_severity
blkalign_code_get_severity(const struct blkalign_code *c);
const char *blkalign_code_get_summary(const struct blkalign_code *c);

/*
 * What the partition table records beside its partitions.  The usable
 * range is the GPT header's first and last usable LBA; for other tables
 * (and when no GPT header could be read) it is assumed: from the second
 * sector to the end.
 */
struct blkalign_table;
/* GPT disk GUID, dos disk id (hex), NULL */
const char *blkalign_table_get_id(const struct blkalign_table *t);
/* bytes: the first a partition may use */
uint64_t blkalign_table_get_usable_start(const struct blkalign_table *t);
/* bytes: one past the last */
uint64_t blkalign_table_get_usable_end(const struct blkalign_table *t);
/* read from a GPT header, not assumed */
bool blkalign_table_get_usable_from_table(const struct blkalign_table *t);
/* GPT only: "ok", "absent", "corrupt" or "unreadable"; NULL when
 * no GPT was looked for (another scheme, or sysfs only) */
const char *blkalign_table_get_gpt_primary(const struct blkalign_table *t);
const char *blkalign_table_get_gpt_backup(const struct blkalign_table *t);

/* One audited device or image. */
struct blkalign_device;
const char *blkalign_device_get_path(const struct blkalign_device *d);
const char *blkalign_device_get_name(const struct blkalign_device *d);
bool blkalign_device_get_is_block_device(const struct blkalign_device *d);
/* bytes */
uint64_t blkalign_device_get_size(const struct blkalign_device *d);
const struct blkalign_topology *
blkalign_device_get_topology(const struct blkalign_device *d);
/* top-level table type, or NULL */
const char *blkalign_device_get_scheme(const struct blkalign_device *d);
/* read from the device for the audit */
uint64_t blkalign_device_get_bytes_read(const struct blkalign_device *d);
size_t blkalign_device_get_nlayers(const struct blkalign_device *d);
const struct blkalign_layer *
blkalign_device_get_layer(const struct blkalign_device *d, size_t i);
size_t blkalign_device_get_nfindings(const struct blkalign_device *d);
/* worst first */
const struct blkalign_finding *
blkalign_device_get_finding(const struct blkalign_device *d, size_t i);
size_t blkalign_device_get_nproblems(const struct blkalign_device *d);
/* what could not be read */
const char *blkalign_device_get_problem(const struct blkalign_device *d,
					size_t i);
/* could not be opened at all */
bool blkalign_device_get_failed(const struct blkalign_device *d);
/* a partition given as the target: the disk it is on ("sdb")
 * and its number; NULL and 0 otherwise */
const char *blkalign_device_get_whole_disk(const struct blkalign_device *d);
int blkalign_device_get_partition_number(const struct blkalign_device *d);
/* usable_end 0: no table was read */
const struct blkalign_table *
blkalign_device_get_table(const struct blkalign_device *d);
/* an image: its format ("raw", or qemu's name: "qcow2", "vmdk",
 * "vhdx", "vpc", "vdi", "qed"), "nbd" for an NBD export; NULL for
 * a block device */
const char *blkalign_device_get_image_format(const struct blkalign_device *d);
/* of the disk an image holds; 0: no image */
uint64_t blkalign_device_get_virtual_size(const struct blkalign_device *d);
/* of the image's format; 0: not recorded */
uint32_t blkalign_device_get_cluster_size(const struct blkalign_device *d);
/* of the ranges the audit asked for, bytes not read because the
 * NBD export said they read as zeros (block status), or the
 * image's own tables did; 0 otherwise */
uint64_t blkalign_device_get_bytes_skipped(const struct blkalign_device *d);
/* who read an image in a qemu format or an export: "blkalign"
 * (its own reader of plain images), "qemu-nbd", "nbd" (the URI's
 * server); NULL for raw images and block devices */
const char *blkalign_device_get_image_reader(const struct blkalign_device *d);

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

/* Status bits of a report or a run (blkalign(8) exits with them; its
 * own usage error, 16, is the program's, not the library's). */
#define BLKALIGN_STATUS_FINDINGS   1 /* a warning or error finding */
#define BLKALIGN_STATUS_INCOMPLETE 2 /* something could not be read */
#define BLKALIGN_STATUS_FAILED	   4 /* operational error */
/* 128 + n: stopped by signal n (trace, bench, fix) */

/* Two statuses as one: a signal's 128 + n stands (@a's
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

/*
 * What the library's messages call the ways to go on (move a partition
 * whole, resume or roll back a fix, look into its journal), in the terms
 * of the program that shows them: blkalign(8) sets its options
 * ("--copy-all"), another program its own.  Unset, a word is the API's
 * name for it (below).  @text is not copied: it must outlive @ctx.
 * Returns 0, or -EINVAL for no @ctx or an unknown @w.
 */
enum blkalign_word {
	BLKALIGN_WORD_COPY_ALL,	   /* "blkalign_fix_opts.copy_all" */
	BLKALIGN_WORD_RESUME,	   /* "blkalign_fix_resume" */
	BLKALIGN_WORD_ROLLBACK,	   /* "blkalign_fix_resume(rollback)" */
	BLKALIGN_WORD_INSPECT,	   /* "blkalign_fix_inspect" */
	BLKALIGN_WORD_JOURNAL,	   /* "blkalign_fix_opts.journal" */
	BLKALIGN_WORD_PARTITION,   /* "blkalign_fix_disk(partition)" */
	BLKALIGN_WORD_FIX_RESUME,  /* a command that resumes a fix */
	BLKALIGN_WORD_FIX_INSPECT, /* one that looks into its journal */
	BLKALIGN_WORD_SECTOR_SIZE, /* "blkalign_image_geometry.logical_..." */
	BLKALIGN_WORD_PROGRAM,	   /* a program's name: "libblkalign" */
	BLKALIGN_WORD_CHECK_JSON,  /* "blkalign_report_write_json" */
	BLKALIGN_WORD_COUNT
};
int blkalign_ctx_set_word(struct blkalign_ctx *ctx, enum blkalign_word w,
			  const char *text);

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
 * Every command's table: check's layers, plan's
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
 * Many images in one run, streamed.  blkalign_check_if_image
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
 * Metrics for Prometheus, as node_exporter's textfile collector reads
 * them (out/prometheus.c; docs/output.md, "Prometheus"):
 * the text exposition format, HELP and TYPE for each metric, no
 * timestamps.  A streamed run gathers the series of each batch of
 * devices (blkalign_prometheus_add, before blkalign_report_clear) and
 * writes them all at the end (_write: 0, -EINVAL, -ENOMEM or -EIO);
 * _set_time sets blkalign_last_run_timestamp_seconds (default: the time
 * of _write).  blkalign_report_write_prometheus: the devices @r holds, at
 * once.  blkalign_finding_write_amplification: the figure of a finding's
 * modelled cost (blkalign_finding_cost) as a ratio to the same layer
 * aligned: 0, -ENOENT (the model has none for it) or -EINVAL.
 */
struct blkalign_prometheus;
struct blkalign_prometheus *blkalign_prometheus_new(void);
void blkalign_prometheus_free(struct blkalign_prometheus *p);
void blkalign_prometheus_set_time(struct blkalign_prometheus *p,
				  double seconds);
int blkalign_prometheus_add(struct blkalign_prometheus *p,
			    const struct blkalign_report *r);
int blkalign_prometheus_write(struct blkalign_prometheus *p, FILE *out);
int blkalign_report_write_prometheus(const struct blkalign_report *r,
				     FILE *out);
int blkalign_finding_write_amplification(const struct blkalign_device *d,
					 const struct blkalign_finding *f,
					 double *ratio);

/*
 * The JSON output's three forms (docs/json-schema.md,
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
 * was said on stderr); --json=lines puts them in the summary line. */
int blkalign_json_finish(const char *text, size_t len,
			 enum blkalign_json_format f, const char *command,
			 int status, const char *const *errors, size_t nerrors,
			 const char *each, FILE *out);

/*
 * The other files an image file's disk is made of, so that
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
/* Every finding code the library can emit: how many, and the @i-th (NULL
 * past the last), each read with blkalign_code_get_*. */
size_t blkalign_finding_ncodes(void);
const struct blkalign_code *blkalign_finding_code(size_t i);
const char *blkalign_source_name(enum blkalign_source s);
const char *blkalign_version(void);
/* The version of the library running: its text ("0.1.0"), and each part
 * where a pointer is given (libblkid's blkid_get_library_version does the
 * same); BLKALIGN_VERSION_* say the one a program was built against. */
const char *blkalign_get_library_version(int *major, int *minor, int *patch);

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
 * Sizes for people (lib/size.c), in one of the styles the text outputs
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
/* A latency for people, as bench's table and chart print it:
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

/*
 * The layer a workload runs on: absolute bytes, and md RAID below it.
 * The model's inputs (this, the workload) are plain structs with a
 * leading size like the geometry, not opaque handles: the caller builds
 * them (presets, from a device, by hand) and keeps arrays of them, and
 * the library hands them back from a model (blkalign_model_get_*) to be
 * run again.  The caller sets @size (BLKALIGN_MODEL_LAYER_INIT) before
 * the library fills one or reads it: a library with more fields reads
 * and writes only the caller's.
 */
struct blkalign_model_layer {
	size_t size;	     /* sizeof(struct blkalign_model_layer) */
	uint64_t start;	     /* bytes from the start of the device */
	uint64_t length;     /* bytes (size is the struct's) */
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

/* A workload: I/Os of io_size, total bytes (0: the whole layer).  The
 * caller sets @size (BLKALIGN_WORKLOAD_INIT), as for the model layer. */
struct blkalign_workload {
	size_t size;	  /* sizeof(struct blkalign_workload) */
	const char *name; /* preset name, or "custom" */
	enum blkalign_io_dir dir;
	enum blkalign_io_pattern pattern;
	enum blkalign_io_path path;
	uint64_t io_size; /* bytes per I/O (read/write call) */
	uint64_t total;	  /* bytes; 0 = the whole layer */
};
#define BLKALIGN_MODEL_LAYER_INIT                           \
	{                                                   \
		.size = sizeof(struct blkalign_model_layer) \
	}
#define BLKALIGN_WORKLOAD_INIT                           \
	{                                                \
		.size = sizeof(struct blkalign_workload) \
	}

struct blkalign_size_count;
uint64_t blkalign_size_count_get_bytes(const struct blkalign_size_count *s);
uint64_t blkalign_size_count_get_count(const struct blkalign_size_count *s);

/*
 * What one workload costs on one layer.  Requests are what the device
 * queue issues (block_rq_issue); RAID counts are member-disk I/Os, one
 * per chunk touched (domain-facts §5).
 */
struct blkalign_model_cost;
/* bytes the workload moved */
uint64_t blkalign_model_cost_get_bytes(const struct blkalign_model_cost *c);
/* application I/Os */
uint64_t blkalign_model_cost_get_ios(const struct blkalign_model_cost *c);
/* bios submitted to the queue */
uint64_t blkalign_model_cost_get_bios(const struct blkalign_model_cost *c);
/* of the layer */
uint32_t
blkalign_model_cost_get_soft_block_size(const struct blkalign_model_cost *c);
/* predicted largest request, bytes */
uint64_t
blkalign_model_cost_get_request_cap(const struct blkalign_model_cost *c);
uint64_t blkalign_model_cost_get_requests(const struct blkalign_model_cost *c);
/* sum of request sizes */
uint64_t
blkalign_model_cost_get_request_bytes(const struct blkalign_model_cost *c);
/* bytes */
uint64_t
blkalign_model_cost_get_request_max(const struct blkalign_model_cost *c);
/* bytes */
uint64_t
blkalign_model_cost_get_request_min(const struct blkalign_model_cost *c);
/* request sizes, largest count first */
size_t blkalign_model_cost_get_nsizes(const struct blkalign_model_cost *c);
/* nsizes of them */
const struct blkalign_size_count *
blkalign_model_cost_get_size(const struct blkalign_model_cost *c, size_t i);
/* requests of sizes not listed */
uint64_t
blkalign_model_cost_get_sizes_other(const struct blkalign_model_cost *c);
/* touched, summed over requests */
uint64_t
blkalign_model_cost_get_physical_sectors(const struct blkalign_model_cost *c);
/* writes covering part of a sector */
uint64_t
blkalign_model_cost_get_partial_requests(const struct blkalign_model_cost *c);
/* device read-modify-writes (512e) */
uint64_t blkalign_model_cost_get_rmw(const struct blkalign_model_cost *c);
/* I/Os touching one chunk too many */
uint64_t
blkalign_model_cost_get_chunk_straddles(const struct blkalign_model_cost *c);
/* stripes written */
uint64_t
blkalign_model_cost_get_raid_stripes(const struct blkalign_model_cost *c);
uint64_t
blkalign_model_cost_get_raid_full_stripes(const struct blkalign_model_cost *c);
/* read-modify-write */
uint64_t
blkalign_model_cost_get_raid_rmw_stripes(const struct blkalign_model_cost *c);
/* reconstruct-write */
uint64_t
blkalign_model_cost_get_raid_rcw_stripes(const struct blkalign_model_cost *c);
/* member chunk reads */
uint64_t
blkalign_model_cost_get_raid_reads(const struct blkalign_model_cost *c);
/* member chunk writes */
uint64_t
blkalign_model_cost_get_raid_writes(const struct blkalign_model_cost *c);
/* read-modify-writes at members' drives */
uint64_t
blkalign_model_cost_get_raid_member_rmw(const struct blkalign_model_cost *c);
/*
 * The cap depends on how contiguous the memory is where it is not
 * one segment per bio (direct I/O: the user buffer; reads: the
 * page cache): from one segment per page to max_segment_size.
 */
uint64_t
blkalign_model_cost_get_request_cap_min(const struct blkalign_model_cost *c);
uint64_t
blkalign_model_cost_get_request_cap_max(const struct blkalign_model_cost *c);

/* A workload on the actual layer and on the same layer aligned. */
struct blkalign_model;
const struct blkalign_workload *
blkalign_model_get_workload(const struct blkalign_model *m);
enum blkalign_kernel blkalign_model_get_kernel(const struct blkalign_model *m);
const struct blkalign_model_layer *
blkalign_model_get_actual(const struct blkalign_model *m);
const struct blkalign_model_layer *
blkalign_model_get_aligned(const struct blkalign_model *m);
/* actual layout */
const struct blkalign_model_cost *
blkalign_model_get_cost(const struct blkalign_model *m);
/* aligned layout */
const struct blkalign_model_cost *
blkalign_model_get_cost_aligned(const struct blkalign_model *m);

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
/* The models as text (out/model-text.c): per layer, prose
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

struct blkalign_trace_dir;
uint64_t blkalign_trace_dir_get_requests(const struct blkalign_trace_dir *d);
uint64_t blkalign_trace_dir_get_bytes(const struct blkalign_trace_dir *d);
/* bytes */
uint64_t blkalign_trace_dir_get_request_max(const struct blkalign_trace_dir *d);
/* bytes */
uint64_t blkalign_trace_dir_get_request_min(const struct blkalign_trace_dir *d);
/* request sizes, largest count first */
size_t blkalign_trace_dir_get_nsizes(const struct blkalign_trace_dir *d);
/* nsizes of them */
const struct blkalign_size_count *
blkalign_trace_dir_get_size(const struct blkalign_trace_dir *d, size_t i);
/* requests of other sizes */
uint64_t blkalign_trace_dir_get_sizes_other(const struct blkalign_trace_dir *d);
/* requests by floor(log2(sectors)) */
/* start off the physical sector grid */
uint64_t
blkalign_trace_dir_get_off_physical(const struct blkalign_trace_dir *d);
/* start off 4 KiB from the layer start */
uint64_t
blkalign_trace_dir_get_off_page_in_layer(const struct blkalign_trace_dir *d);
/* cover part of a physical sector */
uint64_t
blkalign_trace_dir_get_partial_requests(const struct blkalign_trace_dir *d);
/* partial physical sectors (writes) */
uint64_t blkalign_trace_dir_get_rmw(const struct blkalign_trace_dir *d);
uint64_t
blkalign_trace_dir_get_physical_sectors(const struct blkalign_trace_dir *d);
/* issue matched with a completion */
uint64_t blkalign_trace_dir_get_completed(const struct blkalign_trace_dir *d);
uint64_t blkalign_trace_dir_get_lat_p50_ns(const struct blkalign_trace_dir *d);
uint64_t blkalign_trace_dir_get_lat_p90_ns(const struct blkalign_trace_dir *d);
uint64_t blkalign_trace_dir_get_lat_p99_ns(const struct blkalign_trace_dir *d);
uint64_t blkalign_trace_dir_get_lat_max_ns(const struct blkalign_trace_dir *d);
/* requests by floor(log2(sectors)): 32 buckets (0 for a NULL handle) */
size_t blkalign_trace_dir_get_nhist_log2(const struct blkalign_trace_dir *d);
uint64_t blkalign_trace_dir_get_hist_log2(const struct blkalign_trace_dir *d,
					  size_t i);

/*
 * One stretch of a disk below the traced device (its partition, a
 * dm-linear or dm-crypt segment, a dm-striped stripe, an md member's data)
 * and the requests counted there.  Requests are judged against the
 * physical sector of that disk and, for the 4 KiB grid, the traced
 * layer's own offset there (striped layers: from the member's data start).
 */
struct blkalign_trace_below;
/* the disk, e.g. "sdb" */
const char *blkalign_trace_below_get_name(const struct blkalign_trace_below *b);
unsigned int
blkalign_trace_below_get_major(const struct blkalign_trace_below *b);
unsigned int
blkalign_trace_below_get_minor(const struct blkalign_trace_below *b);
/* bytes on the disk; size 0: the whole disk */
uint64_t blkalign_trace_below_get_start(const struct blkalign_trace_below *b);
/* bytes on the disk; size 0: the whole disk */
uint64_t blkalign_trace_below_get_size(const struct blkalign_trace_below *b);
/* bytes: the layer's offset at start */
uint64_t
blkalign_trace_below_get_layer_offset(const struct blkalign_trace_below *b);
uint32_t blkalign_trace_below_get_physical_sector_size(
	const struct blkalign_trace_below *b);
uint32_t
blkalign_trace_below_get_alignment_offset(const struct blkalign_trace_below *b);
uint64_t
blkalign_trace_below_get_read_requests(const struct blkalign_trace_below *b);
uint64_t
blkalign_trace_below_get_read_bytes(const struct blkalign_trace_below *b);
uint64_t
blkalign_trace_below_get_write_requests(const struct blkalign_trace_below *b);
uint64_t
blkalign_trace_below_get_write_bytes(const struct blkalign_trace_below *b);
/* requests off the physical grid */
uint64_t
blkalign_trace_below_get_off_physical(const struct blkalign_trace_below *b);
/* covering part of a physical sector */
uint64_t
blkalign_trace_below_get_partial_requests(const struct blkalign_trace_below *b);

struct blkalign_trace_summary;
/* as given */
const char *
blkalign_trace_summary_get_device(const struct blkalign_trace_summary *s);
/* the (first) disk traced */
unsigned int
blkalign_trace_summary_get_major(const struct blkalign_trace_summary *s);
/* the (first) disk traced */
unsigned int
blkalign_trace_summary_get_minor(const struct blkalign_trace_summary *s);
/* bytes: start on that disk, or 0 */
uint64_t
blkalign_trace_summary_get_layer_start(const struct blkalign_trace_summary *s);
/* bytes */
uint64_t
blkalign_trace_summary_get_layer_size(const struct blkalign_trace_summary *s);
uint32_t blkalign_trace_summary_get_logical_sector_size(
	const struct blkalign_trace_summary *s);
uint32_t blkalign_trace_summary_get_physical_sector_size(
	const struct blkalign_trace_summary *s);
uint32_t blkalign_trace_summary_get_alignment_offset(
	const struct blkalign_trace_summary *s);
/* the recording: from the events enabled to disabled (a replayed
 * file: what it recorded, else its events' span) */
double
blkalign_trace_summary_get_seconds(const struct blkalign_trace_summary *s);
uint64_t
blkalign_trace_summary_get_events(const struct blkalign_trace_summary *s);
uint64_t
blkalign_trace_summary_get_lost_events(const struct blkalign_trace_summary *s);
/* completions without an issue */
uint64_t
blkalign_trace_summary_get_unmatched(const struct blkalign_trace_summary *s);
const struct blkalign_trace_dir *
blkalign_trace_summary_get_read(const struct blkalign_trace_summary *s);
const struct blkalign_trace_dir *
blkalign_trace_summary_get_write(const struct blkalign_trace_summary *s);
const struct blkalign_trace_dir *
blkalign_trace_summary_get_discard(const struct blkalign_trace_summary *s);
const struct blkalign_trace_dir *
blkalign_trace_summary_get_flush(const struct blkalign_trace_summary *s);
const struct blkalign_trace_dir *
blkalign_trace_summary_get_other(const struct blkalign_trace_summary *s);
/* the extents on the disks below, in table order */
size_t
blkalign_trace_summary_get_nbelow(const struct blkalign_trace_summary *s);
const struct blkalign_trace_below *
blkalign_trace_summary_get_below(const struct blkalign_trace_summary *s,
				 size_t i);
/* first to last event */
double blkalign_trace_summary_get_event_seconds(
	const struct blkalign_trace_summary *s);

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

struct blkalign_plan_part;
/* index into the device's layers */
int blkalign_plan_part_get_layer(const struct blkalign_plan_part *p);
const char *blkalign_plan_part_get_name(const struct blkalign_plan_part *p);
int blkalign_plan_part_get_number(const struct blkalign_plan_part *p);
enum blkalign_plan_action
blkalign_plan_part_get_action(const struct blkalign_plan_part *p);
/* bytes */
uint64_t blkalign_plan_part_get_old_start(const struct blkalign_plan_part *p);
/* bytes */
uint64_t blkalign_plan_part_get_old_size(const struct blkalign_plan_part *p);
/* bytes; old values when impossible */
uint64_t blkalign_plan_part_get_new_start(const struct blkalign_plan_part *p);
/* bytes; old values when impossible */
uint64_t blkalign_plan_part_get_new_size(const struct blkalign_plan_part *p);
/* bytes from the start to keep */
uint64_t blkalign_plan_part_get_used_size(const struct blkalign_plan_part *p);
/* false: the whole partition is kept */
bool blkalign_plan_part_get_used_known(const struct blkalign_plan_part *p);
/* "ext4", "md", ... or NULL */
const char *blkalign_plan_part_get_content(const struct blkalign_plan_part *p);
/* the end may not pass this byte */
uint64_t blkalign_plan_part_get_limit(const struct blkalign_plan_part *p);
/* what a move copies: the used bytes by the contents' map
 * (map_source: "libext2fs", ...) when the scan read one
 * (blkalign_ctx_set_used_maps) and fix would trust it, else all
 * used_size; map_problem: why fix would not trust it (fix refuses
 * the move unless told --copy-all), else NULL */
uint64_t
blkalign_plan_part_get_bytes_to_copy(const struct blkalign_plan_part *p);
const char *
blkalign_plan_part_get_map_source(const struct blkalign_plan_part *p);
const char *
blkalign_plan_part_get_map_problem(const struct blkalign_plan_part *p);
/* why this action; NULL for none */
const char *blkalign_plan_part_get_reason(const struct blkalign_plan_part *p);
/* what to do instead, when impossible */
size_t blkalign_plan_part_get_ncommands(const struct blkalign_plan_part *p);
const char *blkalign_plan_part_get_command(const struct blkalign_plan_part *p,
					   size_t i);
/* alignment findings on it now */
size_t
blkalign_plan_part_get_findings_before(const struct blkalign_plan_part *p);
/* ... on the planned layout */
size_t
blkalign_plan_part_get_findings_after(const struct blkalign_plan_part *p);
/* GPT partition UUID, or NULL */
const char *blkalign_plan_part_get_uuid(const struct blkalign_plan_part *p);
/* GPT partition name, or NULL */
const char *
blkalign_plan_part_get_part_name(const struct blkalign_plan_part *p);

struct blkalign_plan;
const struct blkalign_device *
blkalign_plan_get_device(const struct blkalign_plan *p);
/* bytes: where starts go */
uint64_t blkalign_plan_get_grain(const struct blkalign_plan *p);
/* bytes: lcm(page, physical sector) */
uint64_t blkalign_plan_get_size_granularity(const struct blkalign_plan *p);
/* bytes: GPT last usable LBA + 1 */
uint64_t blkalign_plan_get_usable_end(const struct blkalign_plan *p);
/* bytes: GPT first usable LBA; dos 1 sector */
uint64_t blkalign_plan_get_usable_start(const struct blkalign_plan *p);
/* disk identifier, or NULL */
const char *blkalign_plan_get_label_id(const struct blkalign_plan *p);
size_t blkalign_plan_get_nparts(const struct blkalign_plan *p);
const struct blkalign_plan_part *
blkalign_plan_get_part(const struct blkalign_plan *p, size_t i);
/* alignment findings left after it */
size_t blkalign_plan_get_remaining(const struct blkalign_plan *p);

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
 * (@o), the prose of each partition (plan-text.c). */
int blkalign_plan_write_text(const struct blkalign_plan *p, int only,
			     double throughput_bytes_s, FILE *out,
			     const struct blkalign_text_opts *o);

/*
 * The disk map (out/diskmap*.c): a picture per disk of its
 * layers as bands from the disk down to the filesystems on a broken byte
 * axis, each start and end marked aligned or misaligned, the findings in
 * numbered callouts with the grid they were judged on and their cost; a
 * plan's disk today and as planned.  Each disk is drawn when added (its
 * report may be freed after); _write writes them all as one SVG
 * document, or one self-contained HTML page (no script, nothing from the
 * network) with a table of the numbers per disk.
 */
enum blkalign_diskmap_format {
	BLKALIGN_DISKMAP_SVG = 0,
	BLKALIGN_DISKMAP_HTML,
};
struct blkalign_diskmap;
/* NULL: out of memory or an unknown format */
struct blkalign_diskmap *blkalign_diskmap_new(enum blkalign_diskmap_format f);
void blkalign_diskmap_free(struct blkalign_diskmap *m);
/* 0, -EINVAL or -ENOMEM */
int blkalign_diskmap_add_device(struct blkalign_diskmap *m,
				const struct blkalign_device *d);
int blkalign_diskmap_add_plan(struct blkalign_diskmap *m,
			      const struct blkalign_plan *p);
/* 0, -EINVAL, -ENOMEM (a disk could not be drawn) or -EIO */
int blkalign_diskmap_write(struct blkalign_diskmap *m, FILE *out);

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
 * programs select one that injects faults (tests/fault/).  A call names
 * the file by its channel, an opaque handle that stays the same while
 * the file is open: blkalign_fix_channel_fd gives its descriptor (for
 * an image in a qemu format, the image file's, read-only: the default
 * backend writes the image through qemu-nbd, so a backend that does not
 * pass the call on to it must not write that descriptor).
 */
struct blkalign_fix_channel;
int blkalign_fix_channel_fd(const struct blkalign_fix_channel *ch);

struct blkalign_fix_io {
	size_t size; /* sizeof(struct blkalign_fix_io) */
	void *data;
	int (*read)(void *data, enum blkalign_fix_file file,
		    struct blkalign_fix_channel *ch, void *buf, size_t len,
		    uint64_t off);
	int (*write)(void *data, enum blkalign_fix_file file,
		     struct blkalign_fix_channel *ch, const void *buf,
		     size_t len, uint64_t off);
	int (*flush)(void *data, enum blkalign_fix_file file,
		     struct blkalign_fix_channel *ch);
	void (*close)(void *data, enum blkalign_fix_file file,
		      struct blkalign_fix_channel *ch);
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

struct blkalign_fix_result;
int blkalign_fix_result_get_number(const struct blkalign_fix_result *r);
/* bytes */
uint64_t blkalign_fix_result_get_old_start(const struct blkalign_fix_result *r);
/* bytes */
uint64_t blkalign_fix_result_get_old_size(const struct blkalign_fix_result *r);
/* bytes */
uint64_t blkalign_fix_result_get_new_start(const struct blkalign_fix_result *r);
/* bytes */
uint64_t blkalign_fix_result_get_new_size(const struct blkalign_fix_result *r);
/* the disk's logical sector size */
uint32_t
blkalign_fix_result_get_sector_size(const struct blkalign_fix_result *r);
uint64_t
blkalign_fix_result_get_bytes_copied(const struct blkalign_fix_result *r);
/* small shift: batches via the journal */
bool blkalign_fix_result_get_batch(const struct blkalign_fix_result *r);
/* --rollback: the old layout is back */
bool blkalign_fix_result_get_rolled_back(const struct blkalign_fix_result *r);
/* failed or stopped part-way: the journal is kept for --resume or --rollback */
bool blkalign_fix_result_get_journal_kept(const struct blkalign_fix_result *r);
uint64_t blkalign_fix_result_get_steps(const struct blkalign_fix_result *r);
/* copying */
double blkalign_fix_result_get_seconds(const struct blkalign_fix_result *r);
/* why it failed, or a warning; NULL: none. Owned by the run that holds it
 * (blkalign_fix_run_free) */
const char *
blkalign_fix_result_get_message(const struct blkalign_fix_result *r);
/* this call's, disk and journal */
uint64_t blkalign_fix_result_get_writes(const struct blkalign_fix_result *r);
/* this call's, disk and journal */
uint64_t blkalign_fix_result_get_flushes(const struct blkalign_fix_result *r);
/* the plan cannot be carried out (no room, contents too big or not sized,
 * contents not clean): nothing was written */
bool blkalign_fix_result_get_refused(const struct blkalign_fix_result *r);
/* What the move copies: the bytes its contents use (the rest is
 * skipped), and where that map comes from: "libext2fs",
 * "xfs-bnobt", "libntfs-3g", "fat", "btrfs-chunks",
 * "lvm-segments", "swap-header", or "whole" (all of it). */
uint64_t
blkalign_fix_result_get_bytes_to_copy(const struct blkalign_fix_result *r);
uint64_t
blkalign_fix_result_get_bytes_skipped(const struct blkalign_fix_result *r);
const char *
blkalign_fix_result_get_map_source(const struct blkalign_fix_result *r);
/* Bytes written and read back to see they arrived: on a loop
 * device, those outside the ranges allocated ahead in its backing
 * file (docs/fix.md) */
uint64_t
blkalign_fix_result_get_bytes_read_back(const struct blkalign_fix_result *r);

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

/* One partition's outcome of a fix run (blkalign_fix_run_get_outcome). */
struct blkalign_fix_outcome;
const struct blkalign_fix_result *
blkalign_fix_outcome_get_result(const struct blkalign_fix_outcome *o);
/* "moved", "would move", "refused", ... */
const char *
blkalign_fix_outcome_get_action(const struct blkalign_fix_outcome *o);
/* what the fix call returned: 0 or -errno */
int blkalign_fix_outcome_get_rc(const struct blkalign_fix_outcome *o);

/*
 * What one run of blkalign_fix_disk or blkalign_fix_resume did, made by
 * the library and freed with blkalign_fix_run_free (with the outcomes'
 * messages).
 */
struct blkalign_fix_run;
/* exit status: the bits of the outcomes' statuses */
int blkalign_fix_run_get_status(const struct blkalign_fix_run *r);
size_t blkalign_fix_run_get_noutcomes(const struct blkalign_fix_run *r);
/* in the order done */
const struct blkalign_fix_outcome *
blkalign_fix_run_get_outcome(const struct blkalign_fix_run *r, size_t i);
/* nothing to do (no outcome, no partition asked for): the
 * partitions that could move to the grain although they are
 * aligned on the device (BLKALIGN_PLAN_OPTIONAL) */
size_t blkalign_fix_run_get_noptional(const struct blkalign_fix_run *r);
/* their numbers */
int blkalign_fix_run_get_optional(const struct blkalign_fix_run *r, size_t i);
/* bytes */
uint64_t blkalign_fix_run_get_grain(const struct blkalign_fix_run *r);

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
 * blkalign_fix_run_free, -ENOENT when the disk has no partition
 * @partition (said through the log), or -EINVAL or -ENOMEM.
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

/*
 * fix's document for the run @run on @device with @journal (NULL: no
 * outcome, as after a refused journal), whether it was a dry run, the
 * partitions that could move although aligned as "optional":
 * [{ number, grain }]; its "status" is the run's
 * (blkalign_fix_run_get_status, 0 without a run).
 */
int blkalign_fix_run_write_json(const struct blkalign_fix_run *run,
				const char *device, const char *journal,
				bool dry_run, FILE *out);
/* fix's text: a table of BLKALIGN_TEXT_TABLE_FIX's columns (@o), the
 * prose of each partition (fix-text.c). */
int blkalign_fix_run_write_text(const struct blkalign_fix_run *run,
				bool dry_run, FILE *out,
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

struct blkalign_bench_phase;
/* bytes: k * phase_step */
uint64_t blkalign_bench_phase_get_offset(const struct blkalign_bench_phase *p);
uint64_t blkalign_bench_phase_get_samples(const struct blkalign_bench_phase *p);
uint64_t
blkalign_bench_phase_get_median_ns(const struct blkalign_bench_phase *p);
/* IQR = p75 - p25 */
uint64_t blkalign_bench_phase_get_p25_ns(const struct blkalign_bench_phase *p);
/* IQR = p75 - p25 */
uint64_t blkalign_bench_phase_get_p75_ns(const struct blkalign_bench_phase *p);
uint64_t blkalign_bench_phase_get_min_ns(const struct blkalign_bench_phase *p);
uint64_t blkalign_bench_phase_get_max_ns(const struct blkalign_bench_phase *p);
/* median / median of the fastest phase */
double blkalign_bench_phase_get_ratio(const struct blkalign_bench_phase *p);
/* in the fast group (penalty verdicts) */
bool blkalign_bench_phase_get_fast(const struct blkalign_bench_phase *p);

enum blkalign_bench_verdict {
	BLKALIGN_BENCH_NO_DATA = 0,  /* stopped before a round completed */
	BLKALIGN_BENCH_NO_PENALTY,   /* all phases within 20% */
	BLKALIGN_BENCH_PENALTY,	     /* fast phases on a grid: inferred */
	BLKALIGN_BENCH_INCONCLUSIVE, /* too noisy, or no grid */
};

struct blkalign_bench_result;
const char *
blkalign_bench_result_get_engine(const struct blkalign_bench_result *r);
const char *
blkalign_bench_result_get_path(const struct blkalign_bench_result *r);
bool blkalign_bench_result_get_write(const struct blkalign_bench_result *r);
/* O_DIRECT was used */
bool blkalign_bench_result_get_direct(const struct blkalign_bench_result *r);
bool blkalign_bench_result_get_is_block_device(
	const struct blkalign_bench_result *r);
/* bytes */
uint64_t
blkalign_bench_result_get_device_size(const struct blkalign_bench_result *r);
/* 0: unknown (image) */
uint32_t blkalign_bench_result_get_claimed_logical_sector_size(
	const struct blkalign_bench_result *r);
uint32_t blkalign_bench_result_get_claimed_physical_sector_size(
	const struct blkalign_bench_result *r);
uint32_t blkalign_bench_result_get_claimed_alignment_offset(
	const struct blkalign_bench_result *r);
uint32_t
blkalign_bench_result_get_io_size(const struct blkalign_bench_result *r);
uint32_t
blkalign_bench_result_get_phase_step(const struct blkalign_bench_result *r);
uint32_t
blkalign_bench_result_get_nphases(const struct blkalign_bench_result *r);
/* of the region swept */
uint64_t
blkalign_bench_result_get_offset(const struct blkalign_bench_result *r);
uint64_t
blkalign_bench_result_get_region_size(const struct blkalign_bench_result *r);
uint32_t
blkalign_bench_result_get_rounds_planned(const struct blkalign_bench_result *r);
/* complete rounds: the samples used */
uint32_t
blkalign_bench_result_get_rounds_done(const struct blkalign_bench_result *r);
/* stopped (signal or callback) */
bool blkalign_bench_result_get_interrupted(
	const struct blkalign_bench_result *r);
/* stopped by the runtime bound */
bool blkalign_bench_result_get_runtime_exceeded(
	const struct blkalign_bench_result *r);
double blkalign_bench_result_get_seconds(const struct blkalign_bench_result *r);
/* timed I/Os, all rounds */
uint64_t blkalign_bench_result_get_ios(const struct blkalign_bench_result *r);
/* nphases of them */
const struct blkalign_bench_phase *
blkalign_bench_result_get_phase(const struct blkalign_bench_result *r,
				size_t i);
enum blkalign_bench_verdict
blkalign_bench_result_get_verdict(const struct blkalign_bench_result *r);
/* one line: why this verdict */
const char *
blkalign_bench_result_get_reason(const struct blkalign_bench_result *r);
/* the fastest phase */
uint32_t
blkalign_bench_result_get_aligned_phase(const struct blkalign_bench_result *r);
/* the slowest phase */
uint32_t
blkalign_bench_result_get_worst_phase(const struct blkalign_bench_result *r);
/* worst median / aligned median */
double blkalign_bench_result_get_ratio(const struct blkalign_bench_result *r);
/* gap / spread; >= 1 to conclude */
double
blkalign_bench_result_get_separation(const struct blkalign_bench_result *r);
/* "high", "medium", "low" or NULL */
const char *
blkalign_bench_result_get_confidence(const struct blkalign_bench_result *r);
/* PENALTY only */
uint32_t blkalign_bench_result_get_inferred_physical_sector_size(
	const struct blkalign_bench_result *r);
/* bytes, from the target start */
uint32_t blkalign_bench_result_get_inferred_alignment_offset(
	const struct blkalign_bench_result *r);
/* the sweep cannot see larger */
bool blkalign_bench_result_get_inferred_at_least(
	const struct blkalign_bench_result *r);

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

struct blkalign_bench_side;
/* "partition", "window", "disk", "target" */
const char *blkalign_bench_side_get_label(const struct blkalign_bench_side *s);
/* the node: the window is made by bench */
const char *blkalign_bench_side_get_path(const struct blkalign_bench_side *s);
/* bytes, on that node */
uint64_t blkalign_bench_side_get_offset(const struct blkalign_bench_side *s);
/* bytes, of that node */
uint64_t
blkalign_bench_side_get_device_size(const struct blkalign_bench_side *s);
/* BLKBSZGET; 0: not a block device */
uint32_t
blkalign_bench_side_get_soft_block_size(const struct blkalign_bench_side *s);
/* complete passes timed */
uint32_t blkalign_bench_side_get_samples(const struct blkalign_bench_side *s);
/* samples of them */
double blkalign_bench_side_get_bytes_per_s(const struct blkalign_bench_side *s,
					   size_t i);
double
blkalign_bench_side_get_median_bytes_per_s(const struct blkalign_bench_side *s);
double
blkalign_bench_side_get_min_bytes_per_s(const struct blkalign_bench_side *s);
double
blkalign_bench_side_get_max_bytes_per_s(const struct blkalign_bench_side *s);
/* requests counted by tracefs */
bool blkalign_bench_side_get_traced(const struct blkalign_bench_side *s);
/* of the traced pass */
uint64_t blkalign_bench_side_get_requests(const struct blkalign_bench_side *s);
uint64_t
blkalign_bench_side_get_request_bytes(const struct blkalign_bench_side *s);
uint64_t
blkalign_bench_side_get_request_max(const struct blkalign_bench_side *s);
/* bytes */
double blkalign_bench_side_get_request_avg(const struct blkalign_bench_side *s);
/* predicted by model; 0: none */
uint64_t
blkalign_bench_side_get_model_requests(const struct blkalign_bench_side *s);
/* bytes */
uint64_t
blkalign_bench_side_get_model_request_cap(const struct blkalign_bench_side *s);

struct blkalign_bench_compare;
enum blkalign_bench_test
blkalign_bench_compare_get_test(const struct blkalign_bench_compare *c);
const char *
blkalign_bench_compare_get_path(const struct blkalign_bench_compare *c);
/* NULL: buffered pwrite/pread */
const char *
blkalign_bench_compare_get_engine(const struct blkalign_bench_compare *c);
/* rewrites of the bytes just read */
bool blkalign_bench_compare_get_write(const struct blkalign_bench_compare *c);
/* O_DIRECT */
bool blkalign_bench_compare_get_direct(const struct blkalign_bench_compare *c);
/* bytes per read or write call */
uint32_t
blkalign_bench_compare_get_io_size(const struct blkalign_bench_compare *c);
uint32_t
blkalign_bench_compare_get_queue_depth(const struct blkalign_bench_compare *c);
/* bytes per side and pass */
uint64_t
blkalign_bench_compare_get_region_size(const struct blkalign_bench_compare *c);
uint32_t blkalign_bench_compare_get_rounds_planned(
	const struct blkalign_bench_compare *c);
uint32_t
blkalign_bench_compare_get_rounds_done(const struct blkalign_bench_compare *c);
bool blkalign_bench_compare_get_interrupted(
	const struct blkalign_bench_compare *c);
bool blkalign_bench_compare_get_runtime_exceeded(
	const struct blkalign_bench_compare *c);
double
blkalign_bench_compare_get_seconds(const struct blkalign_bench_compare *c);
size_t
blkalign_bench_compare_get_nsides(const struct blkalign_bench_compare *c);
/* median throughput, side 1 / side 0 */
double blkalign_bench_compare_get_ratio(const struct blkalign_bench_compare *c);
/* traced requests, side 0 / side 1 */
double blkalign_bench_compare_get_request_ratio(
	const struct blkalign_bench_compare *c);
/* predicted requests, side 0 / side 1 */
double
blkalign_bench_compare_get_model_ratio(const struct blkalign_bench_compare *c);
/* directions: +1 side 1 better (faster, fewer requests), -1 side 0 */
/* throughput, 0 within 10% */
int blkalign_bench_compare_get_measured_direction(
	const struct blkalign_bench_compare *c);
/* traced requests, 0 within 10% */
int blkalign_bench_compare_get_request_direction(
	const struct blkalign_bench_compare *c);
/* predicted requests, 0 equal */
int blkalign_bench_compare_get_model_direction(
	const struct blkalign_bench_compare *c);
/* throughput vs model: "agrees", "disagrees", or NULL (no model) */
const char *
blkalign_bench_compare_get_agreement(const struct blkalign_bench_compare *c);
/* traced requests vs model */
const char *blkalign_bench_compare_get_request_agreement(
	const struct blkalign_bench_compare *c);
/* why no request counts, or NULL */
const char *
blkalign_bench_compare_get_trace_note(const struct blkalign_bench_compare *c);
/* a caveat, or NULL */
const char *
blkalign_bench_compare_get_note(const struct blkalign_bench_compare *c);
/* side @i, below blkalign_bench_compare_get_nsides (1 or 2) */
const struct blkalign_bench_side *
blkalign_bench_compare_get_side(const struct blkalign_bench_compare *c,
				size_t i);

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
