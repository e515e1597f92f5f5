/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * diskmap.h - the disk map's parts (out/diskmap*.c): the broken byte
 * axis, the bands and markers of one disk, the callouts with their grid
 * rulers, and the SVG helpers they share.
 */
#ifndef BLKALIGN_DISKMAP_H
#define BLKALIGN_DISKMAP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "results.h"

#define DM_WIDTH 1400.0 /* the canvas, px */
#define DM_LEFT	 40.0
#define DM_RIGHT 40.0
#define DM_ROW	 26.0 /* one band's height */
#define DM_GAP	 3.0

/* Okabe-Ito: safe for the common colour blindnesses, and in grey. */
#define DM_VERMILLION "#D55E00"
#define DM_ORANGE     "#E69F00"
#define DM_BLUE	      "#0072B2"
#define DM_GREEN      "#009E73"

/*
 * The broken axis: the interesting offsets (layer starts and ends, 0,
 * the end) cut it into segments; each gets a width that grows with the
 * log of its length (and at least a minimum), so that a sector and a
 * terabyte both show.  A segment drawn much narrower than a linear axis
 * would draw it is squeezed: a zigzag says so; one much wider, a "//".
 */
struct dm_axis {
	uint64_t *b;	/* boundaries, sorted, unique: b[0] = 0 */
	double *x;	/* their x */
	bool *broken;	/* segment i (b[i] to b[i + 1]) off scale */
	bool *squeezed; /* ... drawn shorter: bytes left out */
	size_t n;
};

int dm_axis_build(struct dm_axis *a, uint64_t *offs, size_t n, uint64_t end);
double dm_axis_x(const struct dm_axis *a, uint64_t off);
/* The axis line, its ticks, breaks and labels at @y; returns its height. */
double dm_axis_draw(const struct dm_axis *a, double y, FILE *out);
/* The break marks across the bands from @y0 to @y1. */
void dm_axis_cuts(const struct dm_axis *a, double y0, double y1, FILE *out);
void dm_axis_free(struct dm_axis *a);

/* A band: a layer as drawn (the planned one moved with its partition). */
struct dm_band {
	const struct blkalign_layer *l;
	uint64_t start, size;
	int depth;
	int worst;  /* worst finding's severity + 1, 0: none */
	int action; /* plan: BLKALIGN_PLAN_* + 1, 0: none */
	size_t findings_after;
};

/*
 * A mark: an offset where layers start or end (with the findings about
 * it), or a layer's finding that is about no offset (its band).
 */
struct dm_mark {
	uint64_t off;
	int layer;   /* a layer-wide mark: the layer; else -1 */
	size_t f[8]; /* findings, indices into the device's */
	size_t nf;
	int num; /* its number on the map and the callout */
};

/* One disk's layers and marks, and where they are drawn. */
struct dm_disk {
	const struct blkalign_device *d;
	struct dm_band *bands;
	size_t nbands;
	int maxdepth;
	struct dm_mark *marks;
	size_t nmarks;
};

int dm_disk_build(struct dm_disk *k, const struct blkalign_device *d,
		  const struct blkalign_plan *plan);
void dm_disk_free(struct dm_disk *k);
/* The bands from @y (marks on them when @marks); returns the height. */
double dm_bands_draw(const struct dm_disk *k, const struct dm_axis *a, double y,
		     bool marks, FILE *out);
double dm_mark_x(const struct dm_disk *k, const struct dm_axis *a,
		 const struct dm_mark *m);
/* The callouts of @k's marks below @y, leaders up to @yaxis (< 0:
 * none); returns the height. */
double dm_callouts_draw(const struct dm_disk *k, const struct dm_axis *a,
			double y, double yaxis, FILE *out);
/* The grid @g a finding of @code was judged on: "4 KiB physical sector"
 * (@code NULL: by @g alone). */
void dm_grid_name(const struct blkalign_device *d, const char *code, uint64_t g,
		  char *buf, size_t len);
uint64_t dm_physical(const struct blkalign_device *d);
bool dm_finding_at_offset(const struct blkalign_device *d,
			  const struct blkalign_finding *f);

/* The hatch pattern and the text styles, once a document. */
void dm_defs(FILE *out);
/* HTML: disk @d's section (its picture @pic of @len bytes, @h px high,
 * and its tables) to @out; the page around @n sections. */
void dm_html_disk(FILE *out, const struct blkalign_device *d,
		  const struct blkalign_plan *p, const char *pic, size_t len,
		  double h);
int dm_html_write(FILE *out, const char *body, size_t len, size_t n);

void dm_xml(const char *s, FILE *out);
/* "32256", "1 MiB", "7.3 GiB" */
void dm_offset_label(uint64_t off, char *buf, size_t len);
/* @s at (@x, @y), cut into lines of @width characters, at most @maxl;
 * returns the lines written. */
int dm_text_lines(const char *s, double x, double y, int width, int maxl,
		  const char *attrs, FILE *out);
double dm_text_width(const char *s, double px);

#endif /* BLKALIGN_DISKMAP_H */
