/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * model-text.c - `model` results as text (blkalign_model_write_text):
 * per layer, its layouts and geometry in prose, then a libsmartcols
 * table (text-table.c) of its workloads, one row per workload and
 * layout ("actual", "aligned"), the ratios to the aligned layout as
 * columns; -r and -P print one table of every layer, for scripts.  The
 * columns are named after model's JSON keys (docs/model.md), upper-case.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* before blkalignP.h: libsmartcols includes libc headers banned.h breaks */
#include "text-table.h"
#include "model-text.h"
#include "analyze/analyze.h"
#include "out/out.h"

#define NUM    SCOLS_FL_RIGHT
#define YELLOW "\033[33m"

/*
 * In BA_MCOL_* order.  The RAID columns are shown by default only for a
 * layer on an md RAID (RAID_MEMBER_RMW: on a live parity array whose
 * members' drives the scan knows), LAYER only where one table holds
 * every layer (-r, -P): elsewhere the prose above each table names it.
 */
const struct ba_column ba_model_columns[BA_MCOL_COUNT] = {
	{"LAYER", "the layer modelled (JSON layer.name), in -r and -P", 0, 0,
	 true},
	{"WORKLOAD", "the workload's name (JSON workload.name)", 0, 0, true},
	{"LAYOUT",
	 "actual or aligned: the layer as it is or aligned (text only)", 0, 0,
	 true},
	{"REQUESTS", "requests the queue issues", 0, NUM, true},
	{"REQUEST_MAX", "the largest request, lsblk-like or in bytes", 0, NUM,
	 true},
	{"REQUEST_AVG", "the mean request size", 0, NUM, true},
	{"PHYSICAL_SECTORS", "physical sectors touched, summed over requests",
	 0, NUM, true},
	{"RMW", "read-modify-writes a 512e drive does", 0, NUM, true},
	{"RAID_READS", "md RAID member reads, on a RAID", 0, NUM, true},
	{"RAID_WRITES", "md RAID member writes, on a RAID", 0, NUM, true},
	{"RAID_MEMBER_RMW",
	 "read-modify-writes at the members' drives, on a live parity array", 0,
	 NUM, true},
	{"REQUESTS_RATIO",
	 "requests against the aligned layout's (JSON ratios.requests)", 0, NUM,
	 true},
	{"DEVICE_IOS_RATIO",
	 "requests and RMW against the aligned layout's (JSON "
	 "ratios.device_ios)",
	 0, NUM, true},
	{"RAID_IOS_RATIO",
	 "RAID member I/Os against the aligned layout's (JSON ratios.raid_ios)",
	 0, NUM, true},
	{"REQUEST_SIZES", "the most frequent request sizes and their counts",
	 0.3, SCOLS_FL_WRAP, true},
	{"RW", "read or write, the direction (JSON workload.rw)", 0, 0, false},
	{"PATTERN", "seq or rand (JSON workload.pattern)", 0, 0, false},
	{"PATH", "buffered or direct (JSON workload.path)", 0, 0, false},
	{"IO_SIZE", "bytes per read or write call (JSON workload.io_size)", 0,
	 NUM, false},
	{"TOTAL", "bytes the workload moves (JSON workload.total)", 0, NUM,
	 false},
	{"KERNEL", "the merge rules followed: current or pre-4.11", 0, 0,
	 false},
	{"START",
	 "first 512-byte sector of the layout (JSON layer.start: "
	 "bytes)",
	 0, NUM, false},
	{"SIZE", "size of the layout (JSON layer.size)", 0, NUM, false},
	{"SOFT_BLOCK_SIZE", "the kernel's soft block size of the layout", 0,
	 NUM, false},
	{"IOS", "application reads or writes", 0, NUM, false},
	{"BIOS", "bios submitted to the queue", 0, NUM, false},
	{"REQUEST_CAP", "the largest request the rules allow", 0, NUM, false},
	{"REQUEST_CAP_MIN", "the cap with one page per segment", 0, NUM, false},
	{"REQUEST_CAP_MAX", "the cap with contiguous memory", 0, NUM, false},
	{"REQUEST_MIN", "the smallest request", 0, NUM, false},
	{"REQUEST_BYTES", "bytes of every request, summed", 0, NUM, false},
	{"PARTIAL_REQUESTS",
	 "write requests covering part of a physical sector", 0, NUM, false},
	{"PHYSICAL_SECTORS_RATIO",
	 "physical sectors against the aligned layout's (JSON "
	 "ratios.physical_sectors)",
	 0, NUM, false},
	{"CHUNK_STRADDLES", "requests touching one RAID chunk too many", 0, NUM,
	 false},
	{"RAID_STRIPES", "RAID stripes written", 0, NUM, false},
	{"RAID_FULL_STRIPES", "RAID stripes written whole", 0, NUM, false},
	{"RAID_RMW_STRIPES", "RAID stripes written by read-modify-write", 0,
	 NUM, false},
	{"RAID_RCW_STRIPES", "RAID stripes written by reconstruct-write", 0,
	 NUM, false},
};

