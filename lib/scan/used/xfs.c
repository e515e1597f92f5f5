/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * xfs.c - what an XFS filesystem uses: each allocation group's length
 * minus the free extents its by-block-number free-space B+tree (the
 * bnobt) lists.  Everything else is used: the AG headers (superblock,
 * AGF, AGI, AGFL sectors), the inode and free-space B+trees, the blocks
 * on the AGFL (free to the allocator, not in the bnobt: copied, a few
 * blocks), the internal log, inodes and data.  Past sb_dblocks nothing.
 *
 * Layout: xfsprogs' libxfs/xfs_format.h (struct xfs_dsb, xfs_agf,
 * xfs_btree_block), xfs_alloc_btree.h and xfs_log_format.h
 * (xlog_rec_header, xlog_op_header); all big-endian.
 *
 * Refused, -EUCLEAN: a log that needs replay.  As xfsprogs'
 * xlog_is_dirty (xlog_find_tail): the log head is the first block whose
 * cycle is below the first block's (or the log's end); the last record
 * header before it must be a lone unmount record (one op, its flags
 * XLOG_UNMOUNT_TRANS) that ends exactly at the head.  A log whose first
 * block has cycle 0 was never written: clean.  And NEEDSREPAIR set.
 *
 * Refused, -EBADMSG: an AGF whose magic, sequence or length is off, a
 * bnobt block with the wrong magic, level or record count, a record
 * outside its AG, records not ascending and disjoint (what also ends a
 * loop of siblings; the walk visits at most agf_length blocks), and
 * free counts that disagree.  What is exactly true, and what xfs_repair
 * compares: an AG's bnobt records sum to agf_freeblks.  sb_fdblocks is
 * lazily counted (lazy-count=1, always on v5): on disk it is right only
 * after a clean unmount (checked above), when it is the in-core counter
 * xfs_initialize_perag_data builds: the sum over the AGs of
 * agf_freeblks + agf_flcount + agf_btreeblks (the free-space trees'
 * blocks but their roots count as free: they return when space merges).
 * With the rmapbt, agf_btreeblks holds its blocks too, which the
 * counter does not: then sb_fdblocks is not compared; without
 * lazy-count, agf_btreeblks is not kept and neither is it.
 *
 * -ENOTSUP: a realtime subvolume, an external log (its state is on
 * another device), a version other than 4 or 5, incompat features this
 * reader does not know (metadir, zoned, ...), an mkfs in progress.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "used/used.h"

#define XFS_SB_MAGIC	   0x58465342 /* XFSB */
#define XFS_AGF_MAGIC	   0x58414746 /* XAGF */
#define XFS_ABTB_MAGIC	   0x41425442 /* ABTB, v4 bnobt */
#define XFS_ABTB_CRC	   0x41423342 /* AB3B, v5 bnobt */
#define XLOG_HEADER_MAGIC  0xfeedbabe
#define XLOG_UNMOUNT_TRANS 0x20
#define XLOG_VERSION_2	   2
#define XLOG_HEADER_CYCLE  32768
#define NULLAGBLOCK	   0xffffffffu
#define BB		   512
#define BTREE_MAXLEVELS	   9

#define SB_VERSION_NUMBITS	0x000f
#define SB_VERSION_MOREBITS	0x8000
#define SB_F2_LAZYSBCOUNT	0x00000002
#define SB_RO_RMAPBT		(1u << 1)
#define SB_INCOMPAT_NEEDSREPAIR (1u << 4)
/* ftype, sparse inodes, meta_uuid, bigtime, nrext64, exchange-range,
 * parent pointers: nothing of where blocks are */
#define SB_INCOMPAT_KNOWN                                            \
	((1u << 0) | (1u << 1) | (1u << 2) | (1u << 3) | (1u << 4) | \
	 (1u << 5) | (1u << 6) | (1u << 7))

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64(const uint8_t *p)
{
	return (uint64_t)be32(p) << 32 | be32(p + 4);
}

struct xfs {
	struct ba_io *io;
	uint64_t off, size;
	uint32_t bsize, sectsize, agblocks, agcount;
	uint8_t agblklog;
	uint64_t dblocks;
	int v5;
	uint8_t *buf; /* a block */
};

/* Read @len bytes at byte @at of the filesystem (ba_used_read_at). */
static int rd(struct xfs *x, uint64_t at, size_t len, void *buf, char *why,
	      size_t wlen)
{
	return ba_used_read_at(x->io, x->off, x->size, at, len, buf, why, wlen);
}

