/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix-bounds.c - step mode's boundaries (docs/fix.md, "The move"): the d
 * bytes at the near end of each region that the region before it
 * overwrites first and that it moves last.  They go into the journal
 * before anything is written; while the move runs they are read back
 * from there as their steps come (not held in memory), and a rollback's
 * end writes the forward ones back.  The geometry is in fix-regions.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "fix.h"

/* Copy the part of [ref, ref + rlen) in [rel, rel + len) into @buf. */
void ba_fix_overlay(uint8_t *buf, uint64_t rel, uint64_t len,
		    const uint8_t *src, uint64_t ref, uint64_t rlen)
{
	uint64_t a = rel > ref ? rel : ref;
	uint64_t b = rel + len < ref + rlen ? rel + len : ref + rlen;

	if (a < b)
		memcpy(buf + (a - rel), src + (a - ref), (size_t)(b - a));
}

/* Boundary @k ([brel, brel + blen)) from the journal, over its part of
 * [rel, rel + len) of @buf. */
static int bound_from_journal(struct ba_journal *j, uint32_t k, uint8_t *buf,
			      uint64_t rel, uint64_t len, uint64_t brel,
			      uint64_t blen)
{
	uint8_t *tmp = ba_file_buffer(blen);
	int rc;

	if (!tmp)
		return -ENOMEM;
	rc = ba_journal_read_bound(j, k, blen, j->bound_sums[k], tmp);
	if (!rc)
		ba_fix_overlay(buf, rel, len, tmp, brel, blen);
	free(tmp);
	return rc;
}

/**
 * ba_fix_bounds_over: the boundaries of the move in flight over their
 * part of [rel, rel + len) of @buf: from memory, or from the journal
 * while they are left there.  Returns 0 or -errno.
 */
int ba_fix_bounds_over(struct ba_journal *j, uint8_t *buf, uint64_t rel,
		       uint64_t len)
{
	bool bottoms = j->st.to > j->st.from;
	uint64_t off = 0, brel, blen;
	int rc = 0;

	if (!j->bound && !j->bound_sums)
		return 0;
	for (uint32_t k = 0; k + 1 < j->g.chains && !rc; k++) {
		ba_fix_bound_range(&j->g, bottoms, k, &brel, &blen);
		if (j->bound)
			ba_fix_overlay(buf, rel, len, j->bound + off, brel,
				       blen);
		else if (brel < rel + len && rel < brel + blen)
			rc = bound_from_journal(j, k, buf, rel, len, brel,
						blen);
		off += blen;
	}
	return rc;
}

/**
 * ba_fix_read_bounds: the boundaries' bytes as they are at @base (with
 * the head from the journal), into @buf (ba_fix_bound_len bytes).
 */
int ba_fix_read_bounds(struct ba_fix_run *r, bool bottoms, uint64_t base,
		       uint8_t *buf)
{
	struct ba_journal *j = r->j;
	uint64_t off = 0, rel, len;
	int rc = 0;

	for (uint32_t k = 0; k + 1 < j->g.chains && !rc; k++) {
		ba_fix_bound_range(&j->g, bottoms, k, &rel, &len);
		rc = ba_file_read(r->dev, buf + off, (size_t)len, base + rel);
		if (!rc)
			ba_fix_overlay(buf + off, rel, len, j->head, 0,
				       j->g.head_len);
		off += len;
	}
	return rc;
}

/**
 * ba_fix_restore_bounds: at the end of a rollback, the boundaries the
 * forward move's first level overwrote (in part, if it did not land
 * whole), from the journal (j->bound: the forward move's), at the old
 * place.  Returns 0 or -errno.
 */
int ba_fix_restore_bounds(struct ba_fix_run *r)
{
	struct ba_journal *j = r->j;
	bool bottoms = j->g.new_start > j->g.old_start;
	uint64_t off, rel, len;
	int rc = 0;

	if (!j->bound)
		return -EINVAL;
	for (int pass = 0; pass < 2 && !rc; pass++) {
		off = 0;
		for (uint32_t k = 0; k + 1 < j->g.chains && !rc; k++) {
			ba_fix_bound_range(&j->g, bottoms, k, &rel, &len);
			rc = pass ? ba_file_verify(r->dev, j->bound + off,
						   (size_t)len,
						   j->g.old_start + rel)
				  : ba_file_write(r->dev, j->bound + off,
						  (size_t)len,
						  j->g.old_start + rel);
			off += len;
		}
		if (!rc && !pass)
			rc = ba_file_flush(r->dev); /* then read back */
	}
	return rc;
}

/*
 * ba_fix_bounds_out: step mode, the boundaries left in the journal while
 * the move runs (the
 * memory of a level), when each reads back from there as it is: j->bound
 * freed, each boundary's XXH3-64 kept.  Else they stay in memory.
 */
int ba_fix_bounds_out(struct ba_journal *j)
{
	uint32_t n = j->g.chains - 1;
	uint64_t rel, len;
	uint64_t *sums;
	uint8_t *tmp;
	int rc = 0;

	if (!j->bound || j->bound_sums || j->g.chains < 2)
		return 0;
	ba_fix_bound_range(&j->g, true, 0, &rel, &len);
	sums = calloc(n, sizeof(*sums));
	tmp = ba_file_buffer(len);
	for (uint32_t k = 0; sums && tmp && k < n && !rc; k++) {
		const uint8_t *b = j->bound + (uint64_t)k * len;

		sums[k] = XXH3_64bits(b, (size_t)len);
		rc = ba_journal_read_bound(j, k, len, sums[k], tmp);
	}
	free(tmp);
	if (!sums || !tmp || rc) {
		free(sums);
		return 0;
	}
	free(j->bound);
	j->bound = NULL;
	j->bound_sums = sums;
	return 0;
}

/* ba_fix_bounds_in: ...and back in memory when the move ends (a rollback's end
 * writes the forward ones back), checked against the journal's hash of them
 * all. */
int ba_fix_bounds_in(struct ba_journal *j)
{
	if (!j->bound_sums)
		return 0;
	free(j->bound_sums);
	j->bound_sums = NULL;
	return ba_journal_load_bounds(j, j->bound_rb);
}
