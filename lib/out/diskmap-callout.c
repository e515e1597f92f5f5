/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * diskmap-callout.c - the disk map's callouts: one box per mark under
 * the axis, numbered as on the map, with the offset, the layers that
 * start or end there, a ruler of the grid around it (the grid the
 * finding was judged on, or the coarsest one an aligned offset is on)
 * and each finding's code, message and cost.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diskmap.h"
#include "blkalignP.h"

#define PER_ROW 5
#define BOX_GAP 10.0
#define BOX_W \
	((DM_WIDTH - DM_LEFT - DM_RIGHT - (PER_ROW - 1) * BOX_GAP) / PER_ROW)
#define CHARS 37 /* per line of 11 px text in a box */

static const char *sev_colour(int sev)
{
	return sev == BLKALIGN_ERROR	 ? DM_VERMILLION
	       : sev == BLKALIGN_WARNING ? DM_ORANGE
					 : DM_BLUE;
}

static uint64_t lss_of(const struct blkalign_device *d)
{
	int64_t v = d->topology.logical_sector_size.value;

	return v > 0 ? (uint64_t)v : 512;
}

/* The coarsest grid an aligned offset is on. */
static uint64_t aligned_grid(const struct blkalign_device *d, uint64_t off)
{
	const struct blkalign_topology *t = &d->topology;
	int64_t c[] = {MIB, t->optimal_io_size.value,
		       t->physical_sector_size.value, t->minimum_io_size.value};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		if (c[i] > 0 && off % (uint64_t)c[i] == 0)
			return (uint64_t)c[i];
	return lss_of(d);
}

/* The grid @g around @off, which is @rem past a line of it (a grid may
 * be shifted by an alignment offset): major ticks on the grid, sectors
 * between, none before byte 0. */
static void ruler(const struct blkalign_device *d, uint64_t off, uint64_t rem,
		  uint64_t g, bool bad, double x, double y, FILE *out)
{
	double w = BOX_W - 24, s = w / (3.0 * (double)g);
	double lo = (double)rem - 1.5 * (double)g; /* from the line */
	double origin = (double)off - (double)rem; /* the line, bytes */
	uint64_t lss = lss_of(d), step;

	fprintf(out,
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"stroke=\"#333\"/>\n",
		x, y, x + w, y);
	step = g / lss >= 2 && g / lss <= 32 ? lss : g;
	for (double t = ceil(lo / (double)step) * (double)step;
	     t <= lo + 3.0 * (double)g; t += (double)step) {
		bool major = fmod(t, (double)g) == 0;
		double tx = x + (t - lo) * s;

		if (origin + t < 0)
			continue;
		fprintf(out,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#333\"%s/>",
			tx, y - (major ? 8 : 3), tx, y + (major ? 8 : 3),
			major ? " stroke-width=\"2\"" : "");
	}
	fputc('\n', out);
	if (bad)
		fprintf(out,
			"<path d=\"M%.1f %.1fl-6 -10h12z\" fill=\"" DM_VERMILLION
			"\" stroke=\"#222\"/>\n",
			x + w / 2, y - 1);
	else if (rem)
		fprintf(out,
			"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" "
			"fill=\"white\" stroke=\"" DM_GREEN
			"\" stroke-width=\"2\"/>\n",
			x + w / 2, y - 7);
	else
		fprintf(out,
			"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"" DM_GREEN
			"\" stroke=\"#222\"/>\n",
			x + w / 2, y - 7);
}

/* Which layers start and end at @off: "start of sda1, sda1:ext4". */
static void ends_text(const struct blkalign_device *d, uint64_t off, char *buf,
		      size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int end = 0; end < 2; end++) {
		bool first = true;

		for (size_t i = 0; i < d->nlayers && n + 1 < len; i++) {
			const struct blkalign_layer *l = &d->layers[i];

			if ((end ? l->start + l->size : l->start) != off ||
			    l->kind == BLKALIGN_LAYER_DISK)
				continue;
			n += (size_t)snprintf(
				buf + n, len - n, "%s%s%s",
				first ? (n ? "; " : "") : ", ",
				first ? (end ? "end of " : "start of ") : "",
				l->name);
			first = false;
		}
	}
	if (n >= len)
		memcpy(buf + len - 4, "...", 4);
}

