/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * device.c - the record of one audited device: its layers, findings and
 * problems, and the string pool that owns their text; publishing it; the
 * names of its layers' kinds.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out/out.h"
#include "scan/scan.h"

/* The scan's states by name, in reports (scan.c, json.c, saved.c). */
const char *const ba_ebr_state_names[4] = {
	[BA_EBR_OK] = "ok",
	[BA_EBR_LOOP] = "loop",
	[BA_EBR_OUTSIDE] = "outside",
	[BA_EBR_BROKEN] = "broken",
};

const char *const ba_gpt_state_names[4] = {
	[BA_GPT_ABSENT] = "absent",
	[BA_GPT_OK] = "ok",
	[BA_GPT_BAD] = "corrupt",
	[BA_GPT_UNREADABLE] = "unreadable",
};

/* The topology's values by name, in the report's order (json.c, saved.c). */
const struct ba_topology_field ba_topology_fields[BA_TOPOLOGY_NFIELDS] = {
#define F(f)                                              \
	{                                                 \
#f, offsetof(struct blkalign_topology, f) \
	}
	F(logical_sector_size), F(physical_sector_size),
	F(minimum_io_size),	F(optimal_io_size),
	F(alignment_offset),	F(max_segments),
	F(max_sectors_kb),	F(max_segment_size),
	F(virt_boundary_mask),	F(rotational),
	F(page_size),		F(read_ahead_kb),
#undef F
};

static void *grow(void *v, size_t *cap, size_t need, size_t elem)
{
	size_t ncap;
	void *p;

	if (need <= *cap)
		return v;
	ncap = *cap ? *cap * 2 : 8;
	while (ncap < need)
		ncap *= 2;
	p = realloc(v, ncap * elem);
	if (!p)
		return NULL;
	memset((char *)p + *cap * elem, 0, (ncap - *cap) * elem);
	*cap = ncap;
	return p;
}

static const char *pool_take(struct ba_pool *p, char *s)
{
	char **v;

	if (!s)
		return NULL;
	v = grow(p->v, &p->cap, p->n + 1, sizeof(*p->v));
	if (!v) {
		free(s);
		return NULL;
	}
	p->v = v;
	p->v[p->n++] = s;
	return s;
}

/* A zeroed array of @n items of @size owned by @p; NULL when out of
 * memory. */
void *ba_pool_calloc(struct ba_pool *p, size_t n, size_t size)
{
	return (void *)pool_take(p, calloc(n ? n : 1, size ? size : 1));
}

const char *ba_pool_strdup(struct ba_pool *p, const char *s)
{
	return s ? pool_take(p, strdup(s)) : NULL;
}

const char *ba_pool_printf(struct ba_pool *p, const char *fmt, ...)
{
	char *s = NULL;
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vasprintf(&s, fmt, ap);
	va_end(ap);
	return rc < 0 ? NULL : pool_take(p, s);
}

void ba_pool_release(struct ba_pool *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i]);
	free(p->v);
	memset(p, 0, sizeof(*p));
}

/* Returns a zeroed layer with parent -1, or NULL when out of memory. */
struct blkalign_layer *ba_device_add_layer(struct ba_device *d)
{
	struct blkalign_layer *v, *l;

	v = grow(d->layers, &d->layers_cap, d->nlayers + 1, sizeof(*v));
	if (!v)
		return NULL;
	d->layers = v;
	l = &d->layers[d->nlayers++];
	l->parent = -1;
	return l;
}

struct ba_finding *ba_device_add_finding(struct ba_device *d, enum ba_code code,
					 enum blkalign_severity sev, int layer)
{
	const struct blkalign_code *row = ba_code_row(code);
	struct ba_finding *v, *f;

	/* An unknown code is a bug: refuse it so that tests notice. */
	if (!row || !row->code)
		return NULL;
	v = grow(d->findings, &d->findings_cap, d->nfindings + 1, sizeof(*v));
	if (!v) {
		d->findings_lost++;
		return NULL;
	}
	d->findings = v;
	f = &d->findings[d->nfindings++];
	f->code = code;
	f->pub.code = row->code;
	f->pub.severity = sev;
	f->pub.layer = layer;
	f->other = -1;
	return f;
}

void ba_device_problem(struct ba_device *d, const char *fmt, ...)
{
	const char **v;
	char *s = NULL;
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (rc < 0)
		return;
	v = grow(d->problems, &d->problems_cap, d->nproblems + 1, sizeof(*v));
	if (!v || !pool_take(&d->pool, s)) {
		if (!v)
			free(s);
		return;
	}
	d->problems = v;
	d->problems[d->nproblems++] = s;
}

