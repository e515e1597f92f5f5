/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-model.c - the I/O cost model, formula by formula.  Every expected
 * number is worked out by hand in the comments from the rules in
 * lib/analyze/model.c, docs/facts.md §1.4 (measured on a
 * 6.18 loop device), §1.6 (seed 002) and §5 (RAID-5), never taken from
 * the model's own output.
 */
#include <errno.h>
#include <string.h>

#include "blkalign.h"
#include "table.h"

#include "analyze/analyze.h"
#include "out/out.h"
#include "scan/scan.h"

#define S(n) ((uint64_t)(n)*512) /* 512-byte sectors to bytes */
#define K(n) ((uint64_t)(n)*1024)
#define M(n) ((uint64_t)(n)*1024 * 1024)

#define W   BLKALIGN_IO_WRITE
#define R   BLKALIGN_IO_READ
#define SEQ BLKALIGN_IO_SEQUENTIAL
#define RND BLKALIGN_IO_RANDOM
#define BUF BLKALIGN_IO_BUFFERED
#define DIR BLKALIGN_IO_DIRECT
#define CUR BLKALIGN_KERNEL_CURRENT
#define OLD BLKALIGN_KERNEL_PRE_4_11

/* Geometries: a 6.18 loop device, storvsc-like, a 512e drive. */
#define GSIZE sizeof(struct blkalign_model_geometry)
#define LOOP                                                                \
	{                                                                   \
		GSIZE, 512, 512, 512, 0, 0, 128, 1280, 65536, 0, 4096, 2560 \
	}
#define LOOP_RA128                                                         \
	{                                                                  \
		GSIZE, 512, 512, 512, 0, 0, 128, 1280, 65536, 0, 4096, 128 \
	}
#define LOOP_4KN                                                               \
	{                                                                      \
		GSIZE, 4096, 4096, 4096, 0, 0, 128, 1280, 65536, 0, 4096, 2560 \
	}
#define HYPERV                                                               \
	{                                                                    \
		GSIZE, 512, 512, 512, 0, 0, 128, 1280, 4096, 4095, 4096, 128 \
	}
#define E512                                                                 \
	{                                                                    \
		GSIZE, 512, 4096, 4096, 0, 0, 128, 1280, 65536, 0, 4096, 128 \
	}
#define E512_64K                                                           \
	{                                                                  \
		GSIZE, 512, 4096, 4096, 0, 0, 128, 64, 65536, 0, 4096, 128 \
	}

struct cost_row {
	const char *name;
	struct blkalign_model_geometry g;
	struct blkalign_model_layer l;
	struct blkalign_workload w;
	enum blkalign_kernel kernel;
	/* expected */
	uint64_t requests, request_max, request_min, request_cap;
	uint64_t rmw, physical_sectors;
	/* two request sizes and their counts (0: not checked) */
	uint64_t size1, count1, size2, count2;
};

#define LSIZE sizeof(struct blkalign_model_layer)
#define WL(dir, pat, path, io, total)                                      \
	{                                                                  \
		sizeof(struct blkalign_workload), "t", dir, pat, path, io, \
			total                                              \
	}