/*
 * Count @a of a layout against @b, the aligned layout's: "2.0x"; "-"
 * when both are 0, "+N" when only the aligned one is (no ratio: the
 * JSON says null).  Returns whether @a is worse, for the color.
 */
static bool ratio_cell(uint64_t a, uint64_t b, char *buf, size_t len)
{
	double r = blkalign_model_ratio(a, b);

	if (!a && !b) {
		snprintf(buf, len, "-");
		return false;
	}
	if (!b) {
		snprintf(buf, len, "+%" PRIu64, a);
		return true;
	}
	snprintf(buf, len, "%.1fx", r);
	/* worse as printed: 1.04 is "1.0x", no color */
	return r >= 1.05;
}

/* The request sizes: "512.0K x39, 32.0K x1", "..." for the others. */
static void sizes_cell(const struct blkalign_model_cost *c, unsigned int flags,
		       char *buf, size_t len)
{
	size_t used = 0;
	char s[24];

	buf[0] = '\0';
	for (size_t i = 0; i < c->nsizes && i < 4; i++) {
		int n;

		ba_text_size(c->sizes[i].bytes, flags, s, sizeof(s));
		n = snprintf(buf + used, len - used, "%s%s x%" PRIu64,
			     i ? ", " : "", s, c->sizes[i].count);
		if (n < 0 || (size_t)n >= len - used)
			return;
		used += (size_t)n;
	}
	if (c->nsizes > 4 || c->sizes_other)
		snprintf(buf + used, len - used, "%s...", used ? ", " : "");
}

/* One row: model @m on its @aligned layout or the actual one. */
struct row {
	const struct blkalign_model *m;
	const char *layer;
	bool aligned;
};

/* The count behind a ratio column, of @c. */
static uint64_t ratio_count(const struct blkalign_model_cost *c, int id)
{
	switch (id) {
	case BA_MCOL_REQUESTS_RATIO:
		return c->requests;
	case BA_MCOL_DEVICE_IOS_RATIO:
		return c->requests + c->rmw;
	case BA_MCOL_RAID_IOS_RATIO:
		return c->raid_reads + c->raid_writes;
	case BA_MCOL_PHYSICAL_SECTORS_RATIO:
		return c->physical_sectors;
	}
	return 0;
}

/* A count of the RAID below, or "-" when there is none. */
static bool raid_value(int id, const struct blkalign_model_cost *c, uint64_t *v)
{
	switch (id) {
	case BA_MCOL_RAID_READS:
		*v = c->raid_reads;
		return true;
	case BA_MCOL_RAID_WRITES:
		*v = c->raid_writes;
		return true;
	case BA_MCOL_RAID_MEMBER_RMW:
		*v = c->raid_member_rmw;
		return true;
	case BA_MCOL_CHUNK_STRADDLES:
		*v = c->chunk_straddles;
		return true;
	case BA_MCOL_RAID_STRIPES:
		*v = c->raid_stripes;
		return true;
	case BA_MCOL_RAID_FULL_STRIPES:
		*v = c->raid_full_stripes;
		return true;
	case BA_MCOL_RAID_RMW_STRIPES:
		*v = c->raid_rmw_stripes;
		return true;
	case BA_MCOL_RAID_RCW_STRIPES:
		*v = c->raid_rcw_stripes;
		return true;
	}
	return false;
}

