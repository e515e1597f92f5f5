/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * btrfs.c - what a btrfs device uses: every device extent (the
 * physical range of a chunk on this device: a chunk moves whole), the
 * superblock copies inside it and [0, 1 MiB), which btrfs never
 * allocates (the primary superblock at 64 KiB is in it).
 *
 * Layout: btrfs-progs kernel-shared/uapi/btrfs_tree.h (struct
 * btrfs_super_block, btrfs_header, btrfs_item, btrfs_key_ptr,
 * btrfs_chunk, btrfs_stripe, btrfs_root_item, btrfs_dev_extent); all
 * little-endian.  The read: the superblock (magic, self-location, its
 * crc32c when the csum type is crc32c), its sys_chunk_array (the SYSTEM
 * chunks, enough to read the chunk tree), the chunk tree (every chunk:
 * logical to physical), the root tree's ROOT_ITEM of the device tree
 * (objectid 4), then the device tree's DEV_EXTENT items of this devid.
 * Each tree block read is checked: its bytenr, level, owner's fsid, item
 * count and item offsets inside the block, its crc32c (a DUP block that
 * fails is read from its second copy, as btrfs does); keys ascend
 * across a walk (what ends a loop of blocks), at most 8 levels, at most
 * total_bytes / nodesize blocks read per tree.  The device extents must
 * sum to dev_item.bytes_used, lie inside dev_item.total_bytes and not
 * overlap.
 *
 * -EUCLEAN: a log tree (log_root != 0): fsync'd data to replay.
 * -ENOTSUP: more than one device, chunks of a RAID profile (only SINGLE
 * and DUP are mapped: their stripe 0, DUP's second copy being a device
 * extent too).  -EBADMSG: anything that does not hold.  Checksums other
 * than crc32c (xxhash, sha256, blake2) are not verified.
 */
#include <endian.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "used/used.h"

#define SB_OFF		 65536
#define SB_SIZE		 4096
#define MAGIC		 "_BHRfS_M"
#define HEADER		 101 /* struct btrfs_header */
#define ITEM		 25  /* struct btrfs_item: key, offset, size */
#define KEY_PTR		 33  /* struct btrfs_key_ptr: key, blockptr, gen */
#define CHUNK		 48  /* struct btrfs_chunk without its stripes */
#define STRIPE		 32
#define MAX_LEVEL	 8
#define SYS_ARRAY_MAX	 2048
#define CHUNK_ITEM	 228
#define ROOT_ITEM	 132
#define DEV_EXTENT	 204
#define DEV_TREE	 4
#define CSUM_CRC32C	 0
#define BG_PROFILES	 (0x8 | 0x10 | 0x40 | 0x80 | 0x100 | 0x200 | 0x400)
#define BG_DUP		 0x20
#define NEVER_ALLOCATED	 (1024 * 1024)
#define SB_MIRROR_OFF(i) ((i) ? 16384ull << (12 * (i)) : 65536ull)

static uint64_t le64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return le64toh(v);
}

static uint32_t le32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return le32toh(v);
}

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

struct key {
	uint64_t objectid;
	uint8_t type;
	uint64_t offset;
};

static struct key get_key(const uint8_t *p)
{
	return (struct key){le64(p), p[8], le64(p + 9)};
}

static int key_cmp(const struct key *a, const struct key *b)
{
	if (a->objectid != b->objectid)
		return a->objectid < b->objectid ? -1 : 1;
	if (a->type != b->type)
		return a->type < b->type ? -1 : 1;
	if (a->offset != b->offset)
		return a->offset < b->offset ? -1 : 1;
	return 0;
}

/* A chunk: [logical, +length) at @physical on this device (and at
 * @physical2 for DUP's second copy, else the same). */
struct chunk {
	uint64_t logical, length, physical, physical2;
};

struct chunks {
	struct chunk *c; /* ascending, disjoint */
	size_t n, cap;
};

