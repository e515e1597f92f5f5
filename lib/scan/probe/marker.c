/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * marker.c - the marker sector `blkalign fix` writes at a partition's
 * first sector while its data move (act/fix-marker.c writes it): read
 * here, by the scan, so that check reports an interrupted fix
 * (fix-interrupted) and fix --resume/--rollback know their disk by the
 * fix's id.  Its text:
 *
 *   BLKALIGN FIX IN PROGRESS
 *   fix <the fix's id, 32 hex digits>
 *   partition N of DISK: moving from byte A to byte B; run ...
 *   <bytes, mode, regions, steps>
 */
#include <stdio.h>
#include <string.h>

#include "scan/scan.h"

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
	char text[BA_FIX_MARKER_LEN + 1], id[64];

	memset(m, 0, sizeof(*m));
	if (len < BA_FIX_MARKER_LEN ||
	    memcmp(sector, BA_FIX_MARKER "\n", sizeof(BA_FIX_MARKER)))
		return false;
	memcpy(text, sector, BA_FIX_MARKER_LEN);
	text[BA_FIX_MARKER_LEN] = '\0';
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
