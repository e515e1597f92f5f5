/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix.h - private pieces of `blkalign fix` (docs/fix.md): the device and
 * journal I/O with its test hooks (fix-io.c), the journal (fix-journal.c),
 * the table images (fix-table.c), the mover (fix-move.c), one partition
 * (fix.c), the disk-level run and its exit status (fix-disk.c,
 * fix-status.c).
 */
#ifndef BLKALIGN_FIX_H
#define BLKALIGN_FIX_H

#include <pthread.h>

#include "scan/scan.h"
#include "used/used.h"

/*
 * One fix call's I/O (fix-io.c): the backend the caller chose (struct
 * blkalign_fix_io: the system's, or a test program's that injects
 * faults) and the call's write and flush counts.
 */
struct ba_fix_io {
	struct blkalign_fix_io ops; /* the caller's, copied */
	/* atomic: the reader thread reads too */
	uint64_t writes, flushes, read_back; /* read_back: bytes */
};

void ba_fix_io_init(struct ba_fix_io *io, const struct blkalign_fix_io *ops);

/* A file fix reads and writes: the target (O_DIRECT when it can) or the
 * journal; a backend sees it as its channel (struct blkalign_fix_channel).
 * The target of an image in a qemu format is the disk its NBD export
 * serves (@nbd): @fd is then the image file, read-only, for its lock and
 * identity, and the system backend reads, writes and flushes the export
 * in its place (fix-io.c). */
struct ba_file {
	int fd;
	struct ba_nbd *nbd;
	const char *path;
	bool direct;
	bool lossy; /* writes can be lost unsaid: read back (fix-readback.c) */
	/* lossy, but the move's ranges are allocated ahead in the loop's
	 * backing file (fix-reserve.c): a write inside the bytes
	 * [base[k] + ext[i].off, + ext[i].len) is not read back */
	struct ba_fix_reserved {
		const struct ba_extent *ext; /* sorted: a map, or &whole */
		struct ba_extent whole;
		uint64_t nr, base[2];
	} reserved;
	uint64_t size;
	enum blkalign_fix_file which;
	struct ba_fix_io *io;
};

int ba_file_open(struct ba_file *f, struct ba_fix_io *io,
		 enum blkalign_fix_file which, const char *path, int flags,
		 bool direct);
int ba_file_open_target(struct ba_file *f, struct ba_fix_io *io,
			const char *path, bool writable, char *why, size_t len);
void ba_file_close(struct ba_file *f);
int ba_file_read(struct ba_file *f, void *buf, size_t len, uint64_t off);
int ba_file_write(struct ba_file *f, const void *buf, size_t len, uint64_t off);
int ba_file_flush(struct ba_file *f);
int ba_file_verify(struct ba_file *f, const void *buf, size_t len,
		   uint64_t off);
int ba_file_write_check(struct ba_file *f, const void *buf, size_t len,
			uint64_t off);
bool ba_file_lossy(int fd);
int ba_file_readback(struct ba_file *f, const void *buf, size_t len,
		     uint64_t off);
bool ba_file_reserved(const struct ba_file *f, uint64_t off, uint64_t len);
void *ba_file_alloc(size_t len);
void *ba_file_buffer(size_t len);

/*
 * Step mode: at most this many chains; a journal record holds the hashes
 * of at most BA_FIX_WINDOW_LEVELS levels (older journals' windows had
 * two), and a window of this version is BA_FIX_WINDOW_MOVE level.
 */
#define BA_FIX_MAX_CHAINS    64
#define BA_FIX_WINDOW_LEVELS 2
#define BA_FIX_WINDOW_MOVE   1

/* Journal phases (docs/fix.md, "The journal"). */
enum ba_fix_phase {
	BA_PH_PREPARED = 1, /* journal written, disk untouched */
	BA_PH_MOVING,	    /* head hidden, data moving */
	BA_PH_FINISH,	    /* data moved: head, fs fields, new table */
	BA_PH_RB_TABLE,	    /* rollback: old table back, head hidden */
	BA_PH_RB_MOVING,    /* rollback: data moving back */
	BA_PH_RB_FINISH,    /* rollback: old head and table */
	BA_PH_LAST = BA_PH_RB_FINISH
};

/* A region of the disk rewritten by a table change: old and new bytes. */
struct ba_fix_patch {
	uint64_t off;
	uint32_t len;
	uint8_t *old, *new;
};

