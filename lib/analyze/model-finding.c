/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * model-finding.c - the model applied to what `check` found: the model's
 * geometry and layer from an audited device, and the one-line cost of a
 * finding on the standard workloads (docs/model.md).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"

static uint32_t u32(const struct blkalign_value *v)
{
	if (v->source == BLKALIGN_SRC_NONE || v->value <= 0 ||
	    v->value > UINT32_MAX)
		return 0;
	return (uint32_t)v->value;
}

/**
 * blkalign_model_geometry_from_device: the model's geometry from the
 * topology of an audited device (read_ahead_kb included: the audit
 * keeps it), nothing read, into @out (its size set by the caller).
 * Returns: 0 or -EINVAL.
 */
int blkalign_model_geometry_from_device(const struct blkalign_device *d,
					struct blkalign_model_geometry *out)
{
	struct blkalign_model_geometry full, *g = &full;
	const struct blkalign_topology *t;

	if (!d || ba_model_geometry_in(&full, out))
		return -EINVAL;
	memset(g, 0, sizeof(*g));
	g->size = sizeof(*g);
	t = &d->topology;
	g->logical_sector_size = u32(&t->logical_sector_size);
	g->physical_sector_size = u32(&t->physical_sector_size);
	g->minimum_io_size = u32(&t->minimum_io_size);
	g->optimal_io_size = u32(&t->optimal_io_size);
	g->alignment_offset = u32(&t->alignment_offset);
	g->max_segments = u32(&t->max_segments);
	g->max_sectors_kb = u32(&t->max_sectors_kb);
	g->max_segment_size = u32(&t->max_segment_size);
	if (t->virt_boundary_mask.source != BLKALIGN_SRC_NONE &&
	    t->virt_boundary_mask.value > 0)
		g->virt_boundary_mask = (uint64_t)t->virt_boundary_mask.value;
	g->page_size = u32(&t->page_size);
	if (t->read_ahead_kb.source != BLKALIGN_SRC_NONE)
		g->read_ahead_kb = u32(&t->read_ahead_kb);
	blkalign_model_geometry_defaults(g);
	if (g->alignment_offset >= g->physical_sector_size)
		g->alignment_offset %= g->physical_sector_size;
	ba_model_geometry_out(out, g);
	return 0;
}

/**
 * blkalign_model_layer_from_device: layer @i of @d for the model; when
 * the device itself is an md array (layer 0 carries its geometry), the
 * layers on it get the RAID below them.
 * Returns: 0 or -EINVAL.
 */
int blkalign_model_layer_from_device(const struct blkalign_device *d, size_t i,
				     struct blkalign_model_layer *out)
{
	struct blkalign_model_layer full, *l = &full;
	const struct blkalign_layer *disk;

	if (!d || !out || i >= d->nlayers)
		return -EINVAL;
	memset(l, 0, sizeof(*l));
	l->size = sizeof(*l);
	l->start = d->layers[i].start;
	l->length = d->layers[i].size;
	disk = &d->layers[0];
	if (disk->raid_disks && disk->raid_chunk &&
	    (disk->raid_level == 0 || disk->raid_level == 1 ||
	     disk->raid_level == 4 || disk->raid_level == 5 ||
	     disk->raid_level == 6 || disk->raid_level == 10)) {
		l->raid_level = disk->raid_level;
		l->raid_disks = disk->raid_disks;
		l->raid_chunk = disk->raid_chunk;
		l->raid_member_physical = disk->raid_member_physical;
		l->raid_members_misaligned = disk->raid_members_misaligned;
	}
	return ba_model_sized_out(out, l, sizeof(*l), BA_MODEL_LAYER_SIZE0);
}

/* Data disks of the RAID levels the model knows (md-sysfs.c agrees). */
static uint64_t data_disks(const struct blkalign_model_layer *l)
{
	switch (l->raid_level) {
	case 1:
		return 1;
	case 4:
	case 5:
		return l->raid_disks - 1;
	case 6:
		return l->raid_disks - 2;
	case 10:
		return l->raid_disks / 2;
	}
	return l->raid_disks;
}

