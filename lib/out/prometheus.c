/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * prometheus.c - check's findings as metrics for node_exporter's textfile
 * collector, in the Prometheus text exposition format
 * (https://prometheus.io/docs/instrumenting/exposition_formats/): each
 * metric's HELP and TYPE once, then all its series; base units; no
 * timestamps (the collector refuses a whole file with one: the run's time
 * is a value, blkalign_last_run_timestamp_seconds).  A run streams its
 * devices and frees each one once written, so the series are gathered
 * per metric as the devices come (blkalign_prometheus_add) and written
 * at the end.  docs/output.md ("Prometheus") lists the metrics and the
 * values their labels take.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blkalignP.h"

enum metric {
	M_INCOMPLETE,
	M_FINDING,
	M_MISALIGNMENT,
	M_SOFT_BLOCK,
	M_AMPLIFICATION,
	NMETRICS
};

/* The metrics with series per device, in the order written. */
static const struct {
	const char *name, *help;
} metrics[NMETRICS] = {
	[M_INCOMPLETE] = {"blkalign_audit_incomplete",
			  "1 when something of the device could not be read "
			  "(or it could not be opened), else 0."},
	[M_FINDING] = {"blkalign_finding",
		       "Findings of a code and severity on a layer (1 per "
		       "finding); blkalign check --list-codes lists the "
		       "codes."},
	[M_MISALIGNMENT] = {"blkalign_misalignment_bytes",
			    "How far the layer's start is past the last "
			    "boundary of the grid, in bytes."},
	[M_SOFT_BLOCK] = {"blkalign_soft_block_size_bytes",
			  "The soft block size the kernel gives the layer "
			  "(the largest power of two up to the page size "
			  "that divides its size), in bytes."},
	[M_AMPLIFICATION] = {"blkalign_predicted_write_amplification_ratio",
			     "The model's ratio of the work writes cost on "
			     "the layer as it is to the same layer aligned, "
			     "per finding (docs/model.md)."},
};

struct blkalign_prometheus {
	struct {
		FILE *f; /* open_memstream of buf */
		char *buf;
		size_t len;
	} m[NMETRICS];
	char **devices; /* the device labels written, not to repeat them */
	size_t ndevices, cap;
	uint64_t audited;
	double time; /* blkalign_last_run_timestamp_seconds; < 0: unset */
	int error;   /* the first -errno, sticky */
};

/**
 * blkalign_prometheus_new: an empty set of metrics for one run.
 * Returns: it, to free with blkalign_prometheus_free, or NULL (no memory).
 */
struct blkalign_prometheus *blkalign_prometheus_new(void)
{
	struct blkalign_prometheus *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->time = -1;
	for (int i = 0; i < NMETRICS; i++) {
		p->m[i].f = open_memstream(&p->m[i].buf, &p->m[i].len);
		if (!p->m[i].f) {
			blkalign_prometheus_free(p);
			return NULL;
		}
	}
	return p;
}

void blkalign_prometheus_free(struct blkalign_prometheus *p)
{
	if (!p)
		return;
	for (int i = 0; i < NMETRICS; i++) {
		if (p->m[i].f)
			fclose(p->m[i].f);
		free(p->m[i].buf);
	}
	for (size_t i = 0; i < p->ndevices; i++)
		free(p->devices[i]);
	free(p->devices);
	free(p);
}

/**
 * blkalign_prometheus_set_time: the run's time, in seconds since the
 * epoch (blkalign_last_run_timestamp_seconds); unset, the time of
 * blkalign_prometheus_write.
 */
void blkalign_prometheus_set_time(struct blkalign_prometheus *p, double seconds)
{
	if (p && seconds >= 0)
		p->time = seconds;
}

/* A label value, escaped as the format wants: \\, \" and \n. */
static void put_value(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', f);
		if (*s == '\n') {
			fputs("\\n", f);
			continue;
		}
		fputc(*s, f);
	}
	fputc('"', f);
}

/*
 * One series: @name{labels} value.  @labels: name, value pairs ended by
 * NULL.  A double is printed with a dot whatever the locale.
 */
static void series(FILE *f, const char *name, const char *const *labels,
		   const char *value)
{
	fputs(name, f);
	for (size_t i = 0; labels[i]; i += 2) {
		fprintf(f, "%s%s=", i ? "," : "{", labels[i]);
		put_value(f, labels[i + 1]);
	}
	if (labels[0])
		fputc('}', f);
	fprintf(f, " %s\n", value);
}

static const char *num(char *buf, size_t len, double x)
{
	snprintf(buf, len, "%.6g", x);
	for (char *c = buf; *c; c++)
		if (*c == ',')
			*c = '.';
	return buf;
}