struct btrfs {
	struct ba_io *io;
	uint64_t off, size;
	uint8_t fsid[16];
	uint64_t devid, total_bytes;
	uint32_t nodesize;
	uint16_t csum_type;
	struct chunks *map;	 /* the chunks tree blocks are read through */
	uint8_t *blk[MAX_LEVEL]; /* a block per level */
	char *why;
	size_t wlen;
};

static int bad(struct btrfs *b, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int bad(struct btrfs *b, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(b->why, b->wlen, fmt, ap);
	va_end(ap);
	return rc;
}

static int fail(struct btrfs *b, int rc, const char *msg)
{
	snprintf(b->why, b->wlen, "%s", msg);
	return rc;
}

static int rd(struct btrfs *b, uint64_t at, size_t len, void *buf)
{
	return ba_used_read_at(b->io, b->off, b->size, at, len, buf, b->why,
			       b->wlen);
}

/* A chunk item at @p (@len bytes) into @l. */
static int add_chunk(struct btrfs *b, struct chunks *l, uint64_t logical,
		     const uint8_t *p, size_t len)
{
	uint64_t length, type;
	uint16_t nstripes;
	struct chunk *c;

	if (len < CHUNK)
		return bad(b, -EBADMSG, "a chunk item of %llu bytes",
			   (unsigned long long)len);
	length = le64(p);
	type = le64(p + 24);
	nstripes = le16(p + 44);
	if (!nstripes || len < CHUNK + (size_t)nstripes * STRIPE || !length ||
	    logical > UINT64_MAX - length)
		return bad(b, -EBADMSG,
			   "the chunk at logical %llu is malformed",
			   (unsigned long long)logical);
	if (type & BG_PROFILES)
		return bad(b, -ENOTSUP,
			   "it has chunks of a RAID profile (type 0x%llx)",
			   (unsigned long long)type);
	if ((type & BG_DUP) ? nstripes != 2 : nstripes != 1)
		return bad(b, -EBADMSG,
			   "the chunk at logical %llu has a stripe count "
			   "its profile does not have",
			   (unsigned long long)logical);
	for (uint16_t i = 0; i < nstripes; i++)
		if (le64(p + CHUNK + (size_t)i * STRIPE) != b->devid)
			return bad(b, -ENOTSUP,
				   "its chunk at logical %llu is on another "
				   "device",
				   (unsigned long long)logical);
	if (l->n && logical < l->c[l->n - 1].logical + l->c[l->n - 1].length)
		return bad(b, -EBADMSG,
			   "its chunk at logical %llu overlaps or is out of "
			   "order",
			   (unsigned long long)logical);
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;

		if (l->cap > (1u << 24))
			return -E2BIG;
		c = realloc(l->c, cap * sizeof(*c));
		if (!c)
			return -ENOMEM;
		l->c = c;
		l->cap = cap;
	}
	l->c[l->n++] = (struct chunk){
		logical, length, le64(p + CHUNK + 8),
		le64(p + CHUNK + (nstripes - 1) * (size_t)STRIPE + 8)};
	return 0;
}

/* The physical byte of logical @l, @len bytes inside one chunk, in its
 * copy @copy (0 or 1: DUP's second, the first for SINGLE). */
static int map(struct btrfs *b, uint64_t l, uint64_t len, int copy,
	       uint64_t *phys)
{
	const struct chunk *c = b->map->c;
	size_t lo = 0, hi = b->map->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c[mid].logical + c[mid].length <= l)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == b->map->n || l < c[lo].logical ||
	    len > c[lo].logical + c[lo].length - l)
		return bad(b, -EBADMSG, "logical byte %llu is in no chunk",
			   (unsigned long long)l);
	*phys = (copy ? c[lo].physical2 : c[lo].physical) + (l - c[lo].logical);
	return 0;
}

/* Read copy @copy of tree block @l of @level into b->blk[level] and
 * check it. */
