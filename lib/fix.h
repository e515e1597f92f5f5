/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix.h - private pieces of `blkalign fix` (docs/fix.md): the device and
 * journal I/O with its test hooks (fix-io.c), the journal (fix-journal.c),
 * the table images (fix-table.c) and the mover (fix-move.c).
 */
#ifndef BLKALIGN_FIX_H
#define BLKALIGN_FIX_H

#include <pthread.h>

#include "blkalignP.h"

/*
 * A file written by fix: the target (O_DIRECT when it can) or the
 * journal.  Test hooks (fix-io.c): BLKALIGN_TEST_KILL_AT=N writes half
 * of the N-th write and SIGKILLs the process; BLKALIGN_TEST_POWERCUT_AT=N
 * keeps writes in memory until the next flush and, at the N-th write,
 * drops the unflushed ones and exits with 137; BLKALIGN_TEST_SIGINT_AT=N
 * raises SIGINT just before the N-th write.
 */
struct ba_fwrite {
	struct ba_fwrite *next;
	uint64_t off;
	size_t len;
	uint8_t *buf;
};

struct ba_file {
	int fd;
	const char *path;
	bool direct;
	uint64_t size;
	pthread_mutex_t lock;
	struct ba_fwrite *pending; /* powercut hook: not yet flushed */
};

int ba_file_open(struct ba_file *f, const char *path, int flags, bool direct);
void ba_file_close(struct ba_file *f);
int ba_file_read(struct ba_file *f, void *buf, size_t len, uint64_t off);
int ba_file_write(struct ba_file *f, const void *buf, size_t len, uint64_t off);
int ba_file_flush(struct ba_file *f);
void *ba_file_alloc(size_t len);
void *ba_file_buffer(size_t len);
uint64_t ba_fix_writes(void);
uint64_t ba_fix_flushes(void);

/* Step mode: at most this many chains, this many levels a window. */
#define BA_FIX_MAX_CHAINS    64
#define BA_FIX_WINDOW_LEVELS 2

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
#define BA_FIX_HEAD_MAX	   MIB
#define BA_FIX_STEP_MAX	   (256 * MIB)

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
	char path[256];	     /* the target, for messages */
};

enum { BA_FIX_FS_NONE = 0, BA_FIX_FS_FAT, BA_FIX_FS_FAT32, BA_FIX_FS_NTFS };

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
};

struct ba_journal {
	struct ba_file file;
	struct ba_fix_geom g;
	struct ba_fix_patch patches[BA_FIX_MAX_PATCHES];
	uint8_t *head;	/* the real first head_len bytes */
	uint8_t *bound; /* the boundaries of the move in flight, or NULL */
	bool bound_rb;	/* bound holds the rollback's (else the forward's) */
	struct ba_fix_state st;
	uint64_t rec_off, head_off, data_off[2], bound_off[2];
	uint8_t *blob; /* patches' bytes */
};

int ba_journal_create(struct ba_journal *j, const char *path);
int ba_journal_open(struct ba_journal *j, const char *path);
int ba_journal_record(struct ba_journal *j, const void *data);
int ba_journal_read_data(struct ba_journal *j, void *buf);
int ba_journal_write_bounds(struct ba_journal *j, const uint8_t *buf);
int ba_journal_load_bounds(struct ba_journal *j, bool rb);
void ba_journal_close(struct ba_journal *j);

/* Table images (fix-table.c). */
int ba_fix_table_patches(struct ba_file *dev, const struct blkalign_device *d,
			 struct ba_journal *j, const char *tmpdir, char *err,
			 size_t errlen);
int ba_fix_save_old_table(const char *path, uint32_t lss, const char *out);
int ba_fix_apply_patches(struct ba_file *dev, const struct ba_journal *j,
			 bool new_table);
uint32_t ba_fix_fs_patch_kind(const char *content, const uint8_t *head,
			      uint64_t head_len, uint64_t start);
int ba_fix_patch_ntfs_backup(struct ba_file *dev, const struct ba_journal *j,
			     uint64_t start);
void ba_fix_patch_head(const struct ba_journal *j, uint8_t *head,
		       uint64_t start);

/*
 * While data moves, the partition's head reads as this marker sector and
 * zeros, at both places (fix-move.c); `check` reports a partition that
 * starts with it (rules: fix-interrupted).
 */
void ba_fix_hide_head(const struct ba_fix_geom *g, uint8_t *buf, uint64_t rel,
		      uint64_t len);

/* fix-kernel.c */
int ba_fix_tell_kernel(struct ba_file *f, const char *path, uint32_t lss);

/* The mover (fix-move.c). */
struct ba_fix_run {
	struct ba_file *dev;
	struct ba_journal *j;
	const struct blkalign_fix_opts *opts;
	uint64_t total, moved; /* for progress */
	uint64_t steps;
	double seconds; /* spent moving */
};

/* Shifts below this move in batch mode (the batch's bytes journalled). */
#define BA_FIX_BATCH_BELOW (256 * KIB)
/* Step mode: bytes per level (one step of every region, one flush). */
#define BA_FIX_LEVEL (16 * MIB)

int ba_fix_drive(struct ba_fix_run *r, struct blkalign_fix_result *res);
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
int ba_fix_read_bounds(struct ba_fix_run *r, bool bottoms, uint64_t base,
		       uint8_t *buf);

#endif /* BLKALIGN_FIX_H */
