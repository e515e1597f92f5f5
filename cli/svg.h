/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * svg.h - the pieces of bench's SVG charts (svg.c).
 */
#ifndef BLKALIGN_CLI_SVG_H
#define BLKALIGN_CLI_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* a character's width, in font sizes (a generous sans-serif average) */
#define SVG_CHAR_EM   0.6
#define SVG_MAX_LINES 16

/* Okabe-Ito: blue, bluish green, vermillion (hatched: a second cue) */
#define SVG_PLAIN "#0072B2"
#define SVG_FAST  "#009E73"
#define SVG_SLOW  "#D55E00"

enum svg_kind {
	SVG_KIND_PLAIN, /* no comparison: blue */
	SVG_KIND_FAST,	/* the faster: green */
	SVG_KIND_SLOW,	/* the slower: vermillion, hatched */
};

struct svg_lines {
	char line[SVG_MAX_LINES][200];
	int n;
};

/* A value axis from 0 to max, nticks steps of step (in unit). */
struct svg_axis {
	double max;  /* in base units (bytes/s, ns) */
	double unit; /* base units per unit */
	double step; /* in units: 1, 2 or 5 times a power of ten */
	int nticks;  /* steps up to max */
	const char *unit_name;
};

struct svg_legend_item {
	enum svg_kind kind;
	bool whisker; /* a whisker, not a swatch */
	const char *text;
};

double svg_text_width(const char *s, double size);
void svg_text(FILE *out, double x, double y, double size, const char *anchor,
	      const char *cls, const char *s);
void svg_wrap(const char *s, double width_px, double size, struct svg_lines *l);
double svg_lines_put(FILE *out, const struct svg_lines *l, double x, double y,
		     double size, double lead);
void svg_axis_bytes_per_s(double max, struct svg_axis *a);
void svg_axis_ns(double max, struct svg_axis *a);
void svg_tick_label(const struct svg_axis *a, int i, char *buf, size_t len);
void svg_value(const struct svg_axis *a, double v, char *buf, size_t len);
void svg_axis_put(FILE *out, const struct svg_axis *a, double x0, double x1,
		  double top, double h);
double svg_axis_label_width(const struct svg_axis *a);
void svg_begin(FILE *out, double w, double h);
const char *svg_fill(enum svg_kind k);
void svg_bar(FILE *out, double x, double y, double w, double h, enum svg_kind k,
	     double ylo, double yhi, const char *tip);
double svg_legend(FILE *out, const struct svg_legend_item *it, size_t n,
		  double x, double y, double w);
int svg_end(FILE *out);

#endif