#define BA_FIX_MAX_PATCHES 512
/* The most extents of a move's map, and its head (used.h). */
#define BA_FIX_MAP_MAX	BA_USED_MOVE_MAX
#define BA_FIX_HEAD_MAX BA_USED_HEAD
#define BA_FIX_STEP_MAX (256 * MIB)

/*
 * Who the disk of a fix is (fix-ident.c): the journal records it, and
 * --resume/--rollback refuse a disk that is not it.
 */
enum {
	BA_FIX_ID_NONE = 0, /* a block device with nothing stable to name it */
	BA_FIX_ID_FILE,	    /* an image (or a loop device's backing file) */
	BA_FIX_ID_DISK,	    /* a block device with a WWN or serial */
};

struct ba_fix_ident {
	uint32_t kind;	    /* BA_FIX_ID_* */
	uint32_t pss;	    /* physical sector size (0: an image) */
	uint64_t fsid, ino; /* FILE: its file system and inode */
	char serial[128];   /* DISK: WWN, serial or dm uuid */
};

int ba_fix_ident_of(const struct blkalign_ctx *ctx, int fd,
		    struct ba_fix_ident *id);
bool ba_fix_ident_same(const struct ba_fix_ident *a,
		       const struct ba_fix_ident *b);
void ba_fix_ident_text(const struct ba_fix_ident *id, char *buf, size_t len);
uint64_t ba_fix_ident_hash(const struct ba_fix_ident *id, const char *path);

/* The target of a fix, opened and locked (fix-target.c). */
struct blkalign_fix_target {
	struct blkalign_ctx *ctx; /* a reference, or NULL: the defaults */
	struct ba_fix_io io;
	struct ba_file file;
	char *path;
	struct ba_fix_ident ident;
};

int ba_fix_disk_marker(const char *path, struct ba_nbd *nbd,
		       struct ba_fix_marker *m, uint64_t *off);

/* What the journal's header fixes for the whole fix of one partition. */
struct ba_fix_geom {
	uint64_t disk_size;
	uint32_t lss;
	uint32_t number;
	uint64_t old_start, old_size, new_start, new_size;
	uint64_t len;	   /* bytes to move, from the partition start */
	uint64_t head_len; /* hidden while moving: min(1 MiB, len) */
	uint64_t step;	   /* bytes per step or batch */
	uint32_t batch;	   /* 1: each batch's data goes in the journal */
	uint32_t fs_patch; /* BA_FIX_FS_* */
	uint32_t npatches;
	uint32_t chains;     /* step mode: regions moved side by side */
	uint64_t region;     /* step mode: bytes per region (the last: rest) */
	uint64_t bound_hash; /* XXH3-64 of the forward move's boundaries */
	/* the bytes of [0, len) the move copies (fix-used.c): map_nr
	 * partition-relative extents in the journal's map part, map_used
	 * bytes in all; 0 extents: all of [0, len) */
	uint64_t map_nr, map_used, map_hash;
	char map_source[16]; /* used.h's source: "libext2fs", "whole"... */
	char path[256];	     /* the target, for messages */
	uint8_t id[16];	     /* this fix's random id (journal and marker) */
	uint64_t created;    /* when, seconds since the epoch */
	char version[16];    /* blkalign's */
	struct ba_fix_ident ident;
};

enum {
	BA_FIX_FS_NONE = 0,
	BA_FIX_FS_FAT,
	BA_FIX_FS_FAT32,
	BA_FIX_FS_NTFS,
	BA_FIX_FS_EXFAT /* PartitionOffset (fix-exfat.c) */
};

/* The in-flight state: the last valid record of the journal. */
struct ba_fix_state {
	uint64_t seq;
	uint32_t phase;
	uint64_t from, to;  /* absolute bases of the move in flight */
	uint64_t lo, hi;    /* partition-relative bytes it covers */
	uint64_t done;	    /* bytes moved, in processing order */
	uint64_t inflight;  /* batch mode: bytes of the batch in the journal */
	uint64_t data_hash; /* batch mode: XXH3-64 of those bytes */
	uint64_t level;	    /* step mode: levels done (a step per region) */
	/* step mode: a window of nlev levels in flight from level, with the
	 * XXH3-128 of each of its steps (level-major) */
	uint32_t nlev, nhash;
	struct ba_fix_hash {
		uint64_t lo, hi;
	} hash[BA_FIX_WINDOW_LEVELS * BA_FIX_MAX_CHAINS];
	uint64_t rb_bound_hash; /* rollback: XXH3-64 of its boundaries */
	/* step mode, rolling back a move stopped part-way: the levels of it
	 * done, the part of each region the move back covers (0: all) */
	uint64_t rb_levels;
	/* prepared: 1 once the disk may have been written (the marker) */
	uint32_t touched;
	/* 1 once data may have moved (the moving phase was recorded) */
	uint32_t moved;
};

