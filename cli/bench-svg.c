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
	double h = pl->h * s->median_bytes_per_s / pl->ymax;
	double ylo = pl->top + pl->h - pl->h * s->min_bytes_per_s / pl->ymax;
	double yhi = pl->top + pl->h - pl->h * s->max_bytes_per_s / pl->ymax;

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
		s->median_bytes_per_s / 1048576.0);
	fprintf(out, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">",
		x + pl->bar_w / 2, pl->top + pl->h + 18);
	xml_text(s->label, out);
	fputs(" ", out);
	xml_text(s->path, out);
	fprintf(out,
		"</text>\n<text x=\"%.1f\" y=\"%.0f\" "
		"text-anchor=\"middle\">soft block %" PRIu32 "</text>\n",
		x + pl->bar_w / 2, pl->top + pl->h + 34, s->soft_block_size);
	if (s->traced)
		fprintf(out,
			"<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">"
			"%" PRIu64 " requests, %.0f bytes each</text>\n",
			x + pl->bar_w / 2, pl->top + pl->h + 50, s->requests,
			s->request_avg);
	if (s->model_requests)
		fprintf(out,
			"<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">"
			"model: %" PRIu64 " requests</text>\n",
			x + pl->bar_w / 2, pl->top + pl->h + 66,
			s->model_requests);
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

	for (size_t i = 0; i < c->nsides; i++)
		if (c->sides[i].max_bytes_per_s > ymax)
			ymax = c->sides[i].max_bytes_per_s;
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
	xml_text(c->path, out);
	fprintf(out,
		": %s, %s %s of %" PRIu32 " bytes, median MiB/s "
		"(whiskers: slowest and fastest pass)</text>\n",
		blkalign_bench_test_name(c->test),
		c->direct ? "direct" : "buffered",
		c->write ? "writes" : "reads", c->io_size);
	for (int i = 0; i <= 4; i++) {
		double y = top + plot_h - plot_h * i / 4;

		fprintf(out,
			"<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" "
			"stroke=\"#ddd\"/>\n<text x=\"%.0f\" y=\"%.1f\" "
			"text-anchor=\"end\">%.0f</text>\n",
			left, y, W - 20, y, left - 6, y + 4,
			ymax * i / 4 / 1048576.0);
	}
	for (size_t i = 0; i < c->nsides; i++)
		compare_side(&c->sides[i], i,
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
	const struct blkalign_bench_phase *p = &r->phases[k];
	double w = pl->bar_w * 0.7;
	double h = pl->h * (double)p->median_ns / pl->ymax;
	double y25 = pl->top + pl->h - pl->h * (double)p->p25_ns / pl->ymax;
	double y75 = pl->top + pl->h - pl->h * (double)p->p75_ns / pl->ymax;
	bool fast = p->fast && r->verdict == BLKALIGN_BENCH_PENALTY;
	char lab[24];

	blkalign_latency_format(p->median_ns, lab, sizeof(lab));
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
		x + w / 2, pl->top + pl->h + 16, k, p->offset);
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

	for (uint32_t k = 0; k < r->nphases; k++)
		if (r->phases[k].p75_ns > ymax)
			ymax = r->phases[k].p75_ns;
	ymax += ymax / 10;
	bar_w = plot_w / (r->nphases ? r->nphases : 1);
	fprintf(out,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		"height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		"font-family=\"sans-serif\" font-size=\"12\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		W, H, W, H);
	fputs("<text x=\"10\" y=\"22\" font-size=\"15\">", out);
	xml_text(r->path ? r->path : "-", out);
	fprintf(out,
		": median %s latency of %" PRIu32 "-byte I/O by phase "
		"(whiskers: 25th-75th percentile)</text>\n",
		r->write ? "write" : "read", r->io_size);
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
	for (uint32_t k = 0; k < r->nphases && r->rounds_done; k++)
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