static int run(const struct blkalign_model_geometry *g,
	       const struct blkalign_model_layer *l, const char *preset,
	       uint64_t io_size, enum blkalign_kernel k, struct ba_model *out)
{
	struct blkalign_workload w = BLKALIGN_WORKLOAD_INIT;
	int rc = blkalign_workload_preset(preset, &w);

	if (rc)
		return rc;
	if (io_size)
		w.io_size = io_size;
	if (w.io_size > l->length)
		return -EINVAL;
	/* the cost of one period is enough for a per-I/O line */
	if (w.pattern == BLKALIGN_IO_RANDOM)
		w.total = 1024 * w.io_size;
	else if (!w.total || w.total > 256 * MIB)
		w.total = 256 * MIB;
	return ba_model_run(g, l, &w, k, out);
}

static double per(uint64_t n, uint64_t of)
{
	return of ? (double)n / (double)of : 0.0;
}

static int cost_soft_block(const struct blkalign_model_geometry *g,
			   const struct blkalign_model_layer *l, char *buf,
			   size_t len, double *ratio)
{
	struct ba_model run_now, run_old;
	const struct blkalign_model *m = &run_now.pub, *old = &run_old.pub;
	char a[32], b[32];
	int rc, n;

	rc = run(g, l, "seq-write-buffered", 0, BLKALIGN_KERNEL_CURRENT,
		 &run_now);
	if (rc)
		return rc;
	*ratio = blkalign_model_ratio(m->cost.requests,
				      m->cost_aligned.requests);
	n = snprintf(buf, len,
		     "buffered writes (mkfs, dd): %.1fx requests, at most %s "
		     "instead of %s; reads and direct I/O: no change",
		     blkalign_model_ratio(m->cost.requests,
					  m->cost_aligned.requests),
		     ba_size_str(m->cost.request_max, BLKALIGN_SIZE_WORDS, a,
				 sizeof(a)),
		     ba_size_str(m->cost_aligned.request_max,
				 BLKALIGN_SIZE_WORDS, b, sizeof(b)));
	if (g->virt_boundary_mask && n > 0 && (size_t)n < len &&
	    run(g, l, "seq-write-buffered", 0, BLKALIGN_KERNEL_PRE_4_11,
		&run_old) == 0)
		snprintf(buf + n, len - (size_t)n,
			 "; before Linux 4.11 (virt boundary): %.1fx",
			 blkalign_model_ratio(old->cost.requests,
					      old->cost_aligned.requests));
	return 0;
}

/* Starts off the physical sector grid: the drive's read-modify-writes. */
static int cost_physical(const struct blkalign_model_geometry *g,
			 const struct blkalign_model_layer *l, char *buf,
			 size_t len, double *ratio)
{
	struct ba_model rand, seq;
	const struct blkalign_model *r = &rand.pub, *s = &seq.pub;
	int rc;

	rc = run(g, l, "rand-write-4k", 0, BLKALIGN_KERNEL_CURRENT, &rand);
	if (!rc)
		rc = run(g, l, "seq-write-buffered", 0, BLKALIGN_KERNEL_CURRENT,
			 &seq);
	if (rc)
		return rc;
	*ratio = blkalign_model_ratio(r->cost.physical_sectors,
				      r->cost_aligned.physical_sectors);
	snprintf(buf, len,
		 "direct 4 KiB writes: %.1f read-modify-writes per write at "
		 "the drive, %.1fx physical sectors; sequential writes: %.1f "
		 "per request",
		 per(r->cost.rmw, r->cost.ios),
		 blkalign_model_ratio(r->cost.physical_sectors,
				      r->cost_aligned.physical_sectors),
		 per(s->cost.rmw, s->cost.requests));
	return 0;
}

