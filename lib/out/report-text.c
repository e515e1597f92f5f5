/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report-text.c - the human report of `check`: per device, the topology
 * with where each value came from, a table of layers with a verdict, then
 * the findings worst first with what they cost and how to fix them
 * (blkalign_report_write_text).  The two tables are libsmartcols'
 * (text-table.c), their columns defined in columns.c; -r and -P print the
 * layer table alone, for scripts.  It writes to the FILE it is given and
 * reads only the report.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* before blkalignP.h: libsmartcols includes libc headers banned.h breaks */
#include "text-table.h"
#include "columns.h"
#include "out/out.h"

#define RED    "\033[31m"
#define YELLOW "\033[33m"
#define BLUE   "\033[34m"
#define BOLD   "\033[1m"
#define RESET  "\033[0m"

static const char *sev_color(enum blkalign_severity s)
{
	switch (s) {
	case BLKALIGN_ERROR:
		return RED;
	case BLKALIGN_WARNING:
		return YELLOW;
	case BLKALIGN_INFO:
		break;
	}
	return BLUE;
}

static const struct {
	const char *label;
	size_t off;
} topo_rows[] = {
#define R(l, f)                                          \
	{                                                \
		l, offsetof(struct blkalign_topology, f) \
	}
	R("logical sector size", logical_sector_size),
	R("physical sector size", physical_sector_size),
	R("minimum I/O size", minimum_io_size),
	R("optimal I/O size", optimal_io_size),
	R("alignment offset", alignment_offset),
	R("max segments", max_segments),
	R("max sectors (KiB)", max_sectors_kb),
	R("max segment size", max_segment_size),
	R("virt boundary mask", virt_boundary_mask),
	R("rotational", rotational),
	R("page size", page_size),
#undef R
};

/*
 * A value's source in words: what an image format gave is named with
 * the format ("vhdx metadata", "vdi header", "vmdk format").
 */
static void source_words(const struct blkalign_device *d,
			 enum blkalign_source src, char *buf, size_t len)
{
	const char *fmt = d->image_format ? d->image_format : "image";

	if (src == BLKALIGN_SRC_IMAGE)
		snprintf(buf, len, "%s %s", fmt,
			 strcmp(fmt, "vhdx") ? "header" : "metadata");
	else if (src == BLKALIGN_SRC_FORMAT)
		snprintf(buf, len, "%s format", fmt);
	else
		snprintf(buf, len, "%s", blkalign_source_name(src));
}

/* The topology with the source of each value; -ENOMEM, -EIO or 0. */
static int print_topology(const struct blkalign_device *d, FILE *out,
			  const struct blkalign_text_opts *o)
{
	struct ba_colsel sel = {
		{BA_TCOL_TOPOLOGY, BA_TCOL_VALUE, BA_TCOL_SOURCE}, 3};
	struct ba_table t;
	int rc = ba_table_init(&t, ba_topology_columns, &sel, o);

	if (rc)
		return rc;
	for (size_t i = 0; i < sizeof(topo_rows) / sizeof(topo_rows[0]); i++) {
		const struct blkalign_value *v =
			(const void *)((const char *)&d->topology +
				       topo_rows[i].off);
		struct libscols_line *ln = ba_table_line(&t, NULL);
		char src[48], val[24];

		if (!ln) {
			rc = -ENOMEM;
			goto out;
		}
		source_words(d, v->source, src, sizeof(src));
		snprintf(val, sizeof(val), "%" PRId64, v->value);
		if (v->source == BLKALIGN_SRC_NONE) {
			snprintf(val, sizeof(val), "-");
			snprintf(src, sizeof(src), "unknown");
		}
		if (ba_table_set(&t, ln, BA_TCOL_TOPOLOGY, topo_rows[i].label,
				 NULL) ||
		    ba_table_set(&t, ln, BA_TCOL_VALUE, val, NULL) ||
		    ba_table_set(&t, ln, BA_TCOL_SOURCE, src, NULL)) {
			rc = -ENOMEM;
			goto out;
		}
	}
	rc = ba_table_print(&t, out, "  ");
	if (!rc && d->topology.optimal_io_note)
		fprintf(out, "  (optimal I/O size %" PRId64 " ignored: %s)\n",
			d->topology.optimal_io_size_raw,
			d->topology.optimal_io_note);
out:
	ba_table_free(&t);
	return rc;
}

