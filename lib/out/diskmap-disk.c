/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * diskmap-disk.c - one disk of the disk map: its layers as bands nested
 * from the disk (top) down to the filesystems, at their offsets on the
 * broken axis (a plan's: where the plan puts them), and its marks: each
 * offset where layers start or end, with the findings about it, and each
 * layer's findings that are about no offset.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "diskmap.h"
#include "blkalignP.h"

static int depth_of(const struct blkalign_device *d, size_t i)
{
	int depth = 0;

	for (int p = d->layers[i].parent; p >= 0 && depth < 16;
	     p = d->layers[p].parent)
		depth++;
	return depth;
}

static const struct blkalign_plan_part *part_of(const struct blkalign_plan *p,
						int layer)
{
	for (size_t k = 0; p && k < p->nparts; k++)
		if (p->parts[k].layer == layer)
			return &p->parts[k];
	return NULL;
}

/* Layer @i where @plan puts it: with its partition, or where it is. */
static void place(struct dm_band *b, const struct blkalign_device *d, int i,
		  const struct blkalign_plan *plan)
{
	const struct blkalign_plan_part *pp = NULL;
	int p = i;

	for (int n = 0; p >= 0 && n < 16 && !pp; p = d->layers[p].parent, n++)
		pp = part_of(plan, p);
	b->start = d->layers[i].start;
	b->size = d->layers[i].size;
	if (!pp)
		return;
	if (pp->layer == i) {
		b->start = pp->new_start;
		b->size = pp->new_size;
		b->action = (int)pp->action + 1;
		b->findings_after = pp->findings_after;
		return;
	}
	/* inside a partition that moves: it moves along */
	b->start = b->start - pp->old_start + pp->new_start;
	if (b->start + b->size > pp->new_start + pp->new_size)
		b->size = pp->new_start + pp->new_size - b->start;
}

static struct dm_mark *mark_at(struct dm_disk *k, uint64_t off, int layer)
{
	for (size_t i = 0; i < k->nmarks; i++)
		if (k->marks[i].layer == layer &&
		    (layer >= 0 || k->marks[i].off == off))
			return &k->marks[i];
	k->marks[k->nmarks] = (struct dm_mark){.off = off, .layer = layer};
	return &k->marks[k->nmarks++];
}

/* Where a mark sits on the axis: its offset, or its layer's middle. */
static uint64_t mark_pos(const struct dm_disk *k, const struct dm_mark *m)
{
	const struct blkalign_layer *l;

	if (m->layer < 0)
		return m->off;
	l = &k->d->layers[m->layer];
	return l->start + l->size / 2;
}

static const struct dm_disk *sort_disk;

static int cmp_mark(const void *a, const void *b)
{
	uint64_t x = mark_pos(sort_disk, a), y = mark_pos(sort_disk, b);

	return x < y ? -1 : x > y;
}

static void build_marks(struct dm_disk *k)
{
	const struct blkalign_device *d = k->d;

	for (size_t i = 0; i < d->nfindings; i++) {
		const struct blkalign_finding *f = &d->findings[i];
		struct dm_mark *m;

		if (f->layer < 0 || (size_t)f->layer >= d->nlayers)
			continue;
		m = dm_finding_at_offset(d, f) ? mark_at(k, f->value, -1)
					       : mark_at(k, 0, f->layer);
		if (m->nf < sizeof(m->f) / sizeof(m->f[0]))
			m->f[m->nf++] = i;
	}
	/* the other starts and ends: aligned */
	for (size_t i = 0; i < d->nlayers; i++) {
		const struct blkalign_layer *l = &d->layers[i];

		if (l->kind == BLKALIGN_LAYER_DISK)
			continue;
		if (l->start && l->start < d->size)
			mark_at(k, l->start, -1);
		if (l->start + l->size < d->size)
			mark_at(k, l->start + l->size, -1);
	}
	sort_disk = k;
	qsort(k->marks, k->nmarks, sizeof(*k->marks), cmp_mark);
	for (size_t i = 0; i < k->nmarks; i++)
		k->marks[i].num = (int)i + 1;
}

/**
 * dm_disk_build: the bands of @d (where @plan puts them, when not NULL)
 * and, without a plan, its marks.  0 or -ENOMEM.
 */
int dm_disk_build(struct dm_disk *k, const struct blkalign_device *d,
		  const struct blkalign_plan *plan)
{
	memset(k, 0, sizeof(*k));
	k->d = d;
	k->bands = calloc(d->nlayers + 1, sizeof(*k->bands));
	k->marks = calloc(d->nfindings + 2 * d->nlayers + 1, sizeof(*k->marks));
	if (!k->bands || !k->marks) {
		dm_disk_free(k);
		return -ENOMEM;
	}
	for (size_t i = 0; i < d->nlayers; i++) {
		struct dm_band *b = &k->bands[k->nbands++];

		b->l = &d->layers[i];
		b->depth = depth_of(d, i);
		if (b->depth > k->maxdepth)
			k->maxdepth = b->depth;
		place(b, d, (int)i, plan);
		for (size_t f = 0; !plan && f < d->nfindings; f++)
			if (d->findings[f].layer == (int)i &&
			    (int)d->findings[f].severity + 1 > b->worst)
				b->worst = (int)d->findings[f].severity + 1;
	}
	if (!plan)
		build_marks(k);
	return 0;
}

void dm_disk_free(struct dm_disk *k)
{
	free(k->bands);
	free(k->marks);
	memset(k, 0, sizeof(*k));
}

static const char *fill_of(const struct blkalign_layer *l)
{
	if (l->extended)
		return "#F4F4F4";
	switch (l->kind) {
	case BLKALIGN_LAYER_DISK:
		return "#E4E4E4";
	case BLKALIGN_LAYER_MD:
		return "#F6EFB0"; /* yellow, lightened */
	case BLKALIGN_LAYER_LVM:
		return "#F7DFB8"; /* orange */
	case BLKALIGN_LAYER_LUKS:
		return "#EFD3E4"; /* reddish purple */
	case BLKALIGN_LAYER_FILESYSTEM:
	case BLKALIGN_LAYER_ZFS:
		return "#C9EBDD"; /* bluish green */
	default:
		return "#CBE5F6"; /* sky blue */
	}
}

/* Its name (and size, or the plan's action) inside when it fits. */
static void band_label(const struct dm_band *b, double x0, double x1, double y,
		       FILE *out)
{
	char lab[160], sz[16];
	const char *what =
		b->action ? blkalign_plan_action_name(
				    (enum blkalign_plan_action)(b->action - 1))
			  : NULL;

	blkalign_size_format(b->size, BLKALIGN_SIZE_LSBLK, sz, sizeof(sz));
	snprintf(lab, sizeof(lab), "%s %s", b->l->name, what ? what : sz);
	if (dm_text_width(lab, 12) > x1 - x0 - 8)
		snprintf(lab, sizeof(lab), "%s", b->l->name);
	if (dm_text_width(lab, 12) > x1 - x0 - 8)
		return;
	fprintf(out, "<text class=\"name\" x=\"%.1f\" y=\"%.1f\">", x0 + 4,
		y + DM_ROW / 2 + 4);
	dm_xml(lab, out);
	fputs("</text>\n", out);
}

static void band_draw(const struct dm_disk *k, const struct dm_band *b,
		      const struct dm_axis *a, double y, FILE *out)
{
	double x0 = dm_axis_x(a, b->start),
	       x1 = dm_axis_x(a, b->start + b->size);
	bool hatch = b->action ? b->findings_after > 0
			       : b->worst > (int)BLKALIGN_INFO + 1;
	char sz[16];

	y += (DM_ROW + DM_GAP) * b->depth;
	fprintf(out, "<g class=\"band%s\"><title>", hatch ? " misaligned" : "");
	dm_xml(b->l->name, out);
	blkalign_size_format(b->size, BLKALIGN_SIZE_LSBLK, sz, sizeof(sz));
	fprintf(out,
		" (%s%s): bytes %" PRIu64 " to %" PRIu64 ", %s (%" PRIu64
		" bytes)",
		blkalign_layer_kind_name(b->l->kind),
		b->l->extended ? ", extended" : "", b->start,
		b->start + b->size, sz, b->size);
	if (b->action)
		fprintf(out, "; plan: %s, findings after: %zu",
			blkalign_plan_action_name(
				(enum blkalign_plan_action)(b->action - 1)),
			b->findings_after);
	for (size_t f = 0; !b->action && f < k->d->nfindings; f++)
		if (&k->d->layers[k->d->findings[f].layer] == b->l)
			fprintf(out, "; %s", k->d->findings[f].code);
	fprintf(out,
		"</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		"height=\"%.1f\" fill=\"%s\" stroke=\"#444\"%s/>",
		x0, y, x1 - x0, DM_ROW, fill_of(b->l),
		b->l->extended ? " stroke-dasharray=\"4 3\"" : "");
	if (hatch)
		fprintf(out,
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			"height=\"%.1f\" fill=\"url(#dm-hatch)\"/>",
			x0, y, x1 - x0, DM_ROW);
	fputs("</g>\n", out);
}

/* The marker of a mark at (@x, @y): a triangle for findings (coloured by
 * the worst), a circle for an aligned offset (hollow: off the physical
 * sector grid, but no finding is about it), its number beside it. */
static void marker(const struct dm_disk *k, const struct dm_mark *m, double x,
		   double y, FILE *out)
{
	int worst = -1;

	for (size_t i = 0; i < m->nf; i++)
		if ((int)k->d->findings[m->f[i]].severity > worst)
			worst = (int)k->d->findings[m->f[i]].severity;
	if (worst < 0 && m->off % dm_physical(k->d))
		fprintf(out,
			"<circle class=\"unjudged\" cx=\"%.1f\" cy=\"%.1f\" "
			"r=\"4.5\" fill=\"white\" stroke=\"" DM_GREEN
			"\" stroke-width=\"2\"/>",
			x, y);
	else if (worst < 0)
		fprintf(out,
			"<circle class=\"aligned\" cx=\"%.1f\" cy=\"%.1f\" "
			"r=\"5\" fill=\"" DM_GREEN "\" stroke=\"#222\"/>",
			x, y);
	else
		fprintf(out,
			"<path class=\"misaligned\" d=\"M%.1f %.1fl-6 -10h12z\" "
			"fill=\"%s\" stroke=\"#222\"/>",
			x, y + 5,
			worst == BLKALIGN_ERROR	    ? DM_VERMILLION
			: worst == BLKALIGN_WARNING ? DM_ORANGE
						    : DM_BLUE);
	fprintf(out,
		"<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" "
		"font-weight=\"bold\">%d</text>\n",
		x + 7, y + 4, m->num);
}

/* A mark's x: its offset, or near the right end of its layer's band
 * (clear of the name on the left). */
double dm_mark_x(const struct dm_disk *k, const struct dm_axis *a,
		 const struct dm_mark *m)
{
	const struct blkalign_layer *l;
	double x0, x1;

	if (m->layer < 0)
		return dm_axis_x(a, m->off);
	l = &k->d->layers[m->layer];
	x0 = dm_axis_x(a, l->start);
	x1 = dm_axis_x(a, l->start + l->size);
	return x1 - 24 > x0 + 8 ? x1 - 24 : (x0 + x1) / 2;
}

/**
 * dm_bands_draw: the bands from @y, the cuts of the broken axis over
 * them and (@marks) each mark: a line down the bands from its marker
 * above them, or its marker on its layer's band.  Returns the height.
 */
double dm_bands_draw(const struct dm_disk *k, const struct dm_axis *a, double y,
		     bool marks, FILE *out)
{
	double top = y + (marks ? 16 : 0), h;

	h = (DM_ROW + DM_GAP) * (k->maxdepth + 1);
	for (size_t i = 0; i < k->nbands; i++)
		band_draw(k, &k->bands[i], a, top, out);
	dm_axis_cuts(a, top, top + h, out);
	/* the lines down the bands, under the names */
	for (size_t i = 0; marks && i < k->nmarks; i++) {
		const struct dm_mark *m = &k->marks[i];
		double x = dm_mark_x(k, a, m);

		if (m->layer < 0)
			fprintf(out,
				"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				"y2=\"%.1f\" stroke=\"%s\" "
				"stroke-width=\"1.5\"%s/>\n",
				x, top - 4, x, top + h + 4,
				m->nf ? DM_VERMILLION : DM_GREEN,
				m->nf ? " stroke-dasharray=\"5 3\"" : "");
	}
	for (size_t i = 0; i < k->nbands; i++) {
		const struct dm_band *b = &k->bands[i];

		band_label(b, dm_axis_x(a, b->start),
			   dm_axis_x(a, b->start + b->size),
			   top + (DM_ROW + DM_GAP) * b->depth, out);
	}
	for (size_t i = 0; marks && i < k->nmarks; i++) {
		const struct dm_mark *m = &k->marks[i];
		double x = dm_mark_x(k, a, m), my = top - 9;

		if (m->layer >= 0)
			my = top + DM_ROW / 2 +
			     (DM_ROW + DM_GAP) *
				     depth_of(k->d, (size_t)m->layer);
		marker(k, m, x, my, out);
	}
	return h + (marks ? 16 : 0);
}
