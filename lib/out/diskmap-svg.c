/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * diskmap-svg.c - what the disk map's parts share: XML text, offsets and
 * grids for people, text cut into lines, and which findings are about an
 * offset (drawn there) rather than a whole layer.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "diskmap.h"
#include "blkalignP.h"

/* The length of the valid UTF-8 sequence at @s, 0 if none. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n = *s >= 0xf0 && *s <= 0xf4   ? 4
		   : *s >= 0xe0		      ? 3
		   : *s >= 0xc2 && *s <= 0xdf ? 2
					      : 0;

	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* @s as XML text: escaped, and what XML cannot hold (control bytes, a
 * file name that is not UTF-8) as '?', so that the document parses. */
void dm_xml(const char *s, FILE *out)
{
	const unsigned char *p = (const unsigned char *)s;

	while (p && *p) {
		size_t n = *p >= 0x80 ? utf8_len(p) : 1;

		if (!n || *p < 0x20) {
			fputc('?', out);
			p++;
			continue;
		}
		switch (*p) {
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '&':
			fputs("&amp;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		default:
			fwrite(p, 1, n, out);
		}
		p += n;
	}
}

/* Round offsets in their unit ("1 MiB", "20 GiB"), others exactly. */
void dm_offset_label(uint64_t off, char *buf, size_t len)
{
	static const char *const units[] = {"MiB", "GiB", "TiB"};
	uint64_t unit = MIB * MIB;

	for (int u = 2; u >= 0; u--, unit /= 1024)
		if (off && off % unit == 0) {
			snprintf(buf, len, "%" PRIu64 " %s", off / unit,
				 units[u]);
			return;
		}
	snprintf(buf, len, "%" PRIu64, off);
}

/* About: sans-serif is some 0.55 to 0.6 em wide on average. */
double dm_text_width(const char *s, double px)
{
	return (double)strlen(s) * px * 0.6;
}

int dm_text_lines(const char *s, double x, double y, int width, int maxl,
		  const char *attrs, FILE *out)
{
	char line[256];
	int nl = 0;

	if (width > (int)sizeof(line) - 1)
		width = (int)sizeof(line) - 1;
	while (s && *s && nl < maxl) {
		size_t n = strlen(s), cut = n;

		if (n > (size_t)width) {
			cut = (size_t)width;
			while (cut > 0 && s[cut] != ' ')
				cut--;
			if (!cut)
				cut = (size_t)width;
		}
		memcpy(line, s, cut);
		line[cut] = '\0';
		/* the last line that fits says that there is more */
		if (nl == maxl - 1 && cut < n && cut + 1 < sizeof(line) - 3)
			memcpy(line + (cut > 3 ? cut - 3 : cut), "...", 4);
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" %s>", x,
			y + 13.0 * nl, attrs);
		dm_xml(line, out);
		fputs("</text>\n", out);
		s += cut;
		while (*s == ' ')
			s++;
		nl++;
	}
	return nl;
}

static const struct {
	const char *code, *grid;
} code_grids[] = {
	{"start-physical", "physical sector"},
	{"size-physical", "physical sector"},
	{"start-io-min", "minimum I/O"},
	{"start-io-opt", "optimal I/O"},
	{"start-mib", "1 MiB"},
	{"start-4k", "4 KiB"},
	{"raid-chunk", "md chunk"},
	{"raid-stripe", "md full stripe"},
	{"raid-data-offset", "physical sector"},
	{"lvm-pe-start", "physical sector"},
	{"luks-payload", "physical sector"},
	{"fs-data-start", "physical sector"},
	{"zfs-ashift", "ZFS block"},
	{"image-cluster-offset", "image cluster"},
};

/* The physical sector size of @d (its logical one when unknown). */
uint64_t dm_physical(const struct blkalign_device *d)
{
	int64_t p = d->topology.physical_sector_size.value;
	int64_t l = d->topology.logical_sector_size.value;

	return p > 0 ? (uint64_t)p : l > 0 ? (uint64_t)l : 512;
}

/* A finding of one of code_grids' codes, at an offset on the device. */
bool dm_finding_at_offset(const struct blkalign_device *d,
			  const struct blkalign_finding *f)
{
	for (size_t i = 0; i < sizeof(code_grids) / sizeof(code_grids[0]); i++)
		if (!strcmp(f->code, code_grids[i].code))
			return f->value <= d->size && f->granularity;
	return false;
}

void dm_grid_name(const struct blkalign_device *d, const char *code, uint64_t g,
		  char *buf, size_t len)
{
	const struct blkalign_topology *t = &d->topology;
	const char *name = NULL;
	char sz[32];

	for (size_t i = 0;
	     code && i < sizeof(code_grids) / sizeof(code_grids[0]); i++)
		if (!strcmp(code, code_grids[i].code))
			name = code_grids[i].grid;
	if (!name) {
		if (g == MIB)
			name = "1 MiB";
		else if ((int64_t)g == t->physical_sector_size.value)
			name = "physical sector";
		else if ((int64_t)g == t->optimal_io_size.value)
			name = "optimal I/O";
		else if ((int64_t)g == t->minimum_io_size.value)
			name = "minimum I/O";
		else if ((int64_t)g == t->logical_sector_size.value)
			name = "logical sector";
		else
			name = "";
	}
	if (!strcmp(name, "1 MiB") || !strcmp(name, "4 KiB")) {
		snprintf(buf, len, "%s", name);
		return;
	}
	blkalign_size_format(g, BLKALIGN_SIZE_ADJECTIVE, sz, sizeof(sz));
	snprintf(buf, len, "%s%s%s", sz, *name ? " " : " grid", name);
}
