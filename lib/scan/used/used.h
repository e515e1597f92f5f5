/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * used.h - what a partition's contents really use: a map of used byte
 * extents, read from the contents' own structures (the ext4 block
 * bitmaps, XFS's free-space B+trees, NTFS's $Bitmap, the FAT, btrfs's
 * device extents, LVM's segments, the swap header).  fix copies only
 * these bytes when it moves the contents (docs/fix.md, "Used blocks").
 *
 * One reader per contents kind, one file each (lib/scan/used/<kind>.c),
 * listed in used.c's table by libblkid TYPE.  A reader reads through a
 * struct ba_io (a file, a device or an NBD export: every target fix can
 * write) and adds extents with ba_used_add; ba_used_read sorts, merges
 * and checks the result.
 *
 * A reader answers:
 *   0          the map is in @m;
 *   -EUCLEAN   the contents are not clean (an ext4 that needs recovery,
 *              an XFS log to replay, NTFS or FAT marked dirty): @why says
 *              so and names the command that makes them clean;
 *   -EBADMSG   the structures contradict themselves (a used block past
 *              the end, a free count the map disagrees with): @why says
 *              what;
 *   -ENOTSUP   a variant the reader does not read (@why says which):
 *              the contents are copied whole;
 *   -ENOMEM, -EIO, ... as usual.
 * No reader writes, prints or keeps anything open.
 */
#ifndef BLKALIGN_USED_H
#define BLKALIGN_USED_H

#include <stdint.h>

#include "scan/scan.h"

/* Bytes relative to the start of the contents. */
struct ba_extent {
	uint64_t off, len;
};

/* The most extents a map may have (16 bytes each): more is refused. */
#define BA_USED_MAX_EXTENTS (4u << 20)

struct ba_used_map {
	/* where the map comes from, as JSON's map_source says it:
	 * "libext2fs", "xfs-bnobt", "libntfs-3g", "fat", "exfat-bitmap",
	 * "btrfs-chunks", "lvm-segments", "swap-header", or "whole"
	 * (exFAT's map is its allocation bitmap, FAT's its FAT) */
	const char *source;
	uint64_t size; /* the bytes the contents span, from 0 */
	uint64_t used; /* the sum of the extents' lengths */
	uint32_t unit; /* the allocation unit (block, cluster, PE) */
	uint64_t nr, cap;
	struct ba_extent *ext; /* sorted, disjoint, touching ones merged */
};

/*
 * A reader: the contents at @off of @io, @size bytes long (the partition
 * or what libblkid found in it), into @m (m->size is @size, m->source
 * set by ba_used_read).
 */
typedef int (*ba_used_reader)(struct ba_io *io, uint64_t off, uint64_t size,
			      struct ba_used_map *m, char *why, size_t len);

/*
 * The map of what the libblkid @type at @off of @io uses.  A type with
 * no reader, or a variant its reader does not read (@why then says
 * which), gets the whole map: [0, size) used, source "whole" (return 0).
 * Any other failure leaves @m empty.
 */
int ba_used_read(struct ba_io *io, uint64_t off, uint64_t size,
		 const char *type, struct ba_used_map *m, char *why,
		 size_t len);

/* The map's source for @type ("whole" when no reader knows it). */
const char *ba_used_source_of(const char *type);

/*
 * A reader's read: @len bytes at byte @at of the contents at @off of @io
 * (@size bytes), as ba_io_read_region reads them: 0, or -errno; -EBADMSG,
 * @why saying so, when they pass the contents' end (a structure points
 * past it).
 */
int ba_used_read_at(struct ba_io *io, uint64_t off, uint64_t size, uint64_t at,
		    size_t len, void *buf, char *why, size_t wlen);

/* Add [off, off + len) in any order (0 or -ENOMEM, -E2BIG past
 * BA_USED_MAX_EXTENTS); ba_used_read normalises afterwards. */
int ba_used_add(struct ba_used_map *m, uint64_t off, uint64_t len);

/* Sort and merge; -EBADMSG (with @why) when an extent passes m->size. */
int ba_used_normalise(struct ba_used_map *m, char *why, size_t len);

/* [0, size) whole. */
int ba_used_whole(struct ba_used_map *m, uint64_t size);

/* XXH3-64 over the extents (the journal keeps it with the map). */
uint64_t ba_used_hash(const struct ba_used_map *m);

/* The used bytes of [off, off + len). */
uint64_t ba_used_in(const struct ba_used_map *m, uint64_t off, uint64_t len);

/* Gaps below this are copied over rather than skipped: a read of a
 * few KiB more is cheaper than one more request. */
#define BA_USED_GAP (64 * 1024)
/* A move's map: its first MiB always in it (the head a move hides while
 * in flight), at most this many extents (16 bytes each, twice in the
 * journal: a finer map is coarsened). */
#define BA_USED_HEAD	 (1024 * 1024)
#define BA_USED_MOVE_MAX (1u << 20)
int ba_used_shape(struct ba_used_map *m, uint64_t coff, uint32_t lss,
		  uint64_t len, uint64_t head, uint64_t max_nr, char *why,
		  size_t wlen);
void ba_used_free(struct ba_used_map *m);

/* The readers (one file each). */
int ba_used_ext(struct ba_io *io, uint64_t off, uint64_t size,
		struct ba_used_map *m, char *why, size_t len);
int ba_used_swap(struct ba_io *io, uint64_t off, uint64_t size,
		 struct ba_used_map *m, char *why, size_t len);
int ba_used_xfs(struct ba_io *io, uint64_t off, uint64_t size,
		struct ba_used_map *m, char *why, size_t len);
int ba_used_fat(struct ba_io *io, uint64_t off, uint64_t size,
		struct ba_used_map *m, char *why, size_t len);
int ba_used_exfat(struct ba_io *io, uint64_t off, uint64_t size,
		  struct ba_used_map *m, char *why, size_t len);
int ba_used_ntfs(struct ba_io *io, uint64_t off, uint64_t size,
		 struct ba_used_map *m, char *why, size_t len);
int ba_used_btrfs(struct ba_io *io, uint64_t off, uint64_t size,
		  struct ba_used_map *m, char *why, size_t len);
int ba_used_lvm(struct ba_io *io, uint64_t off, uint64_t size,
		struct ba_used_map *m, char *why, size_t len);

#endif /* BLKALIGN_USED_H */
