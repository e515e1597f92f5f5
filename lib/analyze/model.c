/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * model.c - the I/O cost model: the block requests a workload produces
 * on one layer, the physical sectors they touch, the read-modify-writes
 * a 512e drive does and what md RAID-4/5/6 adds, as pure functions of
 * the geometry.  No I/O, no globals; everything in bytes.
 *
 * The rules, with their sources (docs/facts.md
 * §1-§2 and §5, kernel 6.1 source unless said otherwise):
 *
 * - Buffered writes to a block device go through the bdev page cache and
 *   leave one bio per buffer_head of the soft block size
 *   (fs/buffer.c submit_bh_wbc(): bio_alloc(.., 1, ..) + one
 *   bio_add_page() of bh->b_size).  A request takes bios while
 *   nr_phys_segments + 1 <= max_segments (block/blk-merge.c
 *   ll_new_hw_segment(): segments are added per bio, never coalesced)
 *   and while it stays within max_sectors (ll_back_merge_fn()): the cap
 *   is min(max_sectors_kb * 1024, max_segments * soft block size).
 *   Measured on 6.18 loop devices: 128, 256, 512, 1024 sectors.
 * - With a virt_boundary_mask, kernels before 729204ef49ec "block: relax
 *   check on sg gap" (early 2017, 4.11) refused a merge when the
 *   request's last bvec does not end on a (mask + 1) boundary or the new
 *   bio's first bvec does not start on one (__bvec_gap_to_prev()), so
 *   sub-page buffer_head bios did not merge except across a page end:
 *   seed 002's requests of "1 or 2 sectors" (512) and "2 or 4 sectors"
 *   (1024).  Current kernels merge physically contiguous bvecs
 *   (biovec_phys_mergeable()) but still refuse to extend a request whose
 *   first bvec starts at a non-zero offset (5a8d75a1b8c9, bio_will_gap()).
 * - Buffered reads go through readahead (blkdev_readahead() ->
 *   mpage_readahead(): multi-page bios), untouched by the soft block
 *   size; the window is read_ahead_kb, or the read size up to
 *   max_sectors_kb when the read is larger (mm/readahead.c
 *   ractl_max_pages()), and a sequential reader sets off one window past
 *   the last byte it reads (the PG_readahead marker on the first page of
 *   each window).  Page cache folios are often physically contiguous, so
 *   a request holds up to max_segments * max_segment_size (measured:
 *   2560 sectors with max_sectors_kb 1280; fragmented memory splits
 *   some requests below that).
 * - Direct I/O builds bios from the user buffer (block/fops.c
 *   __blkdev_direct_IO*), one segment per page of a page-aligned buffer,
 *   split by bio_split_rw() at max_segments and at max_sectors, the
 *   latter ending on a physical block boundary (get_max_io_size()):
 *   cap = min(I/O size, max_sectors_kb * 1024, max_segments * page)
 *   (measured: 1024 sectors for 1 MiB writes with 128 segments).
 * - A write request that covers part of a physical sector (counted from
 *   the alignment offset) makes a 512e drive read, merge and rewrite the
 *   sector: one read-modify-write for the head, one for the tail.
 * - md RAID-4/5/6: per stripe with D data disks, w chunks written and f
 *   of them fully overwritten: a full stripe costs D + P writes (P = 1,
 *   2 for RAID-6); otherwise md compares the blocks it would have to
 *   read, read-modify-write w + P against reconstruct-write D - f, and
 *   takes read-modify-write only when it needs strictly fewer reads
 *   (drivers/md/raid5.c handle_stripe_dirtying(), rmw_level 1); both
 *   then write w + P.  Buffered sequential writes are gathered by the
 *   stripe cache (one stream); direct and random writes are costed one
 *   I/O at a time.  Reads cost one member I/O per chunk touched.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"

/* Distinct request sizes tracked while simulating. */
#define NSIZES 32
/* Positions of a random workload simulated before scaling. */
#define MAX_RANDOM_POSITIONS 65536
/* States (offsets mod the period) remembered for cycle skipping. */
#define MAX_STATES 8192
/* md's stripe head: one page of every member (STRIPE_SIZE, raid5.h). */
#define STRIPE_HEAD_BYTES 4096

struct geom {
	uint64_t lss, pss, min_io, opt_io, ao;
	uint64_t max_segs, max_bytes, max_seg_size, mask, page, ra_bytes;
};

struct raid {
	int level;
	uint64_t disks, data, parity, chunk, stripe;
	uint64_t member_pss, members_misaligned;
};

/* Counters while simulating: additive, so cycles can be multiplied. */
struct acc {
	uint64_t ios, bios, requests, request_bytes;
	uint64_t request_max, request_min;
	uint64_t physical_sectors, partial_requests, rmw, chunk_straddles;
	uint64_t raid_stripes, raid_full, raid_rmw, raid_rcw;
	uint64_t raid_reads, raid_writes;
	size_t nsizes;
	struct blkalign_size_count sizes[NSIZES];
	uint64_t sizes_other;
};

struct sim {
	struct geom g;
	struct raid r;
	bool has_raid;
	enum blkalign_kernel kernel;
	const struct blkalign_workload *w;
	uint64_t start; /* layer start, absolute */
	uint64_t sbs;	/* soft block size of the layer */
	struct acc a;
};

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static uint64_t round_down(uint64_t x, uint64_t g)
{
	return g ? x / g * g : x;
}

static uint64_t round_up(uint64_t x, uint64_t g)
{
	return g ? (x + g - 1) / g * g : x;
}

/* The kernel defaults the model takes for fields left 0
 * (include/linux/blkdev.h BLK_MAX_SEGMENTS, BLK_DEF_MAX_SECTORS,
 * BLK_MAX_SEGMENT_SIZE; mm VM_READAHEAD_PAGES). */
