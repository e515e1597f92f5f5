/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * diskmap.c - the disk map (check --svg/--html, plan --svg/--html): a
 * picture per disk of its layers as bands on a broken byte axis, each
 * start and end marked aligned or not, the findings in numbered
 * callouts with the grid they were judged on and what they cost; a
 * plan's disk drawn twice, today and as planned, on one axis.  The
 * pictures are gathered as the disks are audited (each drawn at once,
 * so a report may be freed) and written as one SVG or one HTML page.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "diskmap.h"
#include "blkalignP.h"

struct blkalign_diskmap {
	enum blkalign_diskmap_format format;
	FILE *body; /* the pictures so far (and the HTML's tables) */
	char *buf;
	size_t len;
	double height; /* SVG: the pictures' */
	size_t ndisks;
	int err;
};

struct blkalign_diskmap *blkalign_diskmap_new(enum blkalign_diskmap_format f)
{
	struct blkalign_diskmap *m;

	if (f != BLKALIGN_DISKMAP_SVG && f != BLKALIGN_DISKMAP_HTML)
		return NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->format = f;
	m->body = open_memstream(&m->buf, &m->len);
	if (!m->body) {
		free(m);
		return NULL;
	}
	return m;
}

void blkalign_diskmap_free(struct blkalign_diskmap *m)
{
	if (!m)
		return;
	if (m->body)
		fclose(m->body);
	free(m->buf);
	free(m);
}

/* The offsets the axis needs: every band's start and end, and the
 * marks' offsets (a finding may be about one inside a layer). */
static int axis_for(struct dm_axis *a, const struct dm_disk *k,
		    const struct dm_disk *k2)
{
	size_t n = 2 * (k->nbands + (k2 ? k2->nbands : 0)) + k->nmarks, j = 0;
	uint64_t *offs = calloc(n + 1, sizeof(*offs));
	int rc;

	if (!offs)
		return -ENOMEM;
	for (int pass = 0; pass < 2; pass++) {
		const struct dm_disk *kk = pass ? k2 : k;

		for (size_t i = 0; kk && i < kk->nbands; i++) {
			offs[j++] = kk->bands[i].start;
			offs[j++] = kk->bands[i].start + kk->bands[i].size;
		}
	}
	for (size_t i = 0; i < k->nmarks; i++)
		if (k->marks[i].layer < 0)
			offs[j++] = k->marks[i].off;
	rc = dm_axis_build(a, offs, j, k->d->size);
	free(offs);
	return rc;
}

static double heading(const struct blkalign_device *d, double y, FILE *out)
{
	char sz[16];

	blkalign_size_format(d->size, BLKALIGN_SIZE_LSBLK, sz, sizeof(sz));
	fprintf(out,
		"<text x=\"%.0f\" y=\"%.0f\" font-size=\"15\" "
		"font-weight=\"bold\">",
		DM_LEFT, y + 16);
	dm_xml(d->path, out);
	fprintf(out,
		"</text>\n<text x=\"%.0f\" y=\"%.0f\">%s (%" PRIu64
		" bytes), %s, %" PRId64 "-byte logical and %" PRId64
		"-byte physical sectors, %zu finding%s</text>\n",
		DM_LEFT, y + 32, sz, d->size,
		d->scheme ? d->scheme : "no table",
		d->topology.logical_sector_size.value,
		d->topology.physical_sector_size.value, d->nfindings,
		d->nfindings == 1 ? "" : "s");
	return 40;
}

/* A legend entry's text after its symbol at @x; returns the next x. */
static double entry(const char *s, double x, double y, FILE *out)
{
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">%s</text>", x, y + 4, s);
	return x + dm_text_width(s, 10) + 22;
}

static double legend(double y, FILE *out)
{
	double x = DM_LEFT + 6;

	fputs("<g class=\"legend\" font-size=\"11\">", out);
	fprintf(out,
		"<path d=\"M%.1f %.1fl-6 -10h12z\" fill=\"" DM_VERMILLION
		"\" stroke=\"#222\"/>",
		x, y + 5);
	x = entry("misaligned start or end (a finding), numbered", x + 10, y,
		  out);
	for (int sev = BLKALIGN_ERROR; sev >= BLKALIGN_INFO; sev--) {
		fprintf(out,
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"9\" "
			"height=\"9\" fill=\"%s\" stroke=\"#222\"/>",
			x - 4, y - 4,
			sev == BLKALIGN_ERROR	  ? DM_VERMILLION
			: sev == BLKALIGN_WARNING ? DM_ORANGE
						  : DM_BLUE);
		x = entry(blkalign_severity_name((enum blkalign_severity)sev),
			  x + 9, y, out) -
		    8;
	}
	fprintf(out,
		"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"" DM_GREEN
		"\" stroke=\"#222\"/>",
		x + 8, y);
	x = entry("aligned start or end", x + 18, y, out);
	fprintf(out,
		"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"white\" "
		"stroke=\"" DM_GREEN "\" stroke-width=\"2\"/>",
		x - 4, y);
	x = entry("off the physical grid, no finding", x + 6, y, out);
	fprintf(out,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"24\" height=\"12\" "
		"fill=\"#CBE5F6\" stroke=\"#444\"/><rect x=\"%.1f\" "
		"y=\"%.1f\" width=\"24\" height=\"12\" "
		"fill=\"url(#dm-hatch)\"/>",
		x, y - 6, x, y - 6);
	x = entry("layer with a warning or error", x + 30, y, out);
	fprintf(out,
		"<path d=\"M%.1f %.1fl4 -12M%.1f %.1fl4 -12\" "
		"stroke=\"#333\"/>",
		x, y + 6, x + 5, y + 6);
	entry("axis broken: not to scale (offsets in bytes)", x + 16, y, out);
	fputs("</g>\n", out);
	return 20;
}