static int read_copy(struct btrfs *b, uint64_t l, unsigned int level, int copy)
{
	uint8_t *h = b->blk[level];
	uint64_t phys = 0;
	uint32_t nr, max;
	int rc = map(b, l, b->nodesize, copy, &phys);

	if (!rc)
		rc = rd(b, phys, b->nodesize, h);
	if (rc)
		return rc;
	if (b->csum_type == CSUM_CRC32C &&
	    ba_crc32c(h + 32, b->nodesize - 32) != le32(h))
		return bad(b, -EBADMSG,
			   "the tree block at logical %llu fails its checksum",
			   (unsigned long long)l);
	nr = le32(h + 0x60);
	max = (b->nodesize - HEADER) / (level ? KEY_PTR : ITEM);
	if (le64(h + 0x30) != l || h[0x64] != level ||
	    memcmp(h + 0x20, b->fsid, 16) || nr > max)
		return bad(b, -EBADMSG,
			   "the tree block at logical %llu is not what its "
			   "parent says",
			   (unsigned long long)l);
	return 0;
}

/* Tree block @l: its first copy, or DUP's second when the first fails
 * its checks (as btrfs reads the mirror). */
static int read_block(struct btrfs *b, uint64_t l, unsigned int level)
{
	int rc = read_copy(b, l, level, 0);

	if (rc == -EBADMSG && read_copy(b, l, level, 1) == 0) {
		if (b->wlen)
			b->why[0] = '\0';
		return 0;
	}
	return rc;
}

typedef int (*leaf_fn)(struct btrfs *b, const struct key *k,
		       const uint8_t *data, size_t len, void *arg);

/* Every leaf item of the tree at @root (@level), in key order. */
static int walk(struct btrfs *b, uint64_t root, unsigned int level, leaf_fn fn,
		void *arg)
{
	uint32_t idx[MAX_LEVEL] = {0};
	uint64_t budget = b->total_bytes / b->nodesize + 1;
	struct key last = {0, 0, 0};
	bool first = true;
	unsigned int lv = level;
	int rc;

	if (level >= MAX_LEVEL)
		return bad(b, -EBADMSG, "a tree of %llu levels",
			   (unsigned long long)level + 1);
	rc = read_block(b, root, level);
	if (rc)
		return rc;
	for (;;) {
		uint8_t *h = b->blk[lv];
		uint32_t nr = le32(h + 0x60);

		if (lv == 0) {
			for (uint32_t i = 0; i < nr; i++) {
				const uint8_t *it =
					h + HEADER + (size_t)i * ITEM;
				struct key k = get_key(it);
				uint32_t o = le32(it + 17), n = le32(it + 21);

				if (!first && key_cmp(&k, &last) <= 0)
					return bad(
						b, -EBADMSG,
						"tree keys out of order "
						"(objectid %llu)",
						(unsigned long long)k.objectid);
				first = false;
				last = k;
				if (o > b->nodesize - HEADER ||
				    n > b->nodesize - HEADER - o)
					return bad(
						b, -EBADMSG,
						"an item passes its tree "
						"block (objectid %llu)",
						(unsigned long long)k.objectid);
				rc = fn(b, &k, h + HEADER + o, n, arg);
				if (rc)
					return rc;
			}
			if (lv == level)
				return 0;
			lv++;
		}
		/* the next child of the node at lv, or up */
		while (idx[lv] >= le32(b->blk[lv] + 0x60)) {
			if (lv == level)
				return 0;
			lv++;
		}
		{
			const uint8_t *p =
				b->blk[lv] + HEADER + (size_t)idx[lv] * KEY_PTR;

			idx[lv]++;
			if (!budget--)
				return bad(b, -EBADMSG,
					   "a tree of more blocks than %llu",
					   (unsigned long long)(b->total_bytes /
								b->nodesize));
			rc = read_block(b, le64(p + 17), lv - 1);
			if (rc)
				return rc;
			lv--;
			idx[lv] = 0;
		}
	}
}