static const struct cost_row cost_rows[] = {
	/*
	 * §1.4, dd bs=1M count=256 (256 MiB) on partitions of a loop:
	 * p1 999999 sectors (odd: soft block 512), p3 1000002 (2 mod 4:
	 * 1024), p2 1000000 (0 mod 8: 4096).  Buffered writes: cap =
	 * min(1280 KiB, 128 x sbs) = 64, 128, 512 KiB; 256 MiB / cap =
	 * 4096, 2048, 512 requests (measured 4097, 2049, 513, avg 127,
	 * 255, 1022 sectors: one extra request at the edges).
	 */
	{"1.4-p1-512-buffered-write",
	 LOOP,
	 {LSIZE, S(2048), S(999999)},
	 WL(W, SEQ, BUF, M(1), M(256)),
	 CUR,
	 4096,
	 K(64),
	 K(64),
	 K(64),
	 0,
	 4096 * 128,
	 K(64),
	 4096},
	{"1.4-p3-1024-buffered-write",
	 LOOP,
	 {LSIZE, S(2004992), S(1000002)},
	 WL(W, SEQ, BUF, M(1), M(256)),
	 CUR,
	 2048,
	 K(128),
	 K(128),
	 K(128),
	 0,
	 2048 * 256,
	 K(128),
	 2048},
	{"1.4-p2-4096-buffered-write",
	 LOOP,
	 {LSIZE, S(1003520), S(1000000)},
	 WL(W, SEQ, BUF, M(1), M(256)),
	 CUR,
	 512,
	 K(512),
	 K(512),
	 K(512),
	 0,
	 512 * 1024,
	 K(512),
	 512},
	/* direct 1 MiB writes: 128 pages per request = 512 KiB, 2 per I/O
	 * (measured 512 requests of 1024 sectors, any soft block size) */
	{"1.4-p1-direct-write",
	 LOOP,
	 {LSIZE, S(2048), S(999999)},
	 WL(W, SEQ, DIR, M(1), M(256)),
	 CUR,
	 512,
	 K(512),
	 K(512),
	 K(512),
	 0,
	 512 * 1024,
	 K(512),
	 512},
	{"1.4-p2-direct-write",
	 LOOP,
	 {LSIZE, S(1003520), S(1000000)},
	 WL(W, SEQ, DIR, M(1), M(256)),
	 CUR,
	 512,
	 K(512),
	 K(512),
	 K(512),
	 0,
	 512 * 1024},
	/*
	 * buffered reads: readahead window 2560 KiB (loop read_ahead_kb),
	 * cap min(1280 KiB, 128 x 64 KiB) = 1280 KiB = 2560 sectors.  The
	 * windows cover the 256 MiB read, ceil(262144 / 2560) = 103, and
	 * the last one sets off one more: 104 x 2 = 208 requests of 1280
	 * KiB (measured: 208 requests, 2560 sectors), 266240 KiB = 532480
	 * sectors.
	 */
	{"1.4-p1-buffered-read",
	 LOOP,
	 {LSIZE, S(2048), S(999999)},
	 WL(R, SEQ, BUF, M(1), M(256)),
	 CUR,
	 208,
	 K(1280),
	 K(1280),
	 K(1280),
	 0,
	 532480,
	 K(1280),
	 208},
	{"1.4-p3-buffered-read",
	 LOOP,
	 {LSIZE, S(2004992), S(1000002)},
	 WL(R, SEQ, BUF, M(1), M(256)),
	 CUR,
	 208,
	 K(1280),
	 K(1280),
	 K(1280),
	 0,
	 532480,
	 K(1280),
	 208},
	/* direct reads like direct writes (measured 512 / 1024 sectors) */
	{"1.4-p3-direct-read",
	 LOOP,
	 {LSIZE, S(2004992), S(1000002)},
	 WL(R, SEQ, DIR, M(1), M(256)),
	 CUR,
	 512,
	 K(512),
	 K(512),
	 K(512),
	 0,
	 512 * 1024},
	/* read_ahead_kb 128: a 1 MiB read is its own window
	 * (ractl_max_pages(): min(req, io_pages)): 1 GiB / 1 MiB + 1 */
	{"read-window-is-the-read",
	 LOOP_RA128,
	 {LSIZE, M(1), M(2048)},
	 WL(R, SEQ, BUF, M(1), M(1024)),
	 CUR,
	 1025,
	 M(1),
	 M(1),
	 M(1),
	 0,
	 1025 * 2048},
	/* 4 KiB reads with read_ahead_kb 128: 128 KiB windows, 512 + 1 */
	{"read-4k-window-128k",
	 LOOP_RA128,
	 {LSIZE, M(1), M(2048)},
	 WL(R, SEQ, BUF, K(4), M(64)),
	 CUR,
	 513,
	 K(128),
	 K(128),
	 K(128),
	 0,
	 513 * 256},
	/* the window past the end is cut at the layer end: a 4 MiB layer
	 * read whole is 4 MiB = 3 x 1280 KiB + 256 KiB */
	{"read-ahead-stops-at-the-end",
	 LOOP,
	 {LSIZE, M(1), M(4)},
	 WL(R, SEQ, BUF, M(1), M(4)),
	 CUR,
	 4,
	 K(1280),
	 K(256),
	 K(1280),
	 0,
	 8192,
	 K(1280),
	 3,
	 K(256),
	 1},
	/* random 4 KiB buffered reads: read as is, one page each */
	{"rand-read-4k-buffered",
	 LOOP,
	 {LSIZE, M(1), M(2048)},
	 WL(R, RND, BUF, K(4), M(4)),
	 CUR,
	 1024,
	 K(4),
	 K(4),
	 K(4),
	 0,
	 1024 * 8},

	/*
	 * 1 GiB of buffered writes, checked against closed forms so that
	 * the cycle skipping is exact: 1 GiB / 64 KiB = 16384.
	 */
	{"1gib-512-buffered-write",
	 LOOP,
	 {LSIZE, S(2048), S(4194305)},
	 WL(W, SEQ, BUF, M(1), M(1024)),
	 CUR,
	 16384,
	 K(64),
	 K(64),
	 K(64),
	 0,
	 16384 * 128},
	/* a total not a multiple of the cap: 1 MiB + 4 KiB = 16 x 64 KiB
	 * + one request of 4 KiB */
	{"tail-request",
	 LOOP,
	 {LSIZE, S(2048), S(999999)},
	 WL(W, SEQ, BUF, M(1), M(1) + K(4)),
	 CUR,
	 17,
	 K(64),
	 K(4),
	 K(64),
	 0,
	 16 * 128 + 8,
	 K(64),
	 16,
	 K(4),
	 1},

	/*
	 * Seed 002 (domain-facts §1.6): Hyper-V storvsc, virt_boundary_mask
	 * 4095, before 4.11.  1 MiB = 256 pages written from the start.
	 * Soft block 512 (27647865 sectors): a request per buffer_head,
	 * except that the last one of a page (ending on the boundary)
	 * merges with the first of the next page.  Requests: the first
	 * bh alone, then per page 6 singles and one pair (the last page's
	 * pair has no next page: a single) = 1 + 256 x 7 = 1793; pairs
	 * 255, singles 1793 - 255 = 1538; 255 x 2 + 1538 = 2048 sectors.
	 */
	{"seed002-512-pre411",
	 HYPERV,
	 {LSIZE, S(14281785), S(27647865)},
	 WL(W, SEQ, BUF, M(1), M(1)),
	 OLD,
	 1793,
	 1024,
	 512,
	 1024,
	 0,
	 2048,
	 512,
	 1538,
	 1024,
	 255},
	/* Soft block 1024 (27646898): per page 3 + the pair: 1 + 256 x 3
	 * = 769 requests; pairs (4 sectors) 255, 2-sector 514 */
	{"seed002-1024-pre411",
	 HYPERV,
	 {LSIZE, S(14282752), S(27646898)},
	 WL(W, SEQ, BUF, M(1), M(1)),
	 OLD,
	 769,
	 2048,
	 1024,
	 2048,
	 0,
	 2048,
	 1024,
	 514,
	 2048,
	 255},
	/* Soft block 4096 (27660288): whole pages always merge: capped at
	 * 128 segments x 4096 = 1024 sectors */
	{"seed002-4096-pre411",
	 HYPERV,
	 {LSIZE, S(14282752), S(27660288)},
	 WL(W, SEQ, BUF, M(1), M(1)),
	 OLD,
	 2,
	 K(512),
	 K(512),
	 K(512),
	 0,
	 2048,
	 K(512),
	 2},
	/* the same queue on a current kernel: 128 x 512 = 64 KiB */
	{"seed002-512-current",
	 HYPERV,
	 {LSIZE, S(14281785), S(27647865)},
	 WL(W, SEQ, BUF, M(1), M(1)),
	 CUR,
	 16,
	 K(64),
	 K(64),
	 K(64),
	 0,
	 2048,
	 K(64),
	 16},
	/* pre-4.11 without a virt boundary: nothing changes */
	{"pre411-no-virt-boundary",
	 LOOP,
	 {LSIZE, S(2048), S(999999)},
	 WL(W, SEQ, BUF, M(1), M(1)),
	 OLD,
	 16,
	 K(64),
	 K(64),
	 K(64),
	 0,
	 2048},
	/* 1 GiB pre-4.11 at 512: 1 + 262144 x 7 (cycle skipping again) */
	{"seed002-512-pre411-1gib",
	 HYPERV,
	 {LSIZE, S(14281785), S(27647865)},
	 WL(W, SEQ, BUF, M(1), M(1024)),
	 OLD,
	 1835009,
	 1024,
	 512,
	 1024,
	 0,
	 2097152,
	 512,
	 1835009 - 262143,
	 1024,
	 262143},

	/* 4Kn loop: every size is a multiple of 4096: 512 KiB requests */
	{"4kn-buffered-write",
	 LOOP_4KN,
	 {LSIZE, M(1), M(64) + K(4)},
	 WL(W, SEQ, BUF, M(1), M(32)),
	 CUR,
	 64,
	 K(512),
	 K(512),
	 K(512),
	 0,
	 64 * 128},

	/*
	 * 512e drive (physical 4096), partition at sector 63 (byte 32256,
	 * 3584 into a physical sector).  Direct 4 KiB writes at 4 KiB
	 * steps from the partition start: each covers the last 512 bytes
	 * of one physical sector and the first 3584 of the next: two
	 * physical sectors, two read-modify-writes per write.
	 */
	{"512e-start63-rand-write-4k",
	 E512,
	 {LSIZE, S(63), M(1024)},
	 WL(W, RND, DIR, K(4), M(4)),
	 CUR,
	 1024,
	 K(4),
	 K(4),
	 K(4),
	 2048,
	 2048},
	{"512e-aligned-rand-write-4k",
	 E512,
	 {LSIZE, M(1), M(1024)},
	 WL(W, RND, DIR, K(4), M(4)),
	 CUR,
	 1024,
	 K(4),
	 K(4),
	 K(4),
	 0,
	 1024},
	/* buffered 512 KiB requests at 32256 + k x 512 KiB: a partial
	 * head and tail each: 2 per request, 129 physical sectors each */
	{"512e-start63-seq-write",
	 E512,
	 {LSIZE, S(63), M(1024)},
	 WL(W, SEQ, BUF, M(1), M(64)),
	 CUR,
	 128,
	 K(512),
	 K(512),
	 K(512),
	 256,
	 128 * 129},
	/* reads never read-modify-write */
	{"512e-start63-read",
	 E512,
	 {LSIZE, S(63), M(1024)},
	 WL(R, RND, DIR, K(4), M(4)),
	 CUR,
	 1024,
	 K(4),
	 K(4),
	 K(4),
	 0,
	 2048},
	/*
	 * max_sectors_kb 64 on the 512e drive, 1 MiB direct writes from
	 * sector 63: a max_sectors split ends on a physical block
	 * (get_max_io_size()): the first request ends at 65536 + 28672
	 * ... i.e. 65536 - 3584 = 61952 bytes, then 15 x 65536, then the
	 * remaining 1048576 - 61952 - 983040 = 3584: 17 requests.
	 */
	{"512e-max-sectors-split",
	 E512_64K,
	 {LSIZE, S(63), M(1024)},
	 WL(W, SEQ, DIR, M(1), M(1)),
	 CUR,
	 17,
	 K(64),
	 3584,
	 K(64),
	 2,
	 256 + 1,
	 K(64),
	 15,
	 61952,
	 1},
};

