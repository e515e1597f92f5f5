/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench-svg.c - `blkalign bench --svg FILE`, pictures readable without
 * the table: the phase sweep's median latency by phase (whiskers the
 * 25th-75th percentile), and the comparison tests' sides (each side's
 * median throughput as a bar, whiskers the slowest and fastest pass,
 * under it its node, soft block size, traced and predicted requests),
 * each with a legend and the verdict in words.  The canvas is sized to
 * what it holds; text is wrapped to it (svg.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

#define MARGIN 12.0
#define TITLE  15.0
#define PLOT_H 220.0

/* The title lines of a chart @w wide, and the plot's top below them. */
static double title_lines(const char *title, double w, struct svg_lines *l)
{
	svg_wrap(title, w - 2 * MARGIN, TITLE, l);
	/* a line of value labels above the highest whisker */
	return MARGIN + TITLE + (l->n - 1) * 19 + 30;
}

/* The verdict @words, wrapped: the canvas height when it starts at @y. */
static double verdict_height(const char *words, double w, double y,
			     struct svg_lines *l)
{
	svg_wrap(words, w - 2 * MARGIN, 11, l);
	return y + 15.0 * l->n + 4;
}

/* @w, widened (up to 760) so that @words take at most 6 lines at 11. */
static double fit_words(double w, const char *words)
{
	double need = svg_text_width(words, 11) / 6 + 2 * MARGIN + 40;

	if (need > 760)
		need = 760;
	return need > w ? need : w;
}

static double y_of(const struct svg_axis *a, double top, double v)
{
	return top + PLOT_H - PLOT_H * v / a->max;
}

static const struct blkalign_bench_phase *
phase(const struct blkalign_bench_result *r, uint32_t k)
{
	return blkalign_bench_result_get_phase(r, k);
}

/* Phase @k's bar in the slot at @x, @slot wide. */
static void sweep_bar(const struct blkalign_bench_result *r, uint32_t k,
		      double x, double slot, double top,
		      const struct svg_axis *a, FILE *out)
{
	const struct blkalign_bench_phase *p = phase(r, k);
	bool penalty =
		blkalign_bench_result_get_verdict(r) == BLKALIGN_BENCH_PENALTY;
	enum svg_kind kind = !penalty				? SVG_KIND_PLAIN
			     : blkalign_bench_phase_get_fast(p) ? SVG_KIND_FAST
								: SVG_KIND_SLOW;
	double med = (double)blkalign_bench_phase_get_median_ns(p);
	double y75 = y_of(a, top, (double)blkalign_bench_phase_get_p75_ns(p));
	double w = slot * 0.6, ybar = y_of(a, top, med);
	char lab[32], tip[64];

	svg_value(a, med, lab, sizeof(lab));
	snprintf(tip, sizeof(tip), "phase %" PRIu32 ": %s", k, lab);
	svg_bar(out, x + (slot - w) / 2, ybar, w, top + PLOT_H - ybar, kind,
		y_of(a, top, (double)blkalign_bench_phase_get_p25_ns(p)), y75,
		tip);
	/* above the bar and its whisker; only when it fits the slot */
	if (svg_text_width(lab, 10) <= slot - 4)
		svg_text(out, x + slot / 2, (ybar < y75 ? ybar : y75) - 5, 10,
			 "middle", "value", lab);
}

/* The x axis of the sweep: phase and offset under every @every-th slot. */
static void sweep_x_labels(const struct blkalign_bench_result *r, double left,
			   double slot, double base, FILE *out)
{
	uint32_t n = blkalign_bench_result_get_nphases(r), every;
	char lab[32];
	double widest;

	snprintf(lab, sizeof(lab), "%" PRIu64,
		 blkalign_bench_phase_get_offset(phase(r, n - 1)));
	widest = svg_text_width(lab, 10) + 6;
	every = (uint32_t)(widest / slot) + 1;
	for (uint32_t k = 0; k < n; k += every) {
		double cx = left + slot * k + slot / 2;

		snprintf(lab, sizeof(lab), "%" PRIu32, k);
		svg_text(out, cx, base + 15, 11, "middle", "xlabel", lab);
		snprintf(lab, sizeof(lab), "%" PRIu64,
			 blkalign_bench_phase_get_offset(phase(r, k)));
		svg_text(out, cx, base + 28, 10, "middle", "xlabel", lab);
	}
}

static const struct svg_legend_item sweep_penalty[] = {
	{SVG_KIND_FAST, false, "aligned: fast phases"},
	{SVG_KIND_SLOW, false, "slower: read-modify-write"},
	{SVG_KIND_PLAIN, true, "25th-75th percentile"},
};
static const struct svg_legend_item sweep_plain[] = {
	{SVG_KIND_PLAIN, false, "median latency"},
	{SVG_KIND_PLAIN, true, "25th-75th percentile"},
};

/*
 * A bar per phase: the median, the IQR as a whisker, the fast phases of
 * a penalty in green, the slow ones hatched vermillion; the verdict.
 */
int cli_bench_sweep_svg(const struct blkalign_bench_result *r, FILE *out)
{
	uint32_t n = blkalign_bench_result_get_nphases(r);
	bool data = n && blkalign_bench_result_get_rounds_done(r);
	bool penalty =
		blkalign_bench_result_get_verdict(r) == BLKALIGN_BENCH_PENALTY;
	const struct svg_legend_item *items =
		penalty ? sweep_penalty : sweep_plain;
	size_t nitems = penalty ? 3 : 2;
	double ymax = 0, left, plot_w, slot, W, H, top, base, y;
	struct svg_lines tl, vl;
	struct svg_axis a;
	char title[512], io[32], words[512];

	for (uint32_t k = 0; data && k < n; k++)
		if ((double)blkalign_bench_phase_get_p75_ns(phase(r, k)) > ymax)
			ymax = (double)blkalign_bench_phase_get_p75_ns(
				phase(r, k));
	svg_axis_ns(ymax, &a);
	left = MARGIN + svg_axis_label_width(&a) + 8;
	plot_w = (n ? n : 1) * (n <= 16 ? 56.0 : 18.0);
	if (plot_w < 400)
		plot_w = 400;
	blkalign_bench_verdict_text(r, words, sizeof(words));
	W = fit_words(left + plot_w + MARGIN, words);
	plot_w = W - left - MARGIN;
	slot = plot_w / (n ? n : 1);
	blkalign_size_format(blkalign_bench_result_get_io_size(r),
			     BLKALIGN_SIZE_ADJECTIVE, io, sizeof(io));
	snprintf(title, sizeof(title),
		 "%s%s: median %s latency of %s I/O by phase",
		 blkalign_bench_result_get_path(r) ? "" : "engine ",
		 blkalign_bench_result_get_path(r)
			 ? blkalign_bench_result_get_path(r)
			 : blkalign_bench_result_get_engine(r),
		 blkalign_bench_result_get_write(r) ? "write" : "read", io);
	top = title_lines(title, W, &tl);
	base = top + PLOT_H;
	y = svg_legend(NULL, items, nitems, MARGIN, base + 66, W - 2 * MARGIN);
	H = verdict_height(words, W, y + 6, &vl);

	svg_begin(out, W, H);
	svg_lines_put(out, &tl, MARGIN, MARGIN + TITLE, TITLE, 19);
	svg_axis_put(out, &a, left, W - MARGIN, top, PLOT_H);
	for (uint32_t k = 0; data && k < n; k++)
		sweep_bar(r, k, left + slot * k, slot, top, &a, out);
	if (n)
		sweep_x_labels(r, left, slot, base, out);
	svg_text(out, left + plot_w / 2, base + 46, 11, "middle", NULL,
		 "phase k (offset in bytes)");
	svg_legend(out, items, nitems, MARGIN, base + 66, W - 2 * MARGIN);
	svg_lines_put(out, &vl, MARGIN, y + 6, 11, 15);
	return svg_end(out);
}

/* @s wrapped to @w at 11 after the lines already in @l. */
static void add_lines(struct svg_lines *l, const char *s, double w)
{
	struct svg_lines more;

	svg_wrap(s, w, 11, &more);
	for (int i = 0; i < more.n && l->n < SVG_MAX_LINES; i++)
		memcpy(l->line[l->n++], more.line[i], sizeof(more.line[i]));
}

/* The lines under side @s's bar, at most @w wide. */
static void side_lines(const struct blkalign_bench_side *s, double w,
		       struct svg_lines *l)
{
	char buf[512], a[32];

	l->n = 0;
	snprintf(buf, sizeof(buf), "%s %s", blkalign_bench_side_get_label(s),
		 blkalign_bench_side_get_path(s));
	add_lines(l, buf, w);
	if (blkalign_bench_side_get_soft_block_size(s)) {
		snprintf(buf, sizeof(buf), "soft block %" PRIu32,
			 blkalign_bench_side_get_soft_block_size(s));
		add_lines(l, buf, w);
	}
	if (blkalign_bench_side_get_traced(s)) {
		blkalign_size_format(
			(uint64_t)blkalign_bench_side_get_request_avg(s),
			BLKALIGN_SIZE_SHORT, a, sizeof(a));
		snprintf(buf, sizeof(buf), "%" PRIu64 " requests of %s avg",
			 blkalign_bench_side_get_requests(s), a);
		add_lines(l, buf, w);
	}
	if (blkalign_bench_side_get_model_requests(s)) {
		snprintf(buf, sizeof(buf), "model: %" PRIu64 " requests",
			 blkalign_bench_side_get_model_requests(s));
		add_lines(l, buf, w);
	}
}

/* Side @i's kind: the slower of two by more than 10% is hatched. */
static enum svg_kind side_kind(const struct blkalign_bench_compare *c, size_t i)
{
	int dir = blkalign_bench_compare_get_measured_direction(c);

	if (blkalign_bench_compare_get_nsides(c) < 2 || !dir)
		return SVG_KIND_PLAIN;
	/* +1: side 1 is faster */
	return (dir > 0) == (i == 1) ? SVG_KIND_FAST : SVG_KIND_SLOW;
}

/* Side @i's bar in the slot at @x, its value and lines under it. */
static void compare_side(const struct blkalign_bench_compare *c, size_t i,
			 double x, double slot, double top,
			 const struct svg_axis *a, const struct svg_lines *l,
			 FILE *out)
{
	const struct blkalign_bench_side *s =
		blkalign_bench_compare_get_side(c, i);
	double med = blkalign_bench_side_get_median_bytes_per_s(s);
	double yhi = y_of(a, top, blkalign_bench_side_get_max_bytes_per_s(s));
	double ybar = y_of(a, top, med), w = 72;
	char lab[32];

	svg_value(a, med, lab, sizeof(lab));
	svg_bar(out, x + (slot - w) / 2, ybar, w, top + PLOT_H - ybar,
		side_kind(c, i),
		y_of(a, top, blkalign_bench_side_get_min_bytes_per_s(s)), yhi,
		lab);
	svg_text(out, x + slot / 2, (ybar < yhi ? ybar : yhi) - 6, 11, "middle",
		 "value", lab);
	for (int k = 0; k < l->n; k++)
		svg_text(out, x + slot / 2, top + PLOT_H + 16 + 14.0 * k, 11,
			 "middle", "xlabel", l->line[k]);
}

static const struct svg_legend_item compare_two[] = {
	{SVG_KIND_FAST, false, "faster side"},
	{SVG_KIND_SLOW, false, "slower side (by more than 10%)"},
	{SVG_KIND_PLAIN, true, "slowest and fastest pass"},
};
static const struct svg_legend_item compare_even[] = {
	{SVG_KIND_PLAIN, false, "within 10% of each other"},
	{SVG_KIND_PLAIN, true, "slowest and fastest pass"},
};
static const struct svg_legend_item compare_one[] = {
	{SVG_KIND_PLAIN, false, "median throughput"},
	{SVG_KIND_PLAIN, true, "slowest and fastest pass"},
};

/**
 * cli_bench_compare_svg: the comparison @c as an SVG bar chart.
 */
int cli_bench_compare_svg(const struct blkalign_bench_compare *c, FILE *out)
{
	size_t n = blkalign_bench_compare_get_nsides(c), nitems = 2;
	const struct svg_legend_item *items = compare_one;
	double ymax = 0, left, slot = 170, W, H, top, y, under = 0;
	struct svg_lines tl, vl, sl[2];
	struct svg_axis a;
	char title[512], io[32], words[1024], test[32];

	if (n > 2)
		n = 2;
	for (size_t i = 0; i < n; i++) {
		const struct blkalign_bench_side *s =
			blkalign_bench_compare_get_side(c, i);
		char buf[512];
		double w;

		if (blkalign_bench_side_get_max_bytes_per_s(s) > ymax)
			ymax = blkalign_bench_side_get_max_bytes_per_s(s);
		snprintf(buf, sizeof(buf), "%s %s",
			 blkalign_bench_side_get_label(s),
			 blkalign_bench_side_get_path(s));
		w = svg_text_width(buf, 11) + 20;
		if (w > slot)
			slot = w < 400 ? w : 400;
	}
	for (size_t i = 0; i < n; i++) {
		side_lines(blkalign_bench_compare_get_side(c, i), slot - 16,
			   &sl[i]);
		if (sl[i].n * 14.0 > under)
			under = sl[i].n * 14.0;
	}
	if (n == 2) {
		bool even = !blkalign_bench_compare_get_measured_direction(c);

		items = even ? compare_even : compare_two;
		nitems = even ? 2 : 3;
	}
	svg_axis_bytes_per_s(ymax, &a);
	left = MARGIN + svg_axis_label_width(&a) + 8;
	W = left + slot * (double)(n ? n : 1) + MARGIN;
	if (W < 440)
		W = 440;
	if (blkalign_bench_compare_text(c, words, sizeof(words)) < 0)
		words[0] = '\0';
	W = fit_words(W, words);
	slot = (W - left - MARGIN) / (double)(n ? n : 1);
	blkalign_size_format(blkalign_bench_compare_get_io_size(c),
			     BLKALIGN_SIZE_WORDS, io, sizeof(io));
	snprintf(test, sizeof(test), "%s",
		 blkalign_bench_test_name(blkalign_bench_compare_get_test(c)));
	for (char *p = test; *p; p++)
		if (*p == '_')
			*p = '-';
	snprintf(title, sizeof(title), "%s: %s, %s %s of %s, median throughput",
		 blkalign_bench_compare_get_path(c), test,
		 blkalign_bench_compare_get_direct(c) ? "direct" : "buffered",
		 blkalign_bench_compare_get_write(c) ? "writes" : "reads", io);
	top = title_lines(title, W, &tl);
	y = svg_legend(NULL, items, nitems, MARGIN, top + PLOT_H + under + 24,
		       W - 2 * MARGIN);
	H = verdict_height(words, W, y + 6, &vl);

	svg_begin(out, W, H);
	svg_lines_put(out, &tl, MARGIN, MARGIN + TITLE, TITLE, 19);
	svg_axis_put(out, &a, left, W - MARGIN, top, PLOT_H);
	for (size_t i = 0; i < n; i++)
		compare_side(c, i, left + slot * (double)i, slot, top, &a,
			     &sl[i], out);
	svg_legend(out, items, nitems, MARGIN, top + PLOT_H + under + 24,
		   W - 2 * MARGIN);
	svg_lines_put(out, &vl, MARGIN, y + 6, 11, 15);
	return svg_end(out);
}