/*
 * The layer tree and each layer's findings as linked lists, made once:
 * walking every layer and finding for each layer is quadratic, and a
 * table may have thousands of partitions.
 */
#define NONE SIZE_MAX
struct tree {
	const struct blkalign_device *d;
	size_t *child, *sibling; /* first child, next sibling */
	size_t *finding, *next;	 /* first finding of a layer, next one */
};

static bool tree_make(struct tree *t, const struct blkalign_device *d)
{
	size_t nl = d->nlayers, nf = d->nfindings;
	size_t *v = malloc((3 * nl + nf) * sizeof(*v));

	if (!v)
		return false;
	*t = (struct tree){d, v, v + nl, v + 2 * nl, v + 3 * nl};
	for (size_t k = 0; k < nl; k++)
		t->child[k] = t->finding[k] = NONE;
	/* backwards, so that each list is in index order */
	for (size_t k = nl; k-- > 0;) {
		int p = d->layers[k].parent;

		if (p >= 0 && (size_t)p < nl && (size_t)p != k) {
			t->sibling[k] = t->child[p];
			t->child[p] = k;
		}
	}
	for (size_t k = nf; k-- > 0;) {
		int l = d->findings[k].layer;

		if (l >= 0 && (size_t)l < nl) {
			t->next[k] = t->finding[l];
			t->finding[l] = k;
		}
	}
	return true;
}

static void verdict(const struct tree *t, size_t i, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t k = t->finding[i]; k != NONE; k = t->next[k]) {
		int n = snprintf(buf + used, len - used, "%s%s",
				 used ? "," : "", t->d->findings[k].code);

		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
	}
	if (!used)
		snprintf(buf, len, "%s",
			 t->d->layers[i].extended ? "container" : "ok");
}

/* The worst severity of layer @i's findings; -1 when it has none. */
static int worst(const struct tree *t, size_t i)
{
	int w = -1;

	for (size_t k = t->finding[i]; k != NONE; k = t->next[k])
		if ((int)t->d->findings[k].severity > w)
			w = (int)t->d->findings[k].severity;
	return w;
}

/* Layer @i and the layers on it, in order, as rows of @tb below
 * @parent (a list: all at the top). */
static int add_layer(struct ba_table *tb, const struct tree *t, size_t i,
		     struct libscols_line *parent)
{
	struct libscols_line *ln = ba_table_line(tb, parent);
	bool list = tb->flags & (BLKALIGN_TEXT_LIST | BLKALIGN_TEXT_RAW |
				 BLKALIGN_TEXT_PAIRS);
	char cell[256];
	int rc, w;

	if (!ln)
		return -ENOMEM;
	for (size_t k = 0; k < tb->sel.n; k++) {
		int id = tb->sel.id[k];

		if (id == BA_LCOL_VERDICT)
			continue;
		ba_layer_cell(t->d, i, id, tb->flags, cell, sizeof(cell));
		if (ba_table_set(tb, ln, id, cell, NULL))
			return -ENOMEM;
	}
	verdict(t, i, cell, sizeof(cell));
	w = worst(t, i);
	if (ba_table_set(tb, ln, BA_LCOL_VERDICT, cell,
			 w < 0 ? NULL : sev_color((enum blkalign_severity)w)))
		return -ENOMEM;
	for (size_t k = t->child[i]; k != NONE; k = t->sibling[k]) {
		rc = add_layer(tb, t, k, list ? NULL : ln);
		if (rc)
			return rc;
	}
	return 0;
}