static void test_cost(void **state)
{
	const struct cost_row *r = *state;
	struct ba_model_cost cost;
	const struct blkalign_model_cost *c = &cost.pub;
	int rc;

	rc = ba_model_cost(&r->g, &r->l, &r->w, r->kernel, &cost);
	EXPECT_S64(r, "return code", rc, 0);
	EXPECT_U64(r, "requests", c->requests, r->requests);
	EXPECT_U64(r, "request_max", c->request_max, r->request_max);
	EXPECT_U64(r, "request_min", c->request_min, r->request_min);
	EXPECT_U64(r, "request_cap", c->request_cap, r->request_cap);
	EXPECT_U64(r, "rmw", c->rmw, r->rmw);
	EXPECT_U64(r, "physical_sectors (of 512 or 4096)", c->physical_sectors,
		   r->physical_sectors);
	for (int k = 0; k < 2; k++) {
		uint64_t size = k ? r->size2 : r->size1;
		uint64_t want = k ? r->count2 : r->count1, got = 0;

		if (!size)
			continue;
		for (size_t i = 0; i < c->nsizes; i++)
			if (c->sizes[i].bytes == size)
				got = c->sizes[i].count;
		EXPECT_U64(r,
			   size == r->size1 ? "count of size1"
					    : "count of size2",
			   got, want);
	}
}

