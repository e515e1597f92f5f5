/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix-marker.c - the marker sector: while data move, the partition's
 * first sector at both places reads as text that no prober takes for a
 * file system or RAID member:
 *
 *   BLKALIGN FIX IN PROGRESS
 *   fix <the fix's id, 32 hex digits>
 *   partition N of DISK: moving from byte A to byte B; run ...
 *   <bytes, mode, regions, steps>
 *
 * and the rest of the head zeros.  `check` reports it (fix-interrupted);
 * --resume and --rollback know their disk by the id; with the journal
 * lost, the last line still says how the bytes were cut.  The scan reads
 * it (scan/probe/marker.c: ba_fix_marker_parse, ba_fix_id_hex).
 */
#include <stdio.h>
#include <string.h>

#include "fix.h"

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/**
 * ba_fix_hide_head: what the partition-relative bytes [rel, rel + len) of
 * the head look like while a move is in flight: zeros, the first sector
 * the marker, the same every time (step hashes cover it).
 */
void ba_fix_hide_head(const struct ba_fix_geom *g, uint8_t *buf, uint64_t rel,
		      uint64_t len)
{
	char m[BA_FIX_MARKER_LEN], id[33];

	if (rel >= g->head_len)
		return;
	memset(buf, 0, (size_t)min64(len, g->head_len - rel));
	if (rel >= sizeof(m))
		return;
	memset(m, 0, sizeof(m));
	ba_fix_id_hex(g->id, id);
	snprintf(m, sizeof(m),
		 BA_FIX_MARKER "\nfix %s\n"
			       "partition %u of %.200s: moving from byte "
			       "%llu to byte %llu; run 'blkalign fix "
			       "--resume' or '--rollback' with its journal\n"
			       "%llu bytes, %s mode, %u regions of %llu "
			       "bytes, steps of %llu bytes\n",
		 id, g->number, g->path, (unsigned long long)g->old_start,
		 (unsigned long long)g->new_start, (unsigned long long)g->len,
		 g->batch ? "batch" : "step", g->chains,
		 (unsigned long long)g->region, (unsigned long long)g->step);
	memcpy(buf, m + rel, (size_t)min64(len, sizeof(m) - rel));
}
