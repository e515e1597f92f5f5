/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench-svg.c - `blkalign bench --svg FILE`, pictures readable without
 * the table: the phase sweep's median latency by phase, and the
 * comparison tests' two sides (each side's median throughput as a bar,
 * whiskers the slowest and fastest pass, the request counts and average
 * request size under it when traced, the model's predicted requests),
 * each with the verdict in words.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "cli.h"

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

/* The verdict, cut into lines of about @width characters. */
static void words_lines(const char *w, double x, double y, int width, FILE *out)
{
	char line[256];
	int n = 0, last_space = -1;

	for (const char *p = w; *p; p++) {
		line[n++] = *p;
		if (*p == ' ')
			last_space = n - 1;
		if (n >= width || n >= (int)sizeof(line) - 1) {
			int cut = last_space > 0 ? last_space : n;

			line[cut] = '\0';
			fprintf(out,
				"<text x=\"%.0f\" y=\"%.0f\" font-size=\"11\">",
				x, y);
			xml_text(line, out);
			fputs("</text>\n", out);
			y += 14;
			n -= cut + (last_space > 0 ? 1 : 0);
			for (int i = 0; i < n; i++)
				line[i] = line[cut + 1 + i];
			last_space = -1;
		}
	}
	line[n] = '\0';
	fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"11\">", x, y);
	xml_text(line, out);
	fputs("</text>\n", out);
}

/* The frame of a bar chart: its top, height, bar width and scale. */
struct plot {
	double top, h, bar_w, ymax;
};

/* Side @i of a comparison, its bar at @x: the median, the whiskers, the
 * labels under it. */
static void compare_side(const struct blkalign_bench_side *s, size_t i,
			 double x, const struct plot *pl, FILE *out)
{
	double h = pl->h * blkalign_bench_side_get_median_bytes_per_s(s) /
		   pl->ymax;
	double ylo =
		pl->top + pl->h -
		pl->h * blkalign_bench_side_get_min_bytes_per_s(s) / pl->ymax;
	double yhi =
		pl->top + pl->h -
		pl->h * blkalign_bench_side_get_max_bytes_per_s(s) / pl->ymax;

	fprintf(out,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.0f\" "
		"height=\"%.1f\" fill=\"%s\"/>\n"
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"stroke=\"black\"/>\n"
		"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
		"%.1f MiB/s</text>\n",
		x, pl->top + pl->h - h, pl->bar_w, h, i ? "#2a9d4b" : "#c2504a",
		x + pl->bar_w / 2, ylo, x + pl->bar_w / 2, yhi,
		x + pl->bar_w / 2, pl->top + pl->h - h - 6,
		blkalign_bench_side_get_median_bytes_per_s(s) / 1048576.0);
	fprintf(out, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">",
		x + pl->bar_w / 2, pl->top + pl->h + 18);
	xml_text(blkalign_bench_side_get_label(s), out);
	fputs(" ", out);
	xml_text(blkalign_bench_side_get_path(s), out);
	fprintf(out,
		"</text>\n<text x=\"%.1f\" y=\"%.0f\" "
		"text-anchor=\"middle\">soft block %" PRIu32 "</text>\n",
		x + pl->bar_w / 2, pl->top + pl->h + 34,
		blkalign_bench_side_get_soft_block_size(s));
	if (blkalign_bench_side_get_traced(s))
		fprintf(out,
			"<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">"
			"%" PRIu64 " requests, %.0f bytes each</text>\n",
			x + pl->bar_w / 2, pl->top + pl->h + 50,
			blkalign_bench_side_get_requests(s),
			blkalign_bench_side_get_request_avg(s));
	if (blkalign_bench_side_get_model_requests(s))
		fprintf(out,
			"<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">"
			"model: %" PRIu64 " requests</text>\n",
			x + pl->bar_w / 2, pl->top + pl->h + 66,
			blkalign_bench_side_get_model_requests(s));
}

/**
 * cli_bench_compare_svg: the comparison @c as an SVG bar chart.
 */
int cli_bench_compare_svg(const struct blkalign_bench_compare *c, FILE *out)
{
	const double W = 720, H = 420, left = 80, top = 50, plot_h = 220;
	double ymax = 1, bar_w = 160;
	struct plot pl;
	char words[1024];

	for (size_t i = 0; i < blkalign_bench_compare_get_nsides(c); i++) {
		const struct blkalign_bench_side *s =
			blkalign_bench_compare_get_side(c, i);

		if (blkalign_bench_side_get_max_bytes_per_s(s) > ymax)
			ymax = blkalign_bench_side_get_max_bytes_per_s(s);
	}
	ymax *= 1.15;
	pl = (struct plot){top, plot_h, bar_w, ymax};
	fprintf(out,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		"height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		"font-family=\"sans-serif\" font-size=\"12\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
		"<text x=\"10\" y=\"22\" font-size=\"15\">",
		W, H, W, H);
	xml_text(blkalign_bench_compare_get_path(c), out);
	fprintf(out,
		": %s, %s %s of %" PRIu32 " bytes, median MiB/s "
		"(whiskers: slowest and fastest pass)</text>\n",
		blkalign_bench_test_name(blkalign_bench_compare_get_test(c)),
		blkalign_bench_compare_get_direct(c) ? "direct" : "buffered",
		blkalign_bench_compare_get_write(c) ? "writes" : "reads",
		blkalign_bench_compare_get_io_size(c));
	for (int i = 0; i <= 4; i++) {
		double y = top + plot_h - plot_h * i / 4;

		fprintf(out,
			"<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" "
			"stroke=\"#ddd\"/>\n<text x=\"%.0f\" y=\"%.1f\" "
			"text-anchor=\"end\">%.0f</text>\n",
			left, y, W - 20, y, left - 6, y + 4,
			ymax * i / 4 / 1048576.0);
	}
	for (size_t i = 0; i < blkalign_bench_compare_get_nsides(c); i++)
		compare_side(blkalign_bench_compare_get_side(c, i), i,
			     left + 60 + (double)i * (bar_w + 140), &pl, out);
	if (blkalign_bench_compare_text(c, words, sizeof(words)) == 0)
		words_lines(words, 10, top + plot_h + 92, 110, out);
	fputs("</svg>\n", out);
	return ferror(out) ? -EIO : 0;
}