static int on_chunk(struct btrfs *b, const struct key *k, const uint8_t *data,
		    size_t len, void *arg)
{
	if (k->type != CHUNK_ITEM)
		return 0;
	return add_chunk(b, arg, k->offset, data, len);
}

static int on_root(struct btrfs *b, const struct key *k, const uint8_t *data,
		   size_t len, void *arg)
{
	uint64_t *dev = arg;

	if (k->objectid != DEV_TREE || k->type != ROOT_ITEM)
		return 0;
	if (len < 239)
		return bad(b, -EBADMSG, "a root item of %llu bytes",
			   (unsigned long long)len);
	dev[0] = le64(data + 176); /* bytenr */
	dev[1] = data[238];	   /* level */
	return 0;
}

struct dev_sum {
	struct ba_used_map *m;
	uint64_t sum, end;
};

static int on_dev_extent(struct btrfs *b, const struct key *k,
			 const uint8_t *data, size_t len, void *arg)
{
	struct dev_sum *d = arg;
	uint64_t n;

	if (k->type != DEV_EXTENT || k->objectid != b->devid)
		return 0;
	if (len < 32)
		return bad(b, -EBADMSG, "a device extent of %llu bytes",
			   (unsigned long long)len);
	n = le64(data + 24);
	if (!n || k->offset < d->end || k->offset > b->total_bytes ||
	    n > b->total_bytes - k->offset)
		return bad(b, -EBADMSG,
			   "the device extent at byte %llu overlaps another "
			   "or passes the device",
			   (unsigned long long)k->offset);
	d->end = k->offset + n;
	d->sum += n;
	return ba_used_add(d->m, k->offset, n);
}

static int check_sb(struct btrfs *b, const uint8_t *sb, uint64_t *root,
		    uint64_t *chunk_root, uint8_t *levels)
{
	uint32_t sectorsize = le32(sb + 0x90);

	if (memcmp(sb + 0x40, MAGIC, 8))
		return fail(b, -EINVAL, "no btrfs superblock");
	if (le64(sb + 0x30) != SB_OFF)
		return bad(b, -EBADMSG,
			   "its superblock says it is at byte %llu",
			   (unsigned long long)le64(sb + 0x30));
	b->csum_type = le16(sb + 0xc4);
	if (b->csum_type == CSUM_CRC32C &&
	    ba_crc32c(sb + 32, SB_SIZE - 32) != le32(sb))
		return fail(b, -EBADMSG, "its superblock fails its crc32c");
	if (le64(sb + 0x60))
		return bad(b, -EUCLEAN,
			   "it has a log tree to replay (log_root %llu): "
			   "mount and umount it, or btrfs rescue zero-log",
			   (unsigned long long)le64(sb + 0x60));
	if (le64(sb + 0x88) != 1)
		return bad(b, -ENOTSUP, "it spans %llu devices",
			   (unsigned long long)le64(sb + 0x88));
	memcpy(b->fsid, sb + 0x20, 16);
	if (memcmp(sb + 0x20, sb + 0x23b, 16) &&
	    (le64(sb + 0xbc) & (1u << 10))) /* METADATA_UUID */
		memcpy(b->fsid, sb + 0x23b, 16);
	b->nodesize = le32(sb + 0x94);
	b->devid = le64(sb + 0xc9);
	b->total_bytes = le64(sb + 0xd1);
	*root = le64(sb + 0x50);
	*chunk_root = le64(sb + 0x58);
	levels[0] = sb[0xc6];
	levels[1] = sb[0xc7];
	if (sectorsize < 4096 || sectorsize > 65536 ||
	    (sectorsize & (sectorsize - 1)) || b->nodesize < sectorsize ||
	    b->nodesize > 65536 || (b->nodesize & (b->nodesize - 1)))
		return bad(b, -EBADMSG,
			   "its superblock's sector or node size is "
			   "impossible (node %llu)",
			   (unsigned long long)b->nodesize);
	if (b->total_bytes > b->size || b->total_bytes < NEVER_ALLOCATED)
		return bad(b, -EBADMSG,
			   "its device is %llu bytes, not inside the region",
			   (unsigned long long)b->total_bytes);
	return 0;
}