/* Whether a layer of @d has a DETAIL. */
static bool any_detail(const struct blkalign_device *d)
{
	char buf[128];

	for (size_t i = 0; i < d->nlayers; i++) {
		ba_layer_cell(d, i, BA_LCOL_DETAIL, 0, buf, sizeof(buf));
		if (buf[0])
			return true;
	}
	return false;
}

/* @tb made and filled with the layers of @t; @split: see ba_table_split. */
static int fill_layers(struct ba_table *tb, const struct tree *t,
		       const struct ba_colsel *sel,
		       const struct blkalign_text_opts *o, bool split)
{
	bool defaults = !o->columns || !o->columns[0] || o->columns[0] == '+';
	int rc = ba_table_init(tb, ba_layer_columns, sel, o);

	if (rc)
		return rc;
	if (split)
		ba_table_split(tb);
	if (t->d->nlayers)
		rc = add_layer(tb, t, 0, NULL);
	/* DETAIL by default only for the stacks that have one */
	if (!rc && defaults && !any_detail(t->d))
		ba_table_hide(tb, BA_LCOL_DETAIL);
	return rc;
}

/* Returns: 0, -EINVAL (a bad column list), or -ENOMEM when the layers
 * could not be printed (a line says so in their place). */
static int print_layers(const struct blkalign_device *d, FILE *out,
			const struct blkalign_text_opts *o)
{
	struct ba_colsel sel;
	struct ba_table tb;
	struct tree t;
	int rc;

	rc = ba_columns_select(ba_layer_columns, BA_LCOL_COUNT, o->columns,
			       &sel, NULL, NULL);
	if (rc)
		return -EINVAL;
	if (!tree_make(&t, d)) {
		fprintf(out, "  (no memory to print the layers)\n");
		return -ENOMEM;
	}
	rc = fill_layers(&tb, &t, &sel, o, false);
	/* too wide for the width: the verdicts wrap after their commas */
	if (!rc && o->width && !(o->flags & BLKALIGN_TEXT_RAW) &&
	    !(o->flags & BLKALIGN_TEXT_PAIRS) &&
	    ba_table_natural_width(&tb) + 2 > o->width) {
		ba_table_free(&tb);
		rc = fill_layers(&tb, &t, &sel, o, true);
	}
	if (!rc)
		rc = ba_table_print(&tb, out, "  ");
	else if (rc == -ENOMEM)
		fprintf(out, "  (no memory to print the layers)\n");
	if (tb.tb)
		ba_table_free(&tb);
	free(t.child);
	return rc;
}

static void print_findings(const struct blkalign_device *d, FILE *out,
			   bool color)
{
	if (!d->nfindings) {
		fputs("\n  aligned: no findings\n", out);
		return;
	}
	fputc('\n', out);
	for (size_t k = 0; k < d->nfindings; k++) {
		const struct blkalign_finding *f = &d->findings[k];

		fprintf(out, "  %s%-7s%s %s%s%s: %s\n",
			color ? sev_color(f->severity) : "",
			blkalign_severity_name(f->severity), color ? RESET : "",
			color ? BOLD : "", f->code, color ? RESET : "",
			f->message);
		char mc[256];

		if (f->explanation)
			fprintf(out, "          cost: %s\n", f->explanation);
		if (!blkalign_finding_cost(d, f, mc, sizeof(mc)))
			fprintf(out, "          model: %s\n", mc);
		if (f->fix)
			fprintf(out, "          fix:  %s\n", f->fix);
	}
}

/* What device @d is: "block device", "image", "qcow2 image", "nbd export". */
static const char *what_is(const struct blkalign_device *d, char *buf,
			   size_t len)
{
	if (d->is_block_device)
		return "block device";
	if (!d->image_format || !strcmp(d->image_format, "raw"))
		return "image";
	if (!strcmp(d->image_format, "nbd"))
		return "nbd export";
	snprintf(buf, len, "%s image", d->image_format);
	return buf;
}