static void fill_defaults(struct blkalign_model_geometry *g)
{
	if (!g->logical_sector_size)
		g->logical_sector_size = 512;
	if (!g->physical_sector_size)
		g->physical_sector_size = g->logical_sector_size;
	if (!g->minimum_io_size)
		g->minimum_io_size = g->physical_sector_size;
	if (!g->max_segments)
		g->max_segments = BA_DEF_MAX_SEGMENTS;
	if (!g->max_sectors_kb)
		g->max_sectors_kb = BA_DEF_MAX_SECTORS_KB;
	if (!g->max_segment_size)
		g->max_segment_size = BA_DEF_MAX_SEGMENT_SIZE;
	if (!g->page_size)
		g->page_size = 4096;
	if (!g->read_ahead_kb)
		g->read_ahead_kb = BA_DEF_READ_AHEAD_KB;
}

/* The caller's @in, of its size, as this library's struct. */
int ba_model_geometry_in(struct blkalign_model_geometry *copy,
			 const struct blkalign_model_geometry *in)
{
	if (!in ||
	    ba_sized_copy(copy, sizeof(*copy), in, BA_MODEL_GEOMETRY_SIZE0))
		return -EINVAL;
	copy->size = sizeof(*copy);
	return 0;
}

/* @full back into the caller's @g, as much as its size holds. */
void ba_model_geometry_out(struct blkalign_model_geometry *g,
			   const struct blkalign_model_geometry *full)
{
	size_t n = g->size < sizeof(*full) ? g->size : sizeof(*full);
	size_t size = g->size;

	memcpy(g, full, n);
	g->size = size;
}

/* A caller's model input of its size (@in, size first) as this library's
 * struct @copy of @full bytes: -EINVAL when its size is below @min. */
int ba_model_sized_in(void *copy, size_t full, const void *in, size_t min)
{
	if (!in || ba_sized_copy(copy, full, in, min))
		return -EINVAL;
	memcpy(copy, &full, sizeof(full));
	return 0;
}

/* This library's @full (@n bytes) into the caller's @out, as much as its
 * size (set by the caller, at least @min) holds. */
int ba_model_sized_out(void *out, const void *full, size_t n, size_t min)
{
	size_t size;

	if (!out)
		return -EINVAL;
	memcpy(&size, out, sizeof(size));
	if (size < min)
		return -EINVAL;
	memcpy(out, full, size < n ? size : n);
	memcpy(out, &size, sizeof(size));
	return 0;
}

/**
 * blkalign_model_geometry_defaults: the fields of @g left 0 set to the
 * kernel defaults the model takes.  @g->size is the caller's sizeof.
 * Returns: 0, or -EINVAL when @g is NULL or its size is not set.
 */
int blkalign_model_geometry_defaults(struct blkalign_model_geometry *g)
{
	struct blkalign_model_geometry d;

	if (ba_model_geometry_in(&d, g))
		return -EINVAL;
	fill_defaults(&d);
	ba_model_geometry_out(g, &d);
	return 0;
}

static int resolve_geom(const struct blkalign_model_geometry *in,
			struct geom *g)
{
	struct blkalign_model_geometry d;

	if (ba_model_geometry_in(&d, in))
		return -EINVAL;
	fill_defaults(&d);
	g->lss = d.logical_sector_size;
	g->pss = d.physical_sector_size;
	g->min_io = d.minimum_io_size;
	g->opt_io = d.optimal_io_size;
	g->ao = d.alignment_offset;
	g->max_segs = d.max_segments;
	g->max_bytes = (uint64_t)d.max_sectors_kb * KIB;
	g->max_seg_size = d.max_segment_size;
	g->mask = d.virt_boundary_mask;
	g->page = d.page_size;
	g->ra_bytes = (uint64_t)d.read_ahead_kb * KIB;
	if (!ba_is_pow2(g->lss) || g->lss < 512 || g->lss > 65536 ||
	    !ba_is_pow2(g->pss) || g->pss < g->lss || g->pss > 65536 ||
	    !ba_is_pow2(g->page) || g->page < 512 || g->page > 65536)
		return -EINVAL;
	if (g->ao >= g->pss || g->max_bytes < g->lss || g->max_seg_size < 512)
		return -EINVAL;
	if (g->mask && !ba_is_pow2(g->mask + 1))
		return -EINVAL;
	return 0;
}

static int resolve_raid(const struct blkalign_model_layer *l, struct raid *r)
{
	memset(r, 0, sizeof(*r));
	if (!l->raid_disks)
		return 0;
	r->level = l->raid_level;
	r->disks = l->raid_disks;
	r->chunk = l->raid_chunk;
	if (!r->chunk || r->chunk % 512 || r->disks < 2 || r->disks > 4096)
		return -EINVAL;
	switch (r->level) {
	case 0:
		r->data = r->disks;
		break;
	case 1:
		r->data = 1;
		break;
	case 10: /* near 2: each chunk on two disks */
		if (r->disks < 2)
			return -EINVAL;
		r->data = r->disks / 2;
		break;
	case 4:
	case 5:
		r->data = r->disks - 1;
		r->parity = 1;
		break;
	case 6:
		if (r->disks < 3)
			return -EINVAL;
		r->data = r->disks - 2;
		r->parity = 2;
		break;
	default:
		return -EINVAL;
	}
	r->stripe = r->chunk * r->data;
	r->member_pss = l->raid_member_physical;
	r->members_misaligned = l->raid_members_misaligned;
	if (r->members_misaligned > r->disks)
		return -EINVAL;
	return 1;
}

/*
 * Read-modify-writes at the members' 512e drives for @writes member
 * writes of a parity RAID: md writes whole stripe-head pages at page
 * multiples of each member's data, so on a member whose data starts off
 * its physical grid (physical sector <= page) every write covers part
 * of its first and of its last sector: two each.  Member writes are
 * spread over the members evenly (the parity rotates).
 */