static double subtitle(const char *s, double y, FILE *out)
{
	fprintf(out,
		"<text x=\"%.0f\" y=\"%.0f\" font-weight=\"bold\">%s"
		"</text>\n",
		DM_LEFT, y + 14, s);
	return 20;
}

/* Today's start of each planned partition joined to its planned one. */
static void moves(const struct blkalign_plan *p, const struct dm_axis *a,
		  double y0, double y1, FILE *out)
{
	for (size_t i = 0; i < p->nparts; i++) {
		const struct blkalign_plan_part *pp = &p->parts[i];

		if (pp->new_start == pp->old_start)
			continue;
		fprintf(out,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#333\" stroke-dasharray=\"3 2\"/>\n",
			dm_axis_x(a, pp->old_start), y0,
			dm_axis_x(a, pp->new_start), y1);
	}
}

/* One disk's picture at y 0 of @out; its height in *@h. */
static int picture(const struct blkalign_device *d,
		   const struct blkalign_plan *p, FILE *out, double *h)
{
	struct dm_disk now, planned = {0};
	struct dm_axis a;
	double y, ya, yp, c;
	int rc = dm_disk_build(&now, d, NULL);

	if (!rc && p)
		rc = dm_disk_build(&planned, d, p);
	if (!rc)
		rc = axis_for(&a, &now, p ? &planned : NULL);
	if (rc) {
		dm_disk_free(&now);
		dm_disk_free(&planned);
		return rc;
	}
	y = 8 + heading(d, 8, out);
	if (p)
		y += subtitle("today", y, out);
	y += dm_bands_draw(&now, &a, y, true, out);
	ya = y + 2;
	y += dm_axis_draw(&a, ya, out) + 6;
	if (p) {
		char s[160];

		snprintf(s, sizeof(s),
			 "planned: starts on the %" PRIu64 "-byte grain, "
			 "sizes in multiples of %" PRIu64 " bytes",
			 p->grain, p->size_granularity);
		y += subtitle(s, y, out);
		yp = y;
		moves(p, &a, ya - 2, yp, out);
		y += dm_bands_draw(&planned, &a, y, false, out);
		y += dm_axis_draw(&a, y + 2, out) + 6;
	}
	/* leaders from under the axis's labels, not across the plan */
	c = dm_callouts_draw(&now, &a, y + 16, p ? -1 : y - 2, out);
	if (c < 0)
		rc = -ENOMEM;
	y += 16 + (c > 0 ? c : 0);
	y += legend(y + 8, out) + 4;
	*h = y;
	dm_axis_free(&a);
	dm_disk_free(&now);
	dm_disk_free(&planned);
	return rc;
}

static int add(struct blkalign_diskmap *m, const struct blkalign_device *d,
	       const struct blkalign_plan *p)
{
	char *pic = NULL;
	size_t len = 0;
	double h = 0;
	FILE *f;
	int rc;

	if (!m || !d)
		return -EINVAL;
	f = open_memstream(&pic, &len);
	if (!f)
		return -ENOMEM;
	rc = picture(d, p, f, &h);
	if (fclose(f) && !rc)
		rc = -ENOMEM;
	if (!rc && m->format == BLKALIGN_DISKMAP_SVG) {
		fprintf(m->body,
			"<g class=\"disk\" transform=\"translate(0 %.0f)\">\n",
			m->height);
		fwrite(pic, 1, len, m->body);
		fputs("</g>\n", m->body);
		m->height += h;
	} else if (!rc) {
		dm_html_disk(m->body, d, p, pic, len, h);
	}
	free(pic);
	if (!rc) {
		m->ndisks++;
		if (ferror(m->body))
			rc = -ENOMEM;
	}
	if (rc && !m->err)
		m->err = rc;
	return rc;
}

/**
 * blkalign_diskmap_add_device: draw @d into @m.
 * Returns: 0, -EINVAL or -ENOMEM.
 */
int blkalign_diskmap_add_device(struct blkalign_diskmap *m,
				const struct blkalign_device *d)
{
	return add(m, d, NULL);
}

/**
 * blkalign_diskmap_add_plan: draw @p's disk into @m, today and planned.
 * Returns: 0, -EINVAL or -ENOMEM.
 */
int blkalign_diskmap_add_plan(struct blkalign_diskmap *m,
			      const struct blkalign_plan *p)
{
	return add(m, p ? p->device : NULL, p);
}

/**
 * blkalign_diskmap_write: the pictures drawn so far as one SVG document
 * or one HTML page to @out.
 * Returns: 0, -EINVAL, -ENOMEM (a picture could not be drawn) or -EIO.
 */
int blkalign_diskmap_write(struct blkalign_diskmap *m, FILE *out)
{
	if (!m || !out)
		return -EINVAL;
	if (m->err)
		return m->err;
	if (fflush(m->body))
		return -ENOMEM;
	if (m->format == BLKALIGN_DISKMAP_HTML)
		return dm_html_write(out, m->buf, m->len, m->ndisks);
	fprintf(out,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		"height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		"font-family=\"sans-serif\" font-size=\"12\">\n"
		"<title>blkalign disk map</title>\n",
		DM_WIDTH, m->height ? m->height : 40, DM_WIDTH,
		m->height ? m->height : 40);
	dm_defs(out);
	fputs("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n", out);
	if (!m->ndisks)
		fprintf(out,
			"<text x=\"%.0f\" y=\"24\">no disk was audited"
			"</text>\n",
			DM_LEFT);
	fwrite(m->buf, 1, m->len, out);
	fputs("</svg>\n", out);
	return ferror(out) ? -EIO : 0;
}
