/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix-ends.c - what the contents of a partition keep at its end, kept
 * valid when fix gives the partition a new size (docs/fix.md, "What sits
 * at the end").
 *
 * NTFS keeps a copy of its boot sector after the volume's last cluster:
 * Windows reads it at "total sectors" x bytes per sector (0x28, le64),
 * which mkntfs and Windows make the partition's last sector (the volume
 * is one sector shorter than the partition); ntfs-3g (ntfsfix, ntfs-3g's
 * mount) reads it in the last sector of the device, wherever that is.
 * The moved bytes keep the first copy; a new size needs the second: the
 * boot sector, as the fix leaves it, in the new last sector.  That write
 * is one more patch of the journal (old and new bytes), so --resume
 * writes it and --rollback puts back what was there.
 *
 * md 0.90/1.0 and ZFS, which the kernel finds from the end, never get a
 * new size (plan's keep_size, fix's refusal); LUKS, LVM (its second
 * metadata area is addressed from the start), ext, XFS, btrfs, FAT and
 * swap keep nothing relative to the end.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fix.h"
#include "bytes.h"

/**
 * ba_fix_add_patch: one more region the fix rewrites, with its @old and
 * @new bytes (@len each), after the table's.  Returns 0 or -errno.
 */
int ba_fix_add_patch(struct ba_journal *j, uint64_t off, uint32_t len,
		     const uint8_t *old, const uint8_t *new)
{
	uint64_t total = 0, pos = 0;
	uint8_t *blob;

	if (j->g.npatches >= BA_FIX_MAX_PATCHES)
		return -E2BIG;
	for (uint32_t i = 0; i < j->g.npatches; i++)
		total += j->patches[i].len;
	blob = realloc(j->blob, 2 * (total + len) + 1);
	if (!blob)
		return -ENOMEM;
	j->blob = blob;
	j->patches[j->g.npatches].off = off;
	j->patches[j->g.npatches].len = len;
	j->g.npatches++;
	for (uint32_t i = 0; i < j->g.npatches; i++) {
		j->patches[i].old = blob + pos;
		j->patches[i].new = blob + pos + j->patches[i].len;
		pos += 2ULL * j->patches[i].len;
	}
	memcpy(j->patches[j->g.npatches - 1].old, old, len);
	memcpy(j->patches[j->g.npatches - 1].new, new, len);
	return 0;
}

/* An NTFS boot sector's bytes per sector, or 0. */
static uint32_t ntfs_bps(const uint8_t *head, uint64_t head_len)
{
	uint32_t bps;

	if (head_len < 512 || memcmp(head + 3, "NTFS    ", 8))
		return 0;
	bps = ba_le16(head + 0x0b);
	if (bps < 256 || bps > 4096 || (bps & (bps - 1)) || bps > head_len)
		return 0;
	return bps;
}

static bool overlaps(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
	return a < b + blen && b < a + alen;
}

/*
 * The NTFS boot sector's copy in the new last sector, when the new size
 * puts that sector outside the moved bytes (else it is one of them, the
 * copy the volume already has, or a cluster of the volume: left alone).
 */
static int ntfs_end(struct ba_file *dev, struct ba_journal *j)
{
	const struct ba_fix_geom *g = &j->g;
	uint32_t bps = ntfs_bps(j->head, g->head_len), lss = g->lss;
	uint64_t at, a, len;
	uint8_t *old = NULL, *new = NULL;
	int rc;

	if (!bps || g->new_size < bps || g->new_size % bps)
		return 0;
	at = g->new_start + g->new_size - bps; /* the new last sector */
	if (g->new_size - bps < g->len)
		return 0;
	a = at / lss * lss;
	len = (at + bps + lss - 1) / lss * lss - a;
	/* never under the markers the move writes at both heads */
	if (overlaps(a, len, g->old_start, g->head_len) ||
	    overlaps(a, len, g->new_start, g->len))
		return 0;
	old = ba_file_alloc(len);
	new = malloc(len);
	if (!old || !new) {
		rc = -ENOMEM;
		goto out;
	}
	rc = ba_file_read(dev, old, len, a);
	if (rc)
		goto out;
	memcpy(new, old, len);
	memcpy(new + (at - a), j->head, bps);
	if (g->fs_patch == BA_FIX_FS_NTFS) /* hidden sectors, as the head's */
		ba_put_le32(new + (at - a) + 0x1c,
			    (uint32_t)(g->new_start / bps));
	if (memcmp(old, new, len))
		rc = ba_fix_add_patch(j, a, (uint32_t)len, old, new);
out:
	free(old);
	free(new);
	return rc;
}

/**
 * ba_fix_end_patches: the patches that keep what partition @content
 * keeps at its end valid at the new end (@j->head read, @j->g.fs_patch
 * set).  Returns 0 or -errno.
 */
int ba_fix_end_patches(struct ba_file *dev, struct ba_journal *j,
		       const char *content)
{
	if (j->g.new_size == j->g.old_size && j->g.new_start == j->g.old_start)
		return 0;
	if (content && !strcmp(content, "ntfs"))
		return ntfs_end(dev, j);
	return 0;
}