/*
 * RAID (domain-facts §5): a 3+1 RAID-5 with 64 KiB chunks, stripe 192
 * KiB.  One 192 KiB direct write at the layer start.
 */
struct raid_row {
	const char *name;
	uint64_t start;
	int level;
	uint32_t disks;
	uint64_t chunk, io_size;
	uint64_t reads, writes, full, rmw, rcw, straddles;
};

static const struct raid_row raid_rows[] = {
	/* aligned (3 MiB = 16 stripes): one full stripe, 3 data + parity */
	{"raid5-3+1-aligned-192k", M(3), 5, 4, K(64), K(192), 0, 4, 1, 0, 0, 0},
	/* shifted one chunk: stripe A chunks 1-2 (w = f = 2): rmw reads
	 * 3, rcw reads 3 - 2 = 1 -> rcw: 1 read, 3 writes; stripe B chunk
	 * 0 (w = f = 1): rmw 2, rcw 2, a tie goes to rcw: 2 reads, 2
	 * writes.  8 I/Os, 3 of them reads. */
	{"raid5-3+1-shifted-chunk-192k", M(3) + K(64), 5, 4, K(64), K(192), 3,
	 5, 0, 0, 2, 0},
	/* 4 KiB at a chunk start: one stripe head, its block of chunk 0
	 * wholly overwritten: rmw reads it and P (2), rcw chunks 1 and 2
	 * (2); a tie goes to rcw: 2 reads, 2 writes */
	{"raid5-3+1-4k", M(3), 5, 4, K(64), K(4), 2, 2, 0, 0, 1, 0},
	/* 4 KiB straddling a chunk boundary (start 62 KiB into a chunk):
	 * two heads, 2 KiB of chunk 0 in head 15 and 2 KiB of chunk 1 in
	 * head 0, neither block wholly overwritten: rmw 2 < rcw 3 in each:
	 * each reads and writes its block and P, P twice (heads 0 and 15
	 * are not adjacent): 4 reads, 4 writes */
	{"raid5-3+1-4k-straddle", M(3) + K(62), 5, 4, K(64), K(4), 4, 4, 0, 1,
	 0, 1},
	/* RAID-6 4+2, one full chunk: rmw w + 2 = 3, rcw 4 - 1 = 3: rcw,
	 * 3 reads, 1 + 2 writes */
	{"raid6-4+2-one-chunk", M(4), 6, 6, K(64), K(64), 3, 3, 0, 0, 1, 0},
	/* RAID-5 4+1, one chunk: rmw 2 < rcw 3: rmw, 2 reads, 2 writes */
	{"raid5-4+1-one-chunk", M(4), 5, 5, K(64), K(64), 2, 2, 0, 1, 0, 0},
	/* RAID-0 2 disks: a 64 KiB write shifted by 32 KiB touches 2 chunks */
	{"raid0-straddle", M(1) + K(32), 0, 2, K(64), K(64), 0, 2, 0, 0, 0, 1},
};

