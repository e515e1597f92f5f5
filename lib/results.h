/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * results.h - the result structs libblkalign hands out, private: callers
 * see them as opaque handles and read them through the getters of
 * blkalign.h (lib/get-*.c); the library fills and reads the fields.
 * Fields may be added, renamed or removed here freely: no caller was
 * built with them.
 */
#ifndef BLKALIGN_RESULTS_H
#define BLKALIGN_RESULTS_H

#include "blkalign.h"

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

/* One partition's outcome of a fix run (blkalign_fix_run_get_outcome). */
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

struct blkalign_bench_phase {
	uint64_t offset; /* bytes: k * phase_step */
	uint64_t samples;
	uint64_t median_ns;
	uint64_t p25_ns, p75_ns; /* IQR = p75 - p25 */
	uint64_t min_ns, max_ns;
	double ratio; /* median / median of the fastest phase */
	bool fast;    /* in the fast group (penalty verdicts) */
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

#endif /* BLKALIGN_RESULTS_H */