/* A plain count of @c: false when @id is none. */
static bool count_value(int id, const struct blkalign_model_cost *c,
			uint64_t *v)
{
	switch (id) {
	case BA_MCOL_REQUESTS:
		*v = c->requests;
		return true;
	case BA_MCOL_PHYSICAL_SECTORS:
		*v = c->physical_sectors;
		return true;
	case BA_MCOL_RMW:
		*v = c->rmw;
		return true;
	case BA_MCOL_SOFT_BLOCK_SIZE:
		*v = c->soft_block_size;
		return true;
	case BA_MCOL_IOS:
		*v = c->ios;
		return true;
	case BA_MCOL_BIOS:
		*v = c->bios;
		return true;
	case BA_MCOL_PARTIAL_REQUESTS:
		*v = c->partial_requests;
		return true;
	}
	return false;
}

/* A size of @r: false when @id is none. */
static bool size_value(int id, const struct row *r, uint64_t *v)
{
	const struct blkalign_model *m = r->m;
	const struct blkalign_model_cost *c =
		r->aligned ? &m->cost_aligned : &m->cost;

	switch (id) {
	case BA_MCOL_REQUEST_MAX:
		*v = c->request_max;
		return true;
	case BA_MCOL_REQUEST_AVG:
		*v = c->requests ? c->request_bytes / c->requests : 0;
		return true;
	case BA_MCOL_REQUEST_MIN:
		*v = c->request_min;
		return true;
	case BA_MCOL_REQUEST_BYTES:
		*v = c->request_bytes;
		return true;
	case BA_MCOL_REQUEST_CAP:
		*v = c->request_cap;
		return true;
	case BA_MCOL_REQUEST_CAP_MIN:
		*v = c->request_cap_min;
		return true;
	case BA_MCOL_REQUEST_CAP_MAX:
		*v = c->request_cap_max;
		return true;
	case BA_MCOL_IO_SIZE:
		*v = m->workload.io_size;
		return true;
	case BA_MCOL_TOTAL:
		*v = m->workload.total;
		return true;
	case BA_MCOL_SIZE:
		*v = r->aligned ? m->aligned.length : m->actual.length;
		return true;
	}
	return false;
}

/* The words of @r's workload and layer, or NULL when @id is none. */
static const char *word(int id, const struct row *r)
{
	const struct blkalign_workload *w = &r->m->workload;

	switch (id) {
	case BA_MCOL_LAYER:
		return r->layer ? r->layer : "-";
	case BA_MCOL_WORKLOAD:
		return w->name ? w->name : "custom";
	case BA_MCOL_LAYOUT:
		return r->aligned ? "aligned" : "actual";
	case BA_MCOL_RW:
		return w->dir == BLKALIGN_IO_WRITE ? "write" : "read";
	case BA_MCOL_PATTERN:
		return w->pattern == BLKALIGN_IO_RANDOM ? "rand" : "seq";
	case BA_MCOL_PATH:
		return w->path == BLKALIGN_IO_DIRECT ? "direct" : "buffered";
	case BA_MCOL_KERNEL:
		return blkalign_kernel_name(r->m->kernel);
	}
	return NULL;
}

/*
 * The cell of column @id on row @r into @buf; returns whether it is a
 * ratio worse than the aligned layout's (to color).
 */
static bool cell(const struct row *r, int id, unsigned int flags, char *buf,
		 size_t len)
{
	const struct blkalign_model *m = r->m;
	const struct blkalign_model_cost *c =
		r->aligned ? &m->cost_aligned : &m->cost;
	const char *s = word(id, r);
	uint64_t v;

	if (s) {
		snprintf(buf, len, "%s", s);
	} else if (count_value(id, c, &v)) {
		snprintf(buf, len, "%" PRIu64, v);
	} else if (size_value(id, r, &v)) {
		ba_text_size(v, flags, buf, len);
	} else if (raid_value(id, c, &v)) {
		if (m->actual.raid_disks)
			snprintf(buf, len, "%" PRIu64, v);
		else
			snprintf(buf, len, "-");
	} else if (id == BA_MCOL_START) {
		v = r->aligned ? m->aligned.start : m->actual.start;
		snprintf(buf, len, "%" PRIu64, v / 512);
	} else if (id == BA_MCOL_REQUEST_SIZES) {
		sizes_cell(c, flags, buf, len);
	} else if (id == BA_MCOL_RAID_IOS_RATIO && !m->actual.raid_disks) {
		snprintf(buf, len, "-");
	} else {
		return ratio_cell(ratio_count(c, id),
				  ratio_count(&m->cost_aligned, id), buf, len);
	}
	return false;
}