static void test_raid(void **state)
{
	const struct raid_row *r = *state;
	struct blkalign_model_geometry g = LOOP;
	struct blkalign_model_layer l = {LSIZE,	   r->start, M(1024),
					 r->disks, r->level, r->chunk};
	struct blkalign_workload w = WL(W, RND, DIR, r->io_size, r->io_size);
	struct ba_model_cost cost;
	const struct blkalign_model_cost *c = &cost.pub;

	EXPECT_S64(r, "return code",
		   ba_model_cost(&g, &l, &w, BLKALIGN_KERNEL_CURRENT, &cost),
		   0);
	EXPECT_U64(r, "ios", c->ios, 1);
	EXPECT_U64(r, "raid_reads", c->raid_reads, r->reads);
	EXPECT_U64(r, "raid_writes", c->raid_writes, r->writes);
	EXPECT_U64(r, "full stripes", c->raid_full_stripes, r->full);
	EXPECT_U64(r, "rmw stripes", c->raid_rmw_stripes, r->rmw);
	EXPECT_U64(r, "rcw stripes", c->raid_rcw_stripes, r->rcw);
	EXPECT_U64(r, "chunk straddles", c->chunk_straddles, r->straddles);
}

/* The same 3+1 example through blkalign_model_run: 8 I/Os vs 4. */
static void test_raid_run(void **state)
{
	struct blkalign_model_geometry g = LOOP;
	struct blkalign_model_layer l = {LSIZE, M(3) + K(64), M(1024), 4,
					 5,	K(64)};
	struct blkalign_workload w = WL(W, RND, DIR, K(192), K(192));
	struct blkalign_model *m = NULL;
	const struct cost_row row = {"raid5-run"};

	(void)state;
	EXPECT_S64(&row, "rc", blkalign_model_run(&g, &l, &w, CUR, &m), 0);
	/* aligned start: lcm(1 MiB, 192 KiB) = 3 MiB grain, up from
	 * 3 MiB + 64 KiB -> 6 MiB */
	EXPECT_U64(&row, "aligned start", m->aligned.start, M(6));
	EXPECT_U64(&row, "actual member I/Os",
		   m->cost.raid_reads + m->cost.raid_writes, 8);
	EXPECT_U64(&row, "aligned member I/Os",
		   m->cost_aligned.raid_reads + m->cost_aligned.raid_writes, 4);
	/* the request sizes it lists are its own: they add up */
	for (int k = 0; k < 2; k++) {
		const struct blkalign_model_cost *c =
			k ? &m->cost_aligned : &m->cost;
		uint64_t n = c->sizes_other;

		assert_true(c->nsizes > 0);
		for (size_t i = 0; i < c->nsizes; i++)
			n += c->sizes[i].count;
		EXPECT_U64(&row, "listed + other requests", n, c->requests);
	}
	blkalign_model_free(m);
}

/*
 * A buffered sequential stream is gathered by the stripe cache: 1 MiB
 * from 3 MiB + 64 KiB on the 3+1 array: stripe 16 chunks 1-2, stripes
 * 17-20 full (4 x 192 KiB = 768 KiB), then 1 MiB - 128 KiB - 768 KiB
 * = 128 KiB = chunks 0-1 of stripe 21.  Head: rcw 1 read + 3 writes;
 * full: 4 x 4 writes; tail: w = f = 2: rcw 1 read + 3 writes.
 */
static void test_raid_stream(void **state)
{
	struct blkalign_model_geometry g = LOOP;
	struct blkalign_model_layer l = {LSIZE, M(3) + K(64), M(1024), 4,
					 5,	K(64)};
	struct blkalign_workload w = WL(W, SEQ, BUF, M(1), M(1));
	struct ba_model_cost cost;
	const struct blkalign_model_cost *c = &cost.pub;
	const struct cost_row row = {"raid5-stream"};

	(void)state;
	EXPECT_S64(&row, "rc", ba_model_cost(&g, &l, &w, CUR, &cost), 0);
	EXPECT_U64(&row, "stripes", c->raid_stripes, 6);
	EXPECT_U64(&row, "full", c->raid_full_stripes, 4);
	EXPECT_U64(&row, "reads", c->raid_reads, 2);
	EXPECT_U64(&row, "writes", c->raid_writes, 3 + 16 + 3);
}

/* The aligned layout: start up to the 1 MiB grain, size down to pages. */
struct align_row {
	const char *name;
	struct blkalign_model_geometry g;
	uint64_t start, size, want_start, want_size;
};

