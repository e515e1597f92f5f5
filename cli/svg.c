/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * svg.c - the pieces of bench's hand-written SVG charts: text escaped,
 * placed and wrapped to a width (a character taken as 0.6 of the font
 * size, about sans-serif's widest average), value axes with round ticks
 * (1-2-5 steps) in a unit that suits them, the Okabe-Ito colours with a
 * hatch for "slower", and a legend.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

double svg_text_width(const char *s, double size)
{
	return (double)strlen(s) * size * SVG_CHAR_EM;
}

static void xml_text(const char *s, FILE *out)
{
	for (; s && *s; s++) {
		switch (*s) {
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
			fputc(*s, out);
		}
	}
}

/* @s at (@x, @y), @anchor "start", "middle" or "end"; @cls or NULL. */
void svg_text(FILE *out, double x, double y, double size, const char *anchor,
	      const char *cls, const char *s)
{
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%g\"", x, y,
		size);
	if (strcmp(anchor, "start"))
		fprintf(out, " text-anchor=\"%s\"", anchor);
	if (cls)
		fprintf(out, " class=\"%s\"", cls);
	fputc('>', out);
	xml_text(s, out);
	fputs("</text>\n", out);
}

/*
 * @s cut at spaces into lines at most @width_px wide at @size (a word
 * longer than that is cut where it must); at most SVG_MAX_LINES, the
 * last one ending in "..." when that is not enough.
 */
void svg_wrap(const char *s, double width_px, double size, struct svg_lines *l)
{
	size_t max = (size_t)(width_px / (size * SVG_CHAR_EM));

	if (max < 8)
		max = 8;
	if (max >= sizeof(l->line[0]))
		max = sizeof(l->line[0]) - 1;
	l->n = 0;
	while (s && *s && l->n < SVG_MAX_LINES) {
		size_t len = strlen(s), cut = len;

		if (len > max) {
			cut = max;
			while (cut > 0 && s[cut] != ' ')
				cut--;
			if (!cut)
				cut = max;
		}
		if (l->n == SVG_MAX_LINES - 1 && len > max) {
			cut = max - 3;
			snprintf(l->line[l->n++], sizeof(l->line[0]), "%.*s...",
				 (int)cut, s);
			break;
		}
		snprintf(l->line[l->n++], sizeof(l->line[0]), "%.*s", (int)cut,
			 s);
		s += cut;
		while (*s == ' ')
			s++;
	}
}

/* The lines of @l from baseline @y, @lead apart: the y after them. */
double svg_lines_put(FILE *out, const struct svg_lines *l, double x, double y,
		     double size, double lead)
{
	for (int i = 0; i < l->n; i++, y += lead)
		svg_text(out, x, y, size, "start", NULL, l->line[i]);
	return y;
}

/* A step of 1, 2 or 5 times a power of ten: 3 to 6 ticks above 0. */
static double nice_step(double max)
{
	double raw = max / 6, p = pow(10, floor(log10(raw))), f = raw / p;

	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
}

/* An axis from 0 past @max (in @units of the unit @unit_name). */
static void axis_in(double max, double unit, const char *unit_name,
		    struct svg_axis *a)
{
	double m = max / unit;

	if (!(m > 0))
		m = 1;
	a->unit = unit;
	a->unit_name = unit_name;
	a->step = nice_step(m);
	a->nticks = (int)ceil(m / a->step - 1e-9);
	if (a->nticks < 1)
		a->nticks = 1;
	a->max = a->step * a->nticks * unit;
}

void svg_axis_bytes_per_s(double max, struct svg_axis *a)
{
	static const char *const names[] = {"B/s", "KiB/s", "MiB/s", "GiB/s",
					    "TiB/s"};
	double unit = 1;
	size_t i = 0;

	while (i + 1 < sizeof(names) / sizeof(names[0]) && max >= unit * 1024) {
		unit *= 1024;
		i++;
	}
	axis_in(max, unit, names[i], a);
}

void svg_axis_ns(double max, struct svg_axis *a)
{
	if (max >= 1e9)
		axis_in(max, 1e9, "s", a);
	else if (max >= 1e6)
		axis_in(max, 1e6, "ms", a);
	else if (max >= 1e3)
		axis_in(max, 1e3, "us", a);
	else
		axis_in(max, 1, "ns", a);
}

/* Tick @i of @a: "0", "50 MiB/s", "2.5 ms". */
void svg_tick_label(const struct svg_axis *a, int i, char *buf, size_t len)
{
	double v = a->step * i;

	if (!i)
		snprintf(buf, len, "0");
	else
		snprintf(buf, len, "%.6g %s", v, a->unit_name);
}