/* RAID columns: 0 none, 1 member reads and writes, 2 and the
 * read-modify-writes at the members' drives (a live parity array). */
static int raid_cols(const struct blkalign_model *m)
{
	int level = m->actual.raid_level;

	if (!m->actual.raid_disks)
		return 0;
	return m->actual.raid_member_physical &&
			       (level == 4 || level == 5 || level == 6)
		       ? 2
		       : 1;
}

/* The models a table holds: @n of them from @m, on layers @names. */
struct span {
	const struct blkalign_model *const *m;
	const char *const *names;
	size_t n;
};

static int add_rows(struct ba_table *t, const struct span *s)
{
	char buf[256];

	for (size_t i = 0; i < s->n * 2; i++) {
		struct row r = {s->m[i / 2], s->names ? s->names[i / 2] : NULL,
				i % 2};
		struct libscols_line *ln = ba_table_line(t, NULL);

		if (!ln)
			return -ENOMEM;
		for (size_t k = 0; k < t->sel.n; k++) {
			int id = t->sel.id[k];
			bool worse = cell(&r, id, t->flags, buf, sizeof(buf));

			if (ba_table_set(t, ln, id, buf, worse ? YELLOW : NULL))
				return -ENOMEM;
		}
	}
	return 0;
}

/*
 * Whether default column @id is shown by default: LAYER only in -r and
 * -P (@alone), the RAID ones only for a RAID of @raid's kind (see
 * raid_cols).
 */
static bool default_shown(int id, bool alone, int raid)
{
	switch (id) {
	case BA_MCOL_LAYER:
		return alone;
	case BA_MCOL_RAID_READS:
	case BA_MCOL_RAID_WRITES:
	case BA_MCOL_RAID_IOS_RATIO:
		return raid >= 1;
	case BA_MCOL_RAID_MEMBER_RMW:
		return raid >= 2;
	}
	return true;
}

/*
 * The columns of @sel that @s shows: the default ones that fit it (the
 * list's own names, after "+", are all shown).
 */
static void pick(const struct span *s, const struct ba_colsel *sel,
		 const struct blkalign_text_opts *o, struct ba_colsel *out)
{
	const char *cols = o->columns;
	bool defaults = !cols || !cols[0] || cols[0] == '+';
	bool alone = o->flags & (BLKALIGN_TEXT_RAW | BLKALIGN_TEXT_PAIRS);
	size_t ndflt = 0;
	int raid = 0;

	for (size_t i = 0; i < BA_MCOL_COUNT; i++)
		ndflt += ba_model_columns[i].dflt;
	for (size_t i = 0; i < s->n; i++)
		if (raid_cols(s->m[i]) > raid)
			raid = raid_cols(s->m[i]);
	out->n = 0;
	for (size_t k = 0; k < sel->n; k++)
		if (!defaults || k >= ndflt ||
		    default_shown(sel->id[k], alone, raid))
			out->id[out->n++] = sel->id[k];
}

/* @t made and filled with the rows of @s; @split: see ba_table_split. */
static int fill(struct ba_table *t, const struct span *s,
		const struct ba_colsel *sel, const struct blkalign_text_opts *o,
		bool split)
{
	struct ba_colsel shown;
	int rc;

	pick(s, sel, o, &shown);
	rc = ba_table_init(t, ba_model_columns, &shown, o);
	if (rc)
		return rc;
	if (split)
		ba_table_split(t);
	return add_rows(t, s);
}

/* The table of @s on @out: 0, -ENOMEM or -EIO. */
static int print_table(const struct span *s, const struct ba_colsel *sel,
		       const struct blkalign_text_opts *o, FILE *out)
{
	struct ba_table t;
	int rc = fill(&t, s, sel, o, false);

	/* too wide for the width: the request sizes wrap after commas */
	if (!rc && o->width &&
	    !(o->flags & (BLKALIGN_TEXT_RAW | BLKALIGN_TEXT_PAIRS)) &&
	    ba_table_natural_width(&t) + 2 > o->width) {
		ba_table_free(&t);
		rc = fill(&t, s, sel, o, true);
	}
	if (!rc)
		rc = ba_table_print(&t, out, "  ");
	if (t.tb)
		ba_table_free(&t);
	return rc;
}

