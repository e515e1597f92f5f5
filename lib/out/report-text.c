/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report-text.c - the human report of `check`: per device, the topology
 * with where each value came from, a table of layers with a verdict, then
 * the findings worst first with what they cost and how to fix them
 * (blkalign_report_write_text).  It writes to the FILE it is given and
 * reads only the report.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blkalignP.h"

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

static void print_topology(const struct blkalign_device *d, FILE *out)
{
	fprintf(out, "  %-22s %12s  %s\n", "TOPOLOGY", "VALUE", "SOURCE");
	for (size_t i = 0; i < sizeof(topo_rows) / sizeof(topo_rows[0]); i++) {
		const struct blkalign_value *v =
			(const void *)((const char *)&d->topology +
				       topo_rows[i].off);
		char src[48];

		source_words(d, v->source, src, sizeof(src));
		if (v->source == BLKALIGN_SRC_NONE)
			fprintf(out, "  %-22s %12s  %s\n", topo_rows[i].label,
				"-", "unknown");
		else
			fprintf(out, "  %-22s %12" PRId64 "  %s\n",
				topo_rows[i].label, v->value, src);
	}
	if (d->topology.optimal_io_note)
		fprintf(out, "  (optimal I/O size %" PRId64 " ignored: %s)\n",
			d->topology.optimal_io_size_raw,
			d->topology.optimal_io_note);
}

/* The codes of the findings on layer @i, or "ok". */
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

/* What a stack layer is, in a few words: "md 1.2 raid5, chunk 128K". */
static void detail(const struct blkalign_layer *l, char *buf, size_t len)
{
	char a[16], b[16];

	if (l->lower_device) {
		snprintf(buf, len, "%s on %s at byte %" PRIu64,
			 l->type ? l->type : "dm", l->lower_device,
			 l->lower_start);
		return;
	}
	if (l->raid_disks) {
		blkalign_size_format(l->raid_chunk, BLKALIGN_SIZE_LSBLK, a,
				     sizeof(a));
		blkalign_size_format(l->raid_stripe_width, BLKALIGN_SIZE_LSBLK,
				     b, sizeof(b));
		snprintf(buf, len,
			 "md %s raid%d, %u disks, chunk %s, stripe %s",
			 l->version ? l->version : "?", l->raid_level,
			 l->raid_disks, l->raid_chunk ? a : "-",
			 l->raid_stripe_width ? b : "-");
		return;
	}
	switch (l->kind) {
	case BLKALIGN_LAYER_LVM:
		blkalign_size_format(l->data_offset, BLKALIGN_SIZE_LSBLK, a,
				     sizeof(a));
		blkalign_size_format(l->extent_size, BLKALIGN_SIZE_LSBLK, b,
				     sizeof(b));
		snprintf(buf, len, "LVM2 PV, pe_start %s, extent %s", a,
			 l->extent_size ? b : "-");
		break;
	case BLKALIGN_LAYER_LUKS:
		blkalign_size_format(l->data_offset, BLKALIGN_SIZE_LSBLK, a,
				     sizeof(a));
		snprintf(buf, len, "LUKS%s, payload at %s, sector %u",
			 l->version ? l->version : "", a,
			 l->unit ? l->unit : 512);
		break;
	case BLKALIGN_LAYER_ZFS:
		snprintf(buf, len, "zfs, ashift %u", l->zfs_ashift);
		break;
	case BLKALIGN_LAYER_FILESYSTEM:
		blkalign_size_format(l->fs_stride, BLKALIGN_SIZE_LSBLK, a,
				     sizeof(a));
		blkalign_size_format(l->fs_stripe_width, BLKALIGN_SIZE_LSBLK, b,
				     sizeof(b));
		snprintf(buf, len, "%s, block %u%s%s%s%s",
			 l->type ? l->type : "?", l->unit,
			 l->fs_stride ? ", stride " : "", l->fs_stride ? a : "",
			 l->fs_stripe_width ? "/" : "",
			 l->fs_stripe_width ? b : "");
		break;
	default:
		buf[0] = '\0';
	}
}