/* One part of the journal: two copies of the same bytes, and their
 * XXH3-64. */
struct ba_jpart {
	uint64_t off[2], len, hash;
};

/* What ba_journal_open found of each copy of each part. */
enum { BA_JC_UNUSED = 0, BA_JC_OK, BA_JC_BAD, BA_JC_MISSING };

#define BA_J_RECS 3

struct ba_journal_health {
	uint64_t size, want; /* the file's bytes, the layout's */
	uint8_t hdr[2], blob[2], head[2], bound[2], rbound[2], map[2];
	uint8_t rec[BA_J_RECS];
	uint64_t rec_seq[BA_J_RECS];
	uint32_t copies;     /* of the newest record */
	uint8_t data;	     /* the batch in flight's bytes */
	uint32_t old_format; /* -EPROTO: the older format it is in */
};

struct ba_journal {
	struct ba_file file;
	struct ba_fix_geom g;
	/* g.map_nr sorted, disjoint extents of [0, g.len), or NULL: the move
	 * copies [0, g.len) whole */
	struct ba_extent *map;
	struct ba_fix_patch patches[BA_FIX_MAX_PATCHES];
	uint8_t *head;	/* the real first head_len bytes */
	uint8_t *bound; /* the boundaries of the move in flight, or NULL */
	bool bound_rb;	/* bound holds the rollback's (else the forward's) */
	/* while a step-mode move runs: bound left in the journal, read from
	 * there when a step needs it, each boundary checked by its XXH3-64 */
	uint64_t *bound_sums;
	struct ba_fix_state st;
	bool have_state; /* a valid record was found */
	struct ba_jpart blob_p, head_p, bound_p, rbound_p, map_p;
	uint64_t hdr_off[2], rec_off, data_off[2], size;
	uint8_t *blob; /* patches' bytes */
	struct ba_journal_health h;
	bool thorough; /* --inspect: every copy read, nothing written */
};

/*
 * The journal on disk (fix-journal.c): a header (twice: at 0 and at
 * hdr_off[1]) and three record slots.  Native byte order.
 */
#define J_MAGIC	   "BLKALJ03"
#define J_MAGIC_V1 "BLKALJ01"
#define J_MAGIC_V2 "BLKALJ02"
#define J_VERSION  3
#define J_HDR_SIZE (16 * KIB)
#define REC_MAGIC  0x52414c42U /* "BLAR" */
#define REC_SLOT   4096

struct j_patch_disk {
	uint64_t off;
	uint32_t len;
	uint32_t pad;
};

struct j_header {
	char magic[8];
	uint32_t version;
	uint32_t crc;  /* of the header block, this field 0 */
	uint64_t size; /* the journal's bytes */
	uint64_t hdr_off[2], rec_off, data_off[2];
	struct ba_jpart blob, head, bound, rbound, map;
	struct ba_fix_geom g;
	struct j_patch_disk patches[BA_FIX_MAX_PATCHES];
};

_Static_assert(sizeof(struct j_header) <= J_HDR_SIZE, "header fits");

struct j_record {
	uint32_t magic;
	uint32_t crc; /* of the record, this field 0 */
	struct ba_fix_state st;
};

_Static_assert(sizeof(struct j_record) <= REC_SLOT, "record fits a slot");

void ba_journal_layout(struct ba_journal *j);
int ba_journal_create(struct ba_journal *j, struct ba_fix_io *io,
		      const char *path);
int ba_journal_open(struct ba_journal *j, struct ba_fix_io *io,
		    const char *path, bool thorough);
int ba_journal_peek(const char *path, struct ba_fix_geom *g);
int ba_journal_record(struct ba_journal *j, const void *data);
int ba_journal_read_data(struct ba_journal *j, void *buf);
int ba_journal_write_bounds(struct ba_journal *j, const uint8_t *buf);
int ba_journal_load_bounds(struct ba_journal *j, bool rb);
int ba_journal_read_bound(struct ba_journal *j, uint32_t k, uint64_t len,
			  uint64_t sum, uint8_t *buf);
