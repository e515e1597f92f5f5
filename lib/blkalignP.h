/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * blkalignP.h - private header of libblkalign: the context, the device
 * being built, the bounded reader and the cross-file helpers (ba_ prefix).
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

/* A cost and the request sizes its pub.sizes points to. */
struct ba_model_cost {
	struct blkalign_model_cost pub;
	struct blkalign_size_count sizes[BA_SIZES_LISTED];
};

/* A model and the request sizes its costs point to; never copied. */
struct ba_model {
	struct blkalign_model pub;
	struct blkalign_size_count sizes[2][BA_SIZES_LISTED];
};

int ba_model_cost(const struct blkalign_model_geometry *g,
		  const struct blkalign_model_layer *l,
		  const struct blkalign_workload *w, enum blkalign_kernel k,
		  struct ba_model_cost *out);
int ba_model_run(const struct blkalign_model_geometry *g,
		 const struct blkalign_model_layer *l,
		 const struct blkalign_workload *w, enum blkalign_kernel k,
		 struct ba_model *out);

/* The model's other sized inputs, the layer and the workload: in and
 * out of the full struct (analyze/model.c), and their first sizes. */
int ba_model_sized_in(void *copy, size_t full, const void *in, size_t min);
int ba_model_sized_out(void *out, const void *full, size_t n, size_t min);
#define BA_MODEL_LAYER_SIZE0 \
	BA_SIZE_THROUGH(struct blkalign_model_layer, raid_members_misaligned)
#define BA_WORKLOAD_SIZE0 BA_SIZE_THROUGH(struct blkalign_workload, total)
int ba_model_align_layer(const struct blkalign_model_geometry *g,
			 const struct blkalign_model_layer *l,
			 struct blkalign_model_layer *out);

/* A caller's model geometry (sized) in and out of the full struct. */
int ba_model_geometry_in(struct blkalign_model_geometry *copy,
			 const struct blkalign_model_geometry *in);
void ba_model_geometry_out(struct blkalign_model_geometry *g,
			   const struct blkalign_model_geometry *full);

