/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-kernel.c - the kernel's arithmetic as blkalign predicts it:
 * the soft block size chosen at first open (block/bdev.c
 * set_init_blocksize()) and a partition's alignment_offset
 * (queue_limit_alignment_offset()).  Expected values are worked out by
 * hand in the comments, from docs/facts.md §1.1 and
 * §3.1 and peer-tools.md §5.
 */
#include "blkalign.h"
#include "table.h"

#define S(n) ((uint64_t)(n)*512) /* 512-byte sectors to bytes */

struct sbs_row {
	const char *name;
	uint64_t size_bytes;
	uint32_t lss, page;
	uint32_t want;
};

/*
 * Start at the logical block size, double while it divides the size in
 * bytes, stop at the page size.  With 512-byte sectors the answer is
 * given by the size in sectors mod 8: odd -> 512, 2 mod 4 -> 1024,
 * 4 mod 8 -> 2048, 0 mod 8 -> 4096.
 */
static const struct sbs_row sbs_rows[] = {
	/* domain-facts §1.1 table */
	{"blog-41929587-odd", S(41929587), 512, 4096, 512},
	{"blog-41929592-mod8", S(41929592), 512, 4096, 4096},
	{"dexuan1-27647865-odd", S(27647865), 512, 4096, 512},
	{"dexuan2-27646898-2mod4", S(27646898), 512, 4096, 1024},
	{"dexuan3-27660288-mod8", S(27660288), 512, 4096, 4096},
	{"sinrega-1870000-mod8", S(1870000), 512, 4096, 4096},
	{"sinrega-1870001-odd", S(1870001), 512, 4096, 512},
	/* 1000000 = 8 * 125000, so 1000004 = 4 mod 8, 1000006 = 6 mod 8 */
	{"1000004-4mod8", S(1000004), 512, 4096, 2048},
	{"1000006-2mod4", S(1000006), 512, 4096, 1024},
	/* 4Kn: starts at 4096, so on a 4 KiB page nothing smaller exists */
	{"4kn-1000-blocks", 1000 * 4096ULL, 4096, 4096, 4096},
	{"4kn-page64k-3-blocks", 3 * 4096ULL, 4096, 65536, 4096},
	/* 40960 = 8192 * 5 */
	{"4kn-page64k-10-blocks", 10 * 4096ULL, 4096, 65536, 8192},
	{"4kn-page64k-16-blocks", 16 * 4096ULL, 4096, 65536, 65536},
	/* 64 KiB pages: 41929592 = 8 * 5241199 (odd): 4096 bytes * odd */
	{"page64k-41929592", S(41929592), 512, 65536, 4096},
	/* 1870000 = 16 * 116875 (odd): 8192 bytes * odd */
	{"page64k-1870000", S(1870000), 512, 65536, 8192},
	{"page64k-2GiB-capped", 2ULL << 30, 512, 65536, 65536},
	{"page512", S(1000000), 512, 512, 512},
	/* 3072 = 1024 * 3 */
	{"lss1024-3072", 3072, 1024, 4096, 1024},
	/* 0 & bsize is always 0: the loop runs up to the page */
	{"size-0", 0, 512, 4096, 4096},
};

static void test_soft_block_size(void **state)
{
	const struct sbs_row *r = *state;

	EXPECT_U64(r, "soft block size",
		   blkalign_soft_block_size(r->size_bytes, r->lss, r->page),
		   r->want);
}

struct ao_row {
	const char *name;
	uint64_t start_bytes;
	uint32_t pss, min_io;
	int64_t disk_ao;
	int64_t want;
};

/*
 * gran = max(pss, min_io); alignment = (sector mod (gran/512)) * 512;
 * ao_part = (gran + ao_disk - alignment) mod gran; -1 stays -1.
 */
static const struct ao_row ao_rows[] = {
	/* 63*512 = 32256 = 7*4096 + 3584: (4096 - 3584) % 4096 */
	{"512e-63", S(63), 4096, 4096, 0, 512},
	{"512e-2048", S(2048), 4096, 4096, 0, 0},
	/* lowest aligned LBA 7: (4096 + 3584 - 3584) % 4096 */
	{"512e-ao3584-63", S(63), 4096, 4096, 3584, 0},
	{"512e-ao3584-2048", S(2048), 4096, 4096, 3584, 3584},
	{"512e-ao3584-7", S(7), 4096, 4096, 3584, 0},
	/* GPT at 34: 34 mod 8 = 2 -> 1024: 4096 - 1024 */
	{"512e-34", S(34), 4096, 4096, 0, 3072},
	/* min_io below the physical sector does not lower the grain */
	{"512e-min512-63", S(63), 4096, 512, 0, 512},
	{"512n-63", S(63), 512, 512, 0, 0},
	/* min_io 64 KiB (128 sectors): 63 mod 128 = 63 -> 32256 */
	{"min64k-63", S(63), 4096, 65536, 0, 65536 - 32256},
	{"min64k-2048", S(2048), 4096, 65536, 0, 0},
	/* 2056 mod 128 = 8 -> 4096 */
	{"min64k-2056", S(2056), 4096, 65536, 0, 65536 - 4096},
	/* (65536 + 3584 - 32256) % 65536 = 36864 */
	{"min64k-ao3584-63", S(63), 4096, 65536, 3584, 36864},
	{"min64k-ao3584-2048", S(2048), 4096, 65536, 3584, 3584},
	/* 34 mod 2048 = 34 -> 17408 */
	{"min1m-34", S(34), 4096, 1048576, 0, 1048576 - 17408},
	/* 4Kn: the kernel still counts 512-byte sectors: LBA 6 = sector 48 */
	{"4kn-lba6", 6 * 4096ULL, 4096, 4096, 0, 0},
	{"4kn-lba256", 256 * 4096ULL, 4096, 4096, 0, 0},
	{"misaligned-stack-2048", S(2048), 4096, 4096, -1, -1},
	{"misaligned-stack-63", S(63), 4096, 65536, -1, -1},
};

static void test_alignment_offset(void **state)
{
	const struct ao_row *r = *state;

	EXPECT_S64(r, "alignment offset",
		   blkalign_alignment_offset(r->start_bytes, r->pss, r->min_io,
					     r->disk_ao),
		   r->want);
}

int main(void)
{
	int failed = 0;

	failed += RUN_TABLE(test_soft_block_size, sbs_rows);
	failed += RUN_TABLE(test_alignment_offset, ao_rows);
	return failed ? 1 : 0;
}