static const char *u64(char *buf, size_t len, uint64_t x)
{
	snprintf(buf, len, "%" PRIu64, x);
	return buf;
}

/*
 * The grid a start finding's remainder is measured against, as the
 * label says it; NULL: the finding is no start off a grid.
 */
static const char *grid_of(const char *code)
{
	static const char *const grids[][2] = {
		{"start-physical", "physical_sector"},
		{"raid-data-offset", "physical_sector"},
		{"lvm-pe-start", "physical_sector"},
		{"luks-payload", "physical_sector"},
		{"fs-data-start", "physical_sector"},
		{"start-io-min", "minimum_io"},
		{"start-io-opt", "optimal_io"},
		{"start-mib", "1mib"},
		{"start-4k", "4k"},
		{"raid-chunk", "chunk"},
		{"raid-stripe", "stripe"},
		{"image-cluster-offset", "cluster"},
	};

	for (size_t i = 0; i < sizeof(grids) / sizeof(grids[0]); i++)
		if (!strcmp(code, grids[i][0]))
			return grids[i][1];
	return NULL;
}

/* Has an earlier finding of @d (before @k) the same @code on @layer
 * (and, @sev >= 0, severity)? */
static bool seen(const struct blkalign_device *d, size_t k, const char *code,
		 int layer, int sev)
{
	for (size_t j = 0; j < k; j++) {
		const struct blkalign_finding *e = &d->findings[j];

		if (e->layer == layer && !strcmp(e->code, code) &&
		    (sev < 0 || (int)e->severity == sev))
			return true;
	}
	return false;
}

/* Is a grid of @d's finding @k already said for its layer? */
static bool grid_seen(const struct blkalign_device *d, size_t k,
		      const char *grid)
{
	const struct blkalign_finding *f = &d->findings[k];

	for (size_t j = 0; j < k; j++) {
		const char *g = grid_of(d->findings[j].code);

		if (d->findings[j].layer == f->layer && g && !strcmp(g, grid) &&
		    d->findings[j].remainder)
			return true;
	}
	return false;
}

static const char *layer_name(const struct blkalign_device *d, int i)
{
	if (i < 0 || (size_t)i >= d->nlayers || !d->layers[i].name)
		return d->name ? d->name : "";
	return d->layers[i].name;
}

static void add_findings(struct blkalign_prometheus *p, const char *dev,
			 const struct blkalign_device *d)
{
	char v[64];

	for (size_t k = 0; k < d->nfindings; k++) {
		const struct blkalign_finding *f = &d->findings[k];
		const char *layer = layer_name(d, f->layer);
		const char *sev = blkalign_severity_name(f->severity);
		const char *grid = grid_of(f->code);
		const char *fl[] = {"device",	dev,	"layer",
				    layer,	"code", f->code,
				    "severity", sev,	NULL};
		const char *gl[] = {"device", dev,  "layer", layer,
				    "grid",   grid, NULL};
		const char *al[] = {"device", dev,     "layer", layer,
				    "code",   f->code, NULL};
		size_t n = 0;
		double ratio;

		/* one series per label set: a second finding counts */
		if (seen(d, k, f->code, f->layer, (int)f->severity))
			continue;
		for (size_t j = k; j < d->nfindings; j++)
			if (d->findings[j].layer == f->layer &&
			    d->findings[j].severity == f->severity &&
			    !strcmp(d->findings[j].code, f->code))
				n++;
		series(p->m[M_FINDING].f, metrics[M_FINDING].name, fl,
		       u64(v, sizeof(v), n));
		if (seen(d, k, f->code, f->layer, -1))
			continue;
		if (grid && f->remainder && !grid_seen(d, k, grid))
			series(p->m[M_MISALIGNMENT].f,
			       metrics[M_MISALIGNMENT].name, gl,
			       u64(v, sizeof(v), f->remainder));
		if (!blkalign_finding_write_amplification(d, f, &ratio))
			series(p->m[M_AMPLIFICATION].f,
			       metrics[M_AMPLIFICATION].name, al,
			       num(v, sizeof(v), ratio));
	}
}

static void add_layers(struct blkalign_prometheus *p, const char *dev,
		       const struct blkalign_device *d)
{
	char v[32];

	for (size_t i = 0; i < d->nlayers; i++) {
		const struct blkalign_layer *l = &d->layers[i];
		const char *ll[] = {"device", dev, "layer", l->name, NULL};
		bool again = false;

		if (!l->soft_block_size || !l->name)
			continue;
		for (size_t j = 0; j < i && !again; j++)
			again = d->layers[j].name &&
				!strcmp(d->layers[j].name, l->name);
		if (!again)
			series(p->m[M_SOFT_BLOCK].f, metrics[M_SOFT_BLOCK].name,
			       ll, u64(v, sizeof(v), l->soft_block_size));
	}
}

