/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix-exfat.c - exFAT's PartitionOffset when fix moves the volume.
 *
 * An exFAT boot sector records the partition's start in sectors
 * (PartitionOffset, le64 at 0x40; 0 means "ignore"), and mkfs.exfat
 * writes it when it formats a partition (exfatprogs 1.2: 63 for a
 * partition at sector 63).  The field is covered by the boot region's
 * checksum: sectors 0-10 of the region, less VolumeFlags (bytes 106-107)
 * and PercentInUse (112), summed byte by byte with a rotate right, and
 * sector 11 holding the sum repeated.  The main region is sectors 0-11,
 * the backup 12-23: both inside fix's head (the partition's first MiB),
 * so the patch is made on the head, which the finish phase writes whole
 * (resume and rollback write it again).
 */
#include <string.h>

#include "fix.h"
#include "bytes.h"
#include "probe/probe.h"

#define REGION_SECTORS 12

/* The boot checksum of the region at @r, sectors of @bps bytes. */
static uint32_t region_sum(const uint8_t *r, uint32_t bps)
{
	return ba_exfat_boot_sum(0, r, 11 * (size_t)bps, 0);
}

/* Does the region at @r hold an exFAT boot sector of @bps-byte sectors
 * whose checksum sector matches? */
static bool region_ok(const uint8_t *r, uint32_t bps)
{
	uint32_t sum;

	if (memcmp(r + 3, "EXFAT   ", 8) || r[108] < 9 || r[108] > 12 ||
	    (1u << r[108]) != bps)
		return false;
	sum = region_sum(r, bps);
	for (uint32_t i = 0; i < bps; i += 4)
		if (ba_le32(r + 11 * bps + i) != sum)
			return false;
	return true;
}

/* @head's sector size when it starts an exFAT main boot region that
 * fits in @head_len bytes with its backup, else 0. */
static uint32_t head_bps(const uint8_t *head, uint64_t head_len)
{
	uint32_t bps;

	if (head_len < 512 || memcmp(head + 3, "EXFAT   ", 8) ||
	    head[108] < 9 || head[108] > 12)
		return 0;
	bps = 1u << head[108];
	return 2 * REGION_SECTORS * (uint64_t)bps <= head_len ? bps : 0;
}

/**
 * ba_fix_exfat_holds: does @head (@head_len bytes) start an exFAT whose
 * main boot region is intact and whose PartitionOffset is exactly the
 * start @start (bytes)?  What makes fix patch it.
 */
bool ba_fix_exfat_holds(const uint8_t *head, uint64_t head_len, uint64_t start)
{
	uint32_t bps = head_bps(head, head_len);

	return bps && start % bps == 0 && region_ok(head, bps) &&
	       ba_le64(head + 0x40) == start / bps;
}

/**
 * ba_fix_exfat_patch: PartitionOffset of both boot regions of @head set
 * for a partition starting at byte @start, their checksum sectors
 * recomputed; a region that is not an intact exFAT boot region is left
 * alone.
 */
void ba_fix_exfat_patch(uint8_t *head, uint64_t head_len, uint64_t start)
{
	uint32_t bps = head_bps(head, head_len);

	if (!bps || start % bps)
		return;
	for (int k = 0; k < 2; k++) {
		uint8_t *r = head + (uint64_t)k * REGION_SECTORS * bps;
		uint32_t sum;

		if (!region_ok(r, bps))
			continue;
		ba_put_le64(r + 0x40, start / bps);
		sum = region_sum(r, bps);
		for (uint32_t i = 0; i < bps; i += 4)
			ba_put_le32(r + 11 * bps + i, sum);
	}
}