/* One box's contents from (@x, @y); returns the height used. */
static double box(const struct dm_disk *k, const struct dm_mark *m, double x,
		  double y, FILE *out)
{
	const struct blkalign_device *d = k->d;
	double y0 = y;
	char buf[512], grid[64], cost[256];
	uint64_t g, rem;

	if (m->layer >= 0) {
		snprintf(buf, sizeof(buf), "%d  %s (%s)", m->num,
			 d->layers[m->layer].name,
			 blkalign_layer_kind_name(d->layers[m->layer].kind));
		y += 13.0 * dm_text_lines(buf, x, y + 12, CHARS, 2,
					  "font-weight=\"bold\"", out);
	} else {
		uint64_t lss = lss_of(d);

		if (m->off % lss)
			snprintf(buf, sizeof(buf), "%d  byte %" PRIu64, m->num,
				 m->off);
		else
			snprintf(buf, sizeof(buf),
				 "%d  byte %" PRIu64 " (sector %" PRIu64 ")",
				 m->num, m->off, m->off / lss);
		y += 13.0 * dm_text_lines(buf, x, y + 12, CHARS - 5, 2,
					  "font-weight=\"bold\"", out);
		ends_text(d, m->off, buf, sizeof(buf));
		y += 13.0 * dm_text_lines(buf, x, y + 12, CHARS, 3, "", out);
		g = m->nf ? d->findings[m->f[0]].granularity
			  : aligned_grid(d, m->off);
		/* off the physical grid without a finding: show that grid */
		if (!m->nf && m->off % dm_physical(d))
			g = dm_physical(d);
		/* the finding's own remainder: its grid may be shifted */
		rem = m->nf ? d->findings[m->f[0]].remainder : m->off % g;
		ruler(d, m->off, rem, g, m->nf > 0, x + 2, y + 22, out);
		dm_grid_name(d, m->nf ? d->findings[m->f[0]].code : NULL, g,
			     grid, sizeof(grid));
		if (m->nf)
			snprintf(buf, sizeof(buf),
				 "%" PRIu64 " bytes past the %s grid", rem,
				 grid);
		else if (rem)
			snprintf(buf, sizeof(buf),
				 "%" PRIu64 " bytes past the %s grid: no "
				 "finding is about it",
				 rem, grid);
		else
			snprintf(buf, sizeof(buf), "on the %s grid", grid);
		y += 34 +
		     13.0 * dm_text_lines(buf, x, y + 44, CHARS, 2, "", out);
	}
	for (size_t i = 0; i < m->nf; i++) {
		const struct blkalign_finding *f = &d->findings[m->f[i]];

		fprintf(out,
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"9\" height=\"9\" "
			"fill=\"%s\" stroke=\"#222\"/>",
			x, y + 8, sev_colour((int)f->severity));
		snprintf(buf, sizeof(buf), "%s (%s)", f->code,
			 blkalign_severity_name(f->severity));
		y += 13.0 * dm_text_lines(buf, x + 13, y + 16, CHARS - 2, 1,
					  "font-weight=\"bold\" class=\"code\"",
					  out) +
		     3;
		y += 13.0 *
		     dm_text_lines(f->message, x, y + 12, CHARS, 4, "", out);
		/* the model's line, else the finding's own */
		if (blkalign_finding_cost(d, f, cost, sizeof(cost))) {
			if (!f->explanation)
				continue;
			snprintf(cost, sizeof(cost), "%s", f->explanation);
		}
		snprintf(buf, sizeof(buf), "cost: %s", cost);
		y += 13.0 * dm_text_lines(buf, x, y + 12, CHARS, 4,
					  "font-style=\"italic\"", out);
	}
	return y - y0 + 8;
}

/**
 * dm_callouts_draw: the marks' boxes, PER_ROW a row, from @y; the first
 * row's joined to their marks by a leader from @yaxis, under the axis
 * (< 0: none; the numbers pair them).  Returns the height, or -ENOMEM.
 */
double dm_callouts_draw(const struct dm_disk *k, const struct dm_axis *a,
			double y, double yaxis, FILE *out)
{
	double y0 = y;

	for (size_t r = 0; r < k->nmarks; r += PER_ROW) {
		char *body[PER_ROW] = {0};
		size_t len[PER_ROW] = {0};
		double h[PER_ROW] = {0}, rowh = 0;
		size_t n = k->nmarks - r < PER_ROW ? k->nmarks - r : PER_ROW;

		for (size_t i = 0; i < n; i++) {
			FILE *f = open_memstream(&body[i], &len[i]);
			double bx = DM_LEFT + (double)i * (BOX_W + BOX_GAP);

			if (f)
				h[i] = box(k, &k->marks[r + i], bx + 8, y + 4,
					   f);
			if (!f || fclose(f)) {
				for (size_t j = 0; j <= i; j++)
					free(body[j]);
				return -ENOMEM;
			}
			if (h[i] > rowh)
				rowh = h[i];
		}
		for (size_t i = 0; i < n && r == 0 && yaxis >= 0; i++) {
			double bx = DM_LEFT + (double)i * (BOX_W + BOX_GAP);

			fprintf(out,
				"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				"y2=\"%.1f\" stroke=\"#888\" "
				"stroke-dasharray=\"2 2\"/>\n",
				dm_mark_x(k, a, &k->marks[i]), yaxis,
				bx + BOX_W / 2, y);
		}
		for (size_t i = 0; i < n; i++) {
			double bx = DM_LEFT + (double)i * (BOX_W + BOX_GAP);

			fprintf(out,
				"<g class=\"callout\"><rect x=\"%.1f\" "
				"y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				"fill=\"white\" stroke=\"%s\" rx=\"3\"/>\n",
				bx, y, BOX_W, rowh,
				k->marks[r + i].nf ? "#555" : "#9bb");
			fwrite(body[i], 1, len[i], out);
			fputs("</g>\n", out);
			free(body[i]);
		}
		y += rowh + BOX_GAP;
	}
	return y - y0;
}