/* A start off a RAID (or device) unit: writes of that unit straddle. */
static int cost_unit(const struct blkalign_model_geometry *g,
		     const struct blkalign_model_layer *l, uint64_t unit,
		     bool stripe, char *buf, size_t len, double *ratio)
{
	struct blkalign_model_layer ll = *l;
	struct ba_model run_unit;
	const struct blkalign_model *m = &run_unit.pub;
	char a[32];
	int rc;

	if (!unit)
		return -ENOENT;
	if (!ll.raid_disks) {
		/* a device advertising its units: count what is straddled */
		ll.raid_level = 0;
		ll.raid_disks = 2;
		ll.raid_chunk = unit;
	}
	rc = run(g, &ll, "rand-write-4k", unit, BLKALIGN_KERNEL_CURRENT,
		 &run_unit);
	if (rc)
		return rc;
	if (l->raid_disks && l->raid_level >= 4 && l->raid_level <= 6) {
		*ratio = blkalign_model_ratio(
			m->cost.raid_reads + m->cost.raid_writes,
			m->cost_aligned.raid_reads +
				m->cost_aligned.raid_writes);
		snprintf(buf, len,
			 "direct %s writes: %.1f member I/Os each (%.1f reads) "
			 "instead of %.1f: %.1fx",
			 ba_size_str(unit, BLKALIGN_SIZE_WORDS, a, sizeof(a)),
			 per(m->cost.raid_reads + m->cost.raid_writes,
			     m->cost.ios),
			 per(m->cost.raid_reads, m->cost.ios),
			 per(m->cost_aligned.raid_reads +
				     m->cost_aligned.raid_writes,
			     m->cost_aligned.ios),
			 blkalign_model_ratio(
				 m->cost.raid_reads + m->cost.raid_writes,
				 m->cost_aligned.raid_reads +
					 m->cost_aligned.raid_writes));
		return 0;
	}
	/* a write straddling two units is two I/Os below */
	*ratio = blkalign_model_ratio(
		m->cost.requests + m->cost.chunk_straddles,
		m->cost_aligned.requests + m->cost_aligned.chunk_straddles);
	snprintf(buf, len,
		 "direct %s writes: %.0f%% straddle two %s units of the "
		 "device below (%.0f%% when aligned)",
		 ba_size_str(unit, BLKALIGN_SIZE_WORDS, a, sizeof(a)),
		 100.0 * per(m->cost.chunk_straddles, m->cost.requests),
		 stripe ? "stripe" : "I/O",
		 100.0 * per(m->cost_aligned.chunk_straddles,
			     m->cost_aligned.requests));
	return 0;
}

/* A parity array whose members' data is off their drives' grid. */
static int cost_members(const struct blkalign_model_geometry *g,
			const struct blkalign_model_layer *l, char *buf,
			size_t len, double *ratio)
{
	struct ba_model rand;
	const struct blkalign_model *r = &rand.pub;
	int rc;

	if (!l->raid_members_misaligned)
		return -ENOENT;
	rc = run(g, l, "rand-write-4k", 0, BLKALIGN_KERNEL_CURRENT, &rand);
	if (rc)
		return rc;
	if (!r->cost.raid_member_rmw)
		return -ENOENT;
	/* the drives' operations: member reads and writes, and the
	 * read-modify-writes inside them */
	*ratio = blkalign_model_ratio(r->cost.raid_reads + r->cost.raid_writes +
					      r->cost.raid_member_rmw,
				      r->cost_aligned.raid_reads +
					      r->cost_aligned.raid_writes +
					      r->cost_aligned.raid_member_rmw);
	snprintf(buf, len,
		 "direct 4 KiB writes: %.1f read-modify-writes each at the "
		 "drives of the %u members off their %u-byte sectors; none "
		 "when aligned",
		 per(r->cost.raid_member_rmw, r->cost.ios),
		 l->raid_members_misaligned, l->raid_member_physical);
	return 0;
}

/*
 * The cost of finding @f of device @d: its line into @buf and, when the
 * model gives one figure for it, into *@ratio (else 0).
 */