static int log_cycle(struct xfs *x, uint64_t log, uint64_t blk, uint32_t *c,
		     char *why, size_t len)
{
	uint8_t h[8];
	int rc = rd(x, log + blk * BB, sizeof(h), h, why, len);

	if (rc)
		return rc;
	*c = be32(h) == XLOG_HEADER_MAGIC ? be32(h + 4) : be32(h);
	return 0;
}

static int log_dirty(char *why, size_t len)
{
	snprintf(why, len,
		 "its log needs replay: mount and umount it, or xfs_repair "
		 "(-L loses the log)");
	return -EUCLEAN;
}

/* The internal log of @nblk 512-byte blocks at byte @log: 0 clean,
 * -EUCLEAN needing replay, -EBADMSG, -errno. */
static int check_log(struct xfs *x, uint64_t log, uint64_t nblk, char *why,
		     size_t len)
{
	uint32_t first, last, c;
	uint64_t head, lo, hi, rec, hblks, end;
	uint8_t h[324], op[12];
	int rc;

	rc = log_cycle(x, log, 0, &first, why, len);
	if (!rc)
		rc = log_cycle(x, log, nblk - 1, &last, why, len);
	if (rc)
		return rc;
	if (!first)
		return 0; /* never written */
	if (last == first) {
		head = nblk; /* the head at the end: wrapped exactly */
	} else {
		/* the first block whose cycle is below @first */
		lo = 0;
		hi = nblk - 1; /* cycle(lo) == first, cycle(hi) != first */
		while (hi - lo > 1) {
			uint64_t mid = lo + (hi - lo) / 2;

			rc = log_cycle(x, log, mid, &c, why, len);
			if (rc)
				return rc;
			if (c == first)
				lo = mid;
			else
				hi = mid;
		}
		head = hi;
	}
	/* the last record header before the head: within the largest
	 * record (256 KiB and its headers) */
	for (rec = head;;) {
		if (!rec || head - rec >= 1024)
			return log_dirty(why, len);
		rec--;
		rc = rd(x, log + rec * BB, 4, h, why, len);
		if (rc)
			return rc;
		if (be32(h) == XLOG_HEADER_MAGIC)
			break;
	}
	rc = rd(x, log + rec * BB, sizeof(h), h, why, len);
	if (rc)
		return rc;
	if (be32(h + 40) != 1)
		return log_dirty(why, len); /* h_num_logops */
	hblks = 1;
	if ((be32(h + 8) & XLOG_VERSION_2) && be32(h + 320) > XLOG_HEADER_CYCLE)
		hblks = (be32(h + 320) + XLOG_HEADER_CYCLE - 1) /
			XLOG_HEADER_CYCLE;
	end = rec + hblks + (be32(h + 12) + BB - 1) / BB;
	if (rec + hblks >= nblk)
		return log_dirty(why, len);
	rc = rd(x, log + (rec + hblks) * BB, sizeof(op), op, why, len);
	if (rc)
		return rc;
	if (!(op[9] & XLOG_UNMOUNT_TRANS) || end != head)
		return log_dirty(why, len);
	return 0;
}

/* The bnobt of AG @agno (root @root, @levels): its free extents into
 * @free (AG block pairs, ascending), their sum into @sum. */
static int walk_bnobt(struct xfs *x, uint32_t agno, uint32_t aglen,
		      uint32_t root, uint32_t levels, uint64_t *sum,
		      struct ba_used_map *freem, char *why, size_t len)
{
	uint32_t magic = x->v5 ? XFS_ABTB_CRC : XFS_ABTB_MAGIC;
	size_t hdr = x->v5 ? 56 : 16;
	uint32_t maxrecs = (uint32_t)((x->bsize - hdr) / 8);
	uint32_t maxptrs = (uint32_t)((x->bsize - hdr) / 12);
	uint64_t agbyte = (uint64_t)agno * x->agblocks * x->bsize;
	uint64_t visits = 0, next = 0;
	uint32_t blk = root, level;
	int rc;