void ba_log(const struct blkalign_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

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
/* Render @f's texts from the message table into @d's pool (out/). */
int ba_finding_render(struct ba_device *d, const struct ba_finding *f,
		      struct blkalign_finding *out);
void ba_device_problem(struct ba_device *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void ba_device_publish(struct ba_device *d);
void ba_device_release(struct ba_device *d);
void ba_device_hold(struct blkalign_report *r, struct ba_device *d);
void ba_device_put(struct blkalign_report *r, struct ba_device *d);
void ba_layers_by_parent_start(const struct blkalign_layer *layers, size_t *ix,
			       size_t n);

/*
 * Bounded reader over a device, an image file or a memory buffer.
 * ba_io_read() returns 0, 1 when [off, off+len) is not inside the device
 * (absent, not an error), or -errno on an I/O error.
 */
struct ba_io;
struct ba_nbd;
struct ba_io_ops {
	const char *name;
	ssize_t (*pread)(struct ba_io *io, void *buf, size_t len, uint64_t off);
	/* make what libblkid reads of [off, off + size) readable through
	 * io->fd (nbd.c); NULL: it already is */
	int (*expose)(struct ba_io *io, uint64_t off, uint64_t size);
};
struct ba_io {
	const struct ba_io_ops *ops;
	int fd;
	const uint8_t *mem;
	struct ba_nbd *nbd;
	uint64_t size;
	uint64_t bytes_read;
};

#define BA_IO_MAX_READ (16 * MIB)

ssize_t ba_pread_all(int fd, void *buf, size_t len, uint64_t off);
int ba_pread_full(int fd, void *buf, size_t len, uint64_t off);
void ba_io_init_fd(struct ba_io *io, int fd, uint64_t size);
void ba_io_init_mem(struct ba_io *io, const void *buf, uint64_t size);
int ba_io_read(struct ba_io *io, uint64_t off, size_t len, void *buf);
int ba_io_read_region(struct ba_io *io, uint64_t off, uint64_t size,
		      uint64_t at, size_t len, void *buf);
int ba_io_expose(struct ba_io *io, uint64_t off, uint64_t size);

/* Disk images in qemu's formats (image.c) and NBD exports (nbd.c). */
struct ba_image_info {
	const char *format;    /* qemu's driver name: "qcow2", "vpc"... */
	uint32_t cluster_size; /* its allocation unit; 0: not recorded */
	/* the disk's sector sizes as the format gives them (0: it does
	 * not), and how: BLKALIGN_SRC_IMAGE read from the file,
	 * BLKALIGN_SRC_FORMAT fixed by the format's definition */
	uint32_t logical_sector_size, physical_sector_size;
	enum blkalign_source logical_source, physical_source;
	const char *damage; /* why qemu would misread it, or NULL */
	char why[256];
};
int ba_image_sniff(int fd, uint64_t size, struct ba_image_info *info);
int ba_vhdx_read(struct ba_io *io, struct ba_image_info *info);
/* What a VHDX's region table and metadata say (image-vhdx.c), for
 * ba_vhdx_read and the vhdx reader (vdisk-vhdx.c); offsets in bytes. */
struct ba_vhdx_layout {
	uint64_t meta_off, meta_len; /* the metadata region */
	uint64_t bat_off, bat_len;   /* the BAT region (strict) */
	uint32_t block_size;	     /* File Parameters */
	uint32_t param_flags; /* bit 0 LeaveBlocksAllocated, 1 HasParent */
	uint32_t logical_sector_size, physical_sector_size;
	uint64_t disk_size;	   /* Virtual Disk Size (strict) */
	uint32_t unknown_required; /* regions and items (strict) */
};
int ba_vhdx_parse(struct ba_io *io, bool strict, struct ba_vhdx_layout *l,
		  char *why, size_t wlen);
void ba_vhdx_info(const struct ba_vhdx_layout *l, struct ba_image_info *info);
void ba_image_open_hint(const struct ba_image_info *info, char *why,
			size_t len);
bool ba_nbd_is_uri(const char *target);
struct ba_qemu_nbd {
	pid_t pid;     /* 0: none */
	char dir[64];  /* the socket's private directory */
	char sock[80]; /* the socket: connect here */
};
int ba_qemu_nbd_start(char *const argv[], int errfd, struct ba_qemu_nbd *q,
		      char *why, size_t len);
void ba_qemu_nbd_unlink(struct ba_qemu_nbd *q);
void ba_qemu_nbd_stop(struct ba_qemu_nbd *q, int grace_ms);
bool ba_qemu_nbd_said(int errfd, const char *opts, const char *file, char *why,
		      size_t len);
int ba_nbd_open_image(const char *path, const char *format, bool writable,
		      struct ba_nbd **out, char *why, size_t len);
int ba_nbd_open_uri(const char *uri, struct ba_nbd **out, char *why,
		    size_t len);
int ba_nbd_open_local(int fd, uint64_t size, const char *format,
		      struct ba_nbd **out, char *why, size_t len);
const char *ba_nbd_reader(const struct ba_nbd *n);
#define BA_NBD_GAVE_UP 1 /* ba_nbd_broken: our reader, on a table entry */
#define BA_NBD_FAILED  2 /* ba_nbd_broken: the reader died, a read failed */
int ba_nbd_broken(const struct ba_nbd *n, char *why, size_t len);
int ba_vdisk_lock(int fd);
void ba_nbd_close(struct ba_nbd *n);
uint64_t ba_nbd_size(const struct ba_nbd *n);
uint64_t ba_nbd_bytes_read(const struct ba_nbd *n);
uint64_t ba_nbd_bytes_skipped(const struct ba_nbd *n);
int ba_nbd_fd(const struct ba_nbd *n);
int ba_nbd_fill(struct ba_nbd *n, uint64_t off, uint64_t len);
void ba_io_init_nbd(struct ba_io *io, struct ba_nbd *n);
int ba_nbd_prepare(struct ba_io *io, uint32_t lss);
int ba_nbd_pread(struct ba_nbd *n, void *buf, size_t len, uint64_t off);
int ba_nbd_pwrite(struct ba_nbd *n, const void *buf, size_t len, uint64_t off);
int ba_nbd_flush(struct ba_nbd *n);
bool ba_nbd_writable(const struct ba_nbd *n);

/* Reading sysfs (relative to ctx->sysroot). */
int ba_sysfs_read_s64(const char *dir, const char *attr, int64_t *out);
int ba_sysfs_read_str(const char *dir, const char *attr, char *buf, size_t len);
char *ba_sysfs_path(const struct blkalign_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
char *ba_sysfs_devdir(const struct blkalign_ctx *ctx, unsigned int maj,
		      unsigned int min);
char *ba_sysfs_parent_disk(const char *partdir);

/* Topology: fill from images, sysfs or ioctls; then sanitize. */
void ba_topology_image(const struct blkalign_ctx *ctx,
		       struct blkalign_topology *t);
int ba_topology_sysfs(const struct blkalign_ctx *ctx, const char *diskdir,
		      const char *devdir, struct blkalign_topology *t);
void ba_topology_ioctl(int fd, struct blkalign_topology *t);
void ba_topology_finish(const struct blkalign_ctx *ctx,
			struct blkalign_topology *t);

/* Partition tables (libblkid) and our own GPT header check. */
int ba_ptable_read(struct ba_device *d, int fd, struct ba_io *io,
		   uint32_t sector_size);
bool ba_is_extended_node(const struct ba_device *d, uint64_t size_bytes,
			 int partno);
int ba_ptable_sysfs(const struct blkalign_ctx *ctx, struct ba_device *d,
		    const char *diskdir);

enum ba_gpt_state {
	BA_GPT_ABSENT = 0, /* no "EFI PART" signature there */
	BA_GPT_OK,
	BA_GPT_BAD,	   /* signature found, header or entries broken */
	BA_GPT_UNREADABLE, /* I/O error */
};

struct ba_gpt_header {
	enum ba_gpt_state state;
	const char *why; /* for BA_GPT_BAD: what is wrong */
	uint64_t my_lba, alternate_lba;
	uint64_t first_usable_lba, last_usable_lba;
	uint64_t entries_lba;
	uint32_t nentries, entry_size;
	/* the header describes a disk this many bytes larger than the
	 * device (a truncated image, or a table from a larger disk) */
	uint64_t short_by;
	/* used entries outside [first, last usable LBA]: libblkid skips
	 * them, the kernel does not */
	uint32_t noutside;
	struct ba_gpt_entry {
		uint32_t index; /* from 1, as partition numbers */
		uint64_t first_lba, last_lba;
	} outside[8];
};

struct ba_gpt_check {
	struct ba_gpt_header primary, backup;
};

/* The first bytes of a partition while `blkalign fix` moves it
 * (act/fix-marker.c writes it, scan/probe/marker.c reads it): this
 * line, the fix's id, what it does. */
#define BA_FIX_MARKER "BLKALIGN FIX IN PROGRESS"
#define BA_FIX_MARKER_LEN 512 /* bytes of text, the rest zeros */

struct ba_fix_marker {
	bool has_id; /* markers of blkalign 0.1.0 carry none */
	uint8_t id[16];
	char what[400]; /* "partition N of DISK: moving from byte ..." */
	char cut[160];	/* "N bytes, step mode, R regions of ..." or "" */
};

bool ba_fix_marker_parse(const void *sector, size_t len,
			 struct ba_fix_marker *m);

/* A fix marker found at the start of layer @layer (stack.c). */
struct ba_marker {
	int layer;
	struct ba_fix_marker m;
};
int ba_device_add_marker(struct ba_device *d, int layer,
			 const struct ba_fix_marker *m);
void ba_fix_id_hex(const uint8_t id[16], char out[33]);

/* The EBR chain of a dos table (probe/dos.c). */
#define BA_DOS_EBR_MAX 256
enum ba_ebr_state {
	BA_EBR_OK = 0,
	BA_EBR_LOOP,	/* a link points back into the chain */
	BA_EBR_OUTSIDE, /* a link points outside the extended area */
	BA_EBR_BROKEN,	/* an EBR without its 55 aa signature */
};

/*
 * The kernel's limits on a dos table (block/partitions/msdos.c): 256
 * partitions in all (DISK_MAX_PARTS; logical ones are numbered from 5),
 * and it gives up after 100 links without a data partition.
 */
#define BA_DOS_KERNEL_PARTS 256
#define BA_DOS_LOGICAL_MAX  (BA_DOS_KERNEL_PARTS - 5)
#define BA_DOS_EMPTY_LINKS  100

struct ba_dos_part {
	uint64_t start, sectors; /* absolute, in logical sectors */
	uint8_t type;
	uint64_t ebr; /* a logical partition's EBR, in logical sectors */
};

struct ba_dos_check {
	bool has_signature; /* 55 aa at 0x1fe of sector 0 */
	bool protective;    /* an 0xee entry: a GPT's protective MBR */
	unsigned int nprimary, nlogical;
	enum ba_ebr_state state;
	uint64_t bad_lba;  /* where the chain breaks */
	unsigned int nebr; /* EBRs read, in chain order (fix.c) */
	uint64_t ebr_lba[BA_DOS_EBR_MAX];
	/* the partitions, as the kernel numbers them: primary[0..3] are
	 * 1-4 (type 0: unused), logical[k] is 5 + k */
	struct ba_dos_part primary[4];
	struct ba_dos_part logical[BA_DOS_LOGICAL_MAX];
	bool truncated; /* the chain goes on past what the kernel shows */
};

extern const char *const ba_ebr_state_names[4];
extern const char *const ba_gpt_state_names[4];

int ba_dos_check(struct ba_io *io, uint32_t sector_size,
		 struct ba_dos_check *out);

int ba_gpt_check(struct ba_io *io, uint32_t sector_size,
		 struct ba_gpt_check *out);
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
/* blkalign_size_format() for a printf argument: returns @buf (out/size.c) */
const char *ba_size_str(uint64_t bytes, enum blkalign_size_style style,
			char *buf, size_t len);

uint64_t ba_extended_node_bytes(uint64_t size_bytes,
				uint32_t logical_sector_size);

/* Rules: findings from the layers and the topology. */
void ba_rules_run(struct ba_device *d);
void ba_rules_table_run(struct ba_device *d);
void ba_rules_stack_run(struct ba_device *d);
void ba_rules_image_run(struct ba_device *d);
uint64_t ba_image_grid(const struct blkalign_device *d);
/* A filesystem of this libblkid type sets the soft block size of what it
 * is mounted on (rules.c; plan.c sizes its partition by it). */
bool ba_fs_sets_soft_block(const char *type);

/* md arrays and members from sysfs (md-sysfs.c). */
int ba_md_holders(struct ba_device *d, int idx, const char *dir);
bool ba_md_array(struct ba_device *d, const char *dir);
int ba_md_mirror_starts(struct ba_device *d, const char *arraydir,
			uint64_t off);
int ba_sysfs_stack(struct ba_device *d, const char *diskdir);

/* device-mapper tables (dm.c). */
struct ba_dm_target {
	uint64_t start_sectors, length_sectors;
	char type[16];
	unsigned int major, minor; /* first device below */
	uint64_t offset_sectors;   /* on that device */
	uint32_t stripes;
	uint64_t chunk_sectors;
	uint32_t sector_size; /* crypt: the encryption sector, bytes */
};

int ba_dm_parse_line(const char *line, struct ba_dm_target *t);
int ba_dm_table(const struct blkalign_ctx *ctx, const char *devdir, char **out);
int ba_dm_first_target(const struct blkalign_ctx *ctx, const char *devdir,
		       struct ba_dm_target *t);
int ba_dm_stack(const struct blkalign_ctx *ctx, struct ba_device *d,
		const char *devdir);

/* Stack: the contents of partitions as layers (stack.c). */
int ba_stack_probe(struct ba_device *d, int fd, struct ba_io *io, uint64_t base,
		   bool maps);

/* scan/: one target into a device record of the report (target.c), and
 * one opened device, partition or sysfs-only device (scan.c). */
int ba_scan_path(struct blkalign_report *r, const char *path);
int ba_scan_image_nbd(struct blkalign_report *r, const char *path,
		      struct ba_nbd *n);
int ba_scan_all(struct blkalign_report *r);
int ba_scan_fd(const struct blkalign_ctx *ctx, struct ba_device *d, int fd,
	       const char *diskdir, const char *devdir);
int ba_scan_nbd(const struct blkalign_ctx *ctx, struct ba_device *d,
		struct ba_nbd *n);
int ba_scan_partition(const struct blkalign_ctx *ctx, struct ba_device *d,
		      int fd, const char *diskdir, const char *devdir);
int ba_scan_sysfs(const struct blkalign_ctx *ctx, struct ba_device *d,
		  const char *diskdir);
const char *ba_base_name(const char *path);
int ba_scan_saved(struct blkalign_report *r, const char *file,
		  const char *target);
struct json_object;
int ba_scan_saved_json(struct blkalign_report *r, struct json_object *root,
		       const char *file, const char *target);
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
struct json_object *ba_device_json(const struct ba_device *bd, bool alone);
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