/* Remember @dev as written: 1 when it was already, 0, -ENOMEM. */
static int remember(struct blkalign_prometheus *p, const char *dev)
{
	for (size_t i = 0; i < p->ndevices; i++)
		if (!strcmp(p->devices[i], dev))
			return 1;
	if (p->ndevices == p->cap) {
		size_t ncap = p->cap ? p->cap * 2 : 16;
		char **v = realloc(p->devices, ncap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		p->devices = v;
		p->cap = ncap;
	}
	p->devices[p->ndevices] = strdup(dev);
	if (!p->devices[p->ndevices])
		return -ENOMEM;
	p->ndevices++;
	return 0;
}

/**
 * blkalign_prometheus_add: the series of the devices @r holds now (call
 * it before blkalign_report_clear).  A device whose label (its path, as
 * check prints it) was added before is left out: a series is said once.
 * Returns: 0, -EINVAL or -ENOMEM.
 */
int blkalign_prometheus_add(struct blkalign_prometheus *p,
			    const struct blkalign_report *r)
{
	if (!p || !r)
		return -EINVAL;
	for (size_t i = 0; i < blkalign_report_ndevices(r) && !p->error; i++) {
		const struct blkalign_device *d = blkalign_report_device(r, i);
		const char *dev = d->path ? d->path : d->name;
		const char *il[] = {"device", dev, NULL};
		int rc;

		if (!dev)
			continue;
		rc = remember(p, dev);
		if (rc < 0)
			p->error = rc;
		if (rc)
			continue;
		p->audited++;
		series(p->m[M_INCOMPLETE].f, metrics[M_INCOMPLETE].name, il,
		       d->failed || d->nproblems ? "1" : "0");
		add_findings(p, dev, d);
		add_layers(p, dev, d);
	}
	for (int i = 0; i < NMETRICS; i++)
		if (ferror(p->m[i].f) && !p->error)
			p->error = -ENOMEM;
	return p->error;
}

static void head(FILE *out, const char *name, const char *help)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

/**
 * blkalign_prometheus_write: the metrics gathered, as one text exposition
 * (what node_exporter's textfile collector reads from a *.prom file).
 * Returns: 0, -EINVAL, -ENOMEM (a series could not be kept) or -EIO.
 */
int blkalign_prometheus_write(struct blkalign_prometheus *p, FILE *out)
{
	const char *none[] = {NULL};
	const char *vl[] = {"version", BLKALIGN_VERSION, NULL};
	double t = p ? p->time : 0;
	char v[64];

	if (!p || !out)
		return -EINVAL;
	if (p->error)
		return p->error;
	for (int i = 0; i < NMETRICS; i++)
		if (fflush(p->m[i].f))
			return -ENOMEM;
	if (t < 0) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		t = (double)ts.tv_sec;
	}
	head(out, "blkalign_info", "The blkalign that wrote these metrics.");
	series(out, "blkalign_info", vl, "1");
	head(out, "blkalign_last_run_timestamp_seconds",
	     "When the audit ran, in seconds since the epoch.");
	series(out, "blkalign_last_run_timestamp_seconds", none,
	       u64(v, sizeof(v), (uint64_t)t));
	head(out, "blkalign_devices_audited",
	     "Devices and images the run audited.");
	series(out, "blkalign_devices_audited", none,
	       u64(v, sizeof(v), p->audited));
	for (int i = 0; i < NMETRICS; i++) {
		head(out, metrics[i].name, metrics[i].help);
		if (p->m[i].len &&
		    fwrite(p->m[i].buf, 1, p->m[i].len, out) != p->m[i].len)
			return -EIO;
	}
	return ferror(out) ? -EIO : 0;
}

/**
 * blkalign_report_write_prometheus: the metrics of the devices @r holds,
 * at once (blkalign_prometheus_new, _add, _write).
 * Returns: 0, -EINVAL, -ENOMEM or -EIO.
 */
int blkalign_report_write_prometheus(const struct blkalign_report *r, FILE *out)
{
	struct blkalign_prometheus *p;
	int rc;

	if (!r || !out)
		return -EINVAL;
	p = blkalign_prometheus_new();
	if (!p)
		return -ENOMEM;
	rc = blkalign_prometheus_add(p, r);
	if (!rc)
		rc = blkalign_prometheus_write(p, out);
	blkalign_prometheus_free(p);
	return rc;
}