int ba_used_btrfs(struct ba_io *io, uint64_t off, uint64_t size,
		  struct ba_used_map *m, char *why, size_t len)
{
	struct btrfs b = {
		.io = io, .off = off, .size = size, .why = why, .wlen = len};
	struct dev_sum d = {.m = m};
	struct chunks sys = {0}, all = {0};
	uint64_t root = 0, chunk_root = 0, dev[2] = {0, 0};
	uint8_t *sb, levels[2] = {0, 0};
	uint32_t n;
	int rc;

	sb = malloc(SB_SIZE);
	if (!sb)
		return -ENOMEM;
	rc = rd(&b, SB_OFF, SB_SIZE, sb);
	if (!rc)
		rc = check_sb(&b, sb, &root, &chunk_root, levels);
	if (rc)
		goto out;
	for (int i = 0; i < MAX_LEVEL; i++) {
		b.blk[i] = malloc(b.nodesize);
		if (!b.blk[i]) {
			rc = -ENOMEM;
			goto out;
		}
	}
	/* the SYSTEM chunks: key, chunk, stripes, ... */
	n = le32(sb + 0xa0);
	if (n > SYS_ARRAY_MAX) {
		rc = bad(&b, -EBADMSG, "its sys_chunk_array is %llu bytes",
			 (unsigned long long)n);
		goto out;
	}
	for (uint32_t at = 0; at < n;) {
		const uint8_t *p = sb + 0x32b + at;
		struct key k;
		size_t clen;

		if (n - at < 17 + CHUNK) {
			rc = bad(&b, -EBADMSG,
				 "its sys_chunk_array ends inside a chunk "
				 "(byte %llu)",
				 (unsigned long long)at);
			goto out;
		}
		k = get_key(p);
		clen = CHUNK + (size_t)le16(p + 17 + 44) * STRIPE;
		if (k.type != CHUNK_ITEM || clen > n - at - 17) {
			rc = bad(&b, -EBADMSG,
				 "its sys_chunk_array is malformed (byte %llu)",
				 (unsigned long long)at);
			goto out;
		}
		rc = add_chunk(&b, &sys, k.offset, p + 17, clen);
		if (rc)
			goto out;
		at += 17 + (uint32_t)clen;
	}
	/* the chunk tree, read through the SYSTEM chunks, lists all */
	b.map = &sys;
	rc = walk(&b, chunk_root, levels[1], on_chunk, &all);
	if (rc)
		goto out;
	b.map = &all;
	rc = walk(&b, root, levels[0], on_root, dev);
	if (!rc && !dev[0])
		rc = fail(&b, -EBADMSG, "its root tree has no device tree");
	if (!rc)
		rc = walk(&b, dev[0], (unsigned int)dev[1], on_dev_extent, &d);
	if (rc)
		goto out;
	if (d.sum != le64(sb + 0xd9)) {
		snprintf(why, len,
			 "its device extents sum to %llu bytes, its "
			 "superblock says %llu",
			 (unsigned long long)d.sum,
			 (unsigned long long)le64(sb + 0xd9));
		rc = -EBADMSG;
		goto out;
	}
	m->unit = le32(sb + 0x90);
	rc = ba_used_add(m, 0, NEVER_ALLOCATED);
	for (int i = 0; !rc && i < 3; i++)
		if (SB_MIRROR_OFF(i) + SB_SIZE <= size)
			rc = ba_used_add(m, SB_MIRROR_OFF(i), SB_SIZE);
out:
	for (int i = 0; i < MAX_LEVEL; i++)
		free(b.blk[i]);
	free(sys.c);
	free(all.c);
	free(sb);
	return rc;
}
