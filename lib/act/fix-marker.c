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
 * lost, the last line still says how the bytes were cut.
 */
#include <stdio.h>
#include <string.h>

#include "fix.h"

#define MARKER_LEN 512

void ba_fix_id_hex(const uint8_t id[16], char out[33])
{
	static const char hex[] = "0123456789abcdef";

	for (int i = 0; i < 16; i++) {
		out[2 * i] = hex[id[i] >> 4];
		out[2 * i + 1] = hex[id[i] & 15];
	}
	out[32] = '\0';
}

static int unhex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

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
	char m[MARKER_LEN], id[33];

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

/* The line of @text that starts with @prefix, into @out; false if none. */
static bool line_of(const char *text, const char *prefix, char *out, size_t len)
{
	size_t n = strlen(prefix);
	const char *p = text;

	while (p && *p) {
		const char *e = strchr(p, '\n');

		if (!strncmp(p, prefix, n)) {
			snprintf(out, len, "%.*s",
				 (int)(e ? e - p : (long)strlen(p)), p);
			return true;
		}
		p = e ? e + 1 : NULL;
	}
	return false;
}

/**
 * ba_fix_marker_parse: is @sector (@len bytes, at least 512) a marker?
 * Fills @m: the fix id when it has one, and what the fix does.
 */
bool ba_fix_marker_parse(const void *sector, size_t len,
			 struct ba_fix_marker *m)
{
	char text[MARKER_LEN + 1], id[64];

	memset(m, 0, sizeof(*m));
	if (len < MARKER_LEN ||
	    memcmp(sector, BA_FIX_MARKER "\n", sizeof(BA_FIX_MARKER)))
		return false;
	memcpy(text, sector, MARKER_LEN);
	text[MARKER_LEN] = '\0';
	if (!line_of(text, "partition ", m->what, sizeof(m->what)))
		snprintf(m->what, sizeof(m->what), "no description");
	{
		/* the last line: how the bytes were cut */
		const char *c = strstr(text, " mode, ");

		while (c && c > text && c[-1] != '\n')
			c--;
		if (c)
			line_of(c, "", m->cut, sizeof(m->cut));
	}
	if (line_of(text, "fix ", id, sizeof(id)) && strlen(id) == 36) {
		m->has_id = true;
		for (int i = 0; i < 16 && m->has_id; i++) {
			int hi = unhex(id[4 + 2 * i]),
			    lo = unhex(id[5 + 2 * i]);

			if (hi < 0 || lo < 0)
				m->has_id = false;
			else
				m->id[i] = (uint8_t)(hi << 4 | lo);
		}
	}
	return true;
}