static const struct align_row align_rows[] = {
	{"sector-63", LOOP, S(63), S(999999), M(1), S(999992)},
	{"already", LOOP, M(1), M(64), M(1), M(64)},
	/* alignment offset 3584: the grid is 3584 + k x 1 MiB */
	{"ao-3584",
	 {GSIZE, 512, 4096, 4096, 0, 3584},
	 S(63),
	 M(8),
	 M(1) + 3584,
	 M(8)},
	/* optimal I/O 3 x 64 KiB: lcm(1 MiB, 192 KiB) = 3 MiB */
	{"opt-io-192k",
	 {GSIZE, 512, 512, K(64), K(192)},
	 S(2048),
	 M(8),
	 M(3),
	 M(8)},
};

static void test_align(void **state)
{
	const struct align_row *r = *state;
	struct blkalign_model_layer l = {LSIZE, r->start, r->size},
				    a = BLKALIGN_MODEL_LAYER_INIT;

	EXPECT_S64(r, "rc", blkalign_model_align_layer(&r->g, &l, &a), 0);
	EXPECT_U64(r, "aligned start", a.start, r->want_start);
	EXPECT_U64(r, "aligned size", a.length, r->want_size);
}

/* Impossible input is refused, not modelled. */
static void test_invalid(void **state)
{
	struct blkalign_model_geometry g = LOOP, bad = LOOP;
	struct blkalign_model_layer l = {LSIZE, M(1), M(64)};
	struct blkalign_model_layer raid = {LSIZE, M(1), M(64), 1, 5, K(64)};
	struct blkalign_workload w = WL(W, SEQ, BUF, M(1), M(1));
	struct blkalign_workload odd = WL(W, SEQ, DIR, 1000, M(1));
	struct ba_model_cost cost;
	const struct cost_row row = {"invalid"};

	(void)state;
	bad.physical_sector_size = 256;
	EXPECT_S64(&row, "pss 256", ba_model_cost(&bad, &l, &w, CUR, &cost),
		   -22);
	EXPECT_S64(&row, "1-disk raid5",
		   ba_model_cost(&g, &raid, &w, CUR, &cost), -22);
	EXPECT_S64(&row, "I/O size not a sector multiple",
		   ba_model_cost(&g, &l, &odd, CUR, &cost), -22);
	/* A geometry without its size is refused, not read. */
	bad = g;
	bad.size = 0;
	EXPECT_S64(&row, "size 0", ba_model_cost(&bad, &l, &w, CUR, &cost),
		   -22);
	EXPECT_S64(&row, "size 0: defaults",
		   blkalign_model_geometry_defaults(&bad), -22);
	EXPECT_S64(&row, "size 0: json",
		   blkalign_model_write_json("t", &bad, NULL, NULL, 0, stdout),
		   -22);
}

/* Presets and names. */
static void test_presets(void **state)
{
	struct blkalign_workload w = BLKALIGN_WORKLOAD_INIT;
	enum blkalign_kernel k;
	const struct cost_row row = {"presets"};
	size_t n = 0;

	(void)state;
	for (const char *const *p = blkalign_workload_presets(); *p; p++) {
		EXPECT_S64(&row, *p, blkalign_workload_preset(*p, &w), 0);
		n++;
	}
	EXPECT_U64(&row, "number of presets", n, 7);
	EXPECT_S64(&row, "rand-write-4k",
		   blkalign_workload_preset("rand-write-4k", &w), 0);
	EXPECT_U64(&row, "rand-write-4k io_size", w.io_size, 4096);
	EXPECT_U64(&row, "rand-write-4k direct", w.path, BLKALIGN_IO_DIRECT);
	EXPECT_S64(&row, "mkfs", blkalign_workload_preset("mkfs", &w), 0);
	EXPECT_U64(&row, "mkfs: whole layer", w.total, 0);
	EXPECT_S64(&row, "unknown", blkalign_workload_preset("nope", &w), -2);
	EXPECT_S64(&row, "pre-4.11", blkalign_kernel_parse("pre-4.11", &k), 0);
	EXPECT_U64(&row, "pre-4.11 value", k, BLKALIGN_KERNEL_PRE_4_11);
	EXPECT_S64(&row, "4.10", blkalign_kernel_parse("4.10", &k), -22);
}

/*
 * The result getters (lib/get-*.c) read the fields, and 0 or NULL for a
 * NULL handle or an index past the end; the model's sized inputs refuse
 * a size below the first one and fill only the caller's.
 */