	if (!levels || levels > BTREE_MAXLEVELS) {
		snprintf(why, len, "AG %u: its bnobt has %u levels", agno,
			 levels);
		return -EBADMSG;
	}
	/* down the left edge */
	for (level = levels - 1;; level--) {
		uint16_t nr;

		if (blk >= aglen || !blk) {
			snprintf(why, len,
				 "AG %u: its bnobt points at block %u, "
				 "outside the AG (%u blocks)",
				 agno, blk, aglen);
			return -EBADMSG;
		}
		rc = rd(x, agbyte + (uint64_t)blk * x->bsize, x->bsize, x->buf,
			why, len);
		if (rc)
			return rc;
		nr = be16(x->buf + 6);
		if (be32(x->buf) != magic || be16(x->buf + 4) != level ||
		    nr > (level ? maxptrs : maxrecs) || (level && !nr)) {
			snprintf(why, len,
				 "AG %u: bnobt block %u is not one at level "
				 "%u",
				 agno, blk, level);
			return -EBADMSG;
		}
		if (!level)
			break;
		blk = be32(x->buf + hdr + (size_t)maxptrs * 8);
	}
	/* the leaves, left to right */
	for (;;) {
		uint16_t nr = be16(x->buf + 6);
		uint32_t right = be32(x->buf + 12);

		for (uint16_t i = 0; i < nr; i++) {
			const uint8_t *r = x->buf + hdr + (size_t)i * 8;
			uint32_t start = be32(r), count = be32(r + 4);

			if (!count || start < next || start >= aglen ||
			    count > aglen - start) {
				snprintf(why, len,
					 "AG %u: bnobt record %u+%u is "
					 "outside the AG (%u blocks) or out "
					 "of order",
					 agno, start, count, aglen);
				return -EBADMSG;
			}
			next = (uint64_t)start + count;
			*sum += count;
			rc = ba_used_add(freem, start, count);
			if (rc)
				return rc;
		}
		if (right == NULLAGBLOCK)
			return 0;
		if (++visits >= aglen || right >= aglen || !right) {
			snprintf(why, len,
				 "AG %u: the bnobt leaves do not end inside "
				 "the AG",
				 agno);
			return -EBADMSG;
		}
		blk = right;
		rc = rd(x, agbyte + (uint64_t)blk * x->bsize, x->bsize, x->buf,
			why, len);
		if (rc)
			return rc;
		if (be32(x->buf) != magic || be16(x->buf + 4) != 0 ||
		    be16(x->buf + 6) > maxrecs) {
			snprintf(why, len, "AG %u: bnobt block %u is no leaf",
				 agno, blk);
			return -EBADMSG;
		}
	}
}

int ba_used_xfs(struct ba_io *io, uint64_t off, uint64_t size,
		struct ba_used_map *m, char *why, size_t len)
{
	struct xfs x = {.io = io, .off = off, .size = size};
	struct ba_used_map freem = {0};
	uint8_t sb[264], agf[64];
	uint64_t logstart, fdblocks, counted = 0;
	uint32_t logblocks, f2 = 0, incompat = 0, ro = 0;
	uint16_t ver;
	int rc;