static uint64_t member_rmw(const struct raid *r, uint64_t writes)
{
	if (!r->parity || !r->members_misaligned || !r->member_pss ||
	    r->member_pss > STRIPE_HEAD_BYTES)
		return 0;
	return 2 * writes * r->members_misaligned / r->disks;
}

static void size_add(struct acc *a, uint64_t bytes, uint64_t n)
{
	for (size_t i = 0; i < a->nsizes; i++) {
		if (a->sizes[i].bytes == bytes) {
			a->sizes[i].count += n;
			return;
		}
	}
	if (a->nsizes < NSIZES) {
		a->sizes[a->nsizes].bytes = bytes;
		a->sizes[a->nsizes].count = n;
		a->nsizes++;
		return;
	}
	a->sizes_other += n;
}

static uint64_t size_count(const struct acc *a, uint64_t bytes)
{
	for (size_t i = 0; i < a->nsizes; i++)
		if (a->sizes[i].bytes == bytes)
			return a->sizes[i].count;
	return 0;
}

/* Chunks of the RAID grid that [abs, abs + len) touches. */
static uint64_t chunks_touched(const struct raid *r, uint64_t abs, uint64_t len)
{
	return (abs + len - 1) / r->chunk - abs / r->chunk + 1;
}

/*
 * One request at layer offset @off: its size, the physical sectors it
 * touches, whether a 512e drive must read-modify-write its head or tail,
 * and what the RAID below reads (writes are costed per I/O or stream).
 */
static void account_request(struct sim *s, uint64_t off, uint64_t len,
			    bool write)
{
	const struct geom *g = &s->g;
	struct acc *a = &s->a;
	uint64_t abs = s->start + off;
	/* Positions counted from the alignment offset, kept positive. */
	uint64_t head = abs + g->pss - g->ao, tail = head + len;
	uint64_t first = head / g->pss, last = (tail - 1) / g->pss;
	uint64_t n = last - first + 1;

	a->requests++;
	a->request_bytes += len;
	if (len > a->request_max)
		a->request_max = len;
	if (!a->request_min || len < a->request_min)
		a->request_min = len;
	size_add(a, len, 1);
	a->physical_sectors += n;
	if (write && (head % g->pss || tail % g->pss)) {
		a->partial_requests++;
		a->rmw += n == 1 ? 1
				 : (head % g->pss != 0) + (tail % g->pss != 0);
	}
	if (!s->has_raid)
		return;
	if (s->r.level != 1 && chunks_touched(&s->r, abs, len) >
				       (len + s->r.chunk - 1) / s->r.chunk)
		a->chunk_straddles++;
	switch (s->r.level) {
	case 1:
		if (write)
			a->raid_writes += s->r.disks;
		else
			a->raid_reads++;
		break;
	case 0:
	case 10:
		if (write)
			a->raid_writes += chunks_touched(&s->r, abs, len) *
					  (s->r.level == 10 ? 2 : 1);
		else
			a->raid_reads += chunks_touched(&s->r, abs, len);
		break;
	default:
		if (!write)
			a->raid_reads += chunks_touched(&s->r, abs, len);
		break;
	}
}

/* ceil(a / b) and floor(a / b) of a signed @a, for b > 0. */
static int64_t div_up(int64_t a, int64_t b)
{
	return a >= 0 ? (a + b - 1) / b : -(-a / b);
}

