/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * diskmap-html.c - the disk map as one HTML page: no script, no font or
 * file from elsewhere; per disk its picture inline and a table of the
 * numbers (each layer's start, end and size, its findings with their
 * severity, message and cost; a plan's old and new places), so that the
 * page reads in a text browser, printed, or with the picture unseen.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "diskmap.h"
#include "blkalignP.h"

static const char style[] =
	"body{font-family:sans-serif;background:#fff;color:#000;margin:1em}\n"
	"table{border-collapse:collapse;margin:0.5em 0 2em;font-size:13px}\n"
	"th,td{border:1px solid #999;padding:2px 6px;text-align:left;"
	"vertical-align:top}\n"
	"td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
	"td.code{white-space:nowrap}\n"
	"th{background:#eee}\n"
	"tr.error td.sev{background:#F6D3BD}tr.warning td.sev{background:#FBEBC2}"
	"tr.info td.sev{background:#C7DDEF}\n"
	"svg{max-width:100%;height:auto}\n"
	"@media print{section{break-inside:avoid}}\n";

/* Shared by the SVG and the pictures of the page. */
void dm_defs(FILE *out)
{
	fputs("<defs><pattern id=\"dm-hatch\" width=\"8\" height=\"8\" "
	      "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
	      "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"8\" stroke=\"" DM_VERMILLION
	      "\" stroke-width=\"2.5\" stroke-opacity=\"0.6\"/></pattern>"
	      "<style>text.name{font-size:12px;paint-order:stroke;"
	      "stroke:#fff;stroke-width:3px;stroke-linejoin:round}"
	      "</style></defs>\n",
	      out);
}

static void cell(FILE *out, const char *cls, const char *s)
{
	fprintf(out, "<td%s%s%s>", cls ? " class=\"" : "", cls ? cls : "",
		cls ? "\"" : "");
	dm_xml(s ? s : "", out);
	fputs("</td>", out);
}

static void num(FILE *out, uint64_t v)
{
	fprintf(out, "<td class=\"n\">%" PRIu64 "</td>", v);
}

/* The layer's cells, spanning @rows rows. */
static void layer_cells(FILE *out, const struct blkalign_layer *l, size_t rows)
{
	char sz[16];

	blkalign_size_format(l->size, BLKALIGN_SIZE_LSBLK, sz, sizeof(sz));
	fprintf(out, "<td rowspan=\"%zu\">", rows);
	dm_xml(l->name, out);
	fprintf(out,
		"</td><td rowspan=\"%zu\">%s%s</td><td class=\"n\" "
		"rowspan=\"%zu\">%" PRIu64 "</td><td class=\"n\" "
		"rowspan=\"%zu\">%" PRIu64 "</td><td class=\"n\" "
		"rowspan=\"%zu\">%s</td>",
		rows, blkalign_layer_kind_name(l->kind),
		l->extended ? " (extended)" : "", rows, l->start, rows,
		l->start + l->size, rows, sz);
}

/* A layer's rows: one per finding (with the number of its mark on the
 * picture, @num[finding], when known), or one saying it has none. */
static void layer_rows(FILE *out, const struct blkalign_device *d, size_t i,
		       const int *num)
{
	size_t nf = 0;
	bool first = true;
	char cost[256];

	for (size_t f = 0; f < d->nfindings; f++)
		nf += d->findings[f].layer == (int)i;
	if (!nf) {
		fputs("<tr class=\"ok\">", out);
		layer_cells(out, &d->layers[i], 1);
		fputs("<td colspan=\"5\">no findings</td></tr>\n", out);
		return;
	}
	for (size_t f = 0; f < d->nfindings; f++) {
		const struct blkalign_finding *fi = &d->findings[f];

		if (fi->layer != (int)i)
			continue;
		fprintf(out, "<tr class=\"%s\">",
			blkalign_severity_name(fi->severity));
		if (first)
			layer_cells(out, &d->layers[i], nf);
		first = false;
		if (num && num[f])
			fprintf(out, "<td class=\"n\">%d</td>", num[f]);
		else
			fputs("<td></td>", out);
		cell(out, "code", fi->code);
		cell(out, "sev", blkalign_severity_name(fi->severity));
		cell(out, NULL, fi->message);
		if (blkalign_finding_cost(d, fi, cost, sizeof(cost)))
			snprintf(cost, sizeof(cost), "%s",
				 fi->explanation ? fi->explanation : "");
		cell(out, NULL, cost);
		fputs("</tr>\n", out);
	}
}

static void plan_table(FILE *out, const struct blkalign_plan *p)
{
	fputs("<table class=\"plan\"><tr><th>partition</th><th>action</th>"
	      "<th>old start</th><th>old size</th><th>new start</th>"
	      "<th>new size</th><th>findings now</th><th>findings after</th>"
	      "<th>why</th></tr>\n",
	      out);
	for (size_t i = 0; i < p->nparts; i++) {
		const struct blkalign_plan_part *pp = &p->parts[i];

		fputs("<tr>", out);
		cell(out, NULL, pp->name);
		cell(out, NULL, blkalign_plan_action_name(pp->action));
		num(out, pp->old_start);
		num(out, pp->old_size);
		num(out, pp->new_start);
		num(out, pp->new_size);
		num(out, pp->findings_before);
		num(out, pp->findings_after);
		cell(out, NULL, pp->reason);
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

void dm_html_disk(FILE *out, const struct blkalign_device *d,
		  const struct blkalign_plan *p, const char *pic, size_t len,
		  double h)
{
	struct dm_disk k;
	int *num;

	fputs("<section>\n<h2>", out);
	dm_xml(d->path, out);
	fprintf(out,
		"</h2>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
		"width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		"font-family=\"sans-serif\" font-size=\"12\" role=\"img\">\n",
		DM_WIDTH, h, DM_WIDTH, h);
	fputs("<title>disk map of ", out);
	dm_xml(d->path, out);
	fputs("</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
	      out);
	fwrite(pic, 1, len, out);
	fputs("</svg>\n<table class=\"layers\"><tr><th>layer</th><th>kind</th>"
	      "<th>start (byte)</th><th>end (byte)</th><th>size</th>"
	      "<th>mark</th><th>finding</th><th>severity</th><th>message</th>"
	      "<th>cost</th></tr>\n",
	      out);
	/* the marks' numbers, as the picture has them */
	num = calloc(d->nfindings + 1, sizeof(*num));
	if (num && !dm_disk_build(&k, d, NULL)) {
		for (size_t m = 0; m < k.nmarks; m++)
			for (size_t j = 0; j < k.marks[m].nf; j++)
				num[k.marks[m].f[j]] = k.marks[m].num;
		dm_disk_free(&k);
	}
	for (size_t i = 0; i < d->nlayers; i++)
		layer_rows(out, d, i, num);
	free(num);
	fputs("</table>\n", out);
	if (p)
		plan_table(out, p);
	fputs("</section>\n", out);
}

int dm_html_write(FILE *out, const char *body, size_t len, size_t n)
{
	fprintf(out,
		"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
		"<meta charset=\"utf-8\">\n<title>blkalign disk map</title>\n"
		"<style>\n%s</style>\n</head>\n<body>\n"
		"<h1>blkalign disk map</h1>\n"
		"<p>Each disk's layers as bands from the disk (top) to the "
		"filesystems, at their offsets on a byte axis that is broken "
		"(marked // on it) where sizes differ by orders of magnitude. "
		"Triangles mark misaligned starts and ends, numbered as the "
		"boxes under the axis that say which grid and what it costs, "
		"and as the tables' mark column; circles mark aligned ones "
		"(hollow: off the physical sector grid, but no finding); "
		"hatched layers have a warning or an error.</p>\n"
		"<svg width=\"0\" height=\"0\" aria-hidden=\"true\" "
		"style=\"position:absolute\">",
		style);
	dm_defs(out);
	fputs("</svg>\n", out);
	if (!n)
		fputs("<p>No disk was audited.</p>\n", out);
	fwrite(body, 1, len, out);
	fputs("</body>\n</html>\n", out);
	return ferror(out) ? -EIO : 0;
}