/* A value @v in @a's unit, 3 significant digits: "993 MiB/s". */
void svg_value(const struct svg_axis *a, double v, char *buf, size_t len)
{
	double u = v / a->unit;

	/* not "1e+03" */
	if (u >= 1000)
		snprintf(buf, len, "%.0f %s", u, a->unit_name);
	else
		snprintf(buf, len, "%.3g %s", u, a->unit_name);
}

/* The y axis: gridlines and tick labels, left of @x0, @x1 wide. */
void svg_axis_put(FILE *out, const struct svg_axis *a, double x0, double x1,
		  double top, double h)
{
	char lab[32];

	for (int i = 0; i <= a->nticks; i++) {
		double y = top + h - h * i / a->nticks;

		fprintf(out,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"%s\"/>\n",
			x0, y, x1, y, i ? "#dddddd" : "black");
		svg_tick_label(a, i, lab, sizeof(lab));
		svg_text(out, x0 - 6, y + 4, 11, "end", "tick", lab);
	}
}

/* The widest tick label of @a, in pixels at 11. */
double svg_axis_label_width(const struct svg_axis *a)
{
	char lab[32];

	svg_tick_label(a, a->nticks, lab, sizeof(lab));
	return svg_text_width(lab, 11);
}

/* The head: the canvas, white, and the hatch of slower bars. */
void svg_begin(FILE *out, double w, double h)
{
	fprintf(out,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		"height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		"font-family=\"sans-serif\" font-size=\"12\">\n"
		"<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" "
		"patternUnits=\"userSpaceOnUse\" "
		"patternTransform=\"rotate(45)\">"
		"<rect width=\"6\" height=\"6\" fill=\"" SVG_SLOW "\"/>"
		"<rect width=\"2\" height=\"6\" fill=\"white\" "
		"fill-opacity=\"0.6\"/></pattern></defs>\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		w, h, w, h);
}

/* The fill of a bar of kind @k. */
const char *svg_fill(enum svg_kind k)
{
	switch (k) {
	case SVG_KIND_FAST:
		return SVG_FAST;
	case SVG_KIND_SLOW:
		return "url(#hatch)";
	case SVG_KIND_PLAIN:
		break;
	}
	return SVG_PLAIN;
}

/* A bar, its whisker from @ylo to @yhi (with caps), a tooltip. */
void svg_bar(FILE *out, double x, double y, double w, double h, enum svg_kind k,
	     double ylo, double yhi, const char *tip)
{
	double cx = x + w / 2;

	fprintf(out,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		"fill=\"%s\" stroke=\"%s\"><title>",
		x, y, w, h, svg_fill(k),
		k == SVG_KIND_SLOW ? SVG_SLOW : "none");
	xml_text(tip, out);
	fprintf(out,
		"</title></rect>\n<path d=\"M%.1f %.1fV%.1fM%.1f %.1fh%.1f"
		"M%.1f %.1fh%.1f\" stroke=\"black\" fill=\"none\"/>\n",
		cx, ylo, yhi, cx - 5, ylo, 10.0, cx - 5, yhi, 10.0);
}

/* The legend's items in rows at most @w wide from (@x, @y): the y of
 * the line after them; @out NULL: measure only. */
double svg_legend(FILE *out, const struct svg_legend_item *it, size_t n,
		  double x, double y, double w)
{
	double cx = x;

	if (out)
		fputs("<g id=\"legend\">\n", out);
	for (size_t i = 0; i < n; i++) {
		double iw = 18 + svg_text_width(it[i].text, 11) + 16;

		if (cx > x && cx + iw > x + w) {
			cx = x;
			y += 18;
		}
		if (out && it[i].whisker)
			fprintf(out,
				"<path d=\"M%.1f %.1fV%.1fM%.1f %.1fh8M%.1f "
				"%.1fh8\" stroke=\"black\" fill=\"none\"/>\n",
				cx + 6, y - 10, y + 1, cx + 2, y - 10, cx + 2,
				y + 1);
		else if (out)
			fprintf(out,
				"<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" "
				"height=\"12\" fill=\"%s\" stroke=\"%s\"/>\n",
				cx, y - 10, svg_fill(it[i].kind),
				it[i].kind == SVG_KIND_SLOW ? SVG_SLOW
							    : "none");
		if (out)
			svg_text(out, cx + 18, y, 11, "start", "legend",
				 it[i].text);
		cx += iw;
	}
	if (out)
		fputs("</g>\n", out);
	return y + 18;
}

int svg_end(FILE *out)
{
	fputs("</svg>\n", out);
	return ferror(out) ? -EIO : 0;
}
