/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * scan.h - what scan/ offers the stages after it: the bounded reader,
 * images and NBD exports, sysfs, topology, partition tables and their
 * checks, the fix marker's reader, md, device-mapper and the stack of a
 * partition's contents, and the scan's entry points.
 */
#ifndef BLKALIGN_SCAN_H
#define BLKALIGN_SCAN_H

#include "blkalignP.h"

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
#define BA_FIX_MARKER	  "BLKALIGN FIX IN PROGRESS"
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

int ba_dos_check(struct ba_io *io, uint32_t sector_size,
		 struct ba_dos_check *out);

int ba_gpt_check(struct ba_io *io, uint32_t sector_size,
		 struct ba_gpt_check *out);

/* The bytes of a dos extended partition's block device (scan/ptable.c). */
uint64_t ba_extended_node_bytes(uint64_t size_bytes,
				uint32_t logical_sector_size);

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

#endif /* BLKALIGN_SCAN_H */