static int finding_cost(const struct blkalign_device *d,
			const struct blkalign_finding *f, char *buf, size_t len,
			double *ratio)
{
	struct blkalign_model_geometry g = {.size = sizeof(g)};
	struct blkalign_model_layer l = BLKALIGN_MODEL_LAYER_INIT;
	const char *c;
	int rc;

	*ratio = 0.0;
	if (!d || !f || !buf || !len || f->layer < 0 ||
	    (size_t)f->layer >= d->nlayers || !f->code)
		return -EINVAL;
	buf[0] = '\0';
	rc = blkalign_model_geometry_from_device(d, &g);
	if (!rc)
		rc = blkalign_model_layer_from_device(d, (size_t)f->layer, &l);
	if (rc)
		return rc;
	if (!l.length)
		return -ENOENT;
	c = f->code;
	if (!strcmp(c, "soft-block-size"))
		return cost_soft_block(&g, &l, buf, len, ratio);
	if (!strcmp(c, "start-physical") && f->layer == 0 &&
	    d->layers[0].lower_device && f->granularity &&
	    f->granularity <= UINT32_MAX) {
		/* a dm device judged on the disk below (or a mirror's copy),
		 * whose own alignment_offset may be -1: the drive's grid is
		 * the finding's */
		g.physical_sector_size = (uint32_t)f->granularity;
		g.alignment_offset =
			(uint32_t)((f->granularity -
				    f->remainder % f->granularity) %
				   f->granularity);
		if (g.minimum_io_size < g.physical_sector_size)
			g.minimum_io_size = g.physical_sector_size;
	}
	if (!strcmp(c, "start-physical") || !strcmp(c, "lvm-pe-start") ||
	    !strcmp(c, "luks-payload") || !strcmp(c, "raid-data-offset"))
		return cost_physical(&g, &l, buf, len, ratio);
	if (!strcmp(c, "size-physical")) {
		snprintf(buf, len,
			 "writes to its last physical sector: 1 "
			 "read-modify-write each; elsewhere no change");
		return 0;
	}
	if (!strcmp(c, "start-io-min") || !strcmp(c, "raid-chunk"))
		return cost_unit(
			&g, &l, l.raid_disks ? l.raid_chunk : g.minimum_io_size,
			false, buf, len, ratio);
	if (!strcmp(c, "start-io-opt") || !strcmp(c, "raid-stripe"))
		return cost_unit(&g, &l,
				 l.raid_disks ? l.raid_chunk * data_disks(&l)
					      : g.optimal_io_size,
				 true, buf, len, ratio);
	if (!strcmp(c, "stack-misaligned"))
		return cost_members(&g, &l, buf, len, ratio);
	if (!strcmp(c, "start-mib")) {
		*ratio = 1.0;
		snprintf(buf, len,
			 "none on this device: the same requests and "
			 "no read-modify-write");
		return 0;
	}
	return -ENOENT;
}

/**
 * blkalign_finding_cost: one line saying what finding @f of device @d
 * costs on the standard workloads, from the model, e.g.
 * "buffered writes (mkfs, dd): 8.0x requests, at most 64 KiB instead of
 * 512 KiB; reads and direct I/O: no change".
 * Returns: 0, -ENOENT when the finding has no modelled cost (layout
 * errors, corrupt tables...), -EINVAL.
 */
int blkalign_finding_cost(const struct blkalign_device *d,
			  const struct blkalign_finding *f, char *buf,
			  size_t len)
{
	double ratio;

	return finding_cost(d, f, buf, len, &ratio);
}

/**
 * blkalign_finding_write_amplification: the figure of finding @f's cost
 * (blkalign_finding_cost) as a ratio, the layer as it is to the same
 * layer aligned, in what that cost counts: physical sectors written by
 * direct 4 KiB writes (start-physical, raid-data-offset, lvm-pe-start,
 * luks-payload); requests of buffered writes (soft-block-size); I/Os at
 * the device below, a write straddling two units counting two
 * (start-io-min, start-io-opt, raid-chunk, raid-stripe; member I/Os on a
 * parity array); the drives' operations (stack-misaligned); 1 for
 * start-mib (no cost on this device).
 * Returns: 0 with *@ratio set, -ENOENT when the model has no figure for
 * the finding (size-physical's one sector, layout errors...), -EINVAL.
 */
int blkalign_finding_write_amplification(const struct blkalign_device *d,
					 const struct blkalign_finding *f,
					 double *ratio)
{
	char line[256];
	double x;
	int rc;

	if (!ratio)
		return -EINVAL;
	rc = finding_cost(d, f, line, sizeof(line), &x);
	if (rc)
		return rc;
	/* 0: no finite ratio (nothing on the aligned layer) */
	if (!(x > 0.0))
		return -ENOENT;
	*ratio = x;
	return 0;
}
