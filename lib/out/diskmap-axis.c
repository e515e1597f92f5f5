/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * diskmap-axis.c - the disk map's broken byte axis: each segment between
 * two interesting offsets gets a width from a log scale of its length
 * with a floor, so that a one-sector gap, a 1 MiB gap and a terabyte
 * partition all show.  Segments drawn well off a linear axis's scale
 * carry a "//" on the axis, those squeezed a zigzag cut across the bands
 * too; every boundary carries its real offset.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diskmap.h"
#include "blkalignP.h"

#define MIN_SEG 30.0 /* px: the narrowest segment */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* A segment's weight: grows with the log of its length in sectors. */
static double weight(uint64_t len)
{
	double s = log2((double)(len < 512 ? 512 : len) / 512.0);

	return 1.0 + pow(s, 1.5);
}

/**
 * dm_axis_build: the axis over @offs (@n offsets, sorted in place;
 * those past @end dropped) from 0 to @end.  0 or -ENOMEM.
 */
int dm_axis_build(struct dm_axis *a, uint64_t *offs, size_t n, uint64_t end)
{
	double plot = DM_WIDTH - DM_LEFT - DM_RIGHT, total = 0, room, lin;
	size_t m = 0;

	memset(a, 0, sizeof(*a));
	a->b = calloc(n + 2, sizeof(*a->b));
	a->x = calloc(n + 2, sizeof(*a->x));
	a->broken = calloc(n + 2, sizeof(*a->broken));
	a->squeezed = calloc(n + 2, sizeof(*a->squeezed));
	if (!a->b || !a->x || !a->broken || !a->squeezed) {
		dm_axis_free(a);
		return -ENOMEM;
	}
	if (!end)
		end = 1;
	qsort(offs, n, sizeof(*offs), cmp_u64);
	a->b[m++] = 0;
	for (size_t i = 0; i < n; i++)
		if (offs[i] > a->b[m - 1] && offs[i] < end)
			a->b[m++] = offs[i];
	a->b[m++] = end;
	a->n = m;
	for (size_t i = 0; i + 1 < m; i++)
		total += weight(a->b[i + 1] - a->b[i]);
	/* the floor first, the rest of the room by weight */
	room = plot - MIN_SEG * (double)(m - 1);
	if (room < 0)
		room = 0;
	a->x[0] = DM_LEFT;
	for (size_t i = 0; i + 1 < m; i++) {
		uint64_t len = a->b[i + 1] - a->b[i];
		double w = MIN_SEG + room * weight(len) / total;

		a->x[i + 1] = a->x[i] + w;
		lin = plot * (double)len / (double)end;
		a->squeezed[i] = w < lin / 2;
		a->broken[i] = a->squeezed[i] || w > 4 * lin;
	}
	return 0;
}

/* @off's x: linear inside its segment. */
double dm_axis_x(const struct dm_axis *a, uint64_t off)
{
	for (size_t i = 0; i + 1 < a->n; i++)
		if (off <= a->b[i + 1]) {
			double f = off <= a->b[i]
					   ? 0
					   : (double)(off - a->b[i]) /
						     (double)(a->b[i + 1] -
							      a->b[i]);

			return a->x[i] + f * (a->x[i + 1] - a->x[i]);
		}
	return a->x[a->n - 1];
}

void dm_axis_free(struct dm_axis *a)
{
	free(a->b);
	free(a->x);
	free(a->broken);
	free(a->squeezed);
	memset(a, 0, sizeof(*a));
}

/* The zigzag of a cut at @x over @y0..@y1: white, with dark edges. */
void dm_axis_cuts(const struct dm_axis *a, double y0, double y1, FILE *out)
{
	for (size_t i = 0; i + 1 < a->n; i++) {
		double x = (a->x[i] + a->x[i + 1]) / 2;

		if (!a->squeezed[i])
			continue;
		fputs("<polyline class=\"cut\" points=\"", out);
		for (double y = y0; y < y1 + 0.1; y += 6)
			fprintf(out, "%.1f,%.1f ",
				x + (((int)((y - y0) / 6)) % 2 ? 3 : -3), y);
		fputs("\" fill=\"none\" stroke=\"white\" stroke-width=\"5\"/>\n",
		      out);
	}
}

/*
 * The axis at @y: the line with a "//" where it is broken, a tick and a
 * label at each boundary, the labels stacked in up to four rows so that
 * they never overlap.  Returns the height used.
 */
double dm_axis_draw(const struct dm_axis *a, double y, FILE *out)
{
	double row_end[4] = {-1e9, -1e9, -1e9, -1e9};
	int rows = 1;
	char lab[32];

	fprintf(out,
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"stroke=\"#333\"/>\n",
		a->x[0], y, a->x[a->n - 1], y);
	for (size_t i = 0; i + 1 < a->n; i++) {
		double x = (a->x[i] + a->x[i + 1]) / 2;

		if (!a->broken[i])
			continue;
		fprintf(out,
			"<g class=\"break\"><title>axis broken: %" PRIu64
			" bytes drawn %s</title>"
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"6\" height=\"12\" "
			"fill=\"white\"/>"
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#333\"/><line x1=\"%.1f\" y1=\"%.1f\" "
			"x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/></g>\n",
			a->b[i + 1] - a->b[i],
			a->squeezed[i] ? "shorter" : "longer", x - 3, y - 6,
			x - 5, y + 6, x - 1, y - 6, x + 1, y + 6, x + 5, y - 6);
	}
	for (size_t i = 0; i < a->n; i++) {
		double x = a->x[i], w, tx;
		int r = 0;

		dm_offset_label(a->b[i], lab, sizeof(lab));
		w = dm_text_width(lab, 10);
		/* inside the canvas: the last label may not reach past it */
		tx = x + w / 2 > DM_WIDTH - 2 ? DM_WIDTH - 2 - w / 2 : x;
		tx = tx - w / 2 < 2 ? 2 + w / 2 : tx;
		while (r < 4 && tx - w / 2 < row_end[r] + 4)
			r++;
		if (r == 4) /* no room: the row that ends first */
			for (int k = r = 0; k < 4; k++)
				if (row_end[k] < row_end[r])
					r = k;
		row_end[r] = tx + w / 2;
		if (r + 1 > rows)
			rows = r + 1;
		fprintf(out,
			"<g class=\"tick\"><title>byte %" PRIu64
			"</title><line x1=\"%.1f\" y1=\"%.1f\" "
			"x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" "
			"text-anchor=\"middle\">%s</text></g>\n",
			a->b[i], x, y, x, y + 4 + 13.0 * r, tx,
			y + 14 + 13.0 * r, lab);
	}
	return 8 + 13.0 * rows;
}