bool ba_journal_can_write_rbounds(const struct ba_journal *j);
void ba_journal_close(struct ba_journal *j);
const char *ba_fix_phase_name(uint32_t phase);

/* Table images (fix-table.c). */
int ba_fix_table_patches(struct ba_file *dev, const struct blkalign_device *d,
			 struct ba_journal *j, const char *tmpdir, char *err,
			 size_t errlen);
const char *ba_fix_table_source(const struct ba_file *dev, const char *path,
				char *buf, size_t len);
int ba_fix_save_old_table(const char *path, uint32_t lss, const char *out);
int ba_fix_apply_patches(struct ba_file *dev, const struct ba_journal *j,
			 bool new_table);
bool ba_fix_exfat_holds(const uint8_t *head, uint64_t head_len, uint64_t start);
void ba_fix_exfat_patch(uint8_t *head, uint64_t head_len, uint64_t start);
uint32_t ba_fix_fs_patch_kind(const char *content, const uint8_t *head,
			      uint64_t head_len, uint64_t start);
int ba_fix_patch_ntfs_backup(struct ba_file *dev, const struct ba_journal *j,
			     uint64_t start);
void ba_fix_patch_head(const struct ba_journal *j, uint8_t *head,
		       uint64_t start);

/* fix-ends.c: what the contents keep at the partition's end. */
int ba_fix_add_patch(struct ba_journal *j, uint64_t off, uint32_t len,
		     const uint8_t *old, const uint8_t *new);
int ba_fix_end_patches(struct ba_file *dev, struct ba_journal *j,
		       const char *content);

/*
 * While data moves, the partition's head reads as this marker sector and
 * zeros, at both places (fix-marker.c); `check` reports a partition that
 * starts with it (fix-interrupted), and --resume/--rollback recognise
 * their disk by the fix id in it.
 */
void ba_fix_hide_head(const struct ba_fix_geom *g, uint8_t *buf, uint64_t rel,
		      uint64_t len);

/* fix-reserve.c */
int ba_fix_reserve(struct ba_file *dev, const struct ba_journal *j, char *why,
		   size_t len);
void ba_fix_unreserve(struct ba_file *dev);

/* fix-kernel.c */
int ba_fix_tell_kernel(const struct blkalign_ctx *ctx, struct ba_file *f,
		       const char *path, uint32_t lss);

/*
 * The bytes a move copies (fix-used.c): the used-extent map of what the
 * partition holds (lib/scan/used/), read under the lock before the first
 * write, made partition-relative, whole sectors, the head included, small
 * gaps closed; kept in the journal, which resume and rollback read it
 * from.  Without a map (j->map NULL) a move copies [0, len) whole.
 */
int ba_fix_map_read(struct ba_file *dev, const struct blkalign_device *d,
		    const struct blkalign_plan_part *pp,
		    const struct blkalign_fix_opts *o, struct ba_journal *j,
		    char *why, size_t len);
uint64_t ba_fix_map_from(const struct ba_journal *j, uint64_t rel);
bool ba_fix_map_piece(const struct ba_journal *j, uint64_t i, uint64_t rel,
		      uint64_t len, uint64_t *a, uint64_t *b);
uint64_t ba_fix_used(const struct ba_journal *j, uint64_t rel, uint64_t len);

/* The mover (fix-move.c). */
struct ba_fix_run {
	const struct blkalign_ctx
		*ctx; /* sysfs below its sysroot; NULL: /sys */
	struct ba_file *dev;
	struct ba_journal *j;
	const struct blkalign_fix_opts *opts;
	uint64_t total, moved; /* for progress */
	uint64_t steps;
	double seconds; /* spent moving */
};

/* Shifts below this move in batch mode (the batch's bytes journalled). */
#define BA_FIX_BATCH_BELOW (256 * KIB)
/*
 * Step mode: bytes per level (one step of every region, one flush, one
 * journal record).  Two levels are in memory (the one written, the one
 * read): with the base, about 56 MiB at most (docs/fix.md, "Memory").
 */
#define BA_FIX_LEVEL (24 * MIB)

/*
 * One fix call's result while it is made: the public result and the
 * words of its message (published as res.message by fix-disk.c).
 */
#define BA_FIX_MSG 512
struct ba_fix_res {
	struct blkalign_fix_result pub;
	char source[16];      /* pub.map_source */
	char msg[BA_FIX_MSG]; /* "": none */
};

