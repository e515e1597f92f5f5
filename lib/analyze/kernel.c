/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kernel.c - the kernel's own arithmetic, as pure functions:
 *
 *  - the soft block size a block device gets at first open
 *    (block/bdev.c set_init_blocksize(), 2.6 through 6.x bd_set_size());
 *  - a partition's alignment offset
 *    (block/blk-settings.c queue_limit_alignment_offset()).
 */
#include "analyze/analyze.h"

/**
 * blkalign_soft_block_size: start at the logical block size and double
 * while it divides the size in bytes, up to the page size.
 */
uint32_t blkalign_soft_block_size(uint64_t size_bytes,
				  uint32_t logical_sector_size,
				  uint32_t page_size)
{
	uint32_t bsize = logical_sector_size ? logical_sector_size : 512;

	/* bsize cannot pass 2^31 without wrapping to 0 */
	while (bsize < page_size && bsize <= UINT32_MAX / 2) {
		if (size_bytes & bsize)
			break;
		bsize <<= 1;
	}
	return bsize;
}

/**
 * blkalign_alignment_offset: what sysfs alignment_offset shows for a
 * partition starting at @start_bytes:
 *   granularity = max(physical_block_size, io_min)
 *   (granularity + alignment_offset - start % granularity) % granularity
 * Returns -1 when the disk itself reports a misaligned stack.
 */
int64_t blkalign_alignment_offset(uint64_t start_bytes,
				  uint32_t physical_sector_size,
				  uint32_t minimum_io_size,
				  int64_t disk_alignment_offset)
{
	uint64_t gran = physical_sector_size;
	uint64_t sector = start_bytes >> 9;
	uint64_t alignment;

	if (disk_alignment_offset < 0)
		return -1;
	if (minimum_io_size > gran)
		gran = minimum_io_size;
	if (gran < 512)
		return 0;
	alignment = (sector % (gran >> 9)) << 9;
	return (int64_t)((gran + (uint64_t)disk_alignment_offset - alignment) %
			 gran);
}