static void print_layer(const struct tree *t, size_t i, const char *prefix,
			bool last, FILE *out)
{
	const struct blkalign_device *d = t->d;
	const struct blkalign_layer *l = &d->layers[i];
	uint64_t lss = (uint64_t)d->topology.logical_sector_size.value;
	uint64_t sectors = l->size / lss;
	char size[16], v[256], name[64], sbs[16], ao[24], more[96], sub[32];

	blkalign_size_format(l->size, BLKALIGN_SIZE_LSBLK, size, sizeof(size));
	verdict(t, i, v, sizeof(v));
	snprintf(name, sizeof(name), "%s%s%s", prefix,
		 i == 0 ? ""
		 : last ? "`-"
			: "|-",
		 l->name);
	if (l->kind <= BLKALIGN_LAYER_BSD) {
		snprintf(sbs, sizeof(sbs), "%u", l->soft_block_size);
		snprintf(ao, sizeof(ao), "%" PRId64, l->alignment_offset);
	} else {
		snprintf(sbs, sizeof(sbs), "-");
		snprintf(ao, sizeof(ao), "-");
	}
	fprintf(out,
		"  %-22s %-10s %12" PRIu64 " %12" PRIu64 " %7s %7s %6s  %s\n",
		name, blkalign_layer_kind_name(l->kind), l->start / lss,
		sectors ? l->start / lss + sectors - 1 : l->start / lss, size,
		sbs, ao, v);
	detail(l, more, sizeof(more));
	if (more[0])
		fprintf(out, "  %-22s %s\n", "", more);

	/* Children, in order; the prefix grows like lsblk's tree. */
	snprintf(sub, sizeof(sub), "%s%s", prefix,
		 i == 0 ? ""
		 : last ? "  "
			: "| ");
	for (size_t k = t->child[i]; k != NONE; k = t->sibling[k])
		print_layer(t, k, sub, t->sibling[k] == NONE, out);
}

/* Returns: 0, or -ENOMEM when the layers could not be printed (a line
 * says so in their place). */
static int print_layers(const struct blkalign_device *d, FILE *out)
{
	struct tree t;

	fprintf(out, "  %-22s %-10s %12s %12s %7s %7s %6s  %s\n", "NAME",
		"KIND", "START", "END", "SIZE", "SOFT-BS", "ALIGN", "VERDICT");
	if (!d->nlayers)
		return 0;
	if (!tree_make(&t, d)) {
		fprintf(out, "  (no memory to print the layers)\n");
		return -ENOMEM;
	}
	print_layer(&t, 0, "", true, out);
	free(t.child);
	return 0;
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
 * blkalign_report_write_text: write @r to @out as check's text report:
 * per device its size and table, the topology with the source of each
 * value, the layer tree with a verdict per layer, then the findings with
 * what they cost, what the model says and how to fix them.
 * @flags: BLKALIGN_TEXT_COLOR for ANSI colors (severities, names).
 * Returns: 0, -EINVAL, -ENOMEM when a device's layers could not be
 * printed (the report says so in their place and goes on), or -EIO when
 * writing to @out failed.
 */
int blkalign_report_write_text(const struct blkalign_report *r, FILE *out,
			       unsigned int flags)
{
	bool color = flags & BLKALIGN_TEXT_COLOR;
	int rc = 0;

	if (!r || !out)
		return -EINVAL;
	for (size_t i = 0; i < blkalign_report_ndevices(r); i++) {
		const struct blkalign_device *d = blkalign_report_device(r, i);

		if (i)
			fputc('\n', out);
		if (d->failed) {
			fprintf(out, "%s: not audited: %s\n", d->path,
				d->nproblems ? d->problems[0] : "cannot open");
			continue;
		}
		print_head(d, out, color);
		print_topology(d, out);
		fputc('\n', out);
		if (print_layers(d, out))
			rc = -ENOMEM;
		print_findings(d, out, color);
		for (size_t k = 0; k < d->nproblems; k++)
			fprintf(out, "  incomplete: %s\n", d->problems[k]);
	}
	if (ferror(out))
		return -EIO;
	return rc;
}