int ba_fix_fail(struct ba_fix_res *res, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int ba_fix_drive(struct ba_fix_run *r, struct ba_fix_res *res);

/* fix.c: one planned partition (a dry run needs no @t), or the fix
 * whose journal is o->journal resumed or rolled back. */
int ba_fix_partition(const struct blkalign_ctx *ctx,
		     struct blkalign_fix_target *t,
		     const struct blkalign_device *d,
		     const struct blkalign_plan_part *pp,
		     const struct blkalign_fix_opts *o, struct ba_fix_res *res);
int ba_fix_resume(struct blkalign_fix_target *t, bool rollback,
		  const struct blkalign_fix_opts *o, struct ba_fix_res *res);

/* fix-status.c: what a fix call did, in the words of the output. */
const char *ba_fix_action(const struct blkalign_plan_part *pp,
			  const struct ba_fix_res *res, int rc, bool dry_run);
const char *ba_fix_resume_action(const struct ba_fix_res *res, int rc);
int ba_fix_batch_recover(struct ba_fix_run *r, bool repair);

void ba_fix_journal_exists(const struct blkalign_ctx *ctx, char *msg,
			   size_t len);

/* fix-trust.c */
int ba_fix_match(struct ba_file *dev, const struct ba_fix_ident *id,
		 const struct ba_journal *j, char *why, size_t len);
const char *ba_fix_lacks(struct ba_fix_run *r, bool rollback, bool repair);
int ba_fix_trust(struct ba_fix_run *r, struct blkalign_fix_target *t,
		 bool rollback, char *msg, size_t len);
int ba_fix_start_rollback(struct ba_fix_run *r);
int ba_fix_move(struct ba_fix_run *r, uint32_t phase);
int ba_fix_finish_batch(struct ba_fix_run *r);
uint64_t ba_fix_step_rel(const struct ba_fix_state *st, uint64_t done,
			 uint64_t len);
uint64_t ba_fix_piece(const struct ba_fix_state *st, uint64_t done,
		      uint64_t max, uint64_t a);
uint64_t ba_fix_piece_align(const struct ba_journal *j);
struct ba_fix_state ba_fix_region(const struct ba_journal *j, uint32_t k);
void ba_fix_advance(const struct ba_journal *j, uint64_t *done, uint64_t n);
int ba_fix_settle(struct ba_fix_run *r);
uint64_t ba_fix_move_bytes(const struct ba_journal *j);
int ba_fix_restore_bounds(struct ba_fix_run *r);
void ba_fix_chains(struct ba_fix_geom *g);
uint64_t ba_fix_bound_len(const struct ba_fix_geom *g);
void ba_fix_bound_range(const struct ba_fix_geom *g, bool bottoms, uint32_t k,
			uint64_t *rel, uint64_t *len);
void ba_fix_overlay(uint8_t *buf, uint64_t rel, uint64_t len,
		    const uint8_t *src, uint64_t ref, uint64_t rlen);
int ba_fix_bounds_over(struct ba_journal *j, uint8_t *buf, uint64_t rel,
		       uint64_t len);
int ba_fix_bounds_out(struct ba_journal *j);
int ba_fix_bounds_in(struct ba_journal *j);
int ba_fix_read_bounds(struct ba_fix_run *r, bool bottoms, uint64_t base,
		       uint8_t *buf);

/* What --inspect found (fix-inspect.c), printed by fix-inspect-out.c. */
struct ba_fix_inspect {
	const struct blkalign_ctx *ctx;
	const char *target, *journal;
	int open_rc; /* of the journal */
	struct ba_journal j;
	struct ba_fix_io io;
	struct ba_file dev;
	bool have_dev;
	struct ba_fix_ident ident;
	int match_rc;
	char why[512];
	const char *lacks[2]; /* resume, rollback */
	int marker;	      /* no journal: 1 when the disk has one */
	struct ba_fix_marker m;
	uint64_t marker_off;
};

/* Why a disk is busy, with the commands that free it (fix-holders.c). */
int ba_fix_holders(const struct blkalign_ctx *ctx, dev_t dev, char *buf,
		   size_t len);

void ba_fix_inspect_text(const struct ba_fix_inspect *in, FILE *out);
int ba_fix_inspect_json(const struct ba_fix_inspect *in, FILE *out);

#endif /* BLKALIGN_FIX_H */