/* Worst first, then by layer. */
static int finding_order(const struct ba_finding *x, const struct ba_finding *y)
{
	if (x->pub.severity != y->pub.severity)
		return x->pub.severity > y->pub.severity ? -1 : 1;
	if (x->pub.layer != y->pub.layer)
		return x->pub.layer < y->pub.layer ? -1 : 1;
	return 0;
}

/* finding_order, then the rules' order (the index) */
static int by_order_index(const void *a, const void *b, void *findings)
{
	const struct ba_finding *f = findings;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int c = finding_order(&f[i], &f[j]);

	return c ? c : i < j ? -1 : i > j;
}

/*
 * The published order of the findings: worst first, then by layer,
 * keeping the rules' order otherwise.  A sort of their indices (n log n:
 * a table of thousands of partitions has thousands of findings); without
 * memory for it, an insertion sort in place (stable) and the identity.
 */
static size_t *finding_ranks(struct ba_device *d)
{
	size_t n = d->nfindings, *ix = malloc((n ? n : 1) * sizeof(*ix));

	if (ix) {
		for (size_t i = 0; i < n; i++)
			ix[i] = i;
		qsort_r(ix, n, sizeof(*ix), by_order_index, d->findings);
		return ix;
	}
	for (size_t i = 1; i < n; i++) {
		struct ba_finding f = d->findings[i];
		size_t j = i;

		while (j > 0 && finding_order(&d->findings[j - 1], &f) > 0) {
			d->findings[j] = d->findings[j - 1];
			j--;
		}
		d->findings[j] = f;
	}
	return NULL;
}

/*
 * Publish the record: the findings sorted and their texts rendered from
 * the message table (a finding that cannot be rendered is counted lost),
 * the arrays exposed through pub.
 */
void ba_device_publish(struct ba_device *d)
{
	size_t n = d->nfindings, *ix = finding_ranks(d), k = 0;
	struct blkalign_finding *out;

	free(d->published);
	d->published = out = calloc(n ? n : 1, sizeof(*out));
	for (size_t i = 0; out && i < n; i++)
		if (!ba_finding_render(d, &d->findings[ix ? ix[i] : i],
				       &out[k]))
			k++;
	if (!out)
		k = 0;
	d->findings_unrendered = n - k;
	free(ix);
	d->pub.layers = d->layers;
	d->pub.nlayers = d->nlayers;
	d->pub.findings = out;
	d->pub.nfindings = k;
	d->pub.problems = d->problems;
	d->pub.nproblems = d->nproblems;
}

/**
 * ba_device_add_marker: record that layer @layer starts with the fix
 * marker @m (the rules judge it).  Returns: 0 or -ENOMEM.
 */
int ba_device_add_marker(struct ba_device *d, int layer,
			 const struct ba_fix_marker *m)
{
	struct ba_marker *v =
		realloc(d->markers, (d->nmarkers + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	d->markers = v;
	v[d->nmarkers].layer = layer;
	v[d->nmarkers++].m = *m;
	return 0;
}

void ba_device_release(struct ba_device *d)
{
	free(d->dos);
	free(d->gpt);
	free(d->markers);
	free(d->layers);
	free(d->findings);
	free(d->published);
	free(d->problems);
	ba_pool_release(&d->pool);
	memset(d, 0, sizeof(*d));
}

static int by_parent_start(const void *a, const void *b, void *layers)
{
	const struct blkalign_layer *l = layers;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;

	if (l[i].parent != l[j].parent)
		return l[i].parent < l[j].parent ? -1 : 1;
	if (l[i].start != l[j].start)
		return l[i].start < l[j].start ? -1 : 1;
	return i < j ? -1 : 1;
}

/**
 * ba_layers_by_parent_start: sort the layer indices @ix[0..n) by parent,
 * then start, then index: siblings side by side, in order.
 */
void ba_layers_by_parent_start(const struct blkalign_layer *layers, size_t *ix,
			       size_t n)
{
	qsort_r(ix, n, sizeof(*ix), by_parent_start, (void *)layers);
}

const char *blkalign_layer_kind_name(enum blkalign_layer_kind k)
{
	switch (k) {
	case BLKALIGN_LAYER_DISK:
		return "disk";
	case BLKALIGN_LAYER_PARTITION:
		return "partition";
	case BLKALIGN_LAYER_BSD:
		return "bsd";
	case BLKALIGN_LAYER_MD:
		return "md";
	case BLKALIGN_LAYER_LVM:
		return "lvm";
	case BLKALIGN_LAYER_LUKS:
		return "luks";
	case BLKALIGN_LAYER_FILESYSTEM:
		return "filesystem";
	case BLKALIGN_LAYER_ZFS:
		return "zfs";
	case BLKALIGN_LAYER_TABLE:
		return "table";
	}
	return "unknown";
}