/* The first line of device @d: "seed002.img: 20.0G (... bytes), image, dos". */
static void print_head(const struct blkalign_device *d, FILE *out, bool color)
{
	char size[16], what[32];

	blkalign_size_format(d->size, BLKALIGN_SIZE_LSBLK, size, sizeof(size));
	fprintf(out, "%s%s%s: %s (%" PRIu64 " bytes), %s, %s",
		color ? BOLD : "", d->path, color ? RESET : "", size, d->size,
		what_is(d, what, sizeof(what)),
		d->scheme ? d->scheme
		: d->nlayers > 1 &&
				d->layers[1].kind == BLKALIGN_LAYER_PARTITION
			? "partitions as the kernel sees them"
			: "no partition table");
	if (d->bytes_read)
		fprintf(out, ", %" PRIu64 " bytes read", d->bytes_read);
	fputs("\n\n", out);
}

/**
 * blkalign_report_write_text_opts: write @r to @out as check's text
 * report: per device its size and table, the topology with the source
 * of each value, the layer tree with a verdict per layer, then the
 * findings with what they cost, what the model says and how to fix them.
 * @o: the flags (BLKALIGN_TEXT_*), the layer table's columns and the
 * width.  With BLKALIGN_TEXT_RAW or _PAIRS, the layer table alone: one
 * line per layer of every device audited, headings once (a device not
 * audited has none).
 * Returns: 0, -EINVAL (no @r, @out or @o, or a bad column list: see
 * blkalign_text_columns_check), -ENOMEM when a device's layers could not
 * be printed (the report says so in their place and goes on), or -EIO
 * when writing to @out failed.
 */
int blkalign_report_write_text_opts(const struct blkalign_report *r, FILE *out,
				    const struct blkalign_text_opts *o)
{
	struct blkalign_text_opts opts;
	bool color, alone;
	int rc = 0, err;

	/* a caller built before fields were added gives a smaller size */
	if (!r || !out ||
	    ba_text_opts_get(BLKALIGN_TEXT_TABLE_LAYERS, o, &opts))
		return -EINVAL;
	color = opts.flags & BLKALIGN_TEXT_COLOR;
	alone = opts.flags & (BLKALIGN_TEXT_RAW | BLKALIGN_TEXT_PAIRS);
	for (size_t i = 0; i < blkalign_report_ndevices(r); i++) {
		const struct blkalign_device *d = blkalign_report_device(r, i);

		if (alone) {
			if (d->failed)
				continue;
			err = print_layers(d, out, &opts);
			if (err)
				rc = err;
			opts.flags |= BLKALIGN_TEXT_NOHEADINGS;
			continue;
		}
		if (i)
			fputc('\n', out);
		if (d->failed) {
			fprintf(out, "%s: not audited: %s\n", d->path,
				d->nproblems ? d->problems[0] : "cannot open");
			continue;
		}
		print_head(d, out, color);
		err = print_topology(d, out, &opts);
		fputc('\n', out);
		if (!err)
			err = print_layers(d, out, &opts);
		if (err)
			rc = err;
		print_findings(d, out, color);
		for (size_t k = 0; k < d->nproblems; k++)
			fprintf(out, "  incomplete: %s\n", d->problems[k]);
	}
	if (ferror(out) || rc == -EIO)
		return -EIO;
	return rc;
}

/**
 * blkalign_report_write_text: blkalign_report_write_text_opts() with
 * @flags (BLKALIGN_TEXT_*) and the default columns, no width limit.
 */
int blkalign_report_write_text(const struct blkalign_report *r, FILE *out,
			       unsigned int flags)
{
	struct blkalign_text_opts o = {.size = sizeof(o), .flags = flags};

	return blkalign_report_write_text_opts(r, out, &o);
}