/* Phase @k's bar at @x: the median, the IQR whisker, the labels. */
static void sweep_bar(const struct blkalign_bench_result *r, uint32_t k,
		      double x, const struct plot *pl, FILE *out)
{
	const struct blkalign_bench_phase *p =
		blkalign_bench_result_get_phase(r, k);
	double w = pl->bar_w * 0.7;
	double h = pl->h * (double)blkalign_bench_phase_get_median_ns(p) /
		   pl->ymax;
	double y25 =
		pl->top + pl->h -
		pl->h * (double)blkalign_bench_phase_get_p25_ns(p) / pl->ymax;
	double y75 =
		pl->top + pl->h -
		pl->h * (double)blkalign_bench_phase_get_p75_ns(p) / pl->ymax;
	bool fast =
		blkalign_bench_phase_get_fast(p) &&
		blkalign_bench_result_get_verdict(r) == BLKALIGN_BENCH_PENALTY;
	char lab[24];

	blkalign_latency_format(blkalign_bench_phase_get_median_ns(p), lab,
				sizeof(lab));
	fprintf(out,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		"height=\"%.1f\" fill=\"%s\"><title>phase %" PRIu32
		": %s</title></rect>\n",
		x, pl->top + pl->h - h, w, h, fast ? "#2a9d4b" : "#4a78c2", k,
		lab);
	fprintf(out,
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		"y2=\"%.1f\" stroke=\"black\"/>\n",
		x + w / 2, y25, x + w / 2, y75);
	fprintf(out,
		"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
		"%s</text>\n",
		x + w / 2, pl->top + pl->h - h - 4, lab);
	fprintf(out,
		"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
		"%" PRIu32 " (%" PRIu64 ")</text>\n",
		x + w / 2, pl->top + pl->h + 16, k,
		blkalign_bench_phase_get_offset(p));
}

/*
 * A bar per phase: the median, the IQR as a whisker, the fast phases of
 * a penalty verdict in another colour; the verdict as the caption.
 */
int cli_bench_sweep_svg(const struct blkalign_bench_result *r, FILE *out)
{
	const double W = 720, H = 400, left = 70, right = 20, top = 50,
		     bottom = 90;
	double plot_w = W - left - right, plot_h = H - top - bottom, bar_w;
	uint64_t ymax = 1;
	struct plot pl;
	char words[512], lab[24];

	for (uint32_t k = 0; k < blkalign_bench_result_get_nphases(r); k++)
		if (blkalign_bench_phase_get_p75_ns(
			    blkalign_bench_result_get_phase(r, k)) > ymax)
			ymax = blkalign_bench_phase_get_p75_ns(
				blkalign_bench_result_get_phase(r, k));
	ymax += ymax / 10;
	bar_w = plot_w / (blkalign_bench_result_get_nphases(r)
				  ? blkalign_bench_result_get_nphases(r)
				  : 1);
	fprintf(out,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		"height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		"font-family=\"sans-serif\" font-size=\"12\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		W, H, W, H);
	fputs("<text x=\"10\" y=\"22\" font-size=\"15\">", out);
	xml_text(blkalign_bench_result_get_path(r)
			 ? blkalign_bench_result_get_path(r)
			 : "-",
		 out);
	fprintf(out,
		": median %s latency of %" PRIu32 "-byte I/O by phase "
		"(whiskers: 25th-75th percentile)</text>\n",
		blkalign_bench_result_get_write(r) ? "write" : "read",
		blkalign_bench_result_get_io_size(r));
	/* gridlines with their latency labels */
	for (int i = 0; i <= 4; i++) {
		double y = top + plot_h - plot_h * i / 4;

		blkalign_latency_format(ymax * (uint64_t)i / 4, lab,
					sizeof(lab));
		fprintf(out,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			"y2=\"%.1f\" stroke=\"#ddd\"/>\n<text x=\"%.1f\" "
			"y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			left, y, W - right, y, left - 6, y + 4, lab);
	}
	pl = (struct plot){top, plot_h, bar_w, (double)ymax};
	for (uint32_t k = 0; k < blkalign_bench_result_get_nphases(r) &&
			     blkalign_bench_result_get_rounds_done(r);
	     k++)
		sweep_bar(r, k, left + bar_w * k + bar_w * 0.15, &pl, out);
	fprintf(out,
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"stroke=\"black\"/>\n",
		left, top + plot_h, W - right, top + plot_h);
	fprintf(out,
		"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
		"phase (offset in bytes)</text>\n",
		left + plot_w / 2, top + plot_h + 34);
	blkalign_bench_verdict_text(r, words, sizeof(words));
	fputs("<text x=\"10\" y=\"", out);
	fprintf(out, "%.0f\" font-size=\"11\">", H - 24);
	xml_text(words, out);
	fputs("</text>\n</svg>\n", out);
	return ferror(out) ? -EIO : 0;
}