	rc = rd(&x, 0, sizeof(sb), sb, why, len);
	if (rc)
		return rc;
	if (be32(sb) != XFS_SB_MAGIC) {
		snprintf(why, len, "no XFS superblock");
		return -EINVAL;
	}
	x.bsize = be32(sb + 4);
	x.dblocks = be64(sb + 8);
	logstart = be64(sb + 48);
	x.agblocks = be32(sb + 84);
	x.agcount = be32(sb + 88);
	logblocks = be32(sb + 96);
	ver = be16(sb + 100);
	x.sectsize = be16(sb + 102);
	x.agblklog = sb[124];
	fdblocks = be64(sb + 144);
	if ((ver & SB_VERSION_NUMBITS) == 5) {
		x.v5 = 1;
		ro = be32(sb + 212);
		incompat = be32(sb + 216);
	} else if ((ver & SB_VERSION_NUMBITS) != 4) {
		snprintf(why, len, "XFS version %u is not read",
			 ver & SB_VERSION_NUMBITS);
		return -ENOTSUP;
	}
	if (ver & SB_VERSION_MOREBITS)
		f2 = be32(sb + 200);
	if (x.v5)
		f2 |= SB_F2_LAZYSBCOUNT;
	if (x.bsize < 512 || x.bsize > 65536 || (x.bsize & (x.bsize - 1)) ||
	    x.sectsize < 512 || x.sectsize > x.bsize ||
	    (x.sectsize & (x.sectsize - 1)) || !x.agcount || x.agblocks < 8 ||
	    x.agblklog > 31 || x.agblocks > (1u << x.agblklog) || !x.dblocks ||
	    x.dblocks > (uint64_t)x.agcount * x.agblocks ||
	    x.dblocks <= (uint64_t)(x.agcount - 1) * x.agblocks) {
		snprintf(why, len,
			 "its superblock's geometry is impossible (%u-byte "
			 "blocks, %u AGs of %u, %llu blocks)",
			 x.bsize, x.agcount, x.agblocks,
			 (unsigned long long)x.dblocks);
		return -EBADMSG;
	}
	if (x.dblocks > size / x.bsize) {
		snprintf(why, len,
			 "it says %llu blocks of %u bytes, longer than its "
			 "%llu bytes",
			 (unsigned long long)x.dblocks, x.bsize,
			 (unsigned long long)size);
		return -EBADMSG;
	}
	if (sb[126]) {
		snprintf(why, len, "its mkfs is in progress");
		return -ENOTSUP;
	}
	if (incompat & SB_INCOMPAT_NEEDSREPAIR) {
		snprintf(why, len, "it is marked as needing xfs_repair");
		return -EUCLEAN;
	}
	if (incompat & ~SB_INCOMPAT_KNOWN) {
		snprintf(why, len, "XFS incompat features 0x%x are not read",
			 incompat & ~SB_INCOMPAT_KNOWN);
		return -ENOTSUP;
	}
	if (be64(sb + 16)) {
		snprintf(why, len, "it has a realtime subvolume");
		return -ENOTSUP;
	}
	if (!logstart) {
		snprintf(why, len, "its log is external");
		return -ENOTSUP;
	}
	{
		uint64_t ag = logstart >> x.agblklog;
		uint64_t agb = logstart & ((1ull << x.agblklog) - 1);
		uint64_t lb = ag * x.agblocks + agb;

		if (ag >= x.agcount || agb >= x.agblocks || !logblocks ||
		    lb > x.dblocks || logblocks > x.dblocks - lb) {
			snprintf(why, len, "its log is outside it");
			return -EBADMSG;
		}
		rc = check_log(&x, lb * x.bsize,
			       (uint64_t)logblocks * x.bsize / BB, why, len);
		if (rc)
			return rc;
	}
	x.buf = malloc(x.bsize);
	if (!x.buf)
		return -ENOMEM;
	m->unit = x.bsize;
	for (uint32_t ag = 0; ag < x.agcount; ag++) {
		uint64_t agbyte = (uint64_t)ag * x.agblocks * x.bsize, sum = 0;
		uint32_t aglen =
			ag + 1 < x.agcount
				? x.agblocks
				: (uint32_t)(x.dblocks -
					     (uint64_t)ag * x.agblocks);
		uint64_t at = 0;

		rc = rd(&x, agbyte + x.sectsize, sizeof(agf), agf, why, len);
		if (rc)
			goto out;
		if (be32(agf) != XFS_AGF_MAGIC || be32(agf + 4) != 1 ||
		    be32(agf + 8) != ag || be32(agf + 12) != aglen) {
			snprintf(why, len,
				 "AG %u: its AGF is not that AG's (%u blocks)",
				 ag, aglen);
			rc = -EBADMSG;
			goto out;
		}
		freem.nr = 0;
		rc = walk_bnobt(&x, ag, aglen, be32(agf + 16), be32(agf + 28),
				&sum, &freem, why, len);
		if (rc)
			goto out;
		if (sum != be32(agf + 52)) {
			snprintf(why, len,
				 "AG %u: its bnobt lists %llu free blocks, "
				 "its AGF says %u",
				 ag, (unsigned long long)sum, be32(agf + 52));
			rc = -EBADMSG;
			goto out;
		}
		counted += sum + be32(agf + 48) + be32(agf + 60);
		/* used: the complement of the (ascending) free extents */
		for (uint64_t i = 0; i <= freem.nr; i++) {
			uint64_t s = i < freem.nr ? freem.ext[i].off : aglen;

			if (s > at) {
				rc = ba_used_add(m, agbyte + at * x.bsize,
						 (s - at) * x.bsize);
				if (rc)
					goto out;
			}
			if (i < freem.nr)
				at = s + freem.ext[i].len;
		}
	}
	if ((f2 & SB_F2_LAZYSBCOUNT) && !(ro & SB_RO_RMAPBT) &&
	    counted != fdblocks) {
		snprintf(why, len,
			 "its superblock says %llu free blocks, its AGs "
			 "%llu",
			 (unsigned long long)fdblocks,
			 (unsigned long long)counted);
		rc = -EBADMSG;
	}
out:
	free(x.buf);
	ba_used_free(&freem);
	return rc;
}