/* The prose above a layer's table: its layouts and the geometry. */
static void print_head(const char *name, const struct blkalign_model *m,
		       const struct blkalign_model_geometry *g, FILE *out)
{
	fprintf(out,
		"%s: start %" PRIu64 " (sector %" PRIu64 "), size %" PRIu64
		", soft block %u\n",
		name ? name : "layer", m->actual.start, m->actual.start / 512,
		m->actual.length, m->cost.soft_block_size);
	fprintf(out,
		"  aligned: start %" PRIu64 " (sector %" PRIu64
		"), size %" PRIu64 ", soft block %u\n",
		m->aligned.start, m->aligned.start / 512, m->aligned.length,
		m->cost_aligned.soft_block_size);
	fprintf(out,
		"  kernel %s; logical %u, physical %u, alignment offset "
		"%u; %u segments of %u, %u KiB per request, virt boundary "
		"%#" PRIx64 ", page %u, readahead %u KiB",
		blkalign_kernel_name(m->kernel), g->logical_sector_size,
		g->physical_sector_size, g->alignment_offset, g->max_segments,
		g->max_segment_size, g->max_sectors_kb, g->virt_boundary_mask,
		g->page_size, g->read_ahead_kb);
	if (m->actual.raid_disks)
		fprintf(out, "; md raid%d, %u disks, chunk %" PRIu64,
			m->actual.raid_level, m->actual.raid_disks,
			m->actual.raid_chunk);
	if (raid_cols(m) > 1)
		fprintf(out, ", %u of them with data off their %u-byte sectors",
			m->actual.raid_members_misaligned,
			m->actual.raid_member_physical);
	fputs("\n\n", out);
}

/**
 * blkalign_model_write_text: the models of one run as text on @out: per
 * layer (the models of a layer follow each other in @models, their
 * layer named by @layer_names, or NULL), its actual and aligned layouts
 * and geometry @g in prose, then a table of its workloads, a row per
 * workload and layout.  @o: the flags (BLKALIGN_TEXT_*), the columns of
 * BLKALIGN_TEXT_TABLE_MODEL, the width.  With BLKALIGN_TEXT_RAW or
 * _PAIRS, one table of every layer alone (the LAYER column by default).
 * Returns: 0, -EINVAL (a missing argument or a bad column list),
 * -ENOMEM or -EIO.
 */
int blkalign_model_write_text(const struct blkalign_model_geometry *g,
			      const char *const *layer_names,
			      const struct blkalign_model *const *models,
			      size_t nmodels, FILE *out,
			      const struct blkalign_text_opts *o)
{
	struct blkalign_text_opts opts;
	struct blkalign_model_geometry geom;
	struct ba_colsel sel;
	int rc = 0;

	if (!g || ba_model_geometry_in(&geom, g) || (!models && nmodels) ||
	    !out || ba_text_opts_get(BLKALIGN_TEXT_TABLE_MODEL, o, &opts))
		return -EINVAL;
	if (ba_columns_select(ba_model_columns, BA_MCOL_COUNT, opts.columns,
			      &sel, NULL, NULL))
		return -EINVAL;
	if (opts.flags & (BLKALIGN_TEXT_RAW | BLKALIGN_TEXT_PAIRS)) {
		struct span s = {models, layer_names, nmodels};

		rc = nmodels ? print_table(&s, &sel, &opts, out) : 0;
		return rc ? rc : ferror(out) ? -EIO : 0;
	}
	for (size_t i = 0, k; i < nmodels && !rc; i = k) {
		const char *name = layer_names ? layer_names[i] : NULL;
		struct span s = {models + i,
				 layer_names ? layer_names + i : NULL, 0};

		/* the layer's models: those named as its first */
		for (k = i + 1; k < nmodels && layer_names &&
				layer_names[k] == layer_names[i];
		     k++)
			;
		s.n = k - i;
		if (i)
			fputc('\n', out);
		print_head(name, models[i], &geom, out);
		rc = print_table(&s, &sel, &opts, out);
	}
	return rc ? rc : ferror(out) ? -EIO : 0;
}