static void test_getters(void **state)
{
	struct blkalign_model_geometry g = LOOP;
	struct blkalign_model_layer l = {LSIZE, M(3) + K(64), M(1024), 4,
					 5,	K(64)};
	struct blkalign_model_layer small = l;
	struct blkalign_workload w = WL(W, RND, DIR, K(192), K(192));
	struct blkalign_workload w0 = {0};
	struct blkalign_model *m = NULL;
	const struct blkalign_model_cost *c;
	enum blkalign_source src = BLKALIGN_SRC_SYSFS;
	const struct cost_row row = {"getters"};
	size_t n;

	(void)state;
	EXPECT_S64(&row, "rc", blkalign_model_run(&g, &l, &w, CUR, &m), 0);
	c = blkalign_model_get_cost(m);
	EXPECT_U64(&row, "cost", (uintptr_t)c, (uintptr_t)&m->cost);
	EXPECT_U64(&row, "requests", blkalign_model_cost_get_requests(c),
		   m->cost.requests);
	EXPECT_U64(&row, "aligned start", blkalign_model_get_aligned(m)->start,
		   M(6));
	n = blkalign_model_cost_get_nsizes(c);
	assert_true(n > 0);
	EXPECT_U64(&row, "first size",
		   blkalign_size_count_get_bytes(
			   blkalign_model_cost_get_size(c, 0)),
		   m->cost.sizes[0].bytes);
	EXPECT_U64(&row, "size past the end",
		   (uintptr_t)blkalign_model_cost_get_size(c, n), 0);
	EXPECT_U64(&row, "workload", blkalign_model_get_workload(m)->io_size,
		   K(192));
	blkalign_model_free(m);

	EXPECT_U64(&row, "NULL model", (uintptr_t)blkalign_model_get_cost(NULL),
		   0);
	EXPECT_U64(&row, "NULL cost", blkalign_model_cost_get_requests(NULL),
		   0);
	EXPECT_U64(&row, "NULL layer", blkalign_layer_get_start(NULL), 0);
	EXPECT_U64(&row, "NULL device's layer",
		   (uintptr_t)blkalign_device_get_layer(NULL, 0), 0);
	EXPECT_U64(&row, "NULL topology",
		   (uint64_t)blkalign_topology_get(
			   NULL, BLKALIGN_TOPO_LOGICAL_SECTOR_SIZE, &src),
		   0);
	EXPECT_U64(&row, "NULL topology's source", src, BLKALIGN_SRC_NONE);
	EXPECT_U64(
		&row, "key name",
		strcmp(blkalign_topology_key_name(BLKALIGN_TOPO_READ_AHEAD_KB),
		       "read_ahead_kb"),
		0);
	EXPECT_U64(&row, "key past the last",
		   (uintptr_t)blkalign_topology_key_name(
			   BLKALIGN_TOPO_READ_AHEAD_KB + 1),
		   0);
	EXPECT_U64(&row, "codes", blkalign_finding_ncodes() > 10, 1);
	EXPECT_U64(&row, "code past the last",
		   (uintptr_t)blkalign_finding_code(blkalign_finding_ncodes()),
		   0);

	EXPECT_S64(&row, "workload size 0",
		   blkalign_workload_preset("mkfs", &w0), -22);
	small.size = BA_MODEL_LAYER_SIZE0 - 1;
	EXPECT_S64(&row, "layer below its first size",
		   blkalign_model_run(&g, &small, &w, CUR, &m), -22);
	small.size = BA_MODEL_LAYER_SIZE0;
	EXPECT_S64(&row, "layer of its first size",
		   blkalign_model_run(&g, &small, &w, CUR, &m), 0);
	blkalign_model_free(m);
}

/*
 * The one-line cost of check's findings, on a hand-built device: an
 * image with the default topology and p1 of §1.4 (999999 sectors, soft
 * block 512): 64 KiB vs 512 KiB requests, 8.0x.
 */