static int64_t div_down(int64_t a, int64_t b)
{
	return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* Chunks [*c0, *c1] (clamped to [0, data)) whose block of a row at
 * @base intersects [lo, hi) (@full false) or lies inside it (true). */
static uint64_t row_chunks(const struct raid *r, int64_t base, int64_t row,
			   int64_t lo, int64_t hi, bool full, int64_t *c0,
			   int64_t *c1)
{
	int64_t ch = (int64_t)r->chunk;

	if (full) {
		*c0 = div_up(lo - base, ch);
		*c1 = div_down(hi - base - row, ch);
	} else {
		*c0 = div_up(lo - base - row + 1, ch);
		*c1 = div_down(hi - 1 - base, ch);
	}
	if (*c0 < 0)
		*c0 = 0;
	if (*c1 > (int64_t)r->data - 1)
		*c1 = (int64_t)r->data - 1;
	return *c1 >= *c0 ? (uint64_t)(*c1 - *c0 + 1) : 0;
}

/* What one stripe head does: which data blocks it writes [w0, w1], which
 * it wholly overwrites [o0, o1], and what it reads to make the parity. */
struct head {
	enum { HEAD_IDLE, HEAD_FULL, HEAD_RMW, HEAD_RCW } mode;
	int64_t w0, w1, o0, o1;
};

static bool head_writes(const struct raid *r, const struct head *h, uint64_t m)
{
	if (h->mode == HEAD_IDLE)
		return false;
	return m >= r->data || ((int64_t)m >= h->w0 && (int64_t)m <= h->w1);
}

static bool head_reads(const struct raid *r, const struct head *h, uint64_t m)
{
	switch (h->mode) {
	case HEAD_RMW:
		return head_writes(r, h, m);
	case HEAD_RCW:
		return m < r->data &&
		       ((int64_t)m < h->o0 || (int64_t)m > h->o1);
	default:
		return false;
	}
}

/*
 * One stripe of a parity RAID where [lo, hi) (bytes inside the stripe)
 * is written, costed cold (nothing of the stripe in md's stripe cache).
 * md works per stripe head - one page of every member - and decides for
 * each whether it is full, read-modify-write or reconstruct-write
 * (handle_stripe_dirtying(): rmw reads the blocks written and the
 * parity, rcw the data blocks not wholly overwritten; rmw only when it
 * reads strictly fewer).  The heads' bios to one member merge when the
 * heads are adjacent, so a member costs one I/O per run of heads that
 * read (or write) it.
 */
static void stripe_write(struct acc *a, const struct raid *r, uint64_t lo,
			 uint64_t hi, uint64_t times)
{
	uint64_t full_lo = (lo + r->chunk - 1) / r->chunk,
		 full_hi = hi / r->chunk;
	uint64_t f = full_hi > full_lo ? full_hi - full_lo : 0;
	uint64_t row =
		r->chunk % STRIPE_HEAD_BYTES ? r->chunk : STRIPE_HEAD_BYTES;
	uint64_t members = r->data + r->parity, reads = 0, writes = 0;
	struct head prev = {.mode = HEAD_IDLE};
	bool any_rmw = false;

	a->raid_stripes += times;
	if (f == r->data) {
		a->raid_full += times;
		a->raid_writes += times * members;
		return;
	}
	for (uint64_t base = 0; base < r->chunk; base += row) {
		struct head h = {.mode = HEAD_IDLE};
		uint64_t wn =
			row_chunks(r, (int64_t)base, (int64_t)row, (int64_t)lo,
				   (int64_t)hi, false, &h.w0, &h.w1);
		uint64_t on =
			row_chunks(r, (int64_t)base, (int64_t)row, (int64_t)lo,
				   (int64_t)hi, true, &h.o0, &h.o1);

		if (wn) {
			if (on == r->data)
				h.mode = HEAD_FULL;
			else if (wn + r->parity < r->data - on)
				h.mode = HEAD_RMW;
			else
				h.mode = HEAD_RCW;
			any_rmw |= h.mode == HEAD_RMW;
			for (uint64_t m = 0; m < members; m++) {
				writes += head_writes(r, &h, m) &&
					  !head_writes(r, &prev, m);
				reads += head_reads(r, &h, m) &&
					 !head_reads(r, &prev, m);
			}
		}
		prev = h;
	}
	if (any_rmw)
		a->raid_rmw += times;
	else
		a->raid_rcw += times;
	a->raid_reads += times * reads;
	a->raid_writes += times * writes;
}

/* Writes of [abs, abs + len) to a parity RAID as one gathered range. */
static void raid_write_range(struct sim *s, uint64_t abs, uint64_t len)
{
	const struct raid *r = &s->r;
	uint64_t end = abs + len, s0, s1;

	if (!s->has_raid || r->parity == 0 || !len)
		return;
	s0 = abs / r->stripe;
	s1 = (end - 1) / r->stripe;
	if (s0 == s1) {
		stripe_write(&s->a, r, abs - s0 * r->stripe,
			     end - s0 * r->stripe, 1);
		return;
	}
	stripe_write(&s->a, r, abs - s0 * r->stripe, r->stripe, 1);
	if (s1 - s0 > 1)
		stripe_write(&s->a, r, 0, r->stripe, s1 - s0 - 1);
	stripe_write(&s->a, r, 0, end - s1 * r->stripe, 1);
}

/* Whether a request may take the next buffer_head bio (see the top). */
static bool bio_merges(const struct sim *s, uint64_t len, uint64_t nseg,
		       uint64_t first_in, uint64_t last_end_in, uint64_t in)
{
	const struct geom *g = &s->g;
	bool gap;

	if (nseg + 1 > g->max_segs || len + s->sbs > g->max_bytes)
		return false;
	if (!g->mask)
		return true;
	gap = (last_end_in & g->mask) || (in & g->mask);
	if (s->kernel == BLKALIGN_KERNEL_PRE_4_11)
		return !gap;
	/* 5a8d75a1b8c9: never extend a request starting inside a page */
	if (first_in & g->mask)
		return false;
	/* 729204ef49ec: bvecs in the same page are contiguous */
	return in != 0 || !gap;
}

/*
 * Buffered writeback of the dirty blocks [off, end) (soft-block aligned):
 * one bio per soft block, merged greedily.  Returns the bytes the first
 * request took; with @one false, runs to @end.
 */
static uint64_t buffered_write(struct sim *s, uint64_t off, uint64_t end,
			       bool one)
{
	uint64_t taken = 0;

	while (off < end) {
		uint64_t len = 0, nseg = 0, first_in = off % s->g.page;
		uint64_t last_end_in = 0;

		while (off + len < end) {
			uint64_t in = (off + len) % s->g.page;

			if (len && !bio_merges(s, len, nseg, first_in,
					       last_end_in, in))
				break;
			len += s->sbs;
			nseg++;
			s->a.bios++;
			last_end_in = in + s->sbs;
		}
		account_request(s, off, len, true);
		off += len;
		if (!taken)
			taken = len;
		if (one)
			break;
	}
	return taken;
}

/*
 * The largest split of a bio at absolute @abs by max_sectors, ending on a
 * physical block boundary when it can (block/blk-merge.c
 * get_max_io_size()).
 */
static uint64_t max_split(const struct geom *g, uint64_t abs)
{
	uint64_t start = abs % g->pss;
	uint64_t end =
		round_down(start + round_down(g->max_bytes, 512), g->pss);

	if (end > start)
		return end - start;
	return round_down(g->max_bytes, g->lss);
}

/* One direct I/O of [off, off + len) from a page-aligned buffer. */
static void direct_io(struct sim *s, uint64_t off, uint64_t len, bool write)
{
	const struct geom *g = &s->g;
	uint64_t seg = min64(g->page, g->max_seg_size), buf = 0;

	s->a.bios++;
	while (len) {
		uint64_t cap = g->max_segs * seg - buf % seg;

		cap = min64(cap, max_split(g, s->start + off));
		if (cap < len)
			cap = max64(round_down(cap, g->lss), g->lss);
		cap = min64(cap, len);
		account_request(s, off, cap, write);
		off += cap;
		buf += cap;
		len -= cap;
	}
}

/* Read requests of at most @cap for the pages of [off, end). */
static uint64_t buffered_read(struct sim *s, uint64_t off, uint64_t end,
			      uint64_t cap, bool one)
{
	uint64_t taken = 0;

	off = round_down(off, s->g.page);
	end = round_up(end, s->g.page);
	while (off < end) {
		uint64_t len = min64(cap, end - off);

		s->a.bios++;
		account_request(s, off, len, false);
		off += len;
		if (!taken)
			taken = len;
		if (one)
			break;
	}
	return taken;
}

/*
 * The readahead window for sequential reads of @io_size: read_ahead_kb,
 * or a read larger than that up to the hardware's optimal size
 * (mm/readahead.c ractl_max_pages(): io_pages = max_sectors_kb).
 */
static uint64_t ra_window(const struct geom *g, uint64_t io_size)
{
	uint64_t window = g->ra_bytes;

	if (io_size > window && g->max_bytes > window)
		window = min64(io_size, g->max_bytes);
	return max64(round_down(window, g->page), g->page);
}

/* The request cap for buffered reads: sequential ones read ahead. */
static uint64_t read_cap(const struct geom *g, uint64_t io_size, bool ahead)
{
	uint64_t window = ahead ? ra_window(g, io_size) : io_size;
	uint64_t cap = min64(g->max_bytes, g->max_segs * g->max_seg_size);

	cap = min64(cap, max64(window, g->page));
	return max64(round_down(cap, g->page), g->page);
}

/* acc += n * (cur - snap), for the additive counters. */
static void acc_add_cycles(struct acc *a, const struct acc *snap, uint64_t n)
{
	struct acc cur = *a;

#define ADD(f) a->f += n * (cur.f - snap->f)
	ADD(ios);
	ADD(bios);
	ADD(requests);
	ADD(request_bytes);
	ADD(physical_sectors);
	ADD(partial_requests);
	ADD(rmw);
	ADD(chunk_straddles);
	ADD(raid_stripes);
	ADD(raid_full);
	ADD(raid_rmw);
	ADD(raid_rcw);
	ADD(raid_reads);
	ADD(raid_writes);
	ADD(sizes_other);
#undef ADD
	for (size_t i = 0; i < cur.nsizes; i++)
		size_add(a, cur.sizes[i].bytes,
			 n * (cur.sizes[i].count -
			      size_count(snap, cur.sizes[i].bytes)));
}

struct snap {
	bool seen;
	uint64_t off;
	struct acc a;
};

/* One unit of a sequential stream at @off; returns the bytes it took. */
typedef uint64_t (*unit_fn)(struct sim *s, uint64_t off, uint64_t end);

/*
 * Run a sequential stream over [0, end) unit by unit.  A unit's cost
 * depends only on its offset modulo @period (pages, physical sectors,
 * chunks) while the end is far: when a unit starts at an offset already
 * seen, the units in between repeat, so whole cycles are multiplied
 * instead of simulated.  The last stretch is always simulated.
 */
static void run_stream(struct sim *s, uint64_t end, uint64_t period,
		       uint64_t bound, unit_fn fn)
{
	struct snap *snaps = NULL;
	uint64_t off = 0;
	bool skipped = false;

	if (period && period % s->g.lss == 0 && period / s->g.lss <= MAX_STATES)
		snaps = calloc(period / s->g.lss, sizeof(*snaps));
	while (off < end) {
		if (snaps && !skipped && end - off > bound &&
		    off % s->g.lss == 0) {
			struct snap *sn = &snaps[(off % period) / s->g.lss];

			if (sn->seen) {
				uint64_t cycle = off - sn->off;
				uint64_t n = (end - off - bound) / cycle;

				if (n) {
					acc_add_cycles(&s->a, &sn->a, n);
					off += n * cycle;
				}
				skipped = true;
			} else {
				sn->seen = true;
				sn->off = off;
				sn->a = s->a;
			}
		}
		off += fn(s, off, end);
	}
	free(snaps);
}

static uint64_t unit_buffered_write(struct sim *s, uint64_t off, uint64_t end)
{
	return buffered_write(s, off, end, true);
}

/* One readahead window, in requests of the read cap. */
static uint64_t unit_buffered_read(struct sim *s, uint64_t off, uint64_t end)
{
	uint64_t w = min64(ra_window(&s->g, s->w->io_size), end - off);

	buffered_read(s, off, off + w, read_cap(&s->g, s->w->io_size, true),
		      false);
	return w;
}

/* One direct I/O; the RAID below sees it alone. */
static uint64_t unit_direct(struct sim *s, uint64_t off, uint64_t end)
{
	uint64_t len = min64(s->w->io_size, end - off);
	bool write = s->w->dir == BLKALIGN_IO_WRITE;

	s->a.ios++;
	direct_io(s, off, len, write);
	if (write)
		raid_write_range(s, s->start + off, len);
	return len;
}

/* One random I/O at layer offset @off, cold cache. */
static void random_io(struct sim *s, uint64_t off)
{
	const struct blkalign_workload *w = s->w;
	bool write = w->dir == BLKALIGN_IO_WRITE;

	s->a.ios++;
	if (w->path == BLKALIGN_IO_DIRECT) {
		direct_io(s, off, w->io_size, write);
		if (write)
			raid_write_range(s, s->start + off, w->io_size);
	} else if (write) {
		uint64_t lo = round_down(off, s->sbs);
		uint64_t hi = round_up(off + w->io_size, s->sbs);

		buffered_write(s, lo, hi, false);
		raid_write_range(s, s->start + lo, hi - lo);
	} else {
		/* a random read is read as is (page_cache_sync_ra()) */
		buffered_read(s, off, off + w->io_size,
			      read_cap(&s->g, w->io_size, false), false);
	}
}

/*
 * The largest request the rules allow for the workload (see the top),
 * with segments of @seg bytes where memory contiguity decides (direct
 * I/O buffers, page cache reads); 0: the model's own assumption.
 */
static uint64_t request_cap(const struct sim *s, uint64_t seg)
{
	const struct geom *g = &s->g;
	const struct blkalign_workload *w = s->w;

	if (w->path == BLKALIGN_IO_DIRECT) {
		if (!seg)
			seg = min64(g->page, g->max_seg_size);
		return min64(w->io_size, min64(round_down(g->max_bytes, g->lss),
					       g->max_segs * seg));
	}
	if (w->dir == BLKALIGN_IO_READ) {
		uint64_t cap = read_cap(g, w->io_size,
					w->pattern == BLKALIGN_IO_SEQUENTIAL);

		if (seg)
			cap = min64(cap, max64(round_down(g->max_segs * seg,
							  g->page),
					       g->page));
		return cap;
	}
	/* pre-4.11 with a virt boundary: only the pair across a boundary */
	if (g->mask && s->kernel == BLKALIGN_KERNEL_PRE_4_11 &&
	    s->sbs < g->mask + 1)
		return 2 * s->sbs;
	return min64(round_down(g->max_bytes, s->sbs), g->max_segs * s->sbs);
}

static void finish_cost(const struct sim *s, struct ba_model_cost *out)
{
	struct blkalign_model_cost *c = &out->pub;
	const struct acc *a = &s->a;
	struct blkalign_size_count sorted[NSIZES];

	c->ios = a->ios;
	c->bios = a->bios;
	c->requests = a->requests;
	c->request_bytes = a->request_bytes;
	c->request_max = a->request_max;
	c->request_min = a->request_min;
	c->physical_sectors = a->physical_sectors;
	c->partial_requests = a->partial_requests;
	c->rmw = a->rmw;
	c->chunk_straddles = a->chunk_straddles;
	c->raid_stripes = a->raid_stripes;
	c->raid_full_stripes = a->raid_full;
	c->raid_rmw_stripes = a->raid_rmw;
	c->raid_rcw_stripes = a->raid_rcw;
	c->raid_reads = a->raid_reads;
	c->raid_writes = a->raid_writes;
	c->raid_member_rmw = member_rmw(&s->r, a->raid_writes);

	/* Sizes by count, then by size, largest first. */
	memcpy(sorted, a->sizes, a->nsizes * sizeof(sorted[0]));
	for (size_t i = 1; i < a->nsizes; i++) {
		struct blkalign_size_count t = sorted[i];
		size_t j = i;

		while (j > 0 && (sorted[j - 1].count < t.count ||
				 (sorted[j - 1].count == t.count &&
				  sorted[j - 1].bytes < t.bytes))) {
			sorted[j] = sorted[j - 1];
			j--;
		}
		sorted[j] = t;
	}
	c->nsizes = min64(a->nsizes, BA_SIZES_LISTED);
	memcpy(out->sizes, sorted, c->nsizes * sizeof(out->sizes[0]));
	c->sizes = out->sizes;
	c->sizes_other = a->sizes_other;
	for (size_t i = c->nsizes; i < a->nsizes; i++)
		c->sizes_other += sorted[i].count;
}

/* Scale the counters of @k simulated random I/Os to @n of them. */
static void scale_acc(struct acc *a, uint64_t k, uint64_t n)
{
	double f = (double)n / (double)k;

#define SC(x) (x) = (uint64_t)((double)(x)*f + 0.5)
	SC(a->ios);
	SC(a->bios);
	SC(a->requests);
	SC(a->request_bytes);
	SC(a->physical_sectors);
	SC(a->partial_requests);
	SC(a->rmw);
	SC(a->chunk_straddles);
	SC(a->raid_stripes);
	SC(a->raid_full);
	SC(a->raid_rmw);
	SC(a->raid_rcw);
	SC(a->raid_reads);
	SC(a->raid_writes);
	SC(a->sizes_other);
	for (size_t i = 0; i < a->nsizes; i++)
		SC(a->sizes[i].count);
#undef SC
}

/*
 * ba_model_cost: what workload @w costs on layer @l of a device of
 * geometry @g, on kernel @k.  Sequential workloads start at the layer
 * start; random ones are io_size-aligned from the layer start, spread
 * evenly over one period of every grid (pages, physical sectors, RAID
 * chunks and stripes), and scaled to the total.
 * Returns: 0, or -EINVAL for impossible input, -ENOMEM.
 */
int ba_model_cost(const struct blkalign_model_geometry *g,
		  const struct blkalign_model_layer *l,
		  const struct blkalign_workload *w, enum blkalign_kernel k,
		  struct ba_model_cost *out)
{
	struct sim s;
	uint64_t total, period, bound;
	bool write;
	int rc;

	if (!g || !l || !w || !out)
		return -EINVAL;
	memset(&s, 0, sizeof(s));
	memset(out, 0, sizeof(*out));
	rc = resolve_geom(g, &s.g);
	if (rc)
		return rc;
	rc = resolve_raid(l, &s.r);
	if (rc < 0)
		return rc;
	s.has_raid = rc > 0;
	s.kernel = k;
	s.w = w;
	s.start = l->start;
	if (!l->length || !w->io_size || w->io_size % s.g.lss ||
	    w->io_size > l->length)
		return -EINVAL;
	s.sbs = blkalign_soft_block_size(l->length, (uint32_t)s.g.lss,
					 (uint32_t)s.g.page);
	total = w->total && w->total < l->length ? w->total : l->length;
	write = w->dir == BLKALIGN_IO_WRITE;

	/* The grids a unit's cost depends on. */
	period = ba_lcm64(s.g.page, s.g.pss);
	period = ba_lcm64(period, s.sbs);
	if (s.has_raid) {
		period = ba_lcm64(period, s.r.chunk);
		if (s.r.parity)
			period = period ? ba_lcm64(period, s.r.stripe) : 0;
	}

	if (w->pattern == BLKALIGN_IO_SEQUENTIAL) {
		bound = 2 * (w->io_size + s.g.max_bytes + s.g.ra_bytes +
			     s.g.page) +
			(period ? period : 0);
		if (w->path == BLKALIGN_IO_DIRECT) {
			total = round_down(total, w->io_size);
			period = ba_lcm64(period, w->io_size);
			run_stream(&s, total, period, bound, unit_direct);
		} else if (write) {
			/* dirty blocks, written back in order, one stream */
			total = round_up(total, s.g.lss);
			s.a.ios = (total + w->io_size - 1) / w->io_size;
			run_stream(&s, round_up(total, s.sbs), period, bound,
				   unit_buffered_write);
			raid_write_range(&s, s.start, round_up(total, s.sbs));
		} else {
			/*
			 * Readahead windows cover the bytes read, and the
			 * last one read sets off one more (the async marker
			 * sits on the first page of each window).
			 */
			uint64_t win = ra_window(&s.g, w->io_size);
			uint64_t ahead = ((total + win - 1) / win + 1) * win;

			total = round_up(total, s.g.lss);
			s.a.ios = (total + w->io_size - 1) / w->io_size;
			ahead = min64(ahead, round_down(l->length, s.g.page));
			period = ba_lcm64(period, win);
			run_stream(&s, max64(ahead, round_up(total, s.g.page)),
				   period, bound, unit_buffered_read);
		}
	} else {
		uint64_t n = total / w->io_size, positions, step;

		if (!n)
			n = 1;
		/* The costs repeat every lcm(io_size, grids) bytes. */
		step = period ? ba_lcm64(period, w->io_size) : 0;
		positions = step ? step / w->io_size : MAX_RANDOM_POSITIONS;
		if (!positions || positions > MAX_RANDOM_POSITIONS)
			positions = MAX_RANDOM_POSITIONS;
		if (positions > l->length / w->io_size)
			positions = l->length / w->io_size;
		if (n <= positions)
			positions = n;
		for (uint64_t i = 0; i < positions; i++)
			random_io(&s, i * w->io_size);
		if (positions < n)
			scale_acc(&s.a, positions, n);
		total = n * w->io_size;
	}
	finish_cost(&s, out);
	out->pub.bytes = total;
	out->pub.soft_block_size = (uint32_t)s.sbs;
	out->pub.request_cap = request_cap(&s, 0);
	out->pub.request_cap_min =
		request_cap(&s, min64(s.g.page, s.g.max_seg_size));
	out->pub.request_cap_max = request_cap(&s, s.g.max_seg_size);
	return 0;
}

#define WSIZE sizeof(struct blkalign_workload)

static const struct {
	const char *name;
	struct blkalign_workload w;
} presets[] = {
	/* dd bs=1M of/if a device: 1 GiB (capped at the layer) */
	{"seq-write-buffered",
	 {WSIZE, "seq-write-buffered", BLKALIGN_IO_WRITE,
	  BLKALIGN_IO_SEQUENTIAL, BLKALIGN_IO_BUFFERED, MIB, 1024 * MIB}},
	{"seq-write-direct",
	 {WSIZE, "seq-write-direct", BLKALIGN_IO_WRITE, BLKALIGN_IO_SEQUENTIAL,
	  BLKALIGN_IO_DIRECT, MIB, 1024 * MIB}},
	{"seq-read",
	 {WSIZE, "seq-read", BLKALIGN_IO_READ, BLKALIGN_IO_SEQUENTIAL,
	  BLKALIGN_IO_BUFFERED, MIB, 1024 * MIB}},
	{"seq-read-direct",
	 {WSIZE, "seq-read-direct", BLKALIGN_IO_READ, BLKALIGN_IO_SEQUENTIAL,
	  BLKALIGN_IO_DIRECT, MIB, 1024 * MIB}},
	/* a database or a VM image: 4 KiB O_DIRECT writes, 1 GiB of them */
	{"rand-write-4k",
	 {WSIZE, "rand-write-4k", BLKALIGN_IO_WRITE, BLKALIGN_IO_RANDOM,
	  BLKALIGN_IO_DIRECT, 4 * KIB, 1024 * MIB}},
	{"rand-read-4k",
	 {WSIZE, "rand-read-4k", BLKALIGN_IO_READ, BLKALIGN_IO_RANDOM,
	  BLKALIGN_IO_DIRECT, 4 * KIB, 1024 * MIB}},
	/* mkfs writing (zeroing) the whole device through the page cache */
	{"mkfs",
	 {WSIZE, "mkfs", BLKALIGN_IO_WRITE, BLKALIGN_IO_SEQUENTIAL,
	  BLKALIGN_IO_BUFFERED, MIB, 0}},
};

#define NPRESETS (sizeof(presets) / sizeof(presets[0]))

/**
 * blkalign_workload_presets: the preset names, NULL-terminated.
 */
const char *const *blkalign_workload_presets(void)
{
	static const char *names[NPRESETS + 1];

	if (!names[0])
		for (size_t i = 0; i < NPRESETS; i++)
			names[i] = presets[i].name;
	return names;
}

/**
 * blkalign_workload_preset: fill @w with the preset @name.
 * Returns: 0, or -ENOENT for an unknown name.
 */
int blkalign_workload_preset(const char *name, struct blkalign_workload *w)
{
	if (!name || !w)
		return -EINVAL;
	for (size_t i = 0; i < NPRESETS; i++) {
		if (strcmp(presets[i].name, name))
			continue;
		return ba_model_sized_out(w, &presets[i].w, sizeof(*w),
					  BA_WORKLOAD_SIZE0);
	}
	return -ENOENT;
}

const char *blkalign_kernel_name(enum blkalign_kernel k)
{
	return k == BLKALIGN_KERNEL_PRE_4_11 ? "pre-4.11" : "current";
}

int blkalign_kernel_parse(const char *name, enum blkalign_kernel *k)
{
	if (!name || !k)
		return -EINVAL;
	if (!strcmp(name, "current"))
		*k = BLKALIGN_KERNEL_CURRENT;
	else if (!strcmp(name, "pre-4.11"))
		*k = BLKALIGN_KERNEL_PRE_4_11;
	else
		return -EINVAL;
	return 0;
}

/**
 * blkalign_model_align_layer: the same layer, aligned: the start rounded
 * up (from the alignment offset) to the grain a partitioning tool would
 * use, lcm(1 MiB, physical sector, minimum and optimal I/O, RAID
 * stripe), and the size rounded down to a multiple of the page (and of
 * the physical sector), so the soft block size is the page.
 * Returns: 0 or -EINVAL.
 */
int blkalign_model_align_layer(const struct blkalign_model_geometry *g,
			       const struct blkalign_model_layer *l,
			       struct blkalign_model_layer *out)
{
	struct blkalign_model_layer in, full;
	int rc;

	if (!out || ba_model_sized_in(&in, sizeof(in), l, BA_MODEL_LAYER_SIZE0))
		return -EINVAL;
	rc = ba_model_align_layer(g, &in, &full);
	if (rc)
		return rc;
	return ba_model_sized_out(out, &full, sizeof(full),
				  BA_MODEL_LAYER_SIZE0);
}

/* The same on this library's structs. */
int ba_model_align_layer(const struct blkalign_model_geometry *g,
			 const struct blkalign_model_layer *l,
			 struct blkalign_model_layer *out)
{
	struct geom gg;
	struct raid r;
	uint64_t grain, unit;
	int rc;

	if (!g || !l || !out)
		return -EINVAL;
	rc = resolve_geom(g, &gg);
	if (rc)
		return rc;
	rc = resolve_raid(l, &r);
	if (rc < 0)
		return rc;
	grain = ba_grain(gg.pss, gg.min_io, gg.opt_io);
	if (rc > 0 && r.stripe) {
		uint64_t with = ba_lcm64(grain, r.stripe);

		grain = with && with <= 1024 * MIB ? with : r.stripe;
	}
	if (!grain)
		grain = MIB;
	*out = *l;
	out->start = ba_round_up_grid(l->start, gg.ao, grain);
	out->raid_members_misaligned = 0; /* their partitions aligned too */
	unit = max64(gg.page, gg.pss);
	out->length = l->length / unit * unit;
	if (!out->length)
		out->length = unit;
	return 0;
}

/*
 * ba_model_run: workload @w on layer @l as it is and aligned, into @out.
 * Both runs move the same bytes: a total of 0 (the whole layer) or one
 * larger than a layer is cut to the smaller of the two sizes.
 * Returns: 0, -EINVAL or -ENOMEM.
 */
int ba_model_run(const struct blkalign_model_geometry *g,
		 const struct blkalign_model_layer *l,
		 const struct blkalign_workload *w, enum blkalign_kernel k,
		 struct ba_model *out)
{
	struct blkalign_model *m = &out->pub;
	struct blkalign_workload same;
	struct ba_model_cost c;
	int rc;

	if (!g || !l || !w)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	m->workload = *w;
	m->kernel = k;
	m->actual = *l;
	rc = ba_model_align_layer(g, l, &m->aligned);
	if (rc)
		return rc;
	same = *w;
	if (!same.total || same.total > m->aligned.length)
		same.total = m->aligned.length;
	if (same.total > l->length)
		same.total = l->length;
	m->workload.total = same.total;
	rc = ba_model_cost(g, l, &same, k, &c);
	if (rc)
		return rc;
	m->cost = c.pub;
	memcpy(out->sizes[0], c.sizes, sizeof(c.sizes));
	m->cost.sizes = out->sizes[0];
	rc = ba_model_cost(g, &m->aligned, &same, k, &c);
	if (rc)
		return rc;
	m->cost_aligned = c.pub;
	memcpy(out->sizes[1], c.sizes, sizeof(c.sizes));
	m->cost_aligned.sizes = out->sizes[1];
	return 0;
}

/**
 * blkalign_model_run: see blkalign.h and ba_model_run.
 */
int blkalign_model_run(const struct blkalign_model_geometry *g,
		       const struct blkalign_model_layer *l,
		       const struct blkalign_workload *w,
		       enum blkalign_kernel k, struct blkalign_model **out)
{
	struct blkalign_model_layer lf;
	struct blkalign_workload wf;
	struct ba_model *m;
	int rc;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (ba_model_sized_in(&lf, sizeof(lf), l, BA_MODEL_LAYER_SIZE0) ||
	    ba_model_sized_in(&wf, sizeof(wf), w, BA_WORKLOAD_SIZE0))
		return -EINVAL;
	m = malloc(sizeof(*m));
	if (!m)
		return -ENOMEM;
	rc = ba_model_run(g, &lf, &wf, k, m);
	if (rc) {
		free(m);
		return rc;
	}
	*out = &m->pub;
	return 0;
}

void blkalign_model_free(struct blkalign_model *m)
{
	free(m); /* pub is the first member of struct ba_model */
}

/**
 * blkalign_model_ratio: @actual / @aligned; 1 when both are 0, 0 when
 * only @aligned is (no finite ratio: print the counts).
 */
double blkalign_model_ratio(uint64_t actual, uint64_t aligned)
{
	if (!aligned)
		return actual ? 0.0 : 1.0;
	return (double)actual / (double)aligned;
}