static void test_finding_cost(void **state)
{
	struct blkalign_layer layers[2] = {
		{.name = "disk.img",
		 .kind = BLKALIGN_LAYER_DISK,
		 .size = M(1024),
		 .parent = -1,
		 .soft_block_size = 4096},
		{.name = "disk.img1",
		 .kind = BLKALIGN_LAYER_PARTITION,
		 .number = 1,
		 .start = S(2048),
		 .size = S(999999),
		 .parent = 0,
		 .soft_block_size = 512},
	};
	struct blkalign_finding f = {.code = "soft-block-size", .layer = 1};
	struct blkalign_device d = {.path = "disk.img",
				    .name = "disk.img",
				    .size = M(1024),
				    .nlayers = 2,
				    .layers = layers};
	const struct cost_row row = {"finding-cost"};
	char buf[256];

	(void)state;
	d.topology.logical_sector_size =
		(struct blkalign_value){512, BLKALIGN_SRC_ASSUMED};
	d.topology.physical_sector_size =
		(struct blkalign_value){512, BLKALIGN_SRC_ASSUMED};
	d.topology.minimum_io_size =
		(struct blkalign_value){512, BLKALIGN_SRC_ASSUMED};
	d.topology.max_segments =
		(struct blkalign_value){128, BLKALIGN_SRC_ASSUMED};
	d.topology.max_sectors_kb =
		(struct blkalign_value){1280, BLKALIGN_SRC_ASSUMED};
	d.topology.max_segment_size =
		(struct blkalign_value){65536, BLKALIGN_SRC_ASSUMED};
	d.topology.page_size = (struct blkalign_value){4096, BLKALIGN_SRC_HOST};

	EXPECT_S64(&row, "soft-block-size rc",
		   blkalign_finding_cost(&d, &f, buf, sizeof(buf)), 0);
	if (strcmp(buf, "buffered writes (mkfs, dd): 8.0x requests, at most "
			"64 KiB instead of 512 KiB; reads and direct I/O: no "
			"change"))
		fail_msg("soft-block-size cost line: '%s'", buf);

	/* 512e, partition at sector 63: 2 RMW per direct 4 KiB write */
	layers[1].start = S(63);
	layers[1].size = S(999992);
	d.topology.physical_sector_size.value = 4096;
	d.topology.minimum_io_size.value = 4096;
	f.code = "start-physical";
	EXPECT_S64(&row, "start-physical rc",
		   blkalign_finding_cost(&d, &f, buf, sizeof(buf)), 0);
	if (strncmp(buf,
		    "direct 4 KiB writes: 2.0 read-modify-writes per "
		    "write at the drive, 2.0x physical sectors; "
		    "sequential writes: 2.0 per request",
		    200))
		fail_msg("start-physical cost line: '%s'", buf);

	/* the RAID-5 example: a partition one chunk off a 3+1 array */
	layers[0].raid_level = 5;
	layers[0].raid_disks = 4;
	layers[0].raid_chunk = K(64);
	layers[1].start = M(3) + K(64);
	d.topology.physical_sector_size.value = 512;
	d.topology.minimum_io_size.value = K(64);
	d.topology.optimal_io_size =
		(struct blkalign_value){K(192), BLKALIGN_SRC_SYSFS};
	f.code = "raid-stripe";
	EXPECT_S64(&row, "raid-stripe rc",
		   blkalign_finding_cost(&d, &f, buf, sizeof(buf)), 0);
	if (strcmp(buf, "direct 192 KiB writes: 8.0 member I/Os each (3.0 "
			"reads) instead of 4.0: 2.0x"))
		fail_msg("raid-stripe cost line: '%s'", buf);

	f.code = "partition-overlap";
	EXPECT_S64(&row, "no cost for overlaps",
		   blkalign_finding_cost(&d, &f, buf, sizeof(buf)), -2);
}

/* The model's geometry comes from the device record alone: the disk's
 * read_ahead_kb as the scan saved it (2560 after blockdev --setra 5120),
 * the kernel default 128 KiB when the record has none. */
static void test_geometry_read_ahead(void **state)
{
	struct blkalign_layer disk = {.name = "vdj",
				      .kind = BLKALIGN_LAYER_DISK,
				      .size = M(1024),
				      .parent = -1};
	struct blkalign_device d = {.path = "/dev/vdj",
				    .name = "vdj",
				    .is_block_device = true,
				    .size = M(1024),
				    .nlayers = 1,
				    .layers = &disk};
	struct blkalign_model_geometry g = {.size = sizeof(g)};

	(void)state;
	d.topology.logical_sector_size =
		(struct blkalign_value){512, BLKALIGN_SRC_SYSFS};
	d.topology.physical_sector_size =
		(struct blkalign_value){4096, BLKALIGN_SRC_SYSFS};
	d.topology.read_ahead_kb =
		(struct blkalign_value){2560, BLKALIGN_SRC_SYSFS};
	assert_int_equal(blkalign_model_geometry_from_device(&d, &g), 0);
	assert_int_equal(g.read_ahead_kb, 2560);
	assert_int_equal(g.physical_sector_size, 4096);
	d.topology.read_ahead_kb = (struct blkalign_value){0, 0};
	assert_int_equal(blkalign_model_geometry_from_device(&d, &g), 0);
	assert_int_equal(g.read_ahead_kb, 128);
	assert_int_equal(g.size, sizeof(g));
	/* No size: nothing written. */
	g.size = 0;
	g.read_ahead_kb = 7;
	assert_int_equal(blkalign_model_geometry_from_device(&d, &g), -EINVAL);
	assert_int_equal(g.read_ahead_kb, 7);
}

int main(void)
{
	const struct CMUnitTest single[] = {
		cmocka_unit_test(test_geometry_read_ahead),
		cmocka_unit_test(test_raid_run),
		cmocka_unit_test(test_raid_stream),
		cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_presets),
		cmocka_unit_test(test_getters),
		cmocka_unit_test(test_finding_cost),
	};
	int failed = 0;

	failed += RUN_TABLE(test_cost, cost_rows);
	failed += RUN_TABLE(test_raid, raid_rows);
	failed += RUN_TABLE(test_align, align_rows);
	failed += cmocka_run_group_tests(single, NULL, NULL);
	return failed ? 1 : 0;
}
